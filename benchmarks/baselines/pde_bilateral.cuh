// Bilateral denoising over PDE (baselines/pde.cuh), the GPU halfedge
// baseline: the arithmetic of rxmesh/algo/detail/bilateral_terms.h, one thread per
// vertex, every relation by circulating the vertex's outgoing halfedges
// (h -> next[twin(h)]). Three kernels per iteration, as RXMesh's:
// normals (faces around the vertex), sigma_c^2 (one-ring), and the ball
// (breadth-first, the list in local memory, rings d - 1..d + 1 searched)
// with the weighted move. A ball longer than Capacity is counted in
// *overflow and that vertex keeps its position: the benchmark then fails.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "pde.cuh"
#include "rxmesh/algo/detail/bilateral_terms.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/query/kring_grow.cuh"

namespace rxmesh::baselines {

struct PdeBilateralFrame
{
    const std::uint32_t *target, *face, *next, *vertex_he;
    std::uint32_t        num_vertices;
    const float*         x;
    float *              normal, *sc2, *x_next;
};

//! Calls g(h) for every outgoing halfedge h of v.
template <typename G>
__device__ void pde_circulate(const PdeBilateralFrame& m, std::uint32_t v, const G& g)
{
    const std::uint32_t h0 = m.vertex_he[v];
    if (h0 == PdeMesh::kInvalid)
        return;
    std::uint32_t h = h0;
    do {
        g(h);
        h = m.next[h ^ 1u];
    } while (h != h0);
}

__device__ inline const float* pde_position(const float* x, std::uint32_t v)
{
    return x + 3 * std::uint64_t(v);
}

__global__ void pde_bilateral_normals(PdeBilateralFrame m)
{
    const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= m.num_vertices)
        return;
    float n[3] = {0.f, 0.f, 0.f}, least = INFINITY;
    const float* p     = pde_position(m.x, v);
    bool         any   = false;
    pde_circulate(m, v, [&](std::uint32_t h) {
        const float* q = pde_position(m.x, m.target[h]);
        least          = fminf(least, bilateral::squared_distance(q, p));
        any            = true;
        if (m.face[h] == PdeMesh::kInvalid)
            return;
        float t[3];
        bilateral::normal_term(p, q, pde_position(m.x, m.target[m.next[h]]), t);
        n[0] += t[0], n[1] += t[1], n[2] += t[2];
    });
    if (!bilateral::normalize(n))
        n[0] = n[1] = n[2] = 0.f;
    for (int d = 0; d < 3; ++d)
        m.normal[3 * std::uint64_t(v) + d] = n[d];
    m.sc2[v] = any ? least : 0.f;
}

template <int Capacity>
__global__ void pde_bilateral_filter(PdeBilateralFrame m, std::uint32_t* overflow)
{
    const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= m.num_vertices)
        return;
    const float* p   = pde_position(m.x, v);
    const float* n   = pde_position(m.normal, v);
    const float  sc2 = m.sc2[v];
    float*       out = m.x_next + 3 * std::uint64_t(v);
    out[0] = p[0], out[1] = p[1], out[2] = p[2];
    if (!(sc2 > 0.f) || !(bilateral::dot3(n, n) > 0.f))
        return;
    std::uint32_t list[Capacity];
    std::uint32_t size = 1, prev_begin = 0, begin = 0;
    bool          full = false;
    list[0]            = v;
    for (int d = 0; d < kMaxKRingRings && !full; ++d) {
        const std::uint32_t end = size;
        for (std::uint32_t i = begin; i < end && !full; ++i)
            pde_circulate(m, list[i], [&](std::uint32_t h) {
                const std::uint32_t y = m.target[h];
                bool seen = !bilateral::in_ball(p, pde_position(m.x, y), sc2);
                for (std::uint32_t j = prev_begin; j < size && !seen; ++j)
                    seen = list[j] == y;
                if (seen || full)
                    return;
                if (size == Capacity)
                    full = true;
                else
                    list[size++] = y;
            });
        if (size == end)
            break;
        prev_begin = begin, begin = end;
    }
    if (full) {
        atomicAdd(overflow, 1u);
        return;
    }
    const float offset = bilateral::ball_offset(p, n, sc2, [&](const auto& g) {
        for (std::uint32_t i = 0; i < size; ++i)
            g(pde_position(m.x, list[i]));
    });
    for (int d = 0; d < 3; ++d)
        out[d] = p[d] + n[d] * offset;
}

//! One Jacobi iteration: x -> x_next (normal and sc2: scratch of V x 3 and V).
template <int Capacity = 64>
void pde_bilateral_iteration(const PdeBilateralFrame& m, int block_threads,
                             std::uint32_t* overflow, cudaStream_t stream = 0)
{
    const unsigned grid = (m.num_vertices + block_threads - 1) / block_threads;
    pde_bilateral_normals<<<grid, block_threads, 0, stream>>>(m);
    RXMESH_CHECK_LAUNCH();
    pde_bilateral_filter<Capacity><<<grid, block_threads, 0, stream>>>(m, overflow);
    RXMESH_CHECK_LAUNCH();
}

}  // namespace rxmesh::baselines
