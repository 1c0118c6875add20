#include "rxmesh/reference/qem_simplify.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/reference/editable_mesh.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/reference/triangle_shape.h"

namespace rxmesh::reference {

using P3 = std::array<double, 3>;

Quadric Quadric::plane(const P3& n, double d, double weight)
{
    Quadric q;
    q.a = {weight * n[0] * n[0], weight * n[0] * n[1], weight * n[0] * n[2],
           weight * n[1] * n[1], weight * n[1] * n[2], weight * n[2] * n[2]};
    q.b = {weight * d * n[0], weight * d * n[1], weight * d * n[2]};
    q.c = weight * d * d;
    return q;
}

Quadric& Quadric::operator+=(const Quadric& o)
{
    for (int i = 0; i < 6; ++i) a[i] += o.a[i];
    for (int i = 0; i < 3; ++i) b[i] += o.b[i];
    c += o.c;
    return *this;
}

double Quadric::evaluate(const P3& p) const
{
    const double ax = a[0] * p[0] + a[1] * p[1] + a[2] * p[2];
    const double ay = a[1] * p[0] + a[3] * p[1] + a[4] * p[2];
    const double az = a[2] * p[0] + a[4] * p[1] + a[5] * p[2];
    return p[0] * ax + p[1] * ay + p[2] * az + 2 * (b[0] * p[0] + b[1] * p[1] + b[2] * p[2]) + c;
}

// A p = -b by the adjugate of the symmetric A.
bool Quadric::optimum(P3* p) const
{
    const double c00 = a[3] * a[5] - a[4] * a[4], c01 = a[2] * a[4] - a[1] * a[5],
                 c02 = a[1] * a[4] - a[2] * a[3], c11 = a[0] * a[5] - a[2] * a[2],
                 c12 = a[1] * a[2] - a[0] * a[4], c22 = a[0] * a[3] - a[1] * a[1];
    const double det   = a[0] * c00 + a[1] * c01 + a[2] * c02;
    const double scale = std::max({std::abs(a[0]), std::abs(a[3]), std::abs(a[5])});
    if (!(std::abs(det) > 1e-9 * scale * scale * scale)) return false;
    *p = {-(c00 * b[0] + c01 * b[1] + c02 * b[2]) / det,
          -(c01 * b[0] + c11 * b[1] + c12 * b[2]) / det,
          -(c02 * b[0] + c12 * b[1] + c22 * b[2]) / det};
    return std::isfinite((*p)[0]) && std::isfinite((*p)[1]) && std::isfinite((*p)[2]);
}

namespace {

P3     at(const EditableMesh& m, std::uint32_t v) { return {m.position(v)[0], m.position(v)[1], m.position(v)[2]}; }
P3     sub(const P3& a, const P3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
P3     cross(const P3& u, const P3& w)
{
    return {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
}
double dot(const P3& a, const P3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
P3     unit(const P3& v)
{
    const double l = std::sqrt(dot(v, v));
    return l > 0 ? P3{v[0] / l, v[1] / l, v[2] / l} : P3{0, 0, 0};
}

std::vector<Quadric> initial_quadrics(const EditableMesh& m, double boundary_weight)
{
    std::vector<Quadric>                                      q(m.num_vertex_slots());
    std::map<std::pair<std::uint32_t, std::uint32_t>, int>    uses;
    for (std::uint32_t f = 0; f < m.num_face_slots(); ++f)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t u = m.face(f)[k], v = m.face(f)[(k + 1) % 3];
            ++uses[{std::min(u, v), std::max(u, v)}];
        }
    for (std::uint32_t f = 0; f < m.num_face_slots(); ++f) {
        const Triangle& t = m.face(f);
        const P3 p0 = at(m, t[0]), p1 = at(m, t[1]), p2 = at(m, t[2]);
        const P3 n  = cross(sub(p1, p0), sub(p2, p0));
        const P3 un = unit(n);
        const double area = std::sqrt(dot(n, n)) / 2;
        if (area > 0)
            for (std::uint32_t v : t) q[v] += Quadric::plane(un, -dot(un, p0), area);
        for (int k = 0; k < 3; ++k) {  // boundary edges: a plane across the face
            const std::uint32_t u = t[k], v = t[(k + 1) % 3];
            if (uses[{std::min(u, v), std::max(u, v)}] != 1) continue;
            const P3 e = sub(at(m, v), at(m, u)), side = unit(cross(e, un));
            const Quadric b = Quadric::plane(side, -dot(side, at(m, u)), boundary_weight * dot(e, e));
            q[u] += b;
            q[v] += b;
        }
    }
    return q;
}

struct Candidate
{
    double        priority;  // the cost plus the shape tie-break
    double        cost;
    std::uint32_t a, b;
    P3            position;
    std::uint64_t stamp_a, stamp_b;
    bool operator>(const Candidate& o) const
    {
        return std::tie(priority, a, b) > std::tie(o.priority, o.a, o.b);
    }
};

Candidate candidate(const EditableMesh& m, const std::vector<Quadric>& q,
                    const std::vector<std::uint64_t>& stamp, std::uint32_t a, std::uint32_t b,
                    double shape_weight)
{
    Quadric s = q[a];
    s += q[b];
    Candidate c{0, 0, a, b, {0, 0, 0}, stamp[a], stamp[b]};
    if (s.optimum(&c.position)) {
        c.cost = s.evaluate(c.position);
    } else {
        const P3 pa = at(m, a), pb = at(m, b);
        const P3 mid = {(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2};
        c.cost       = INFINITY;
        for (const P3& p : {pa, pb, mid})
            if (s.evaluate(p) < c.cost) c.cost = s.evaluate(p), c.position = p;
    }
    // the survivor is stored in float: its shape as it will be
    const Vec3f x = {float(c.position[0]), float(c.position[1]), float(c.position[2])};
    c.priority    = c.cost + shape_weight * collapse_shape(m, a, b, {x[0], x[1], x[2]}).after;
    return c;
}

}  // namespace

TriangleSoup qem_simplify(const TriangleSoup& input, const SimplifyOptions& options,
                          SimplifyReport* report)
{
    if (!(options.min_angle_degrees >= 0 && options.min_angle_degrees < 60))
        throw InvalidInputError("qem_simplify: min_angle_degrees " +
                                std::to_string(options.min_angle_degrees) + " is not in [0, 60)");
    EditableMesh               m(input.positions, input.faces);
    const double               mean = mean_edge_length(input.positions, input.faces);
    const double               shape_weight = kShapeTieBreak * mean * mean * mean * mean;
    const AngleGuard           guard(options.min_angle_degrees);
    std::vector<Quadric>       q = initial_quadrics(m, options.boundary_weight);
    std::vector<std::uint64_t> stamp(m.num_vertex_slots(), 0);
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> heap;
    for (const auto& [a, b] : m.edges()) heap.push(candidate(m, q, stamp, a, b, shape_weight));
    SimplifyReport r;
    r.faces = m.num_faces();
    while (r.faces > options.target_faces && !heap.empty()) {  // each pop shrinks the heap or
        const Candidate c = heap.top();                        // follows a collapse, which
        heap.pop();                                            // removes a vertex
        if (!m.vertex_alive(c.a) || !m.vertex_alive(c.b) || stamp[c.a] != c.stamp_a ||
            stamp[c.b] != c.stamp_b)
            continue;  // stale: a fresh entry was pushed when a neighbour changed
        const auto removed = std::uint32_t(m.edge_faces(c.a, c.b).size());
        if (removed == 0) continue;
        const Vec3f    p     = {float(c.position[0]), float(c.position[1]), float(c.position[2])};
        const FanShape shape = collapse_shape(m, c.a, c.b, {p[0], p[1], p[2]});
        if (shape.folds || !guard.allows(shape.before, shape.after)) continue;  // a needle
        if (!m.collapse(c.a, c.b, p)) continue;  // tried again when a neighbour changes
        q[c.a] += q[c.b];
        r.faces -= removed;
        ++r.collapses;
        r.max_cost = std::max(r.max_cost, c.cost);
        std::set<std::uint32_t> changed = {c.a};
        for (std::uint32_t u : m.neighbors(c.a)) changed.insert(u);
        for (std::uint32_t v : changed) ++stamp[v];
        std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
        for (std::uint32_t v : changed)
            for (std::uint32_t u : m.neighbors(v)) edges.insert({std::min(u, v), std::max(u, v)});
        for (const auto& [a, b] : edges) heap.push(candidate(m, q, stamp, a, b, shape_weight));
    }
    r.reached_target = r.faces <= options.target_faces;
    r.vertices       = m.num_vertices();
    if (report) *report = r;
    return m.compact();
}

}  // namespace rxmesh::reference
