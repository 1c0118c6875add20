// GPU construction of the patch store from a face -> patch assignment,
// following exactly the rules of rxmesh/reference/patch_store.h (the tests
// compare both array by array).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/build/topology.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/patch/patch_store.h"

namespace rxmesh {

struct PatchedDeviceMesh
{
    PatchStore                  store;
    DeviceBuffer<std::uint32_t> faces;              // renumbered, 3 per face
    DeviceBuffer<std::uint32_t> vertex_new_to_old;  // V
    DeviceBuffer<std::uint32_t> vertex_old_to_new;  // V
    DeviceBuffer<std::uint32_t> edge_new_to_old;    // E (canonical edge ids)
    DeviceBuffer<std::uint32_t> face_new_to_old;    // F
};

//! \pre topo built with every part from `faces` (3 per face, device);
//!      face_patch[f] < num_patches, every patch non-empty.
//! \throw InvalidInputError when a patch would need more than 65535 local
//!        vertices, edges or faces (16-bit local ids).
PatchedDeviceMesh build_patch_store(const std::uint32_t*  d_faces,
                                    const DeviceTopology& topo,
                                    const std::uint32_t*  d_face_patch,
                                    std::uint32_t         num_patches,
                                    std::uint32_t         capacity,
                                    cudaStream_t          stream = 0);

}  // namespace rxmesh
