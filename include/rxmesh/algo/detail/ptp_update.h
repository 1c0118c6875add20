// The planar update of parallel toplesets propagation (Romero Calla, Fuentes
// Perez, Montenegro, Computers & Graphics 84, 2019): the distance at vertex v
// from a triangle (v, a, b) whose other corners carry distances ta and tb.
//
// Unfold the triangle into the plane with v at the origin: X = [a - v, b - v],
// Q = X^T X. A planar front of unit speed that reaches a at time ta and b at
// tb reaches v at the larger root p of
//     (1^T Q^-1 1) p^2 - 2 (1^T Q^-1 t) p + t^T Q^-1 t - 1 = 0.
// It is accepted only when the front reaches v through the triangle: both
// components of Q^-1 (t - p 1) negative (the direction of travel, written in
// the basis X, points from the edge ab towards v). Otherwise, or when ta or tb
// is infinite or the triangle is degenerate, the front comes along an edge:
// min(ta + |a - v|, tb + |b - v|).
//
// In double: the discriminant subtracts two terms of the size of (t / |X|)^2;
// t is first shifted by min(ta, tb) (a front shifted in time is the same
// front), which keeps them small. Shared by the GPU algorithm and the
// benchmarks' baselines; reference/geodesic.h implements it independently.
#pragma once

#include <cmath>

#include "rxmesh/core/macros.h"

namespace rxmesh {

RXMESH_HD inline double ptp_update(const float* v, const float* a, const float* b, double ta,
                                   double tb)
{
    const double x0[3] = {double(a[0]) - v[0], double(a[1]) - v[1], double(a[2]) - v[2]};
    const double x1[3] = {double(b[0]) - v[0], double(b[1]) - v[1], double(b[2]) - v[2]};
    const double q00   = x0[0] * x0[0] + x0[1] * x0[1] + x0[2] * x0[2];
    const double q01   = x0[0] * x1[0] + x0[1] * x1[1] + x0[2] * x1[2];
    const double q11   = x1[0] * x1[0] + x1[1] * x1[1] + x1[2] * x1[2];
    const double along_edges = std::fmin(ta + std::sqrt(q00), tb + std::sqrt(q11));
    const double det   = q00 * q11 - q01 * q01;
    if (!(det > 1e-12 * q00 * q11) || std::isinf(ta) || std::isinf(tb))
        return along_edges;
    const double t0 = std::fmin(ta, tb);
    const double w0 = ta - t0, w1 = tb - t0;  // shifted times
    // Q^-1 = [q11 -q01; -q01 q00] / det
    const double inv   = 1 / det;
    const double s     = (q11 - 2 * q01 + q00) * inv;                  // 1^T Q^-1 1
    const double delta = ((q11 - q01) * w0 + (q00 - q01) * w1) * inv;  // 1^T Q^-1 w
    const double c     = (q11 * w0 * w0 - 2 * q01 * w0 * w1 + q00 * w1 * w1) * inv;
    const double disc  = delta * delta - s * (c - 1);
    if (!(disc >= 0))
        return along_edges;
    const double p = (delta + std::sqrt(disc)) / s;
    // the front's direction in the basis X: both components negative (the
    // common factor 1 / det > 0 does not change the signs)
    const double c0 = q11 * (w0 - p) - q01 * (w1 - p);
    const double c1 = q00 * (w1 - p) - q01 * (w0 - p);
    return (c0 < 0 && c1 < 0) ? p + t0 : along_edges;
}

}  // namespace rxmesh
