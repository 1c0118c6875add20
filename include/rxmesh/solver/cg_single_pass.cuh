// Conjugate gradient on the cached operator (solver/patch_laplacian.cuh) with
// one pass over the vectors per iteration, in one cooperative launch.
//
// The CG of solver/cg.cuh makes two passes per iteration: the product
// (d = r + beta d_old, q = A d, d.q), then the update (x += alpha d,
// r -= alpha q, r.r), which reads d and q again, with a grid barrier after
// each and one for the scalars. Here pass k does both halves of two
// iterations at once. From pass k - 1's sums it knows alpha = r.r / d.q, and
// the new residual's norm without reading it again:
//
//   |r - alpha q|^2 = r.r - 2 alpha r.q + alpha^2 q.q
//
// (pass k - 1 also reduces r.q and q.q), hence beta. So each block, for its
// patches' vertices (owned and ribbon), forms r_k = r - alpha q and
// d_k = r_k + beta d from the previous pass's vectors, writes x, r_k, d_k of
// the vertices it owns, and ends with q_k = A d_k and the four sums d.q,
// r.q, q.q and r_k.r_k. One grid barrier per iteration.
//
// The expansion cancels no worse than r.r itself: each step starts from the
// exact r.r of the stored residual (reduced in double), so rounding does not
// accumulate over iterations. The stopping test uses the expansion (the
// pass that finds the tolerance met updates x and r and stops, without a
// product nobody reads); the report gives the exact r.r of the last pass.
//
// Traffic per iteration and vertex: r, q and d read at every local vertex
// (ribbon included), x read and written, r, d and q written: 24 bytes per
// owned vertex fewer than the two-pass loop, 12 more per ribbon vertex.
// Memory: two copies of r, d and q.
#pragma once

#include <cuda_runtime.h>

#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>

#include <cstdint>

#include "rxmesh/solver/cg.cuh"
#include "rxmesh/solver/patch_laplacian.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/query/device_mesh.h"

namespace rxmesh::detail {

//! What one pass reduces: d.q, r.q and q.q of its direction, residual and
//! product, and r.r of its residual.
struct PassSums
{
    double dq = 0, rq = 0, qq = 0, rr = 0;
};

struct AddPassSums
{
    __device__ PassSums operator()(const PassSums& a, const PassSums& b) const
    {
        return {a.dq + b.dq, a.rq + b.rq, a.qq + b.qq, a.rr + b.rr};
    }
};

//! The solver's vectors: x (the caller's), and two sets of r, d and q. Pass
//! k writes set k & 1 and reads the other; the caller's r is r[0].
struct SinglePassVectors
{
    float* x;
    float* r[2];
    float* d[2];
    float* q[2];
};

//! The buffers pass k reads (set (k + 1) & 1) and writes (set k & 1),
//! chosen without indexing the arrays at run time (which would put them in
//! local memory).
struct PassBuffers
{
    float*       x;
    const float *r_old, *d_old, *q_old;
    float *      r_new, *d_new, *q_new;
};

__device__ __forceinline__ PassBuffers pass_buffers(const SinglePassVectors& v, int k)
{
    const bool odd = k & 1;
    return {v.x,
            odd ? v.r[0] : v.r[1], odd ? v.d[0] : v.d[1], odd ? v.q[0] : v.q[1],
            odd ? v.r[1] : v.r[0], odd ? v.d[1] : v.d[0], odd ? v.q[1] : v.q[0]};
}

//! Pass k's scalars, from pass k - 1's sums: every block computes the same.
struct PassScalars
{
    float alpha = 0, beta = 0;
    bool  last  = false;  // update x and r, then stop
};

__device__ __forceinline__ PassScalars pass_scalars(const PassSums& s, double stop, int k,
                                                    int limit)
{
    const double alpha = s.dq != 0 ? s.rr / s.dq : 0.0;
    double       delta = s.rr - 2 * alpha * s.rq + alpha * alpha * s.qq;
    delta              = delta > 0 ? delta : 0.0;  // a NaN stays NaN
    PassScalars out;
    out.alpha = float(alpha);
    out.beta  = s.rr > 0 ? float(delta / s.rr) : 0.f;
    // a non-finite residual (non-finite input, or an operator that is not
    // positive definite) stops the loop; cg_report reports it
    out.last = delta <= stop || k >= limit || !isfinite(delta);
    return out;
}

__device__ __forceinline__ PassSums load_sums(const PassSums* s)
{
    return {__ldcg(&s->dq), __ldcg(&s->rq), __ldcg(&s->qq), __ldcg(&s->rr)};
}

//! Pass 0: d_0 = r_0 (the caller's r), written for the owned vertices.
template <int N, int BlockThreads>
__device__ __forceinline__ double stage_first_pass(const PatchInfo& pi,
                                                   const float* __restrict__ r,
                                                   float* __restrict__ d, float* staged_d,
                                                   float* staged_r)
{
    const std::uint32_t owned = pi.vmap.num_owned;
    double              rr    = 0;
    for (std::uint32_t i = threadIdx.x; i < N * pi.nV; i += BlockThreads) {
        const std::uint32_t lv = i / N;
        const std::size_t   g  = std::size_t(N) * pi.vmap(lv) + (i - lv * N);
        const float         ri = __ldcg(r + g);
        staged_d[i]            = ri;
        if (lv < owned) {
            __stcg(d + g, ri);
            staged_r[i] = ri;
            rr += double(ri) * ri;
        }
    }
    return rr;
}

//! Pass k > 0 over the first n local values: r_k = r - alpha q and
//! d_k = r_k + beta d from the previous pass's vectors (the arrays do not
//! overlap, so the loads of several values can be in flight at once).
template <int N, int BlockThreads>
__device__ __forceinline__ double stage_next_pass(
    const PatchInfo& pi, std::uint32_t owned, std::uint32_t n, const PassScalars& s,
    float* __restrict__ x, const float* __restrict__ r_old, const float* __restrict__ d_old,
    const float* __restrict__ q_old, float* __restrict__ r_new, float* __restrict__ d_new,
    float* staged_d, float* staged_r)
{
    double rr = 0;
#pragma unroll 4
    for (std::uint32_t i = threadIdx.x; i < n; i += BlockThreads) {
        const std::uint32_t lv = i / N;
        const std::size_t   g  = std::size_t(N) * pi.vmap(lv) + (i - lv * N);
        const float         dg = __ldcg(d_old + g);
        const float         r  = __ldcg(r_old + g) - s.alpha * __ldcg(q_old + g);
        const float         d  = r + s.beta * dg;
        staged_d[i]            = d;
        if (lv < owned) {
            x[g] = __ldcg(x + g) + s.alpha * dg;
            __stcg(r_new + g, r);
            if (d_new) __stcg(d_new + g, d);
            staged_r[i] = r;
            rr += double(r) * r;
        }
    }
    return rr;
}

//! Stages d_k of the patch's local vertices (all of them, or the owned ones
//! in the last pass) and r_k of its owned ones; writes x, r_k, d_k of the
//! owned ones (pass 0: d_0 = r_0 alone). Returns the thread's share of
//! r_k.r_k.
template <int N, int BlockThreads>
__device__ __forceinline__ double stage_pass(const PatchInfo& pi, const PassBuffers& b, bool first,
                                             const PassScalars& s, float* staged_d,
                                             float* staged_r)
{
    const std::uint32_t owned = pi.vmap.num_owned;
    if (first)
        return stage_first_pass<N, BlockThreads>(pi, b.r_new, b.d_new, staged_d, staged_r);
    return stage_next_pass<N, BlockThreads>(pi, owned, N * (s.last ? owned : pi.nV), s, b.x,
                                            b.r_old, b.d_old, b.q_old, b.r_new,
                                            s.last ? nullptr : b.d_new, staged_d, staged_r);
}

//! q_k = c d_k + sum w (d_v - d_u) for the patch's owned vertices, written
//! to q[k & 1]; adds d.q, r.q and q.q into `sums`.
template <int N, int BlockThreads>
__device__ __forceinline__ void product_pass(const PatchInfo& pi, std::uint32_t p,
                                             const PatchLaplacianView& op,
                                             VertexView<const float> diag, float diag_scale,
                                             float* q, const float* staged_d,
                                             const float* staged_r, PassSums& sums)
{
    for (std::uint32_t v = threadIdx.x; v < pi.vmap.num_owned; v += BlockThreads) {
        const OwnedProduct<N> a = owned_product<N>(op, p, v, staged_d);
        const std::uint32_t   g = pi.vmap.owned_offset + v;
        const float           c = diag.data() ? diag_scale * diag(VertexId(g)) : 0.f;
#pragma unroll
        for (int k = 0; k < N; ++k) {
            const float y = c * a.x[k] + a.s[k];
            __stcg(q + std::size_t(N) * g + k, y);
            sums.dq += double(a.x[k]) * y;
            sums.rq += double(staged_r[N * v + k]) * y;
            sums.qq += double(y) * y;
        }
    }
}

//! Adds the block's sums into *total (four atomics per block).
template <int BlockThreads>
__device__ __forceinline__ void add_pass_sums(const PassSums& mine, PassSums* total)
{
    using BlockSum = cub::BlockReduce<PassSums, BlockThreads>;
    __shared__ typename BlockSum::TempStorage tmp;
    const PassSums block = BlockSum(tmp).Reduce(mine, AddPassSums{});
    if (threadIdx.x == 0) {
        atomicAdd(&total->dq, block.dq);
        atomicAdd(&total->rq, block.rq);
        atomicAdd(&total->qq, block.qq);
        atomicAdd(&total->rr, block.rr);
    }
}

//! Resident threads per SM the loop's registers are capped for (at most 40
//! registers a thread), as many as the two-pass loop gets without a bound.
constexpr int kSinglePassThreadsPerSm = 1536;

//! The whole loop (see the top of the file). `sums`: three slots, zeroed
//! before the launch; pass k adds into slot k % 3, reads slot (k - 1) % 3
//! and zeroes slot (k + 1) % 3, which no block reads or writes until after
//! the next barrier. Ends with the state's iterations, delta (the last
//! pass's r.r) and done.
//! (A tighter cap, as the two-pass loops take, lost in every run: the H100
//! note mcf_launch_by_size.md, in git history, see results/nvidia-h100/README.md.)
template <int N, int BlockThreads>
__global__ void __launch_bounds__(BlockThreads, kSinglePassThreadsPerSm / BlockThreads)
    pl_cg_single_pass(DeviceMesh m, PatchLaplacianView op, VertexView<const float> diag,
                      float diag_scale, SinglePassVectors v, CgState* state, PassSums* sums)
{
    extern __shared__ float pl_staged[];
    float* const                   staged_d = pl_staged;
    float* const                   staged_r = pl_staged + std::size_t(N) * m.limits.vertices;
    cooperative_groups::grid_group grid     = cooperative_groups::this_grid();
    if (state->done) return;  // the same for every block: set before the launch
    const double stop  = state->tol2 * state->delta0;
    const int    limit = state->max_iterations;
    int          k     = 0;
    for (;; ++k) {
        const PassScalars s = k == 0 ? PassScalars{} : pass_scalars(load_sums(sums + (k - 1) % 3), stop, k, limit);
        if (grid.thread_rank() == 0) sums[(k + 1) % 3] = PassSums{};
        const PassBuffers b = pass_buffers(v, k);
        PassSums          mine;
        for (std::uint32_t p = blockIdx.x; p < m.store.num_patches; p += gridDim.x) {
            const PatchInfo pi = m.patch(p);
            __syncthreads();  // the previous patch's staged values are read
            mine.rr += stage_pass<N, BlockThreads>(pi, b, k == 0, s, staged_d, staged_r);
            if (s.last) continue;
            __syncthreads();
            product_pass<N, BlockThreads>(pi, p, op, diag, diag_scale, b.q_new, staged_d,
                                          staged_r, mine);
        }
        add_pass_sums<BlockThreads>(mine, sums + k % 3);
        grid.sync();  // also ends the block sum's use of its shared storage
        if (s.last) break;
    }
    if (grid.thread_rank() == 0) {
        state->iterations = k;
        state->delta      = __ldcg(&sums[k % 3].rr);
        state->done       = 1;
    }
}

//! The single-pass loop's buffers and its initial state: the second r, two
//! d and two q (none needs zeroing: pass 0 reads r alone), the state
//! (CgStart's checks and r.r) and the three slots of sums.
struct SinglePassStart
{
    DeviceBuffer<float>    r1, d[2], q[2];
    DeviceBuffer<CgState>  state;
    DeviceBuffer<PassSums> sums;
    double                 rr = 0;

    SinglePassStart(std::uint64_t n, const float* r, const CgOptions& options, cudaStream_t stream)
        : r1(n, stream),
          d{DeviceBuffer<float>(n, stream), DeviceBuffer<float>(n, stream)},
          q{DeviceBuffer<float>(n, stream), DeviceBuffer<float>(n, stream)},
          state(1, stream),
          sums(3, stream)
    {
        rr = cg_initial_state(n, r, options, state.data(), stream);
        RXMESH_CHECK_CUDA(cudaMemsetAsync(sums.data(), 0, sums.bytes(), stream));
    }

    SinglePassVectors vectors(float* x, float* r)
    {
        return {x, {r, r1.data()}, {d[0].data(), d[1].data()}, {q[0].data(), q[1].data()}};
    }
};

}  // namespace rxmesh::detail
