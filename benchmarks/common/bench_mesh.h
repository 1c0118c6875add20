// Helpers of the benchmark drivers that need an RXMesh (CUDA translation
// units): its faces on the host in global numbering, device copies.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh::bench {

//! The mesh's faces in its global (patch) numbering, winding kept.
inline std::vector<Triangle> global_faces(const RXMesh& m)
{
    const auto            flat = m.faces().to_host();
    std::vector<Triangle> f(flat.size() / 3);
    for (std::size_t i = 0; i < f.size(); ++i)
        f[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
    return f;
}

//! A device copy of n values at d (device memory).
inline DeviceBuffer<float> copy_of(const float* d, std::size_t n)
{
    DeviceBuffer<float> c(n);
    RXMESH_CHECK_CUDA(cudaMemcpy(c.data(), d, n * sizeof(float), cudaMemcpyDeviceToDevice));
    return c;
}

}  // namespace rxmesh::bench
