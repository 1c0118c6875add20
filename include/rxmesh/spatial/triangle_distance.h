// The point of a triangle nearest to a point, on host and device, in float:
// the leaf test of the GPU bounding-volume hierarchy (bvh.cuh). The same
// construction as the serial oracle (reference/surface_distance.h): project
// on the plane, keep the projection when its barycentric coordinates are all
// non-negative, else take the nearest of the three edges' nearest points.
#pragma once

#include "rxmesh/core/macros.h"
#include "rxmesh/core/vec3.h"

namespace rxmesh {

RXMESH_HD inline Vec3 closest_point_on_segment(const Vec3& p, const Vec3& a, const Vec3& b)
{
    const Vec3  d  = b - a;
    const float dd = dot(d, d);
    if (!(dd > 0.f)) return a;
    float t = dot(p - a, d) / dd;
    t       = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
    return a + d * t;
}

RXMESH_HD inline Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b,
                                                const Vec3& c)
{
    const Vec3  ab = b - a, ac = c - a, ap = p - a;
    const float d00 = dot(ab, ab), d01 = dot(ab, ac), d11 = dot(ac, ac);
    const float det = d00 * d11 - d01 * d01;
    if (det > 1e-12f * d00 * d11) {  // not degenerate
        const float d20 = dot(ap, ab), d21 = dot(ap, ac);
        const float v = (d11 * d20 - d01 * d21) / det, w = (d00 * d21 - d01 * d20) / det;
        if (v >= 0.f && w >= 0.f && v + w <= 1.f) return a + ab * v + ac * w;
    }
    Vec3        best = closest_point_on_segment(p, a, b);
    const Vec3  bc   = closest_point_on_segment(p, b, c);
    const Vec3  ca   = closest_point_on_segment(p, c, a);
    if (squared_norm(bc - p) < squared_norm(best - p)) best = bc;
    if (squared_norm(ca - p) < squared_norm(best - p)) best = ca;
    return best;
}

}  // namespace rxmesh
