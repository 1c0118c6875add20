// Runs a CUB device algorithm with its two-phase temporary-storage protocol:
// the first call sizes the storage, the second does the work.
//
//   cub_call(stream, [&](void* tmp, size_t& bytes) {
//       return cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n, stream);
//   });
#pragma once

#include <cstddef>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"

namespace rxmesh::detail {

template <typename Algorithm>
void cub_call(cudaStream_t stream, Algorithm&& algorithm)
{
    std::size_t bytes = 0;
    RXMESH_CHECK_CUDA(algorithm(nullptr, bytes));
    DeviceBuffer<unsigned char> storage(bytes, stream);
    RXMESH_CHECK_CUDA(algorithm(static_cast<void*>(storage.data()), bytes));
}

}  // namespace rxmesh::detail
