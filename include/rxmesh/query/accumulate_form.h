// Which form RXMesh::accumulate runs: a block per patch, or a thread per
// vertex (query/accumulate_flat.cuh says how each works and where each won).
#pragma once

namespace rxmesh {

//! Which form of accumulate runs: a block per patch (Patches, the default),
//! or a thread per vertex (Flat, where the mesh keeps the op's source lists,
//! RXMesh::vertex_sources, and no schedule narrows the patches; otherwise
//! Patches runs). Flat is for meshes of a few patches per SM.
enum class AccumulateForm
{
    Patches,
    Flat
};

}  // namespace rxmesh
