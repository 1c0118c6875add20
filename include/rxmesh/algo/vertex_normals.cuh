// Vertex normals with Max's weights (N. Max, "Weights for computing vertex
// normals from facet normals", JGT 1999): each face adds, to each of its
// corners v with edges e1 = a - v and e2 = b - v,
//     (e1 x e2) / (|e1|^2 |e2|^2),
// and the sum is normalised. Exact for vertices of a sphere-like one-ring.
//
// vertex_normals() runs one block per patch: the block computes the
// contribution of every local face, owned and ribbon, into shared-memory
// accumulators of its local vertices. The ribbon holds the whole one-ring of
// each owned vertex, so an owned vertex's sum is complete inside its own
// patch and is written once, without global atomics. Ribbon faces are
// computed twice (by their owner and by neighbours): ~35% more arithmetic
// traded for no atomic traffic in global memory.
//
// \pre positions and normals: 3 floats per vertex, in global (patch) order.
#pragma once

#include <cuda_runtime.h>

#include "rxmesh/attribute/attribute.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/query/device_mesh.cuh"
#include "rxmesh/query/for_each.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

namespace detail {

//! Max's weighted face contribution at corner v of triangle (v, a, b).
__device__ inline void max_weight_contribution(const float* pv, const float* pa,
                                               const float* pb, float out[3])
{
    const float e1[3] = {pa[0] - pv[0], pa[1] - pv[1], pa[2] - pv[2]};
    const float e2[3] = {pb[0] - pv[0], pb[1] - pv[1], pb[2] - pv[2]};
    const float l1 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2];
    const float l2 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
    const float w  = (l1 > 0.f && l2 > 0.f) ? 1.f / (l1 * l2) : 0.f;
    out[0]         = (e1[1] * e2[2] - e1[2] * e2[1]) * w;
    out[1]         = (e1[2] * e2[0] - e1[0] * e2[2]) * w;
    out[2]         = (e1[0] * e2[1] - e1[1] * e2[0]) * w;
}

__device__ inline void normalize3(float n[3])
{
    const float l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    const float s = l > 0.f ? 1.f / l : 0.f;
    n[0] *= s;
    n[1] *= s;
    n[2] *= s;
}

template <int BlockThreads>
__global__ void __launch_bounds__(BlockThreads)
    vertex_normals_kernel(DeviceMesh mesh, const float* __restrict__ positions,
                          float* __restrict__ normals)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const PatchInfo pi = mesh.patch(blockIdx.x);
    const auto&     st = mesh.store;
    SmemCarver      c(smem);
    const std::uint32_t num_ribbon = pi.nV - pi.vmap.num_owned;
    // copy windows: 32 spare bytes each (see copy_to_window)
    std::uint16_t* ev     = c.take<std::uint16_t>(2 * pi.nE + 16);
    std::uint16_t* fv     = c.take<std::uint16_t>(3 * pi.nF + 16);
    std::uint32_t* ribbon = c.take<std::uint32_t>(num_ribbon + 8);
    float*         acc    = c.take<float>(3 * pi.vmap.num_owned);
    ev     = copy_to_window<true>(ev, pi.m_ev, 2 * pi.nE, st.m_ev + st.m_ev_size);
    fv     = copy_to_window<true>(fv, pi.m_fe, 3 * pi.nF, st.m_fe + st.m_fe_size);
    ribbon = copy_to_window<true>(ribbon, pi.vmap.ribbon, num_ribbon, st.ribbon_v + st.num_ribbon_v);
    for (std::uint32_t i = threadIdx.x; i < 3 * pi.vmap.num_owned; i += BlockThreads)
        acc[i] = 0.f;
    finish_copies();
    __syncthreads();
    fe_to_fv(fv, ev, pi.nF);
    __syncthreads();
    LocalToGlobal vmap = pi.vmap;
    vmap.ribbon        = ribbon;
    for (std::uint32_t f = threadIdx.x; f < pi.nF; f += BlockThreads) {
        std::uint32_t l[3];
        for (int k = 0; k < 3; ++k)
            l[k] = fv[3 * f + k];
        const std::uint32_t owned = vmap.num_owned;
        if (l[0] >= owned && l[1] >= owned && l[2] >= owned)
            continue;  // a ribbon face of no owned vertex adds nothing here
        float p[3][3];
        for (int k = 0; k < 3; ++k) {
            const std::uint64_t g = vmap(l[k]);
            for (int d = 0; d < 3; ++d)
                p[k][d] = positions[3 * g + d];
        }
        for (int k = 0; k < 3; ++k) {
            if (l[k] >= owned)
                continue;  // only owned vertices are written: skip the rest
            float n[3];
            max_weight_contribution(p[k], p[(k + 1) % 3], p[(k + 2) % 3], n);
            for (int d = 0; d < 3; ++d)
                atomicAdd(acc + 3 * l[k] + d, n[d]);
        }
    }
    __syncthreads();
    for (std::uint32_t v = threadIdx.x; v < pi.vmap.num_owned; v += BlockThreads) {
        float n[3] = {acc[3 * v], acc[3 * v + 1], acc[3 * v + 2]};
        normalize3(n);
        const std::uint64_t g = pi.vmap.owned_offset + v;
        for (int d = 0; d < 3; ++d)
            normals[3 * g + d] = n[d];
    }
}

}  // namespace detail

//! Shared-memory bytes vertex_normals needs per block.
inline std::size_t vertex_normals_smem_bytes(const PatchLimits& l)
{
    SmemCarver c;  // as vertex_normals_kernel carves
    c.take<std::uint16_t>(2 * std::size_t(l.edges) + 16);
    c.take<std::uint16_t>(3 * std::size_t(l.faces) + 16);
    c.take<std::uint32_t>(std::size_t(l.ribbon_vertices) + 8);  // ribbon vertices' global ids
    c.take<float>(3 * std::size_t(l.vertices));                 // owned vertices' sums
    return c.used();
}

//! Normals of every vertex (unit length; zero for vertices of no face).
inline void vertex_normals(const RXMesh& mesh, const float* positions, float* normals,
                           cudaStream_t stream = 0)
{
    constexpr int     kThreads = 128;  // as the queries: more patches in flight per SM
    const std::size_t smem     = vertex_normals_smem_bytes(mesh.store().limits);
    auto              kernel   = detail::vertex_normals_kernel<kThreads>;
    RXMESH_CHECK_CUDA(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    if (mesh.num_patches() == 0)
        return;
    kernel<<<mesh.num_patches(), kThreads, smem, stream>>>(mesh.device(), positions, normals);
    RXMESH_CHECK_LAUNCH();
}

inline void vertex_normals(const RXMesh& mesh, const VertexAttribute<float, 3>& positions,
                           const VertexAttribute<float, 3>& normals, cudaStream_t stream = 0)
{
    vertex_normals(mesh, positions.device_data(), normals.device_data(), stream);
}

//! The paper's version (Listing 1): FV per owned face, global atomics into
//! the vertices; normals must be zero on entry and are left unnormalised.
inline void vertex_normals_atomic(const RXMesh& mesh, const float* positions, float* normals,
                                  cudaStream_t stream = 0)
{
    mesh.for_each<Op::FV>(
        [=] __device__(FaceId, const Iterator<VertexId>& fv) {
            float p[3][3];
            for (int k = 0; k < 3; ++k)
                for (int d = 0; d < 3; ++d)
                    p[k][d] = positions[3 * std::uint64_t(fv[k].id()) + d];
            for (int k = 0; k < 3; ++k) {
                float n[3];
                detail::max_weight_contribution(p[k], p[(k + 1) % 3], p[(k + 2) % 3], n);
                for (int d = 0; d < 3; ++d)
                    atomicAdd(normals + 3 * std::uint64_t(fv[k].id()) + d, n[d]);
            }
        },
        AllActive{}, false, stream);
}

}  // namespace rxmesh
