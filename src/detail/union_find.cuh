// Internal: lock-free union-find on the GPU. The larger root is always
// hooked under the smaller one with atomicCAS, so parent pointers only
// decrease, never cycle, and every set ends with its smallest id as root
// (the result is deterministic whatever the thread schedule).
#pragma once

#include <cstdint>

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

}  // namespace rxmesh::detail
