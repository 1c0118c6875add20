// Bilateral mesh denoising (Fleishman, Drori, Cohen-Or 2003; the formulas in
// algo/bilateral_terms.h), Jacobi iterations: every vertex reads the previous
// positions. Written with the public API, one iteration is three queries:
//   1. RXMesh::accumulate<Op::FV>: the normal, summed per patch in
//      registers (positions staged in shared memory);
//   2. RXMesh::for_each<Op::VV>: sigma_c^2, the least squared edge length;
//   3. RXMesh::for_each_kring_while: the ball, grown ring by ring while it
//      finds vertices within 2 sigma_c, and the weighted offset along n;
//      the positions of every vertex a patch's balls can reach are staged
//      in shared memory (the growth tests and the weights read them there).
// Vertices with no neighbour, a zero normal or sigma_c = 0 (a zero-length
// edge: the weights are undefined there) keep their position; vertices
// whose ball would reach beyond kMaxKRingRings rings get the ball of that
// many rings (a ball is rarely more than three rings deep).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>

#include "rxmesh/algo/bilateral_terms.h"
#include "rxmesh/algo/face_corners.cuh"
#include "rxmesh/algo/view_checks.h"
#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh {

struct BilateralOptions
{
    int          iterations = 1;
    KRingOptions kring;  // list length per thread of the ball query
};

//! Milliseconds per stage, summed over the iterations (CUDA events).
struct BilateralReport
{
    int   iterations = 0;
    float normals_ms = 0, sigma_ms = 0, filter_ms = 0, total_ms = 0;
};

namespace detail {

//! Per-vertex state of one iteration, in global (patch) order.
struct BilateralFrame
{
    VertexView<const float, 3> x;       // positions read
    VertexView<float, 3>       normal;  // zero when undefined
    VertexView<float>          sc2;     // sigma_c^2; 0 when undefined
    VertexView<float, 3>       x_next;  // positions written
};

//! The area-weighted normal term of the corner this call sums.
using BilateralNormalTerm = FaceCornerContribution<AreaVectorTerm>;

struct StoreBilateralNormal
{
    VertexView<float, 3> normal;
    __device__ void      operator()(VertexId v, const float (&sum)[3]) const
    {
        float n[3] = {sum[0], sum[1], sum[2]};
        if (!bilateral::normalize(n))
            n[0] = n[1] = n[2] = 0.f;
        for (int d = 0; d < 3; ++d)
            normal(v, d) = n[d];
    }
};

__device__ inline const float* position(VertexView<const float, 3> x, VertexId v)
{
    return &x(v);
}

using StagedPoint = KRingVertex<float, 3>;  // a vertex and its staged position

//! The ball of a centre: within 2 sigma_c of it (bound to the centre once).
struct InBall
{
    VertexView<const float> sc2;
    struct Bound
    {
        float           p[3], sc2;
        __device__ bool operator()(const StagedPoint& u) const
        {
            return bilateral::in_ball(p, u.value, sc2);
        }
    };
    __device__ Bound bind(const StagedPoint& c) const
    {
        return {{c.value[0], c.value[1], c.value[2]}, sc2(c.id)};
    }
    __device__ bool operator()(const StagedPoint& c, const StagedPoint& u) const
    {
        return bind(c)(u);
    }
};

//! Writes every vertex's next position: moved along its normal when the
//! filter is defined there (a unit normal, sigma_c > 0), else unchanged.
struct MoveAlongNormal
{
    BilateralFrame  f;
    __device__ void operator()(VertexId v, const StagedKRingView<float, 3>& ball) const
    {
        const float* p   = ball.vertex(0).value;  // the centre, staged
        const float* n   = position(f.normal, v);
        const float  sc2 = f.sc2(v);
        float        offset = 0.f;
        if (sc2 > 0.f && bilateral::dot3(n, n) > 0.f)
            offset = bilateral::ball_offset(p, n, sc2, [&](const auto& g) {
                for (std::uint32_t i = 0; i < ball.size(); ++i)
                    g(ball.vertex(i).value);
            });
        for (int d = 0; d < 3; ++d)
            f.x_next(v, d) = p[d] + n[d] * offset;
    }
};

//! Iteration stages 1 and 2: normals and sigma_c^2 of positions f.x.
inline void bilateral_prepare(const RXMesh& mesh, const BilateralFrame& f, cudaStream_t stream)
{
    mesh.accumulate<Op::FV, float, 3>(VertexInput<float, 3>{f.x}, BilateralNormalTerm{},
                                      StoreBilateralNormal{f.normal}, stream);
}

inline void bilateral_sigma_c(const RXMesh& mesh, const BilateralFrame& f, cudaStream_t stream)
{
    const VertexView<const float, 3> x   = f.x;
    const VertexView<float>          sc2 = f.sc2;
    mesh.for_each<Op::VV>(
        [=] __device__(VertexId v, const RowView<VertexId>& vv) {
            float least = vv.size() ? INFINITY : 0.f;
            for (std::uint32_t i = 0; i < vv.size(); ++i)
                least = fminf(least, bilateral::squared_distance(position(x, vv[i]),
                                                                 position(x, v)));
            sc2(v) = least;
        },
        AllActive{}, false, stream);
}

}  // namespace detail

//! Runs options.iterations Jacobi iterations of bilateral denoising from
//! `positions`, the result in `denoised` (the same view for in place).
//! BallBlockThreads: the block size of the ball's patch kernel.
//! \return the time of each stage.
//! \throw InvalidInputError for iterations < 0; Error when a view does not
//!        hold one element per vertex.
template <int BallBlockThreads = 256>
BilateralReport bilateral_denoise(const RXMesh& mesh, VertexView<const float, 3> positions,
                                         VertexView<float, 3>    denoised,
                                         const BilateralOptions& options = {},
                                         cudaStream_t            stream  = 0)
{
    if (options.iterations < 0)
        throw InvalidInputError("bilateral_denoise: iterations must be >= 0, got " +
                                std::to_string(options.iterations));
    require_vertex_count("bilateral_denoise", mesh, positions, denoised);
    const std::uint32_t V = mesh.num_vertices();
    DeviceBuffer<float> normal(3 * std::size_t(V), stream), sc2(V, stream), other(3 * std::size_t(V), stream);
    BilateralReport     report;
    GpuTimer            timer(stream), total(stream);
    mesh.kring_halo(stream);  // built once, outside the timings
    total.start();
    // Jacobi: read x, write x_next, swap; every vertex is written, so no
    // copies, and the last iteration writes `denoised` (the first reads
    // `positions`: no copy of the input either)
    const VertexView<float, 3> scratch(other.data(), V);
    const int                  n = options.iterations;
    VertexView<const float, 3> x = positions;
    for (int it = 0; it < n; ++it) {
        const VertexView<float, 3> x_next = (n - 1 - it) % 2 == 0 ? denoised : scratch;
        if (x_next.data() == x.data()) {  // in place, an odd count: read a copy first
            copy(scratch, x, stream);
            x = scratch;
        }
        const detail::BilateralFrame f{x, {normal.data(), V}, {sc2.data(), V}, x_next};
        timer.start();
        detail::bilateral_prepare(mesh, f, stream);
        report.normals_ms += timer.stop_ms();
        timer.start();
        detail::bilateral_sigma_c(mesh, f, stream);
        report.sigma_ms += timer.stop_ms();
        timer.start();
        mesh.for_each_kring_while<BallBlockThreads>(VertexInput<float, 3>{x}, detail::InBall{f.sc2},
                                  kMaxKRingRings, detail::MoveAlongNormal{f}, AllActive{},
                                  options.kring, stream);
        report.filter_ms += timer.stop_ms();
        x = x_next;
        ++report.iterations;
    }
    copy(denoised, x, stream);  // iterations == 0 only: nothing was written
    report.total_ms = total.stop_ms();
    return report;
}

}  // namespace rxmesh
