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

//! The mesh's positions on the host, in its global numbering.
inline std::vector<Vec3f> global_positions(const RXMesh& m)
{
    const std::vector<float> flat = to_host(m.positions().view());
    std::vector<Vec3f>       p(flat.size() / 3);
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
    return p;
}

//! Values per global vertex as one per input vertex (`to_global`:
//! RXMesh::input_vertex_to_global); `dropped` for a vertex the mesh dropped.
inline std::vector<float> in_input_order(const std::vector<float>&         global,
                                         const std::vector<std::uint32_t>& to_global,
                                         float                             dropped)
{
    std::vector<float> out(to_global.size(), dropped);
    for (std::size_t i = 0; i < out.size(); ++i)
        if (to_global[i] != ~0u) out[i] = global[to_global[i]];
    return out;
}

//! A device copy of n values at d (device memory).
inline DeviceBuffer<float> copy_of(const float* d, std::size_t n)
{
    DeviceBuffer<float> c(n);
    RXMESH_CHECK_CUDA(cudaMemcpy(c.data(), d, n * sizeof(float), cudaMemcpyDeviceToDevice));
    return c;
}

}  // namespace rxmesh::bench
