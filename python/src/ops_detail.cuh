// Helpers shared by the ops_*.cu files.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "ops.h"

namespace rxmesh::python::detail {

//! Blocks of 256 threads for n items.
inline unsigned blocks(std::uint64_t n)
{
    return unsigned((n + 255) / 256);
}

//! Device float positions (3 per vertex): the caller's own when they are
//! float32 in device memory, else a converted or uploaded copy in `store`.
const float* device_positions(const ArrayIn& a, DeviceBuffer<float>& store, cudaStream_t s);
//! Device vertex ids (3 per face), the same way (int32/uint32 in place).
const std::uint32_t* device_faces(const ArrayIn& a, DeviceBuffer<std::uint32_t>& store,
                                  cudaStream_t s);

}  // namespace rxmesh::python::detail
