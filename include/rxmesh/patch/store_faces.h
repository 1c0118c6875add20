// The mesh's faces read back from a patch store: for every global face, its
// three global vertex ids in winding order, decoded from the owner patch's
// M_FE and M_EV. An RXMesh keeps no face array of its own (it would double
// what the store already says); this builds one when a caller needs it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/patch/patch_store.h"

namespace rxmesh {

//! 3 global vertex ids per global face (face g at 3g), in the face's
//! winding, for the store's num_faces faces; stream-ordered (nothing is
//! synchronised).
DeviceBuffer<std::uint32_t> store_face_vertices(const PatchStore& store, std::uint32_t num_faces,
                                                cudaStream_t stream = 0);

}  // namespace rxmesh
