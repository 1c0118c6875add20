// Per-patch accumulation into shared memory: the block collective behind
// RXMesh::accumulate<Op::FV> (and Op::EV). The RXMesh paper's lesson: do the
// queries in shared memory first and the scattered attribute traffic after.
//
// For every face (FV; or edge, EV) incident to a vertex that the patch owns,
// the user's contribute(face, fv, sums) runs once in the block of that
// patch, reads what it needs (positions, say) and adds values into the
// face's vertices with sums.add(k, value): k-th vertex of the row. The sums
// live in shared memory, one per owned vertex; an add into a vertex that the
// patch does not own does nothing (the vertex's own patch sees the face
// too: the ribbon holds the full one-ring of every owned vertex). Then the
// user's finalize(v, sum) runs once per vertex with the complete sum, and
// writes the result once, coalesced, without global atomics.
//
//   // Max's vertex normals (rxmesh/algo/vertex_normals.cuh)
//   mesh.accumulate<rxmesh::Op::FV, float, 3>(
//       [=] __device__(rxmesh::FaceId, const rxmesh::RowView<rxmesh::VertexId>& fv,
//                      const rxmesh::VertexSums<float, 3>& sums) {
//           float p[3][3];                                  // the face's corners
//           for (int k = 0; k < 3; ++k)
//               for (int d = 0; d < 3; ++d)
//                   p[k][d] = x(fv[k], d);
//           for (int k = 0; k < 3; ++k) {
//               float n[3];
//               corner_normal(p[k], p[(k + 1) % 3], p[(k + 2) % 3], n);
//               sums.add(k, n);                             // into vertex fv[k]
//           }
//       },
//       [=] __device__(rxmesh::VertexId v, const float (&sum)[3]) {
//           normalize_into(sum, n, v);                      // once per vertex
//       });
//
// Rules for contribute: it may run for the same face in several blocks
// (ribbon faces are seen by each patch whose vertices they touch), so it
// must not write to global memory; its result must depend on the face only.
// Every vertex gets finalize, also one with no face (sum zero).
// Performance: a patch's faces are read straight from the store (M_FE, then
// M_EV) four per thread in flight, as the direct queries do; the sums need
// N * sizeof(T) bytes of shared memory per local vertex of the largest patch,
// and a patch too large for shared memory runs the same code over a global
// scratch buffer instead.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/direct_rows.cuh"
#include "rxmesh/query/launch.cuh"
#include "rxmesh/query/row_emit.cuh"

namespace rxmesh {

//! The per-vertex sums a contribute lambda adds into (see the top of the
//! file): N values of type T per vertex; T is any type with atomicAdd
//! (float, double, int, unsigned, unsigned long long).
template <typename T, int N>
class VertexSums
{
   public:
    __device__ VertexSums(T* sums, const std::uint16_t (&local)[3], std::uint32_t num_owned)
        : m_sums(sums), m_local{local[0], local[1], local[2]}, m_num_owned(num_owned)
    {
    }

    //! Whether the k-th vertex of the row is summed in this block (adds
    //! into others do nothing): lets a lambda skip computing them.
    __device__ bool owns(int k) const { return local(k) < m_num_owned; }

    //! Adds value[0..N) into the sum of the k-th vertex of the row.
    __device__ void add(int k, const T (&value)[N]) const
    {
        const std::uint32_t l = local(k);
        if (l < m_num_owned)
#pragma unroll
            for (int d = 0; d < N; ++d)
                atomicAdd(m_sums + std::size_t(N) * l + d, value[d]);
    }

   private:
    //! m_local[k] without dynamic indexing (keeps it in registers)
    __device__ std::uint32_t local(int k) const
    {
        return k == 0 ? m_local[0] : (k == 1 ? m_local[1] : m_local[2]);
    }

    T*            m_sums;
    std::uint16_t m_local[3];
    std::uint32_t m_num_owned;
};

//! A vertex input that accumulate stages in shared memory per patch before
//! the contributions run (owned vertices' values read coalesced, the
//! ribbon's gathered once): M values of U per vertex, flat by global id
//! (e.g. positions). No input: NoVertexInput.
template <typename U, int M>
struct VertexInput
{
    using value_type                = U;
    static constexpr int components = M;
    const U*             data       = nullptr;
};
struct NoVertexInput
{
    using value_type                = float;
    static constexpr int components = 0;
    const float*         data       = nullptr;
};

//! The staged input values of one row's vertices: x(k, d) is value d of
//! the k-th vertex of the row, read from shared memory.
template <typename U, int M>
class StagedRow
{
   public:
    __device__ StagedRow(const U* values, const std::uint16_t (&local)[3])
        : m_values(values), m_local{local[0], local[1], local[2]}
    {
    }
    __device__ U operator()(int k, int d) const
    {
        const std::uint32_t l = k == 0 ? m_local[0] : (k == 1 ? m_local[1] : m_local[2]);
        return m_values[std::size_t(M) * l + d];
    }

   private:
    const U*      m_values;
    std::uint16_t m_local[3];
};

namespace detail {

//! Shared-memory bytes of accumulate for the largest patch: the sums, then
//! the staged input (16-byte aligned).
template <typename T, int N, typename Input>
std::size_t accumulate_smem_bytes(const PatchLimits& l)
{
    const std::size_t sums = (std::size_t(l.vertices) * N * sizeof(T) + 15) & ~std::size_t(15);
    return sums + std::size_t(l.vertices) * Input::components * sizeof(typename Input::value_type);
}

//! Copies the input's values of the patch's local vertices to `staged`
//! (owned ones coalesced; ribbon ones through the ribbon map).
template <int BlockThreads, typename Input>
__device__ __forceinline__ void stage_vertex_input(const PatchInfo& pi, const Input& input,
                                                   typename Input::value_type* staged)
{
    constexpr int       M = Input::components;
    const std::uint32_t n = M * pi.nV;
    for (std::uint32_t i = threadIdx.x; i < n; i += BlockThreads) {
        const std::uint32_t v = i / M;
        staged[i] = __ldg(input.data + std::size_t(M) * pi.vmap(v) + (i - v * M));
    }
}

//! The sums of patch p's faces (FV) or edges (EV) into its owned vertices:
//! kIn sources per thread load their rows before the lambdas.
template <Op op, typename T, int N, int BlockThreads, int kIn, typename Input, typename Contribute>
__device__ __forceinline__ void accumulate_patch(const PatchInfo& pi, T* sums,
                                                 const typename Input::value_type* staged,
                                                 Contribute& contribute)
{
    using Source            = typename OpTraits<op>::Source;
    constexpr int       K   = op == Op::EV ? 2 : 3;
    const LocalToGlobal& src = op == Op::EV ? pi.emap : pi.fmap;
    const std::uint32_t  n   = op == Op::EV ? pi.nE : pi.nF;
    const std::uint32_t  own = pi.vmap.num_owned;
    for_each_step<BlockThreads, kIn>(n, [&](std::uint32_t base, auto full) {
        std::uint16_t raw[kIn][3];
        bool          live[kIn];
#pragma unroll
        for (int j = 0; j < kIn; ++j) {
            const std::uint32_t i = base + j * BlockThreads + threadIdx.x;
            raw[j][0] = raw[j][1] = raw[j][2] = 0xFFFF;
            live[j]                            = full || i < n;
            if (live[j])
                direct_row<op>(pi, i, raw[j]);
            bool touches = false;  // a source with no owned vertex adds nothing here
#pragma unroll
            for (int k = 0; k < K; ++k)
                touches = touches || raw[j][k] < own;
            live[j] = live[j] && touches;
        }
#pragma unroll
        for (int j = 0; j < kIn; ++j) {
            if (!live[j])
                continue;
            const std::uint32_t i = base + j * BlockThreads + threadIdx.x;
            std::uint32_t       global[3];
#pragma unroll
            for (int k = 0; k < 3; ++k)
                global[k] = k < K ? pi.vmap(raw[j][k]) : 0u;
            const RowView<VertexId> row(raw[j], global, K, 0);
            const VertexSums<T, N>  add(sums, raw[j], own);
            if constexpr (Input::components == 0)
                contribute(Source(src(i)), row, add);
            else
                contribute(Source(src(i)), row,
                           StagedRow<typename Input::value_type, Input::components>(staged, raw[j]),
                           add);
        }
    });
}

//! Every thread: the owned vertices' sums to finalize, once each.
template <typename T, int N, int BlockThreads, typename Finalize>
__device__ __forceinline__ void finalize_patch(const PatchInfo& pi, const T* sums,
                                               Finalize& finalize)
{
    for (std::uint32_t v = threadIdx.x; v < pi.vmap.num_owned; v += BlockThreads) {
        T sum[N];
#pragma unroll
        for (int d = 0; d < N; ++d)
            sum[d] = sums[std::size_t(N) * v + d];
        const T(&done)[N] = sum;
        finalize(VertexId(pi.vmap.owned_offset + v), done);
    }
}

//! One block per patch (or fewer blocks looping over the patches, with the
//! arrays in the global scratch when !kShared): zero the sums and stage the
//! input, accumulate, finalize.
template <Op op, typename T, int N, int BlockThreads, int MinBlocks, int kIn, bool kShared,
          typename Input, typename Contribute, typename Finalize>
__global__ void __launch_bounds__(BlockThreads, MinBlocks)
    accumulate_kernel(DeviceMesh mesh, Input input, Contribute contribute, Finalize finalize)
{
    using U = typename Input::value_type;
    extern __shared__ __align__(16) unsigned char rxmesh_accumulate_smem[];
    unsigned char* base   = kShared ? rxmesh_accumulate_smem
                                    : mesh.scratch + blockIdx.x * mesh.scratch_stride;
    T*             sums   = reinterpret_cast<T*>(base);
    U*             staged = reinterpret_cast<U*>(
        base + ((std::size_t(mesh.limits.vertices) * N * sizeof(T) + 15) & ~std::size_t(15)));
    for (std::uint32_t p = blockIdx.x; p < mesh.store.num_patches; p += gridDim.x) {
        const PatchInfo pi = mesh.patch(p);
        __syncthreads();  // the previous patch's arrays are read
        for (std::uint32_t i = threadIdx.x; i < N * pi.vmap.num_owned; i += BlockThreads)
            sums[i] = T{};
        if constexpr (Input::components > 0)
            stage_vertex_input<BlockThreads>(pi, input, staged);
        __syncthreads();
        accumulate_patch<op, T, N, BlockThreads, kIn, Input>(pi, sums, staged, contribute);
        __syncthreads();
        finalize_patch<T, N, BlockThreads>(pi, sums, finalize);
    }
}

//! Runs accumulate_kernel over all patches: shared memory when the largest
//! patch's arrays fit, else a few blocks over a global scratch (synchronous).
template <Op op, typename T, int N, int BlockThreads, int MinBlocks,
          int kIn = kElementsInFlight, typename Input, typename Contribute, typename Finalize>
void launch_accumulate(DeviceMesh mesh, Input input, Contribute contribute, Finalize finalize,
                       cudaStream_t stream)
{
    static_assert(op == Op::FV || op == Op::EV,
                  "accumulate sums faces (FV) or edges (EV) into their vertices");
    if (mesh.store.num_patches == 0)
        return;
    constexpr auto kernel =
        accumulate_kernel<op, T, N, BlockThreads, MinBlocks, kIn, true, Input, Contribute, Finalize>;
    const std::size_t smem = accumulate_smem_bytes<T, N, Input>(mesh.limits);
    LaunchLimits&     c    = launch_limits<kernel>();
    if (smem + c.static_smem <= std::size_t(c.max_smem)) {
        if (smem > c.opted_in) {
            RXMESH_CHECK_CUDA(cudaFuncSetAttribute(
                kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
            c.opted_in = smem;
        }
        kernel<<<mesh.store.num_patches, BlockThreads, smem, stream>>>(mesh, input, contribute,
                                                                        finalize);
        RXMESH_CHECK_LAUNCH();
        return;
    }
    const unsigned grid = std::min<unsigned>(mesh.store.num_patches, 2u * unsigned(c.sms));
    mesh.scratch_stride = (smem + 255) & ~std::size_t(255);
    DeviceBuffer<unsigned char> scratch(mesh.scratch_stride * grid, stream);
    mesh.scratch = scratch.data();
    accumulate_kernel<op, T, N, BlockThreads, MinBlocks, kIn, false, Input, Contribute, Finalize>
        <<<grid, BlockThreads, 0, stream>>>(mesh, input, contribute, finalize);
    RXMESH_CHECK_LAUNCH();
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
}

}  // namespace detail
}  // namespace rxmesh
