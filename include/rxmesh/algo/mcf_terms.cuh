// The terms of implicit mean curvature flow (Desbrun et al. 1999) as
// device functors for RXMesh's queries: cotangent edge weights, Meyer et
// al.'s (2003) mixed Voronoi areas, and the operator 2 diag(a) + dt L in the
// edge form that cg_solve takes (algo/cg.cuh). The mathematics, exactly:
//
//   w_ij = max(0, sum over the triangles (i, j, k) holding edge ij of
//          cot(angle at k)),  cot = dot(e0, e1) / |cross(e0, e1)|, e0 and e1
//          the edges leaving k; a triangle with |cross| <= FLT_MIN adds 0;
//   a_i  = sum over the triangles (i, q, r) at i of |cross| / 4 when the
//          angle at i is obtuse, |cross| / 8 when the angle at q or r is,
//          else (|i - r|^2 cot q + |i - q|^2 cot r) / 8; degenerate ones add 0;
//   (L x)_i = sum_j w_ij (x_i - x_j)  (no cancellation against 2 a x).
// The uniform variant takes w_ij = 1 and a_i = valence(i) / 2.
#pragma once

#include <cuda_runtime.h>

#include <cfloat>
#include <cstdint>

#include "rxmesh/rxmesh.h"

namespace rxmesh::mcf {

__device__ inline void sub3(const float* a, const float* b, float* out)
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}
__device__ inline float dot3(const float* a, const float* b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
__device__ inline float cross_norm(const float* a, const float* b)
{
    const float c0 = a[1] * b[2] - a[2] * b[1];
    const float c1 = a[2] * b[0] - a[0] * b[2];
    const float c2 = a[0] * b[1] - a[1] * b[0];
    return sqrtf(c0 * c0 + c1 * c1 + c2 * c2);
}

//! cot of the angle at k of triangle (k, i, j); 0 when degenerate.
__device__ inline float cotangent(const float* pk, const float* pi, const float* pj)
{
    float e0[3], e1[3];
    sub3(pi, pk, e0);
    sub3(pj, pk, e1);
    const float c = cross_norm(e0, e1);
    return c > FLT_MIN ? dot3(e0, e1) / c : 0.f;
}

//! The mixed Voronoi area of triangle (i, q, r) at corner i.
__device__ inline float mixed_area(const float* pi, const float* pq, const float* pr)
{
    float iq[3], ir[3], qr[3];
    sub3(pq, pi, iq);
    sub3(pr, pi, ir);
    sub3(pr, pq, qr);
    const float c = cross_norm(iq, ir);
    if (!(c > FLT_MIN))
        return 0.f;
    const float at_i = dot3(iq, ir);   // < 0: obtuse at i
    const float at_q = -dot3(iq, qr);  // edges leaving q: i - q and r - q
    const float at_r = dot3(ir, qr);   // edges leaving r: i - r and q - r
    if (at_i < 0.f)
        return c / 4.f;
    if (at_q < 0.f || at_r < 0.f)
        return c / 8.f;
    return (dot3(ir, ir) * (at_q / c) + dot3(iq, iq) * (at_r / c)) / 8.f;
}

//! for_each<Op::EV>: each edge's two vertices into ev[2e], ev[2e + 1].
struct StoreEdgeVertices
{
    std::uint32_t* ev;
    __device__ void operator()(EdgeId e, const RowView<VertexId>& row) const
    {
        ev[2 * std::size_t(e.id())]     = row[0].id();
        ev[2 * std::size_t(e.id()) + 1] = row[1].id();
    }
};

//! for_each<Op::EF>: w(e) = max(0, sum of the cotangents opposite e).
struct CotanEdgeWeight
{
    const float*         positions;
    const std::uint32_t* faces;  // 3 global vertex ids per global face
    const std::uint32_t* ev;     // StoreEdgeVertices' output
    float*               w;
    __device__ void operator()(EdgeId e, const RowView<FaceId>& ef) const
    {
        const std::uint32_t a = ev[2 * std::size_t(e.id())], b = ev[2 * std::size_t(e.id()) + 1];
        float               sum = 0.f;
        for (std::uint32_t j = 0; j < ef.size(); ++j) {
            const std::uint32_t* t = faces + 3 * std::size_t(ef[j].id());
            const std::uint32_t  k = (t[0] != a && t[0] != b) ? t[0] : (t[1] != a && t[1] != b ? t[1] : t[2]);
            sum += cotangent(positions + 3 * std::size_t(k), positions + 3 * std::size_t(a),
                             positions + 3 * std::size_t(b));
        }
        w[e.id()] = fmaxf(sum, 0.f);
    }
};

//! accumulate<Op::FV> with staged positions: the corner's mixed area.
struct MixedAreaContribution
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<float, 3>& x,
                               const VertexSums<float, 1>& sums) const
    {
        float p[3][3];
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d)
                p[k][d] = x(k, d);
        for (int k = 0; k < 3; ++k)
            if (sums.owns(k)) {
                const float area[1] = {mixed_area(p[k], p[(k + 1) % 3], p[(k + 2) % 3])};
                sums.add(k, area);
            }
    }
};

//! accumulate<Op::EV>: half of each edge to each end (uniform areas).
struct HalfPerEdge
{
    __device__ void operator()(EdgeId, const RowView<VertexId>&, const VertexSums<float, 1>& sums) const
    {
        const float half[1] = {0.5f};
        sums.add(0, half);
        sums.add(1, half);
    }
};

//! accumulate's finalize: out[v] = sum.
struct StoreScalar
{
    float* out;
    __device__ void operator()(VertexId v, const float (&sum)[1]) const { out[v.id()] = sum[0]; }
};

//! 2 diag(a) + dt L in cg_solve's edge form (w: an edge weight per edge,
//! a: an area per vertex). With a == nullptr it is dt L alone.
struct McfOperator
{
    const float* w;
    const float* a;
    float        dt;

    __device__ void edge(EdgeId e, const RowView<VertexId>&, const StagedRow<float, 3>& x,
                         const VertexSums<float, 3>& sums) const
    {
        const float we = dt * w[e.id()];
        for (int k = 0; k < 2; ++k)
            if (sums.owns(k)) {
                const float t[3] = {we * (x(k, 0) - x(1 - k, 0)), we * (x(k, 1) - x(1 - k, 1)),
                                    we * (x(k, 2) - x(1 - k, 2))};
                sums.add(k, t);
            }
    }
    __device__ void vertex(VertexId v, const float (&x)[3], const float (&sum)[3],
                           float (&y)[3]) const
    {
        const float diag = a ? 2.f * a[v.id()] : 0.f;
        for (int d = 0; d < 3; ++d)
            y[d] = diag * x[d] + sum[d];
    }
};

//! accumulate's contribution for an operator applied to a staged input.
struct EdgeTermOf
{
    McfOperator op;
    __device__ void operator()(EdgeId e, const RowView<VertexId>& ev, const StagedRow<float, 3>& x,
                               const VertexSums<float, 3>& sums) const
    {
        op.edge(e, ev, x, sums);
    }
};

//! finalize of y = A x: needs x_v, read from the (unstaged) input.
struct StoreProduct
{
    McfOperator  op;
    const float* x;
    float*       y;
    float        scale;  // y = scale * (A x)
    __device__ void operator()(VertexId v, const float (&sum)[3]) const
    {
        const float xv[3] = {x[3 * std::size_t(v.id())], x[3 * std::size_t(v.id()) + 1],
                             x[3 * std::size_t(v.id()) + 2]};
        float       out[3];
        op.vertex(v, xv, sum, out);
        for (int d = 0; d < 3; ++d)
            y[3 * std::size_t(v.id()) + d] = scale * out[d];
    }
};

}  // namespace rxmesh::mcf
