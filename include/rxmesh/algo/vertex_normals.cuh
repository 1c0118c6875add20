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
// Positions and normals: 3 floats per vertex, in global (patch) order.
// This header: the launch-tuned form and its pieces, for device code that
// tunes or reuses them; the entry points chosen by size are in
// vertex_normals.h, compiled into the library (src/algo/vertex_normals.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/algo/vertex_normals.h"
#include "rxmesh/geometry/face_corners.cuh"
#include "rxmesh/geometry/operators.h"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/view_checks.h"
#include "rxmesh/core/attribute_view.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

//! accumulate's contribution: Max's weighted normal of a face at the corner
//! that this call sums (positions staged per patch).
using MaxFaceContribution = FaceCornerContribution<MaxWeightedNormalTerm>;

//! accumulate's finalize: the normalised sum, written once per vertex.
struct StoreUnitNormal
{
    VertexView<float, 3> normals;
    __device__ void      operator()(VertexId v, const float (&sum)[3]) const
    {
        store3(normals.data(), v.id(), normalized_or_zero({sum[0], sum[1], sum[2]}));
    }
};

//! Unit normals of every vertex (zero for a vertex of no face): a per-patch
//! sum (RXMesh::accumulate<Op::FV>) with positions staged per patch, in
//! blocks of BlockThreads threads with at least MinBlocks resident per SM
//! (the form below without template arguments picks them by size). A caller
//! who computes normals again and again on one mesh (each step of a
//! simulation) calls mesh.vertex_sources(Op::FV) once: every call after it
//! skips the per-block transpose (query/vertex_sources.h). One call alone
//! does not gain, since building the lists costs more than the call. Form:
//! a block per patch (the default), or with the lists a thread per vertex
//! (query/accumulate_form.h; no faster here than the wide blocks that the
//! form below picks for small meshes).
//! \pre positions and normals hold mesh.num_vertices() elements.
template <int BlockThreads, int MinBlocks, AccumulateForm Form = AccumulateForm::Patches>
void vertex_normals(const RXMesh& mesh, VertexView<const float, 3> positions,
                    VertexView<float, 3> normals, cudaStream_t stream = 0)
{
    require_vertex_count("vertex_normals", mesh, positions, normals);
    mesh.accumulate<Op::FV, float, 3, Plus, AccumulatePolicy<BlockThreads, MinBlocks, Form>>(
        VertexInput<float, 3>{positions}, MaxFaceContribution{}, StoreUnitNormal{normals}, stream);
}

//! Patches per SM up to which vertex_normals takes wider blocks than 128
//! threads (>= 16 blocks/SM): 512 threads (>= 4/SM) up to
//! kVertexNormalsWidestPatchesPerSM, 256 (>= 8/SM) up to
//! kVertexNormalsWidePatchesPerSM. With that few patches all blocks are
//! resident at once and each is one dependent chain (stage, then gather),
//! which ends with the block's last vertex: a block as wide as the patch
//! gathers all its owned vertices (about half its faces, a few hundred at
//! capacity 512) in one pass, where 128 threads take two or three.
//! 512-thread blocks stay in one wave only while an SM has at most 4 of
//! them. On larger meshes the 128-thread blocks win (full occupancy at 32
//! registers). All from the sweeps of benchmarks/vertex_normals.cu
//! (results/nvidia-h200/vertex_normals.md).
inline constexpr std::uint32_t kVertexNormalsWidestPatchesPerSM = 2;
inline constexpr std::uint32_t kVertexNormalsWidePatchesPerSM   = 8;

}  // namespace rxmesh
