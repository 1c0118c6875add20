// The geometry every algorithm shares, on host and device, in float: a 3-vector
// and the per-triangle terms of the field's standard operators. One place, so
// that vertex normals, mean curvature flow, bilateral denoising and the
// benchmarks' baselines compute the same numbers from the same expressions
// (each written once, in one operation order: the baselines that must agree
// with us to the last bit rely on it).
//
//   Vec3 p = load3(positions, v);
//   Vec3 n = face_area_vector(p0, p1, p2);     // cross(p1 - p0, p2 - p0)
//   float w = cotangent(pk, pi, pj);           // cot of the angle at pk
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>

#include "rxmesh/core/macros.h"
#include "rxmesh/core/vec3.h"

namespace rxmesh {

//! cross(q - p, r - p): twice the area of triangle (p, q, r) along its
//! normal; the area-weighted normal term of corner p.
RXMESH_HD inline Vec3 face_area_vector(const Vec3& p, const Vec3& q, const Vec3& r)
{
    return cross(q - p, r - p);
}

//! Max's weighted normal term of corner v of triangle (v, a, b) (N. Max,
//! "Weights for computing vertex normals from facet normals", JGT 1999):
//! (e1 x e2) / (|e1|^2 |e2|^2) with e1 = a - v, e2 = b - v; 0 for a
//! zero-length edge.
RXMESH_HD inline Vec3 max_weighted_normal(const Vec3& v, const Vec3& a, const Vec3& b)
{
    const Vec3  e1 = a - v, e2 = b - v;
    const float l1 = squared_norm(e1), l2 = squared_norm(e2);
    const float w = (l1 > 0.f && l2 > 0.f) ? 1.f / (l1 * l2) : 0.f;
    return cross(e1, e2) * w;
}

//! cot of the angle at k of triangle (k, i, j): dot(e0, e1) / |cross(e0,
//! e1)| with e0 = i - k, e1 = j - k; 0 when |cross| <= FLT_MIN.
RXMESH_HD inline float cotangent(const Vec3& k, const Vec3& i, const Vec3& j)
{
    const Vec3  e0 = i - k, e1 = j - k;
    const float c = norm(cross(e0, e1));
    return c > FLT_MIN ? dot(e0, e1) / c : 0.f;
}

//! The mixed Voronoi area of triangle (i, q, r) at corner i (Meyer, Desbrun,
//! Schroeder, Barr 2003): |cross| / 4 when the angle at i is obtuse,
//! |cross| / 8 when the angle at q or r is, else (|i - r|^2 cot q +
//! |i - q|^2 cot r) / 8; 0 for a degenerate triangle.
RXMESH_HD inline float mixed_voronoi_area(const Vec3& i, const Vec3& q, const Vec3& r)
{
    const Vec3  iq = q - i, ir = r - i, qr = r - q;
    const float c = norm(cross(iq, ir));
    if (!(c > FLT_MIN)) return 0.f;
    const float at_i = dot(iq, ir);   // < 0: obtuse at i
    const float at_q = -dot(iq, qr);  // edges leaving q: i - q and r - q
    const float at_r = dot(ir, qr);   // edges leaving r: i - r and q - r
    if (at_i < 0.f) return c / 4.f;
    if (at_q < 0.f || at_r < 0.f) return c / 8.f;
    return (dot(ir, ir) * (at_q / c) + dot(iq, iq) * (at_r / c)) / 8.f;
}

}  // namespace rxmesh
