// A symmetric edge-weighted operator cached per patch, for products applied
// many times (conjugate gradient):
//
//   (A x)_v = c_v x_v + sum over the edges (v, u) of w_e (x_v - x_u)
//
// accumulate<Op::EV> rebuilds each patch's vertex-to-edge transpose, maps
// ribbon ids and gathers the edge weights in every product. Here that is
// done once: each patch keeps, for every vertex it owns, its neighbours'
// local ids and the weights, in the order the product reads them. 32 owned
// vertices make a slice stored column by column (entry j of the slice's
// vertices side by side, padded to the slice's largest valence), so a warp's
// loads coalesce. Entries are sorted by neighbour, so sums are the same in
// every run.
//
//   PatchLaplacian lap(mesh, weights, dt);              // per time step
//   CgReport r = cg_solve_cached<3>(mesh, lap, areas, 2.f, x, r0, options);
//
// Memory: 6 bytes per (owned vertex, neighbour) pair plus the padding, and
// two offsets per patch and per slice.
#pragma once

#include <cuda_runtime.h>

#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <cstdint>

#include "rxmesh/algo/cg.cuh"
#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_sum.cuh"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

namespace detail {

constexpr std::uint32_t kSliceWidth     = 32;   // owned vertices per slice: a warp
constexpr int           kPlBuildThreads = 256;  // the cache's build kernels

//! The cached operator as kernels read it.
struct PatchLaplacianView
{
    const std::uint32_t* slice_begin;  // per patch, + 1: its first slice
    const std::uint32_t* entry_begin;  // per slice, + 1: its first entry
    const std::uint16_t* neighbour;    // local vertex id of each entry
    const float*         weight;       // its weight (0 in padding)
};

inline __host__ __device__ std::uint32_t slices_of(std::uint32_t owned)
{
    return (owned + kSliceWidth - 1) / kSliceWidth;
}

//! slices[p] = the slices of patch p. (A template so that the header can
//! define it in every translation unit.)
template <typename Mesh>
__global__ void pl_slices_per_patch(Mesh m, std::uint32_t* slices)
{
    for (std::uint32_t p = blockIdx.x * blockDim.x + threadIdx.x; p < m.store.num_patches;
         p += gridDim.x * blockDim.x)
        slices[p] = slices_of(m.store.vertex_offsets[p + 1] - m.store.vertex_offsets[p]);
}

//! Each owned vertex's valence in the patch, counted in shared memory
//! (`count`, one per owned vertex).
template <int BlockThreads>
__device__ __forceinline__ void pl_count_valences(const PatchInfo& pi, std::uint32_t* count)
{
    const std::uint32_t owned = pi.vmap.num_owned;
    for (std::uint32_t v = threadIdx.x; v < owned; v += BlockThreads) count[v] = 0;
    __syncthreads();
    for (std::uint32_t i = threadIdx.x; i < pi.nE; i += BlockThreads) {
        const std::uint16_t a = pi.m_ev[2 * i], b = pi.m_ev[2 * i + 1];
        if (a < owned) atomicAdd(count + a, 1u);
        if (b < owned) atomicAdd(count + b, 1u);
    }
    __syncthreads();
}

//! entries[s] = the entries of slice s: 32 x its largest valence.
template <int BlockThreads>
__global__ void __launch_bounds__(BlockThreads)
    pl_slice_entries(DeviceMesh m, const std::uint32_t* slice_begin, std::uint32_t* entries)
{
    extern __shared__ std::uint32_t pl_count[];
    for (std::uint32_t p = blockIdx.x; p < m.store.num_patches; p += gridDim.x) {
        const PatchInfo pi = m.patch(p);
        pl_count_valences<BlockThreads>(pi, pl_count);
        const std::uint32_t owned = pi.vmap.num_owned;
        for (std::uint32_t s = threadIdx.x; s < slices_of(owned); s += BlockThreads) {
            std::uint32_t width = 0;
            for (std::uint32_t v = s * kSliceWidth; v < min(owned, (s + 1) * kSliceWidth); ++v)
                width = max(width, pl_count[v]);
            entries[slice_begin[p] + s] = width * kSliceWidth;
        }
        __syncthreads();  // the counts are read before the next patch's
    }
}

//! Shared memory of the build kernels: a counter per vertex of the largest
//! patch.
inline std::size_t pl_counter_bytes(const DeviceMesh& m)
{
    return std::size_t(m.limits.vertices) * sizeof(std::uint32_t);
}

//! Shared memory of the products: N staged values per vertex of the largest
//! patch.
template <int N>
std::size_t pl_staged_bytes(const DeviceMesh& m)
{
    return std::size_t(N) * m.limits.vertices * sizeof(float);
}

//! The entries of owned vertex v (of its patch): entry j at at + j * 32.
struct OwnedRow
{
    std::uint32_t at, width;
};

__device__ __forceinline__ OwnedRow owned_row(const PatchLaplacianView& op, std::uint32_t p,
                                              std::uint32_t v)
{
    const std::uint32_t s     = op.slice_begin[p] + v / kSliceWidth;
    const std::uint32_t begin = op.entry_begin[s];
    return {begin + v % kSliceWidth, (op.entry_begin[s + 1] - begin) / kSliceWidth};
}

//! Fills the entries: each local edge adds itself to the rows of its owned
//! ends; then each row is sorted by neighbour and padded with (itself, 0).
template <int BlockThreads>
__global__ void __launch_bounds__(BlockThreads)
    pl_fill(DeviceMesh m, PatchLaplacianView op, EdgeView<const float> w, float scale,
            std::uint16_t* neighbour, float* weight)
{
    extern __shared__ std::uint32_t pl_cursor[];
    for (std::uint32_t p = blockIdx.x; p < m.store.num_patches; p += gridDim.x) {
        const PatchInfo     pi    = m.patch(p);
        const std::uint32_t owned = pi.vmap.num_owned;
        for (std::uint32_t v = threadIdx.x; v < owned; v += BlockThreads) pl_cursor[v] = 0;
        __syncthreads();
        for (std::uint32_t i = threadIdx.x; i < pi.nE; i += BlockThreads) {
            const std::uint16_t end[2] = {pi.m_ev[2 * i], pi.m_ev[2 * i + 1]};
            const float         we     = scale * w(EdgeId(pi.emap(i)));
            for (int k = 0; k < 2; ++k)
                if (end[k] < owned) {
                    const OwnedRow      row  = owned_row(op, p, end[k]);
                    const std::uint32_t slot = atomicAdd(pl_cursor + end[k], 1u);
                    neighbour[row.at + slot * kSliceWidth] = end[1 - k];
                    weight[row.at + slot * kSliceWidth]    = we;
                }
        }
        __syncthreads();
        for (std::uint32_t v = threadIdx.x; v < owned; v += BlockThreads) {
            const OwnedRow      row = owned_row(op, p, v);
            const std::uint32_t n   = pl_cursor[v];
            // insertion sort by neighbour: rows are short, and built once
            for (std::uint32_t j = 1; j < n; ++j) {
                const std::uint16_t u  = neighbour[row.at + j * kSliceWidth];
                const float         wu = weight[row.at + j * kSliceWidth];
                std::uint32_t       k  = j;
                for (; k > 0 && neighbour[row.at + (k - 1) * kSliceWidth] > u; --k) {
                    neighbour[row.at + k * kSliceWidth] = neighbour[row.at + (k - 1) * kSliceWidth];
                    weight[row.at + k * kSliceWidth]    = weight[row.at + (k - 1) * kSliceWidth];
                }
                neighbour[row.at + k * kSliceWidth] = u;
                weight[row.at + k * kSliceWidth]    = wu;
            }
            for (std::uint32_t j = n; j < row.width; ++j) {
                neighbour[row.at + j * kSliceWidth] = static_cast<std::uint16_t>(v);
                weight[row.at + j * kSliceWidth]    = 0.f;
            }
        }
        __syncthreads();  // the cursors are read before the next patch's
    }
}

}  // namespace detail

//! The operator's off-diagonal part, scale x (the edge weights' Laplacian),
//! cached per patch (see the top of the file). The diagonal c comes with
//! each product.
class PatchLaplacian
{
   public:
    //! \throw Error when the weights do not hold one value per edge, or when
    //!        the largest patch's counters do not fit shared memory.
    PatchLaplacian(const RXMesh& mesh, EdgeView<const float> weights, float scale,
                   cudaStream_t stream = 0)
        : m_mesh(mesh.device())
    {
        if (weights.num_elements() != mesh.num_edges())
            throw Error("PatchLaplacian: " + std::to_string(weights.num_elements()) +
                        " weights for " + std::to_string(mesh.num_edges()) + " edges");
        const std::uint32_t P = mesh.num_patches();
        m_slice_begin         = DeviceBuffer<std::uint32_t>(P + 1, stream);
        DeviceBuffer<std::uint32_t> slices(P + 1, stream);
        RXMESH_CHECK_CUDA(cudaMemsetAsync(slices.data(), 0, slices.bytes(), stream));
        detail::pl_slices_per_patch<<<(P + 255) / 256, 256, 0, stream>>>(m_mesh, slices.data());
        RXMESH_CHECK_LAUNCH();
        exclusive_scan(slices.data(), m_slice_begin.data(), P + 1, stream);
        const std::uint32_t S = detail::read_back(m_slice_begin.data() + P, stream);

        const std::size_t smem = detail::pl_counter_bytes(m_mesh);
        detail::require_shared_memory<detail::pl_slice_entries<detail::kPlBuildThreads>>(smem);
        detail::require_shared_memory<detail::pl_fill<detail::kPlBuildThreads>>(smem);
        DeviceBuffer<std::uint32_t> entries(std::size_t(S) + 1, stream);
        RXMESH_CHECK_CUDA(cudaMemsetAsync(entries.data(), 0, entries.bytes(), stream));
        const unsigned grid = std::max(1u, P);
        detail::pl_slice_entries<detail::kPlBuildThreads>
            <<<grid, detail::kPlBuildThreads, smem, stream>>>(
            m_mesh, m_slice_begin.data(), entries.data());
        RXMESH_CHECK_LAUNCH();
        m_entry_begin = DeviceBuffer<std::uint32_t>(std::size_t(S) + 1, stream);
        exclusive_scan(entries.data(), m_entry_begin.data(), std::size_t(S) + 1, stream);
        const std::uint32_t E = detail::read_back(m_entry_begin.data() + S, stream);

        m_neighbour = DeviceBuffer<std::uint16_t>(std::max<std::uint32_t>(E, 1), stream);
        m_weight    = DeviceBuffer<float>(std::max<std::uint32_t>(E, 1), stream);
        detail::pl_fill<detail::kPlBuildThreads><<<grid, detail::kPlBuildThreads, smem, stream>>>(
            m_mesh, view(), EdgeView<const float>(weights.data(), weights.num_elements()), scale,
            m_neighbour.data(), m_weight.data());
        RXMESH_CHECK_LAUNCH();
    }

    detail::PatchLaplacianView view() const
    {
        return {m_slice_begin.data(), m_entry_begin.data(), m_neighbour.data(), m_weight.data()};
    }
    const DeviceMesh& mesh() const { return m_mesh; }

    //! Device bytes it keeps.
    std::size_t bytes() const
    {
        return m_slice_begin.bytes() + m_entry_begin.bytes() + m_neighbour.bytes() +
               m_weight.bytes();
    }

   private:
    static void exclusive_scan(const std::uint32_t* in, std::uint32_t* out, std::size_t n,
                               cudaStream_t stream)
    {
        detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n, stream);
        });
    }

    DeviceMesh                  m_mesh;
    DeviceBuffer<std::uint32_t> m_slice_begin, m_entry_begin;
    DeviceBuffer<std::uint16_t> m_neighbour;
    DeviceBuffer<float>         m_weight;
};

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
            const OwnedRow row = owned_row(op, p, v);
            float          x[N], s[N];
#pragma unroll
            for (int k = 0; k < N; ++k) {
                x[k] = staged[N * v + k];
                s[k] = 0.f;
            }
            for (std::uint32_t j = 0; j < row.width; ++j) {
                const std::uint32_t e = row.at + j * kSliceWidth;
                const std::uint32_t u = __ldg(op.neighbour + e);
                const float         w = __ldg(op.weight + e);
#pragma unroll
                for (int k = 0; k < N; ++k) s[k] += w * (x[k] - staged[N * u + k]);
            }
            const std::uint32_t g = pi.vmap.owned_offset + v;
            const float         c = diag.data() ? diag_scale * diag(VertexId(g)) : 0.f;
#pragma unroll
            for (int k = 0; k < N; ++k) {
                const float y                  = c * x[k] + s[k];
                d_new[std::size_t(N) * g + k] = x[k];
                q[std::size_t(N) * g + k]     = y;
                dot += double(x[k]) * y;
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
template <int N, int BlockThreads>
__global__ void __launch_bounds__(BlockThreads)
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

//! Whether the cache's build kernels and the products of cg_solve_cached<N,
//! BlockThreads, MinBlocks> get the shared memory the mesh's largest patch
//! needs (opting them in above 48 KB; core/launch.cuh).
template <int N, int BlockThreads, int MinBlocks>
bool pl_fits(const DeviceMesh& m)
{
    const std::size_t counters = pl_counter_bytes(m), staged = pl_staged_bytes<N>(m);
    return launcher<pl_slice_entries<kPlBuildThreads>>().fit_shared_memory(counters) &&
           launcher<pl_fill<kPlBuildThreads>>().fit_shared_memory(counters) &&
           launcher<pl_cg_product<N, BlockThreads, MinBlocks>>().fit_shared_memory(staged) &&
           launcher<pl_cg_persistent<N, BlockThreads>>().fit_shared_memory(staged);
}

}  // namespace detail

//! Whether PatchLaplacian and cg_solve_cached<N, BlockThreads, MinBlocks>
//! can run on the mesh: its largest patch's counters and staged values fit
//! shared memory.
template <int N, int BlockThreads = 128, int MinBlocks = 1>
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
    detail::require_shared_memory<detail::pl_cg_product<N, BlockThreads, 1>>(smem);
    DeviceBuffer<float>           staged(std::size_t(N) * mesh.num_vertices(), stream);
    DeviceBuffer<detail::CgState> state(1, stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(state.data(), 0, state.bytes(), stream));  // beta = 0
    detail::pl_cg_product<N, BlockThreads, 1>
        <<<detail::launcher<detail::pl_cg_product<N, BlockThreads, 1>>().resident_grid(
               BlockThreads, smem, m.store.num_patches),
           BlockThreads, smem, stream>>>(
            m, op.view(), diag, diag_scale, x.data(), x.data(), staged.data(), y.data(),
            state.data());
    RXMESH_CHECK_LAUNCH();
}

//! How cg_solve_cached runs its iterations: three launches each (the CG of
//! algo/cg.cuh), or all of them in one cooperative launch, its blocks
//! looping over the patches. The one launch was as fast or faster at every
//! size measured (52K to 13.3M faces, benchmarks/results/nvidia-h100/
//! mcf.md), most on small meshes, where separate launches are mostly launch
//! latency; Auto takes it wherever the device has cooperative launches.
enum class CgLoop
{
    Auto,
    Launches,
    Persistent
};

//! cg_solve (algo/cg.cuh) for A = diag_scale diag(c) + the cached operator:
//! x holds the initial guess and r its residual on entry; on return x is the
//! solution. `diag` may be empty (A is then the Laplacian alone).
//! \throw Error for a bad option or a view of the wrong size, when the
//!        largest patch's staged values do not fit shared memory, or when
//!        CgLoop::Persistent is asked of a device without cooperative
//!        launches.
template <int N, int BlockThreads = 128, int MinBlocks = 1>
CgReport cg_solve_cached(const RXMesh& mesh, const PatchLaplacian& op, VertexView<const float> diag,
                         float diag_scale, VertexView<float, N> x, VertexView<float, N> r,
                         const CgOptions& options = {}, cudaStream_t stream = 0,
                         CgLoop loop = CgLoop::Auto)
{
    require_vertex_count("cg_solve_cached", mesh, x, r);
    if (diag.data() != nullptr && diag.num_elements() != mesh.num_vertices())
        throw Error("cg_solve_cached: the diagonal has " + std::to_string(diag.num_elements()) +
                    " values for " + std::to_string(mesh.num_vertices()) + " vertices");
    const DeviceMesh& m    = op.mesh();
    const std::size_t smem = detail::pl_staged_bytes<N>(m);
    detail::require_shared_memory<detail::pl_cg_product<N, BlockThreads, MinBlocks>>(smem);
    detail::require_shared_memory<detail::pl_cg_persistent<N, BlockThreads>>(smem);
    const std::uint64_t              n = std::uint64_t(N) * mesh.num_vertices();
    const detail::PatchLaplacianView v = op.view();
    detail::Launcher persistent = detail::launcher<detail::pl_cg_persistent<N, BlockThreads>>();
    const bool       one_launch = persistent.device().cooperative &&
                            persistent.blocks_per_sm(BlockThreads, smem) > 0;
    if (loop == CgLoop::Persistent && !one_launch)
        throw Error("cg_solve_cached: the device has no cooperative launches");
    if (loop == CgLoop::Persistent || (loop == CgLoop::Auto && one_launch)) {
        detail::CgStart start(n, r.data(), options, stream);
        const unsigned  grid = persistent.resident_grid(BlockThreads, smem, m.store.num_patches);
        float*          xd = x.data(), *rd = r.data(), *d0 = start.d[0].data(),
               *d1 = start.d[1].data(), *q = start.q.data();
        detail::CgState* state = start.state.data();
        float            scale = diag_scale;
        void*            args[] = {const_cast<DeviceMesh*>(&m), const_cast<detail::PatchLaplacianView*>(&v),
                                   &diag, &scale, &xd, &rd, &d0, &d1, &q, &state,
                                   const_cast<std::uint64_t*>(&n)};
        RXMESH_CHECK_CUDA(cudaLaunchCooperativeKernel(
            reinterpret_cast<const void*>(&detail::pl_cg_persistent<N, BlockThreads>), grid,
            BlockThreads, args, smem, stream));
        return detail::cg_report(state, start.rr, stream);
    }
    const unsigned grid =
        detail::launcher<detail::pl_cg_product<N, BlockThreads, MinBlocks>>().resident_grid(
            BlockThreads, smem, m.store.num_patches);
    const unsigned update_grid =
        unsigned(std::min<std::uint64_t>((n + BlockThreads - 1) / BlockThreads, 8192));
    return detail::cg_drive(
        n, r.data(), options, stream,
        [&](const float* d_old, float* d_new, float* q, detail::CgState* state) {
            detail::pl_cg_product<N, BlockThreads, MinBlocks>
                <<<grid, BlockThreads, smem, stream>>>(m, v, diag, diag_scale, r.data(), d_old,
                                                       d_new, q, state);
            detail::cg_update_kernel<BlockThreads>
                <<<update_grid, BlockThreads, 0, stream>>>(n, x.data(), r.data(), d_new, q, state);
            detail::cg_scalars_kernel<<<1, 1, 0, stream>>>(state);
            RXMESH_CHECK_LAUNCH();
        });
}

}  // namespace rxmesh
