// The k-ring baseline over a global CSR of the vertex-vertex relation (the
// PDE paper's style of query: one thread per vertex, global ids, rows read
// from global memory). The growth is the one RXMesh runs (ring by ring, each
// ring in the order found; a neighbour of ring d is looked for in rings
// d - 1, d and d + 1 only), with the list in the thread's local memory
// instead of shared memory and without RXMesh's per-patch bitmap.
// A vertex whose rings exceed Capacity is counted in *overflow and skipped:
// the benchmark then fails (it verifies every vertex).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/ids.h"
#include "rxmesh/query/kring_grow.cuh"

namespace rxmesh::baselines {

//! The same interface as rxmesh::KRingView.
class CsrRingView
{
   public:
    __device__ CsrRingView(const std::uint32_t* list, std::uint32_t size,
                           const std::uint32_t* ring_end, std::uint32_t rings)
        : m_list(list), m_size(size), m_ring_end(ring_end), m_rings(rings)
    {
    }
    __device__ std::uint32_t size() const { return m_size; }
    __device__ VertexId      operator[](std::uint32_t i) const { return VertexId(m_list[i]); }
    __device__ std::uint32_t num_rings() const { return m_rings; }
    __device__ std::uint32_t ring_begin(std::uint32_t d) const { return d ? m_ring_end[d - 1] : 0u; }
    __device__ std::uint32_t ring_end(std::uint32_t d) const { return m_ring_end[d]; }

   private:
    const std::uint32_t* m_list;
    std::uint32_t        m_size;
    const std::uint32_t* m_ring_end;
    std::uint32_t        m_rings;
};

struct CsrRows
{
    const std::uint32_t* offsets;  // V + 1
    const std::uint32_t* indices;
    std::uint32_t        num_vertices;
};

__device__ inline bool csr_list_holds(const std::uint32_t* list, std::uint32_t first,
                                      std::uint32_t last, std::uint32_t v)
{
    for (std::uint32_t i = first; i < last; ++i)
        if (list[i] == v)
            return true;
    return false;
}

template <int Capacity, typename Accept, typename F>
__global__ void csr_kring_kernel(CsrRows g, int max_rings, Accept accept, F f,
                                 std::uint32_t* overflow)
{
    const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= g.num_vertices)
        return;
    std::uint32_t list[Capacity], ring_end[kMaxKRingRings + 1];
    std::uint32_t size = 1, rings = 1, prev_begin = 0, begin = 0;
    list[0] = v, ring_end[0] = 1;
    const auto admits = rxmesh::detail::bind_centre(accept, VertexId(v));
    for (int d = 0; d < max_rings; ++d) {
        const std::uint32_t end = size;
        for (std::uint32_t i = begin; i < end; ++i) {
            const std::uint32_t x = list[i];
            for (std::uint32_t e = g.offsets[x]; e < g.offsets[x + 1]; ++e) {
                const std::uint32_t y = g.indices[e];
                if (csr_list_holds(list, prev_begin, size, y) || !admits(VertexId(y)))
                    continue;
                if (size == Capacity) {
                    atomicAdd(overflow, 1u);
                    return;
                }
                list[size++] = y;
            }
        }
        if (size == end)
            break;
        ring_end[rings++] = size;
        prev_begin = begin, begin = end;
    }
    f(VertexId(v), CsrRingView(list, size, ring_end, rings));
}

template <int Capacity, typename Accept, typename F>
void csr_kring(const CsrRows& g, int max_rings, Accept accept, F f, int block_threads,
               std::uint32_t* overflow, cudaStream_t stream = 0)
{
    const unsigned grid = (g.num_vertices + block_threads - 1) / block_threads;
    csr_kring_kernel<Capacity><<<grid, block_threads, 0, stream>>>(g, max_rings, accept, f,
                                                                   overflow);
    RXMESH_CHECK_LAUNCH();
}

}  // namespace rxmesh::baselines
