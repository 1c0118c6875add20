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
// The solvers on it are in solver/cg_cached.cuh.
//
// Memory: 6 bytes per (owned vertex, neighbour) pair plus the padding, and
// two offsets per patch and per slice.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>

#include <cstdint>

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

//! x_v and the off-diagonal sum s = sum w (x_v - x_u) at an owned vertex
//! (the product is c x_v + s).
template <int N>
struct OwnedProduct
{
    float x[N], s[N];
};

//! The off-diagonal part of the product at owned vertex v of patch p, x
//! staged with N values per local vertex. (The caller adds c x_v after it,
//! so that c is not loaded while the row is read.)
template <int N>
__device__ __forceinline__ OwnedProduct<N> owned_product(const PatchLaplacianView& op,
                                                         std::uint32_t p, std::uint32_t v,
                                                         const float* staged)
{
    const OwnedRow  row = owned_row(op, p, v);
    OwnedProduct<N> out;
#pragma unroll
    for (int k = 0; k < N; ++k) {
        out.x[k] = staged[N * v + k];
        out.s[k] = 0.f;
    }
    for (std::uint32_t j = 0; j < row.width; ++j) {
        const std::uint32_t e = row.at + j * kSliceWidth;
        const std::uint32_t u = __ldg(op.neighbour + e);
        const float         w = __ldg(op.weight + e);
#pragma unroll
        for (int k = 0; k < N; ++k) out.s[k] += w * (out.x[k] - staged[N * u + k]);
    }
    return out;
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

}  // namespace rxmesh
