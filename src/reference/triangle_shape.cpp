#include "rxmesh/reference/triangle_shape.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace rxmesh::reference {
namespace {

P3 at(const EditableMesh& m, std::uint32_t v)
{
    return {m.position(v)[0], m.position(v)[1], m.position(v)[2]};
}

//! Face t (corners p) made again with the corners in `moved` at x.
void add_face(FanShape& s, const Triangle& t, const P3 (&p)[3], std::uint32_t a, std::uint32_t b,
              const P3& x)
{
    P3 q[3] = {p[0], p[1], p[2]};
    for (int k = 0; k < 3; ++k)
        if (t[k] == a || t[k] == b) q[k] = x;
    const P3 n0 = area_vector(p[0], p[1], p[2]), n1 = area_vector(q[0], q[1], q[2]);
    s.folds     = s.folds || !(dot3(n1, n1) > 0) || !(dot3(n0, n1) > 0);
    s.after     = std::max(s.after, smallest_angle_cosine(q[0], q[1], q[2]));
}

}  // namespace

double smallest_angle_cosine(const P3& p, const P3& q, const P3& r)
{
    const P3 corner[3] = {p, q, r};
    double   largest   = -1;
    for (int k = 0; k < 3; ++k) {
        const P3     u  = minus3(corner[(k + 1) % 3], corner[k]);
        const P3     w  = minus3(corner[(k + 2) % 3], corner[k]);
        const double lu = std::sqrt(dot3(u, u)), lw = std::sqrt(dot3(w, w));
        if (!(lu > 0 && lw > 0)) return 1;
        largest = std::max(largest, dot3(u, w) / (lu * lw));
    }
    return std::min(largest, 1.0);
}

AngleGuard::AngleGuard(double degrees)
    : cos_limit(degrees > 0 ? std::cos(degrees * M_PI / 180) : 2)
{
}

FanShape collapse_shape(const EditableMesh& m, std::uint32_t a, std::uint32_t b, const P3& x)
{
    std::set<std::uint32_t> faces;
    for (std::uint32_t v : {a, b})
        for (std::uint32_t f : m.vertex_faces(v)) faces.insert(f);
    FanShape s;
    for (std::uint32_t f : faces) {
        const Triangle& t    = m.face(f);
        const P3        p[3] = {at(m, t[0]), at(m, t[1]), at(m, t[2])};
        s.before             = std::max(s.before, smallest_angle_cosine(p[0], p[1], p[2]));
        const P3     n       = area_vector(p[0], p[1], p[2]);
        const double twice   = std::sqrt(dot3(n, n));
        if (twice > 0) {
            const double d = dot3(n, minus3(x, p[0])) / twice;
            s.error += 0.5 * twice * d * d;
        }
        int ends = 0;
        for (std::uint32_t v : t) ends += v == a || v == b;
        if (ends < 2) add_face(s, t, p, a, b, x);  // the edge's own faces go
    }
    return s;
}

FanShape move_shape(const EditableMesh& m, std::uint32_t v, const P3& x)
{
    const auto faces = m.vertex_faces(v);
    P3         up    = {0, 0, 0};  // the fan's area vector before
    for (std::uint32_t f : faces) {
        const Triangle& t = m.face(f);
        const P3        n = area_vector(at(m, t[0]), at(m, t[1]), at(m, t[2]));
        for (int d = 0; d < 3; ++d) up[d] += n[d];
    }
    FanShape s;
    for (std::uint32_t f : faces) {
        const Triangle& t    = m.face(f);
        const P3        p[3] = {at(m, t[0]), at(m, t[1]), at(m, t[2])};
        P3              q[3] = {p[0], p[1], p[2]};
        for (int k = 0; k < 3; ++k)
            if (t[k] == v) q[k] = x;
        const P3 n0 = area_vector(p[0], p[1], p[2]), n1 = area_vector(q[0], q[1], q[2]);
        s.folds = s.folds || !(dot3(n1, n1) > 0) || (!(dot3(n1, up) > 0) && dot3(n0, up) > 0);
        s.before = std::max(s.before, smallest_angle_cosine(p[0], p[1], p[2]));
        s.after  = std::max(s.after, smallest_angle_cosine(q[0], q[1], q[2]));
    }
    return s;
}

}  // namespace rxmesh::reference
