// Bilateral mesh denoising (Fleishman, Drori, Cohen-Or 2003; the formulas in
// algo/detail/bilateral_terms.h), Jacobi iterations: every vertex reads the previous
// positions. Written with the public API, one iteration is two queries:
//   1. RXMesh::accumulate<Op::FV> with PerComponent<Plus, 3, Min>: in one
//      pass over each vertex's faces (positions staged in shared memory; on
//      a mesh of few patches per SM, a thread per vertex instead),
//      the normal (a sum) and sigma_c^2 (the least squared length of the
//      face edges at the vertex: every one-ring edge lies on a face, so this
//      is the one-ring's least, the same floats);
//   2. RXMesh::for_each_kring_while: the ball, grown ring by ring while it
//      finds vertices within 2 sigma_c, and the weighted offset along n;
//      the positions of every vertex a patch's balls can reach are staged
//      in shared memory (the growth tests and the weights read them there).
// Vertices with no neighbour, a zero normal or sigma_c = 0 (a zero-length
// edge: the weights are undefined there) keep their position; vertices
// whose ball would reach beyond kMaxKRingRings rings get the ball of that
// many rings (a ball is rarely more than three rings deep).
//
// This header: the passes and the launch-tuned template, for benchmarks and
// device code; the entry point with the launch chosen by size is in
// bilateral.h, compiled into the library (src/algo/bilateral.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rxmesh/algo/bilateral.h"
#include "rxmesh/algo/detail/bilateral_terms.h"
#include "rxmesh/geometry/face_corners.cuh"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/view_checks.h"
#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/stage_clock.h"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh {

namespace detail {

//! Per-vertex state of one iteration, in global (patch) order.
struct BilateralFrame
{
    VertexView<const float, 3> x;       // positions read
    VertexView<float, 4>       terms;   // unit normal (zero when undefined), sigma_c^2
    VertexView<float, 3>       x_next;  // positions written
};

//! How the four values of a vertex combine over its faces.
using BilateralCombine = PerComponent<Plus, 3, Min>;

//! A face's contribution to its owned corners p (next q, previous r): the
//! area vector cross(q - p, r - p) and min(|q - p|^2, |r - p|^2).
struct BilateralCornerTerms
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<float, 3>& x,
                               const VertexReduction<float, 4, BilateralCombine>& sums) const
    {
        for (int k = 0; k < 3; ++k) {
            if (!sums.owns(k))  // the other corners are summed by other calls
                continue;
            const int   a = (k + 1) % 3, b = (k + 2) % 3;
            const float p[3] = {x(k, 0), x(k, 1), x(k, 2)};
            const float q[3] = {x(a, 0), x(a, 1), x(a, 2)};
            const float r[3] = {x(b, 0), x(b, 1), x(b, 2)};
            float       value[4];
            bilateral::normal_term(p, q, r, value);
            // neighbour first, as the one-ring formula reads it
            value[3] = fminf(bilateral::squared_distance(q, p), bilateral::squared_distance(r, p));
            sums.add(k, value);
        }
    }
};

//! The unit normal (zero when the sum is zero) and sigma_c^2 (0 for a
//! vertex without faces).
struct StoreBilateralTerms
{
    VertexView<float, 4> terms;
    __device__ void      operator()(VertexId v, const float (&sum)[4]) const
    {
        float n[3] = {sum[0], sum[1], sum[2]};
        if (!bilateral::normalize(n))
            n[0] = n[1] = n[2] = 0.f;
        for (int d = 0; d < 3; ++d)
            terms(v, d) = n[d];
        terms(v, 3) = sum[3] == INFINITY ? 0.f : sum[3];
    }
};

using StagedPoint = KRingVertex<float, 3>;  // a vertex and its staged position

//! The ball of a centre: within 2 sigma_c of it (bound to the centre once).
struct InBall
{
    VertexView<const float, 4> terms;  // sigma_c^2 is value 3
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
        return {{c.value[0], c.value[1], c.value[2]}, terms(c.id, 3)};
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
        const float  n[3] = {f.terms(v, 0), f.terms(v, 1), f.terms(v, 2)};
        const float  sc2  = f.terms(v, 3);
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

//! Iteration stage 1: the normal and sigma_c^2 of positions f.x, in a
//! block per patch or a thread per vertex (Form).
template <int MinBlocks, AccumulateForm Form>
void bilateral_terms(const RXMesh& mesh, const BilateralFrame& f, cudaStream_t stream)
{
    mesh.accumulate<Op::FV, float, 4, BilateralCombine, AccumulatePolicy<128, MinBlocks, Form>>(
        VertexInput<float, 3>{f.x}, BilateralCornerTerms{}, StoreBilateralTerms{f.terms}, stream);
}

//! Iteration stage 2: the ball and the move along the normal.
template <int BlockThreads, int MinBlocks>
void bilateral_ball(const RXMesh& mesh, const BilateralFrame& f, const KRingOptions& options,
                    cudaStream_t stream)
{
    mesh.for_each_kring_while<BlockThreads, MinBlocks>(VertexInput<float, 3>{f.x}, InBall{f.terms},
                                                       kMaxKRingRings, MoveAlongNormal{f},
                                                       AllActive{}, options, stream);
}

}  // namespace detail

//! Patches per SM above which bilateral_denoise's default caps the ball's
//! 256-thread blocks at 40 registers (>= 6 blocks/SM); at or below it, the
//! default leaves ptxas free (MinBlocks 1: 48 registers, 5 blocks/SM). With
//! more patches than one wave of blocks holds, the ball waits on shared
//! memory and on its lists, and the sixth block hides more of that than the
//! extra registers save; with fewer, every block is resident anyway and the
//! 48-register code is the faster. From the sweeps of
//! benchmarks/bilateral.cu (results/nvidia-h200/bilateral.md; the H100's:
//! results/nvidia-h100/README.md).
inline constexpr std::uint32_t kBilateralBallCapPatchesPerSM = 8;
inline constexpr int           kBilateralBallCappedMinBlocks = 6;

//! Patches per SM up to which bilateral_denoise runs its normal and sigma_c
//! pass as a thread per vertex (AccumulateForm::Flat) rather than a block of
//! 128 threads per patch: with about one patch per SM the blocks are one
//! wave, each a chain of staging and barriers that the flat form does not
//! have; at four per SM the two tied. From benchmarks/bilateral.cu
//! (the H100 note accumulate_flat.md, in git history: results/nvidia-h100/README.md).
inline constexpr std::uint32_t kBilateralFlatTermsPatchesPerSM = 2;

//! Runs options.iterations Jacobi iterations of bilateral denoising from
//! `positions`, the result in `denoised` (the same view for in place).
//! BallBlockThreads, BallMinBlocks: the launch of the ball's patch kernel
//! (MinBlocks, the least resident blocks per SM, is a register cap; 0, no
//! bound); BallBlockThreads = 0 (the default) chooses it by the mesh's size
//! (kBilateralBallCapPatchesPerSM). TermsMinBlocks: the same cap for the
//! normal and sigma_c pass (128 threads; a thread per vertex instead up to
//! kBilateralFlatTermsPatchesPerSM patches per SM). All swept by
//! benchmarks/bilateral.cu.
//! \return the time of each stage.
//! \throw InvalidInputError for iterations < 0; Error when a view does not
//!        hold one element per vertex.
template <int BallBlockThreads = 0, int TermsMinBlocks = 1, int BallMinBlocks = 1>
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
    DeviceBuffer<float> terms(4 * std::size_t(V), stream), other(3 * std::size_t(V), stream);
    BilateralReport     report;
    mesh.kring_halo(stream);  // built once per mesh, outside the timings
    mesh.vertex_sources(Op::FV, stream);  // the terms pass's lists (query/vertex_sources.h), too
    const bool capped_ball = detail::more_patches_per_sm_than(mesh.num_patches(), kBilateralBallCapPatchesPerSM);
    const bool flat_terms  = !detail::more_patches_per_sm_than(mesh.num_patches(), kBilateralFlatTermsPatchesPerSM);
    // stages 0 (terms) and 1 (ball), timed without a host wait between them
    StageClock clock(stream, 2);
    clock.mark();
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
            clock.mark();
        }
        const detail::BilateralFrame f{x, {terms.data(), V}, x_next};
        if (flat_terms)
            detail::bilateral_terms<TermsMinBlocks, AccumulateForm::Flat>(mesh, f, stream);
        else
            detail::bilateral_terms<TermsMinBlocks, AccumulateForm::Patches>(mesh, f, stream);
        clock.mark(0);
        if constexpr (BallBlockThreads > 0)
            detail::bilateral_ball<BallBlockThreads, BallMinBlocks>(mesh, f, options.kring, stream);
        else if (capped_ball)
            detail::bilateral_ball<256, kBilateralBallCappedMinBlocks>(mesh, f, options.kring,
                                                                       stream);
        else
            detail::bilateral_ball<256, 1>(mesh, f, options.kring, stream);
        clock.mark(1);
        x = x_next;
        ++report.iterations;
    }
    copy(denoised, x, stream);  // iterations == 0 only: nothing was written
    clock.mark();
    const std::vector<float>& ms = clock.finish();
    report.terms_ms = ms[0], report.filter_ms = ms[1], report.total_ms = clock.total_ms();
    return report;
}

}  // namespace rxmesh
