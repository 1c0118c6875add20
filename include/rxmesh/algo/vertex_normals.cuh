// Vertex normals with Max's weights (N. Max, "Weights for computing vertex
// normals from facet normals", JGT 1999): each face adds, to each of its
// corners v with edges e1 = a - v and e2 = b - v,
//     (e1 x e2) / (|e1|^2 |e2|^2),
// and the sum is normalised. Exact for vertices of a sphere-like one-ring.
//
// Written with the public API: RXMesh::accumulate<Op::FV> sums each vertex's
// face contributions per patch, in registers, and normalises it once, with no
// atomics (query/accumulate.cuh).
//
// \pre positions and normals: 3 floats per vertex, in global (patch) order.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/attribute/attribute.h"
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

}  // namespace detail

//! accumulate's contribution: Max's weighted normal of a face at the corner
//! that this call sums (positions staged per patch).
struct MaxFaceContribution
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<float, 3>& x,
                               const VertexSums<float, 3>& sums) const
    {
        float p[3][3];
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d)
                p[k][d] = x(k, d);
        for (int k = 0; k < 3; ++k)
            if (sums.owns(k)) {  // the other corners are summed by other calls
                float n[3];
                detail::max_weight_contribution(p[k], p[(k + 1) % 3], p[(k + 2) % 3], n);
                sums.add(k, n);
            }
    }
};

//! accumulate's finalize: the normalised sum, written once per vertex.
struct StoreUnitNormal
{
    float*          normals;
    __device__ void operator()(VertexId v, const float (&sum)[3]) const
    {
        float n[3] = {sum[0], sum[1], sum[2]};
        detail::normalize3(n);
        for (int d = 0; d < 3; ++d)
            normals[3 * std::uint64_t(v.id()) + d] = n[d];
    }
};

//! Unit normals of every vertex (zero for a vertex of no face): a per-patch
//! sum (RXMesh::accumulate<Op::FV>) with positions staged per patch.
//! BlockThreads, MinBlocks: threads per patch block and the minimum resident
//! blocks per SM; the defaults won the sweep of benchmarks/vertex_normals.cu
//! (full occupancy, which caps the kernel at 32 registers).
template <int BlockThreads = 128, int MinBlocks = 16>
void vertex_normals(const RXMesh& mesh, const float* positions, float* normals,
                    cudaStream_t stream = 0)
{
    mesh.accumulate<Op::FV, float, 3, Plus, BlockThreads, MinBlocks>(
        VertexInput<float, 3>{positions}, MaxFaceContribution{}, StoreUnitNormal{normals}, stream);
}

inline void vertex_normals(const RXMesh& mesh, const VertexAttribute<float, 3>& positions,
                           const VertexAttribute<float, 3>& normals, cudaStream_t stream = 0)
{
    vertex_normals<>(mesh, positions.device_data(), normals.device_data(), stream);
}

//! The paper's version (Listing 1): FV per owned face, global atomics into
//! the vertices; normals must be zero on entry and are left unnormalised.
inline void vertex_normals_atomic(const RXMesh& mesh, const float* positions, float* normals,
                                  cudaStream_t stream = 0)
{
    mesh.for_each<Op::FV>(
        [=] __device__(FaceId, const RowView<VertexId>& fv) {
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
