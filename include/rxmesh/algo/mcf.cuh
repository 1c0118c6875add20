// Smoothing by implicit mean curvature flow (Desbrun et al. 1999; RXMesh
// paper, section 8.1): each step solves
//
//   (2 diag(a) + dt L) X = 2 diag(a) X0
//
// for the three coordinates with the matrix-free CG of solver/cg.cuh, the
// cotangent weights and mixed areas (algo/detail/mcf_terms.cuh) computed from the
// step's starting positions X0. The initial guess is X0, whose residual
// -dt L X0 is formed as sum_j w_ij (x_i - x_j) and never as the difference
// of two large terms, so float CG converges to small tolerances.
//
//   rxmesh::RXMesh mesh(soup);
//   auto smooth = mesh.add_vertex_attribute<float, 3>("smooth");
//   rxmesh::McfReport rep = rxmesh::mean_curvature_flow(mesh, mesh.positions(), smooth, {});
//
// The time step: McfOptions::dt when > 0, else relative_dt times the mean
// edge length squared, so the same options smooth a mesh the same way at
// any scale (a and dt L both scale as length^2).
//
// This header: the steps' pieces for device code and benchmarks (the system,
// its product, one step); mean_curvature_flow itself is in mcf.h, compiled
// into the library (src/algo/mcf.cu).
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "rxmesh/algo/mcf.h"
#include "rxmesh/solver/cg.cuh"
#include "rxmesh/algo/detail/mcf_terms.cuh"
#include "rxmesh/solver/cg_cached.cuh"
#include "rxmesh/view_checks.h"
#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/sparse_matrix.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

//! w: one weight per edge, a: one area per vertex (global order).
struct McfSystem
{
    DeviceBuffer<float> w, a;

    EdgeView<float>   weights(const RXMesh& mesh) { return {w.data(), mesh.num_edges()}; }
    VertexView<float> areas(const RXMesh& mesh) { return {a.data(), mesh.num_vertices()}; }
    //! The operator 2 diag(a) + dt L (dt L alone without areas).
    mcf::McfOperator op(const RXMesh& mesh, float dt, bool with_areas = true) const
    {
        return {{w.data(), mesh.num_edges()},
                with_areas ? VertexView<const float>(a.data(), mesh.num_vertices())
                           : VertexView<const float>(),
                dt};
    }
};

//! The edge weights and vertex areas of the mesh at `positions`.
inline McfSystem mcf_system(const RXMesh& mesh, VertexView<const float, 3> positions,
                            bool uniform, cudaStream_t stream = 0)
{
    McfSystem s{DeviceBuffer<float>(mesh.num_edges(), stream),
                DeviceBuffer<float>(mesh.num_vertices(), stream)};
    if (uniform) {
        fill(s.weights(mesh), 1.f, stream);
        mesh.accumulate<Op::EV, float, 1>(mcf::HalfPerEdge{}, mcf::StoreScalar{s.areas(mesh)},
                                          stream);
        return s;
    }
    DeviceBuffer<std::uint32_t>       ev(2 * std::size_t(mesh.num_edges()), stream);
    const DeviceBuffer<std::uint32_t> faces = mesh.faces(stream);
    mesh.for_each<Op::EV>(mcf::StoreEdgeVertices{ev.data()}, AllActive{}, false, stream);
    mesh.for_each<Op::EF>(mcf::CotanEdgeWeight{positions, faces.data(), ev.data(), s.weights(mesh)},
                          AllActive{}, false, stream);
    mesh.accumulate<Op::FV, float, 1>(VertexInput<float, 3>{positions},
                                      mcf::MixedAreaContribution{}, mcf::StoreScalar{s.areas(mesh)},
                                      stream);
    return s;  // ev and faces are freed in stream order
}

//! y = scale * (2 diag(a) + dt L) x, or scale * dt L x without areas
//! (with_areas false).
inline void mcf_apply(const RXMesh& mesh, const McfSystem& s, float dt,
                      VertexView<const float, 3> x, VertexView<float, 3> y, bool with_areas = true,
                      float scale = 1.f, cudaStream_t stream = 0)
{
    const mcf::McfOperator op = s.op(mesh, dt, with_areas);
    mesh.accumulate<Op::EV, float, 3>(VertexInput<float, 3>{x}, mcf::EdgeTermOf{op},
                                      mcf::StoreProduct{op, x, y, scale}, stream);
}

//! A = 2 diag(a) + dt L in T from the system's float weights and areas (the
//! CG's system, exactly) on the mesh's vertex pattern (matrix/vertex_pattern.h),
//! ev holding each edge's two vertices (mcf::StoreEdgeVertices): each edge
//! writes its two off-diagonal entries, then each row its diagonal, summed in
//! column order. A row of neither area nor weight (a vertex of no face of
//! positive area) becomes an identity row, flagged in `kept` when given:
//! its vertex stays where it is, as under the CG.
template <typename T>
void mcf_system_matrix(const McfSystem& s, const std::uint32_t* ev, std::uint32_t num_edges,
                       float dt, SparseMatrix<T>& A, std::uint8_t* kept = nullptr,
                       cudaStream_t stream = 0)
{
    const SparseMatrixView<T, 1> m = A.view();
    const float*                 w = s.w.data();
    const float*                 a = s.a.data();
    detail::for_indices(
        num_edges,
        [=] __device__(std::uint32_t e) {
            const std::uint32_t i = ev[2 * std::uint64_t(e)], j = ev[2 * std::uint64_t(e) + 1];
            const T             off = -T(dt) * T(w[e]);
            m.at(i, j)              = off;
            m.at(j, i)              = off;
        },
        stream);
    detail::for_indices(
        A.num_rows(),
        [=] __device__(std::uint32_t row) {
            T   sum  = T(2) * T(a[row]);
            int diag = -1;
            for (int b = m.pattern.row_offsets[row]; b < m.pattern.row_offsets[row + 1]; ++b) {
                if (m.pattern.columns[b] == int(row))
                    diag = b;
                else
                    sum -= m.values[b];
            }
            RXMESH_DEVICE_CHECK(diag >= 0);
            if (kept != nullptr)
                kept[row] = sum == T(0) ? 1 : 0;
            m.values[diag] = sum == T(0) ? T(1) : sum;
        },
        stream);
}

namespace detail {

//! accumulate_sum<EV>: each edge's length, half to each end.
struct HalfEdgeLength
{
    __device__ void operator()(EdgeId, const RowView<VertexId>&, const StagedRow<float, 3>& x,
                               const VertexSums<float, 1>& sums) const
    {
        const float d[3] = {x(0, 0) - x(1, 0), x(0, 1) - x(1, 1), x(0, 2) - x(1, 2)};
        const float half[1] = {0.5f * sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])};
        sums.add(0, half);
        sums.add(1, half);
    }
};
struct ReturnSum
{
    __device__ double operator()(VertexId, const float (&sum)[1]) const { return sum[0]; }
};

}  // namespace detail

//! The mean length of the mesh's edges (0 without edges).
inline double mean_edge_length(const RXMesh& mesh, VertexView<const float, 3> positions,
                               cudaStream_t stream = 0)
{
    if (mesh.num_edges() == 0)
        return 0;
    DeviceBuffer<double> total(1, stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(total.data(), 0, sizeof(double), stream));
    mesh.accumulate_sum<Op::EV, float, 1>(VertexInput<float, 3>{positions},
                                          detail::HalfEdgeLength{}, detail::ReturnSum{},
                                          total.data(), stream);
    return read_back(total.data(), stream) / mesh.num_edges();
}

//! One MCF step from the positions in x, which it overwrites with the
//! smoothed ones. The CG's products run on dt L cached per patch
//! (solver/patch_laplacian.cuh); a mesh whose patches are too large for that
//! runs them through accumulate.
inline CgReport mcf_step(const RXMesh& mesh, const McfSystem& s, float dt, VertexView<float, 3> x,
                         const CgOptions& cg, cudaStream_t stream = 0)
{
    DeviceBuffer<float>        r_buffer(3 * std::size_t(mesh.num_vertices()), stream);
    const VertexView<float, 3> r(r_buffer.data(), mesh.num_vertices());
    mcf_apply(mesh, s, dt, x, r, false, -1.f, stream);  // r0 = -dt L x0
    if (!patch_laplacian_fits<3>(mesh))
        return cg_solve<3>(mesh, s.op(mesh, dt), x, r, cg, stream);
    const PatchLaplacian lap(mesh, {s.w.data(), mesh.num_edges()}, dt, stream);
    return cg_solve_cached<3>(mesh, lap, {s.a.data(), mesh.num_vertices()}, 2.f, x, r, cg, stream);
}

}  // namespace rxmesh
