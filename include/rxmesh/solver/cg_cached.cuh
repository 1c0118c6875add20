// Conjugate gradient on the operator cached per patch
// (solver/patch_laplacian.cuh): A = diag_scale diag(c) + the cached operator.
//
//   PatchLaplacian lap(mesh, weights, dt);
//   CgReport r = cg_solve_cached<3>(mesh, lap, areas, 2.f, x, r0, options);
//
// Three forms of the loop (CgLoop): the CG of solver/cg.cuh as three launches
// per iteration; the same in one cooperative launch (product, update and
// scalars behind grid barriers); and one pass per iteration in one launch
// (solver/cg_single_pass.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "rxmesh/solver/cg.cuh"
#include "rxmesh/solver/cg_single_pass.cuh"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/solver/patch_laplacian.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/query/accumulate.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

namespace detail {

//! One CG product on the cached operator, for the block's patches: stages
//! d = r + beta d_old for the patch's vertices (owned and ribbon), then for
//! each owned vertex q = c d + sum w (d_v - d_u) (c = diag_scale x diag),
//! writes d_new and q; returns the thread's share of d.q. `Coherent`: r and
//! d_old are read from L2 (written by other blocks of the same kernel).
template <int N, int BlockThreads, bool Coherent>
__device__ __forceinline__ double pl_product_patches(const DeviceMesh& m,
                                                     const PatchLaplacianView& op,
                                                     VertexView<const float> diag, float diag_scale,
                                                     float beta, const float* r,
                                                     const float* d_old, float* d_new, float* q,
                                                     float* staged)
{
    const auto load = [](const float* a) { return Coherent ? __ldcg(a) : *a; };
    double     dot  = 0;
    for (std::uint32_t p = blockIdx.x; p < m.store.num_patches; p += gridDim.x) {
        const PatchInfo pi = m.patch(p);
        __syncthreads();  // the previous patch's values are read
        for (std::uint32_t i = threadIdx.x; i < N * pi.nV; i += BlockThreads) {
            const std::uint32_t v = i / N;
            const std::size_t   g = std::size_t(N) * pi.vmap(v) + (i - v * N);
            staged[i]             = load(r + g) + beta * load(d_old + g);
        }
        __syncthreads();
        for (std::uint32_t v = threadIdx.x; v < pi.vmap.num_owned; v += BlockThreads) {
            const OwnedProduct<N> a = owned_product<N>(op, p, v, staged);
            const std::uint32_t   g = pi.vmap.owned_offset + v;
            const float           c = diag.data() ? diag_scale * diag(VertexId(g)) : 0.f;
#pragma unroll
            for (int k = 0; k < N; ++k) {
                const float y                  = c * a.x[k] + a.s[k];
                d_new[std::size_t(N) * g + k] = a.x[k];
                q[std::size_t(N) * g + k]     = y;
                dot += double(a.x[k]) * y;
            }
        }
    }
    return dot;
}

//! One CG product (pl_product_patches) as a kernel; d.q into state->dq.
template <int N, int BlockThreads, int MinBlocks>
__global__ void __launch_bounds__(BlockThreads, MinBlocks)
    pl_cg_product(DeviceMesh m, PatchLaplacianView op, VertexView<const float> diag,
                  float diag_scale, const float* r, const float* d_old, float* d_new, float* q,
                  CgState* state)
{
    extern __shared__ float pl_staged[];
    const double dot = pl_product_patches<N, BlockThreads, false>(
        m, op, diag, diag_scale, float(state->beta), r, d_old, d_new, q, pl_staged);
    add_block_sum<BlockThreads>(SumInto{&state->dq}, dot);
}

//! The whole CG loop in one cooperative launch: product, grid
//! barrier, update (x += alpha d, r -= alpha q, r.r), barrier, the scalars
//! (one thread), barrier; until the state says done, at most
//! max_iterations + 1 rounds. Values other blocks wrote are read from L2.
//! (Deferring x += alpha d into the next product, which reads d anyway,
//! moves fewer bytes but was slower: the product's gather is bound by
//! latency, and the update pass streams.)
//! MinBlocks: the least resident blocks per SM (a register cap); 0, no
//! bound. (ptxas gives an explicit 1 more registers than no bound: 56
//! against 40, 9 blocks of 128 per SM instead of 12.)
template <int N, int BlockThreads, int MinBlocks>
__global__ void __launch_bounds__(BlockThreads, MinBlocks)
    pl_cg_persistent(DeviceMesh m, PatchLaplacianView op, VertexView<const float> diag,
                     float diag_scale, float* x, float* r, float* d0, float* d1, float* q,
                     CgState* state, std::uint64_t n)
{
    extern __shared__ float pl_staged[];
    cooperative_groups::grid_group grid  = cooperative_groups::this_grid();
    const int                      limit = __ldcg(&state->max_iterations);
    for (int it = 0; it <= limit && !__ldcg(&state->done); ++it) {
        float*       d_new = (it & 1) ? d0 : d1;
        const float* d_old = (it & 1) ? d1 : d0;
        const double dot   = pl_product_patches<N, BlockThreads, true>(
            m, op, diag, diag_scale, float(__ldcg(&state->beta)), r, d_old, d_new, q, pl_staged);
        add_block_sum<BlockThreads>(SumInto{&state->dq}, dot);
        grid.sync();  // also ends the block sum's use of its shared storage
        const double dq    = __ldcg(&state->dq);
        const float  alpha = dq == 0 ? 0.f : float(__ldcg(&state->delta) / dq);
        double       rr    = 0;
        for (std::uint64_t i = grid.thread_rank(); i < n; i += grid.size()) {
            x[i] += alpha * __ldcg(d_new + i);
            const float ri = __ldcg(r + i) - alpha * __ldcg(q + i);
            r[i]           = ri;
            rr += double(ri) * ri;
        }
        add_block_sum<BlockThreads>(SumInto{&state->delta_next}, rr);
        grid.sync();
        if (grid.thread_rank() == 0) cg_scalars_step(state);
        grid.sync();
    }
}

//! Whether the cache's build kernels and the product of cg_solve_cached<N,
//! BlockThreads, MinBlocks>'s launched loop get the shared memory the
//! mesh's largest patch needs (opting them in above 48 KB; core/launch.cuh).
//! The one-launch loops are not asked: where theirs does not fit,
//! cg_solve_cached falls back to the launches.
template <int N, int BlockThreads, int MinBlocks>
bool pl_fits(const DeviceMesh& m)
{
    const std::size_t counters = pl_counter_bytes(m), staged = pl_staged_bytes<N>(m);
    return launcher<pl_slice_entries<kPlBuildThreads>>().fit_shared_memory(counters) &&
           launcher<pl_fill<kPlBuildThreads>>().fit_shared_memory(counters) &&
           launcher<pl_cg_product<N, BlockThreads, MinBlocks>>().fit_shared_memory(staged);
}

}  // namespace detail

//! Whether PatchLaplacian and cg_solve_cached<N, BlockThreads, MinBlocks>
//! can run on the mesh: its largest patch's counters and staged values fit
//! shared memory.
template <int N, int BlockThreads = 128, int MinBlocks = 0>
bool patch_laplacian_fits(const RXMesh& mesh)
{
    return detail::pl_fits<N, BlockThreads, MinBlocks>(mesh.device());
}

//! y = (diag_scale diag(c) + the cached operator) x, N values per vertex
//! (the CG product with beta = 0). `diag` may be empty.
//! \throw Error for a view of the wrong size or patches too large.
template <int N, int BlockThreads = 128>
void apply_cached(const RXMesh& mesh, const PatchLaplacian& op, VertexView<const float> diag,
                  float diag_scale, VertexView<const float, N> x, VertexView<float, N> y,
                  cudaStream_t stream = 0)
{
    require_vertex_count("apply_cached", mesh, x, y);
    const DeviceMesh& m    = op.mesh();
    const std::size_t smem = detail::pl_staged_bytes<N>(m);
    detail::require_shared_memory<detail::pl_cg_product<N, BlockThreads, 0>>(smem);
    DeviceBuffer<float>           staged(std::size_t(N) * mesh.num_vertices(), stream);
    DeviceBuffer<detail::CgState> state(1, stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(state.data(), 0, state.bytes(), stream));  // beta = 0
    detail::pl_cg_product<N, BlockThreads, 0>
        <<<detail::launcher<detail::pl_cg_product<N, BlockThreads, 0>>().resident_grid(
               BlockThreads, smem, m.store.num_patches),
           BlockThreads, smem, stream>>>(
            m, op.view(), diag, diag_scale, x.data(), x.data(), staged.data(), y.data(),
            state.data());
    RXMESH_CHECK_LAUNCH();
}

//! How cg_solve_cached runs its iterations: three launches each (the CG of
//! solver/cg.cuh); all of them in one cooperative launch, its blocks looping
//! over the patches, with three grid barriers per iteration (Persistent);
//! or one pass over the vectors and one barrier per iteration
//! (SinglePass, solver/cg_single_pass.cuh). Auto takes the single pass up to
//! kSinglePassMaxVertices vertices and the one-launch two-pass loop above,
//! each where the device has cooperative launches and the staged values
//! fit, else the launches. Above about a million vertices the two-pass loop
//! at full occupancy (cg_solve_cached's default launch there) was the
//! faster, and it keeps two fewer vectors; below, the single pass was
//! (benchmarks/results/nvidia-h200/mcf.md; the H100's runs: nvidia-h100/README.md).
enum class CgLoop
{
    Auto,
    Launches,
    Persistent,
    SinglePass
};

constexpr std::uint32_t kSinglePassMaxVertices = 1u << 20;

//! Patches per SM up to which cg_solve_cached's default launch of the
//! single pass is 256 threads (see cg_solve_cached).
constexpr std::uint32_t kCgWidePatchesPerSM = 32;

namespace detail {

//! The arguments every form of the cached loop takes.
template <int N>
struct CachedCg
{
    const DeviceMesh&       m;
    PatchLaplacianView      op;
    VertexView<const float> diag;
    float                   diag_scale;
    float*                  x;
    float*                  r;
    std::uint64_t           n;
    const CgOptions&        options;
    cudaStream_t            stream;
};

template <typename Kernel>
void launch_cooperative(Kernel* kernel, unsigned grid, int threads, void** args, std::size_t smem,
                        cudaStream_t stream)
{
    RXMESH_CHECK_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid,
                                                  threads, args, smem, stream));
}

template <int N, int BlockThreads, int MinBlocks>
CgReport cached_cg_persistent(const CachedCg<N>& c, unsigned grid, std::size_t smem)
{
    CgStart          start(c.n, c.r, c.options, c.stream);
    float *          d0 = start.d[0].data(), *d1 = start.d[1].data(), *q = start.q.data();
    CgState*         state = start.state.data();
    DeviceMesh       m     = c.m;
    auto             op    = c.op;
    auto             diag  = c.diag;
    float            scale = c.diag_scale;
    float *          x = c.x, *r = c.r;
    std::uint64_t    n      = c.n;
    void*            args[] = {&m, &op, &diag, &scale, &x, &r, &d0, &d1, &q, &state, &n};
    launch_cooperative(&pl_cg_persistent<N, BlockThreads, MinBlocks>, grid, BlockThreads, args,
                       smem, c.stream);
    return cg_report(state, start.rr, c.stream);
}

template <int N, int BlockThreads>
CgReport cached_cg_single_pass(const CachedCg<N>& c, unsigned grid, std::size_t smem)
{
    SinglePassStart   start(c.n, c.r, c.options, c.stream);
    SinglePassVectors v     = start.vectors(c.x, c.r);
    CgState*          state = start.state.data();
    PassSums*         sums  = start.sums.data();
    DeviceMesh        m     = c.m;
    auto              op    = c.op;
    auto              diag  = c.diag;
    float             scale = c.diag_scale;
    void*             args[] = {&m, &op, &diag, &scale, &v, &state, &sums};
    launch_cooperative(&pl_cg_single_pass<N, BlockThreads>, grid, BlockThreads, args, smem,
                       c.stream);
    const CgReport report = cg_report(state, start.rr, c.stream);
    if (report.iterations % 2 == 1)  // the last residual is in the second r
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(c.r, start.r1.data(), c.n * sizeof(float),
                                          cudaMemcpyDeviceToDevice, c.stream));
    return report;
}

template <int N, int BlockThreads, int MinBlocks>
CgReport cached_cg_launches(const CachedCg<N>& c, std::size_t smem)
{
    const unsigned grid = launcher<pl_cg_product<N, BlockThreads, MinBlocks>>().resident_grid(
        BlockThreads, smem, c.m.store.num_patches);
    const unsigned update_grid =
        unsigned(std::min<std::uint64_t>((c.n + BlockThreads - 1) / BlockThreads, 8192));
    return cg_drive(c.n, c.r, c.options, c.stream,
                    [&](const float* d_old, float* d_new, float* q, CgState* state) {
                        pl_cg_product<N, BlockThreads, MinBlocks>
                            <<<grid, BlockThreads, smem, c.stream>>>(
                                c.m, c.op, c.diag, c.diag_scale, c.r, d_old, d_new, q, state);
                        cg_update_kernel<BlockThreads>
                            <<<update_grid, BlockThreads, 0, c.stream>>>(c.n, c.x, c.r, d_new, q,
                                                                         state);
                        cg_scalars_kernel<<<1, 1, 0, c.stream>>>(state);
                        RXMESH_CHECK_LAUNCH();
                    });
}

//! Resident blocks of a cooperative kernel, 0 where the device has no
//! cooperative launches or the shared memory does not fit.
template <auto kernel>
unsigned cooperative_grid(int threads, std::size_t smem, std::uint32_t patches)
{
    Launcher l = launcher<kernel>();
    if (!l.device().cooperative || !l.fit_shared_memory(smem) || l.blocks_per_sm(threads, smem) <= 0)
        return 0;
    return l.resident_grid(threads, smem, patches);
}

//! cg_solve_cached with an explicit launch (BlockThreads > 0).
template <int N, int BlockThreads, int MinBlocks>
CgReport cg_solve_cached_launch(const RXMesh& mesh, const PatchLaplacian& op,
                                VertexView<const float> diag, float diag_scale,
                                VertexView<float, N> x, VertexView<float, N> r,
                                const CgOptions& options, cudaStream_t stream, CgLoop loop)
{
    require_vertex_count("cg_solve_cached", mesh, x, r);
    if (diag.data() != nullptr && diag.num_elements() != mesh.num_vertices())
        throw Error("cg_solve_cached: the diagonal has " + std::to_string(diag.num_elements()) +
                    " values for " + std::to_string(mesh.num_vertices()) + " vertices");
    const DeviceMesh& m    = op.mesh();
    const std::size_t smem = pl_staged_bytes<N>(m);
    require_shared_memory<pl_cg_product<N, BlockThreads, MinBlocks>>(smem);
    const CachedCg<N> c{m,        op.view(), diag, diag_scale, x.data(),
                        r.data(), std::uint64_t(N) * mesh.num_vertices(), options, stream};
    const std::uint32_t P = m.store.num_patches;
    if (loop == CgLoop::SinglePass ||
        (loop == CgLoop::Auto && mesh.num_vertices() <= kSinglePassMaxVertices)) {
        const unsigned grid =
            cooperative_grid<pl_cg_single_pass<N, BlockThreads>>(BlockThreads, 2 * smem, P);
        if (grid > 0) return cached_cg_single_pass<N, BlockThreads>(c, grid, 2 * smem);
        if (loop == CgLoop::SinglePass)
            throw Error("cg_solve_cached: the single-pass loop needs cooperative launches and " +
                        std::to_string(2 * smem) + " bytes of shared memory per block");
    }
    if (loop != CgLoop::Launches) {
        const unsigned grid =
            cooperative_grid<pl_cg_persistent<N, BlockThreads, MinBlocks>>(BlockThreads, smem, P);
        if (grid > 0)
            return cached_cg_persistent<N, BlockThreads, MinBlocks>(c, grid, smem);
        if (loop == CgLoop::Persistent)
            throw Error("cg_solve_cached: the device has no cooperative launches");
    }
    return cached_cg_launches<N, BlockThreads, MinBlocks>(c, smem);
}

}  // namespace detail

//! cg_solve (solver/cg.cuh) for A = diag_scale diag(c) + the cached operator:
//! x holds the initial guess and r its residual on entry; on return x is the
//! solution and r its residual. `diag` may be empty (A is then the
//! Laplacian alone).
//! \throw Error for a bad option or a view of the wrong size, when the
//!        largest patch's staged values do not fit shared memory, or when
//!        CgLoop::Persistent or SinglePass is asked of a device without
//!        cooperative launches (or, for SinglePass, without the shared
//!        memory of its two staged vectors).
//! MinBlocks: the least resident blocks per SM (a register cap; 0, no
//! bound) of the product's launches and of the one-launch two-pass loop;
//! the single-pass loop keeps its own cap (kSinglePassThreadsPerSm).
//! BlockThreads = 0 (the default) chooses the launch by size:
//! - above kSinglePassMaxVertices, where Auto runs the two-pass loop, 256
//!   threads capped at 8 blocks per SM (32 registers, a few spilled: full
//!   occupancy). That loop is bound by how many loads are in flight to
//!   DRAM, and a full SM keeps more of them in flight;
//! - below, the single pass with its own cap: 256 threads up to
//!   kCgWidePatchesPerSM patches per SM, 128 above. With few patches per SM
//!   each block's pass is one dependent chain, which a wide block ends in
//!   fewer trips; with many, the narrower blocks balance better.
//! From the sweeps of benchmarks/mcf.cu (results/nvidia-h200/mcf.md; the H100's:
//! results/nvidia-h100/README.md).
template <int N, int BlockThreads = 0, int MinBlocks = 0>
CgReport cg_solve_cached(const RXMesh& mesh, const PatchLaplacian& op, VertexView<const float> diag,
                         float diag_scale, VertexView<float, N> x, VertexView<float, N> r,
                         const CgOptions& options = {}, cudaStream_t stream = 0,
                         CgLoop loop = CgLoop::Auto)
{
    if constexpr (BlockThreads > 0)
        return detail::cg_solve_cached_launch<N, BlockThreads, MinBlocks>(
            mesh, op, diag, diag_scale, x, r, options, stream, loop);
    else if (mesh.num_vertices() > kSinglePassMaxVertices)
        return detail::cg_solve_cached_launch<N, 256, 8>(mesh, op, diag, diag_scale, x, r, options,
                                                         stream, loop);
    else if (!detail::more_patches_per_sm_than(mesh.num_patches(), kCgWidePatchesPerSM))
        return detail::cg_solve_cached_launch<N, 256, 0>(mesh, op, diag, diag_scale, x, r, options,
                                                         stream, loop);
    else
        return detail::cg_solve_cached_launch<N, 128, 0>(mesh, op, diag, diag_scale, x, r, options,
                                                         stream, loop);
}

}  // namespace rxmesh
