// The terms of implicit mean curvature flow (Desbrun et al. 1999) as
// device functors for RXMesh's queries: cotangent edge weights, Meyer et
// al.'s (2003) mixed Voronoi areas, and the operator 2 diag(a) + dt L in the
// edge form that cg_solve takes (solver/cg.cuh). The mathematics, exactly:
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

#include "rxmesh/geometry/face_corners.cuh"
#include "rxmesh/geometry/operators.h"
#include "rxmesh/core/attribute_view.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh::mcf {

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
    VertexView<const float, 3>   positions;
    const std::uint32_t*         faces;  // 3 global vertex ids per global face
    const std::uint32_t*         ev;     // StoreEdgeVertices' output
    EdgeView<float>              w;
    __device__ void operator()(EdgeId e, const RowView<FaceId>& ef) const
    {
        const std::uint32_t a = ev[2 * std::size_t(e.id())], b = ev[2 * std::size_t(e.id()) + 1];
        const Vec3          pa = load3(positions.data(), a), pb = load3(positions.data(), b);
        float               sum = 0.f;
        for (std::uint32_t j = 0; j < ef.size(); ++j) {
            const std::uint32_t* t = faces + 3 * std::size_t(ef[j].id());
            const std::uint32_t  k = (t[0] != a && t[0] != b) ? t[0] : (t[1] != a && t[1] != b ? t[1] : t[2]);
            sum += cotangent(load3(positions.data(), k), pa, pb);
        }
        w(e) = fmaxf(sum, 0.f);
    }
};

//! accumulate<Op::FV> with staged positions: the corner's mixed area.
using MixedAreaContribution = FaceCornerContribution<MixedVoronoiAreaTerm>;

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
    VertexView<float> out;
    __device__ void   operator()(VertexId v, const float (&sum)[1]) const { out(v) = sum[0]; }
};

//! 2 diag(a) + dt L in cg_solve's edge form (w: an edge weight per edge,
//! a: an area per vertex). With an empty a it is dt L alone.
struct McfOperator
{
    EdgeView<const float>   w;
    VertexView<const float> a;
    float                   dt;

    __device__ void edge(EdgeId e, const RowView<VertexId>&, const StagedRow<float, 3>& x,
                         const VertexSums<float, 3>& sums) const
    {
        const float we = dt * w(e);
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
        const float diag = a.empty() ? 0.f : 2.f * a(v);
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
    McfOperator                op;
    VertexView<const float, 3> x;
    VertexView<float, 3>       y;
    float                      scale;  // y = scale * (A x)
    __device__ void operator()(VertexId v, const float (&sum)[3]) const
    {
        const float xv[3] = {x(v, 0), x(v, 1), x(v, 2)};
        float       out[3];
        op.vertex(v, xv, sum, out);
        for (int d = 0; d < 3; ++d)
            y(v, d) = scale * out[d];
    }
};

}  // namespace rxmesh::mcf
