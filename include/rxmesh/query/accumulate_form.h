// Which form RXMesh::accumulate runs: a block per patch, or a thread per
// vertex (query/accumulate_flat.cuh says how each works and when each wins).
#pragma once

#include <cstdint>

namespace rxmesh {

//! Which form of accumulate runs: chosen by the mesh (Auto), a block per
//! patch (Patches), or a thread per vertex (Flat, where the mesh keeps the
//! op's source lists, RXMesh::vertex_sources; otherwise Patches runs).
enum class AccumulateForm
{
    Auto,
    Patches,
    Flat
};

//! Patches per SM up to which AccumulateForm::Auto takes the flat form
//! (where the mesh keeps the op's lists and no schedule narrows the
//! patches). From the sweeps of benchmarks/vertex_normals.cu
//! (results/nvidia-h100/accumulate_flat.md).
inline constexpr std::uint32_t kAccumulateFlatPatchesPerSM = 8;

}  // namespace rxmesh
