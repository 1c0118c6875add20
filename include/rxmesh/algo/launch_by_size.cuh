// The size test of the launches chosen by the mesh's size (vertex normals,
// bilateral's ball, the cached CG's single pass): the mesh's patches per SM
// of the current device. With a few per SM every block is resident at once
// and each is one dependent chain, so wide blocks win; with many, occupancy
// decides.
#pragma once

#include <cstdint>

#include "rxmesh/core/launch.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

//! Whether the mesh has more than `per_sm` patches per SM of the current
//! device.
inline bool more_patches_per_sm_than(const RXMesh& mesh, std::uint32_t per_sm)
{
    return mesh.num_patches() > std::uint64_t(per_sm) * std::uint64_t(detail::device_limits().sms);
}

}  // namespace rxmesh
