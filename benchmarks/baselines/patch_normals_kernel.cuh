// The previous vertex-normal kernel of rxmesh/algo (before the public
// RXMesh::accumulate existed), kept as a baseline: one block per patch
// stages M_EV, M_FE and the ribbon map in shared memory (cp.async), converts
// FE to FV, adds Max's contributions of every local face into shared-memory
// sums of the owned vertices, then normalises and writes them.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/algo/vertex_normals.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/query/copy_window.cuh"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/direct_rows.cuh"
#include "rxmesh/query/smem_plan.h"
#include "rxmesh/query/vertex_rows.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh::baselines {

template <int BlockThreads>
__global__ void __launch_bounds__(BlockThreads)
    staged_patch_normals(DeviceMesh mesh, const float* __restrict__ positions,
                         float* __restrict__ normals)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const PatchInfo     pi = mesh.patch(blockIdx.x);
    const auto&         st = mesh.store;
    SmemCarver          c(smem);
    const std::uint32_t num_ribbon = pi.nV - pi.vmap.num_owned;
    std::uint16_t*      ev         = c.take<std::uint16_t>(2 * pi.nE + 16);
    std::uint16_t*      fv         = c.take<std::uint16_t>(3 * pi.nF + 16);
    std::uint32_t*      ribbon     = c.take<std::uint32_t>(num_ribbon + 8);
    float*              acc        = c.take<float>(3 * pi.vmap.num_owned);
    ev = detail::copy_to_window<true>(ev, pi.m_ev, 2 * pi.nE, st.m_ev + st.m_ev_size);
    fv = detail::copy_to_window<true>(fv, pi.m_fe, 3 * pi.nF, st.m_fe + st.m_fe_size);
    ribbon = detail::copy_to_window<true>(ribbon, pi.vmap.ribbon, num_ribbon,
                                          st.ribbon_v + st.num_ribbon_v);
    for (std::uint32_t i = threadIdx.x; i < 3 * pi.vmap.num_owned; i += BlockThreads)
        acc[i] = 0.f;
    detail::finish_copies();
    __syncthreads();
    detail::fe_to_fv(fv, ev, pi.nF);
    __syncthreads();
    LocalToGlobal vmap = pi.vmap;
    vmap.ribbon        = ribbon;
    for (std::uint32_t f = threadIdx.x; f < pi.nF; f += BlockThreads) {
        std::uint32_t l[3];
        for (int k = 0; k < 3; ++k)
            l[k] = fv[3 * f + k];
        const std::uint32_t owned = vmap.num_owned;
        if (l[0] >= owned && l[1] >= owned && l[2] >= owned)
            continue;
        float p[3][3];
        for (int k = 0; k < 3; ++k) {
            const std::uint64_t g = vmap(l[k]);
            for (int d = 0; d < 3; ++d)
                p[k][d] = positions[3 * g + d];
        }
        for (int k = 0; k < 3; ++k) {
            if (l[k] >= owned)
                continue;
            float n[3];
            store3(n, 0, max_weighted_normal(load3(p[k], 0), load3(p[(k + 1) % 3], 0), load3(p[(k + 2) % 3], 0)));
            for (int d = 0; d < 3; ++d)
                atomicAdd(acc + 3 * l[k] + d, n[d]);
        }
    }
    __syncthreads();
    for (std::uint32_t v = threadIdx.x; v < pi.vmap.num_owned; v += BlockThreads) {
        float n[3] = {acc[3 * v], acc[3 * v + 1], acc[3 * v + 2]};
        store3(n, 0, normalized_or_zero(load3(n, 0)));
        const std::uint64_t g = pi.vmap.owned_offset + v;
        for (int d = 0; d < 3; ++d)
            normals[3 * g + d] = n[d];
    }
}

//! Launches staged_patch_normals<128> over every patch.
inline void staged_patch_normals(const RXMesh& mesh, const float* positions, float* normals)
{
    constexpr int     kThreads = 128;
    const PatchLimits l        = mesh.store().limits;
    SmemCarver        c;  // as the kernel carves
    c.take<std::uint16_t>(2 * std::size_t(l.edges) + 16);
    c.take<std::uint16_t>(3 * std::size_t(l.faces) + 16);
    c.take<std::uint32_t>(std::size_t(l.ribbon_vertices) + 8);
    c.take<float>(3 * std::size_t(l.vertices));
    auto kernel = staged_patch_normals<kThreads>;
    RXMESH_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           int(c.used())));
    kernel<<<mesh.num_patches(), kThreads, c.used()>>>(mesh.device(), positions, normals);
    RXMESH_CHECK_LAUNCH();
}

//! A candidate for the library: one block per patch stages the positions
//! of the patch's local vertices in shared memory (owned ones coalesced),
//! reads each local face's corners straight from the store (M_FE, then
//! M_EV), and adds Max's term of each owned corner into shared-memory sums
//! with atomics: no face rows in shared memory, no transpose. The order of
//! the atomic adds varies, so the last bits of a sum may vary between runs.
template <int BlockThreads, int MinBlocks>
__global__ void __launch_bounds__(BlockThreads, MinBlocks)
    shared_sum_normals_kernel(DeviceMesh mesh, const float* __restrict__ positions,
                              float* __restrict__ normals)
{
    extern __shared__ __align__(16) float shared_sum_smem[];
    const PatchInfo     pi    = mesh.patch(blockIdx.x);
    const std::uint32_t owned = pi.vmap.num_owned;
    float*              xyz   = shared_sum_smem;       // 3 per local vertex
    float*              acc   = xyz + 3 * pi.nV;       // 3 per owned vertex
    for (std::uint32_t v = threadIdx.x; v < pi.nV; v += BlockThreads) {
        const std::uint64_t g = pi.vmap(v);
        for (int d = 0; d < 3; ++d)
            xyz[3 * v + d] = __ldg(positions + 3 * g + d);
    }
    for (std::uint32_t i = threadIdx.x; i < 3 * owned; i += BlockThreads)
        acc[i] = 0.f;
    __syncthreads();
    for (std::uint32_t f = threadIdx.x; f < pi.nF; f += BlockThreads) {
        std::uint16_t l[3];
        detail::direct_row<Op::FV>(pi, f, l);
        const Vec3 p[3] = {load3(xyz, l[0]), load3(xyz, l[1]), load3(xyz, l[2])};
        for (int k = 0; k < 3; ++k) {
            if (l[k] >= owned)
                continue;
            const Vec3 n = max_weighted_normal(p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
            atomicAdd(acc + 3 * l[k] + 0, n.x);
            atomicAdd(acc + 3 * l[k] + 1, n.y);
            atomicAdd(acc + 3 * l[k] + 2, n.z);
        }
    }
    __syncthreads();
    for (std::uint32_t v = threadIdx.x; v < owned; v += BlockThreads)
        store3(normals, pi.vmap.owned_offset + v, normalized_or_zero(load3(acc, v)));
}

//! Launches shared_sum_normals_kernel over every patch.
template <int BlockThreads, int MinBlocks>
void shared_sum_normals(const RXMesh& mesh, const float* positions, float* normals)
{
    const PatchLimits l    = mesh.store().limits;
    const std::size_t smem = sizeof(float) * 3 * (std::size_t(l.vertices) + l.vertices);
    auto kernel = shared_sum_normals_kernel<BlockThreads, MinBlocks>;
    RXMESH_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           int(smem)));
    kernel<<<mesh.num_patches(), BlockThreads, smem>>>(mesh.device(), positions, normals);
    RXMESH_CHECK_LAUNCH();
}

}  // namespace rxmesh::baselines
