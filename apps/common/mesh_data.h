// The mesh's positions and faces as the apps need them: on the host, in the
// global numbering, for --check against reference/ (which takes points and
// triangles), and a device copy for an algorithm that moves the vertices.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh::app {

//! Flat x, y, z values -> one point per three.
inline std::vector<Vec3f> to_points(const std::vector<float>& flat)
{
    std::vector<Vec3f> out(flat.size() / 3);
    for (std::size_t v = 0; v < out.size(); ++v)
        out[v] = {flat[3 * v], flat[3 * v + 1], flat[3 * v + 2]};
    return out;
}

//! The largest distance a vertex moved from `start` to `result` (flat x, y,
//! z values of the same vertices), in double.
inline double max_displacement(const std::vector<float>& start, const std::vector<float>& result)
{
    double worst = 0;
    for (std::size_t v = 0; 3 * v < start.size(); ++v) {
        double d2 = 0;
        for (int k = 0; k < 3; ++k) d2 += std::pow(double(result[3 * v + k]) - start[3 * v + k], 2);
        worst = std::max(worst, std::sqrt(d2));
    }
    return worst;
}

//! The mesh's positions (global order), downloaded.
inline std::vector<Vec3f> host_positions(const RXMesh& mesh)
{
    return to_points(to_host(mesh.positions().view()));
}

//! The mesh's faces (global numbering, winding kept), downloaded.
inline std::vector<Triangle> host_faces(const RXMesh& mesh)
{
    const std::vector<std::uint32_t> flat = mesh.faces().to_host();
    std::vector<Triangle>            out(flat.size() / 3);
    for (std::size_t f = 0; f < out.size(); ++f)
        out[f] = {flat[3 * f], flat[3 * f + 1], flat[3 * f + 2]};
    return out;
}

//! A device copy of the mesh's positions (3 floats per vertex, global
//! order), for an algorithm that moves them in place.
inline DeviceBuffer<float> positions_copy(const RXMesh& mesh)
{
    DeviceBuffer<float> x(3 * std::size_t(mesh.num_vertices()));
    RXMESH_CHECK_CUDA(
        cudaMemcpy(x.data(), mesh.positions().device_data(), x.bytes(), cudaMemcpyDeviceToDevice));
    return x;
}

}  // namespace rxmesh::app
