// The arithmetic of bilateral mesh denoising (Fleishman, Drori, Cohen-Or,
// "Bilateral mesh denoising", SIGGRAPH 2003), one vertex at a time, in
// float, for every implementation that must agree with algo/bilateral.cuh
// to the last bit of its formulas (the PDE and OpenMesh baselines):
//
//   n   = normalize(sum over incident faces of cross(q - p, r - p))
//   sc2 = sigma_c^2 = min over one-ring neighbours of |p_j - p|^2
//   N   = breadth-first ball: enters u only if |p_u - p|^2 <= 4 sc2
//   h_j = dot(p_j - p, n), t_j = |p_j - p| over N (p itself included)
//   sigma_s = max(1e-12, sqrt(max(0, mean(h^2) - mean(|h|)^2)))
//   w_j = exp(-t_j^2 / (2 sc2)) exp(-h_j^2 / (2 sigma_s^2))
//   p'  = p + n (sum w_j h_j) / (sum w_j)
// Squared distances are compared, so no square root decides membership.
#pragma once

#include <cmath>
#include <cstdint>

#include "rxmesh/geometry/operators.h"
#include "rxmesh/core/macros.h"

namespace rxmesh::bilateral {

// The pointer forms below take 3 floats each (staged rows, the baselines'
// arrays) and compute with geometry/operators.h.

RXMESH_HD inline float dot3(const float a[3], const float b[3])
{
    return dot(load3(a, 0), load3(b, 0));
}

//! |a - b|^2 rounded after every operation (no fused multiply-add), so that
//! the GPU and a host compiled without contraction decide ball membership
//! alike: refined meshes put many vertices exactly on the ball's edge.
RXMESH_HD inline float squared_distance(const float a[3], const float b[3])
{
    const float d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
#if defined(__CUDA_ARCH__)
    return __fadd_rn(__fadd_rn(__fmul_rn(d[0], d[0]), __fmul_rn(d[1], d[1])), __fmul_rn(d[2], d[2]));
#else
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
#endif
}

//! cross(q - p, r - p): the face's term in the normal of its corner p.
RXMESH_HD inline void normal_term(const float p[3], const float q[3], const float r[3],
                                  float out[3])
{
    store3(out, 0, face_area_vector(load3(p, 0), load3(q, 0), load3(r, 0)));
}

//! Normalises n in place; returns false (n unchanged) for a zero sum.
RXMESH_HD inline bool normalize(float n[3])
{
    const float l2 = dot3(n, n);
    if (!(l2 > 0.f))
        return false;
    const float s = 1.f / sqrtf(l2);
    n[0] *= s, n[1] *= s, n[2] *= s;
    return true;
}

//! Whether u belongs to the ball of p: |p_u - p|^2 <= 4 sigma_c^2.
RXMESH_HD inline bool in_ball(const float p[3], const float pu[3], float sc2)
{
    return squared_distance(pu, p) <= 4.f * sc2;  // 4 sc2 is exact
}

//! The offset along n that moves p: `each_position(g)` calls g(p_j) for
//! every p_j of the ball (twice: sigma_s needs the first pass).
//! \pre sc2 > 0, n unit, the ball holds p itself.
template <typename EachPosition>
RXMESH_HD float ball_offset(const float p[3], const float n[3], float sc2,
                            const EachPosition& each_position)
{
    float         sum_h2 = 0.f, sum_abs_h = 0.f;
    std::uint32_t count  = 0;
    each_position([&](const float pj[3]) {
        const float d[3] = {pj[0] - p[0], pj[1] - p[1], pj[2] - p[2]};
        const float h    = dot3(d, n);
        sum_h2 += h * h;
        sum_abs_h += fabsf(h);
        ++count;
    });
    const float mean_abs = sum_abs_h / float(count);
    const float sigma_s  = fmaxf(1e-12f, sqrtf(fmaxf(0.f, sum_h2 / float(count) - mean_abs * mean_abs)));
    const float inv_2sc2 = 0.5f / sc2, inv_2ss2 = 0.5f / (sigma_s * sigma_s);
    float       sum_wh = 0.f, sum_w = 0.f;
    each_position([&](const float pj[3]) {
        const float d[3] = {pj[0] - p[0], pj[1] - p[1], pj[2] - p[2]};
        const float h    = dot3(d, n);
        const float w    = expf(-dot3(d, d) * inv_2sc2) * expf(-h * h * inv_2ss2);
        sum_wh += w * h;
        sum_w += w;
    });
    return sum_wh / sum_w;
}

}  // namespace rxmesh::bilateral
