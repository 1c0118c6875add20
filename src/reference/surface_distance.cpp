#include "rxmesh/reference/surface_distance.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "rxmesh/core/error.h"

namespace rxmesh::reference {
namespace {

Point3 sub(const Point3& a, const Point3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const Point3& a, const Point3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Point3 along(const Point3& a, const Point3& d, double t)
{
    return {a[0] + t * d[0], a[1] + t * d[1], a[2] + t * d[2]};
}
double distance2(const Point3& a, const Point3& b) { return dot(sub(a, b), sub(a, b)); }

Point3 closest_on_segment(const Point3& p, const Point3& a, const Point3& b)
{
    const Point3 d  = sub(b, a);
    const double dd = dot(d, d);
    if (dd == 0) return a;
    return along(a, d, std::clamp(dot(sub(p, a), d) / dd, 0.0, 1.0));
}

Point3 to_point(const Vec3f& v) { return {v[0], v[1], v[2]}; }

}  // namespace

// Project p on the triangle's plane; if the projection's barycentric
// coordinates are all non-negative it is the answer, otherwise the answer
// lies on an edge: the nearest of the three edges' nearest points.
Point3 closest_point_on_triangle(const Point3& p, const Point3& a, const Point3& b,
                                 const Point3& c)
{
    const Point3 ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
    const double d00 = dot(ab, ab), d01 = dot(ab, ac), d11 = dot(ac, ac);
    const double det = d00 * d11 - d01 * d01;
    if (det > 1e-12 * d00 * d11) {  // not degenerate
        const double d20 = dot(ap, ab), d21 = dot(ap, ac);
        const double v = (d11 * d20 - d01 * d21) / det, w = (d00 * d21 - d01 * d20) / det;
        if (v >= 0 && w >= 0 && v + w <= 1)
            return {a[0] + v * ab[0] + w * ac[0], a[1] + v * ab[1] + w * ac[1],
                    a[2] + v * ab[2] + w * ac[2]};
    }
    Point3 best = closest_on_segment(p, a, b);
    for (const Point3& q : {closest_on_segment(p, b, c), closest_on_segment(p, c, a)})
        if (distance2(p, q) < distance2(p, best)) best = q;
    return best;
}

ClosestPoint closest_point_on_mesh(const Point3& p, const TriangleSoup& mesh)
{
    if (mesh.faces.empty()) throw InvalidInputError("closest_point_on_mesh: the mesh has no face");
    ClosestPoint best;
    double       best2 = INFINITY;
    for (std::uint32_t f = 0; f < mesh.faces.size(); ++f) {
        const Triangle& t = mesh.faces[f];
        const Point3    q = closest_point_on_triangle(p, to_point(mesh.positions[t[0]]),
                                                      to_point(mesh.positions[t[1]]),
                                                      to_point(mesh.positions[t[2]]));
        const double d2 = distance2(p, q);
        if (d2 < best2) best2 = d2, best.point = q, best.face = f;
    }
    best.distance = std::sqrt(best2);
    return best;
}

std::vector<Point3> hausdorff_samples(const TriangleSoup& m)
{
    std::vector<Point3> out;
    std::vector<bool>   used(m.positions.size(), false);
    for (const Triangle& t : m.faces) {
        Point3 p[3];
        for (int k = 0; k < 3; ++k) {
            p[k] = to_point(m.positions[t[k]]);
            if (!used[t[k]]) used[t[k]] = true, out.push_back(p[k]);
        }
        out.push_back({(p[0][0] + p[1][0] + p[2][0]) / 3, (p[0][1] + p[1][1] + p[2][1]) / 3,
                       (p[0][2] + p[1][2] + p[2][2]) / 3});
        for (int k = 0; k < 3; ++k)
            out.push_back(along(p[k], sub(p[(k + 1) % 3], p[k]), 0.5));
    }
    return out;
}

namespace {

double one_sided(const TriangleSoup& from, const TriangleSoup& to)
{
    double worst = 0;
    for (const Point3& p : hausdorff_samples(from))
        worst = std::max(worst, closest_point_on_mesh(p, to).distance);
    return worst;
}

}  // namespace

HausdorffDistance hausdorff(const TriangleSoup& a, const TriangleSoup& b)
{
    return {one_sided(a, b), one_sided(b, a)};
}

}  // namespace rxmesh::reference
