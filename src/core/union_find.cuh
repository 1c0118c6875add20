// Internal: lock-free union-find on the GPU. The larger root is always
// hooked under the smaller one with atomicCAS, so parent pointers only
// decrease, never cycle, and every set ends with its smallest id as root
// (the result is deterministic whatever the thread schedule).
#pragma once

#include <cstdint>

#include "core/sequences.cuh"
#include "rxmesh/core/launch.cuh"

namespace rxmesh::detail {

//! Reads go through volatile: other threads hook roots concurrently.
__device__ inline std::uint32_t uf_find(volatile std::uint32_t* parent, std::uint32_t x)
{
    std::uint32_t p = parent[x];
    while (p != x) {
        const std::uint32_t gp = parent[p];
        if (gp != p)
            parent[x] = gp;  // path halving; parents only ever decrease
        x = p;
        p = parent[x];
    }
    return x;
}

__device__ inline void uf_union(std::uint32_t* parent, std::uint32_t a, std::uint32_t b)
{
    while (true) {
        a = uf_find(parent, a);
        b = uf_find(parent, b);
        if (a == b)
            return;
        if (a > b) {
            const std::uint32_t t = a;
            a                     = b;
            b                     = t;
        }
        const std::uint32_t old = atomicCAS(parent + b, b, a);
        if (old == b)
            return;
        b = old;
    }
}

// Kernels are templates so that every translation unit may include them.
template <typename Index>
__global__ void union_csr_neighbours(const Index* offsets, const Index* indices, Index rows,
                                     Index* parent)
{
    RXMESH_FOR_EACH_ITEM(r, rows)
    {
        for (Index i = offsets[r]; i < offsets[r + 1]; ++i)
            if (indices[i] > r)
                uf_union(parent, static_cast<Index>(r), indices[i]);
    }
}

template <typename Index>
__global__ void resolve_roots(Index* parent, Index n)
{
    RXMESH_FOR_EACH_ITEM(i, n) { parent[i] = uf_find(parent, static_cast<Index>(i)); }
}

//! Connected components of the graph given as CSR (`rows` rows, symmetric):
//! root[r] = the smallest row of r's component.
inline void csr_components(const std::uint32_t* offsets, const std::uint32_t* indices,
                           std::uint32_t rows, std::uint32_t* root, cudaStream_t stream)
{
    fill_sequence(root, rows, stream);
    union_csr_neighbours<<<flat_grid(rows), kFlatBlockThreads, 0, stream>>>(offsets, indices,
                                                                            rows, root);
    resolve_roots<<<flat_grid(rows), kFlatBlockThreads, 0, stream>>>(root, rows);
    RXMESH_CHECK_LAUNCH();
}

}  // namespace rxmesh::detail
