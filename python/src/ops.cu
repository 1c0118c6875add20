#include "ops.h"

#include "rxmesh/algo/vertex_normals.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh::python {

namespace {

//! out[i] = values[map[i]] (3 floats), zero where map[i] is ~0u (a vertex
//! the mesh dropped).
__global__ void gather_rows3(const float* values, const std::uint32_t* map, std::uint32_t n,
                             float* out)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const std::uint32_t g = map[i];
    for (int k = 0; k < 3; ++k)
        out[3 * std::size_t(i) + k] = g == ~0u ? 0.f : values[3 * std::size_t(g) + k];
}

}  // namespace

std::shared_ptr<DeviceBuffer<float>> vertex_normals_input_order(const RXMesh& mesh)
{
    DeviceBuffer<float> global(3 * std::size_t(mesh.num_vertices()));
    vertex_normals(mesh, mesh.positions(), VertexView<float, 3>(global.data(), mesh.num_vertices()));
    const auto&         map = mesh.input_vertex_to_global();
    const std::uint32_t n   = std::uint32_t(map.size());
    auto                out = std::make_shared<DeviceBuffer<float>>(3 * std::size_t(n));
    if (n > 0) {
        gather_rows3<<<(n + 255) / 256, 256>>>(global.data(), map.data(), n, out->data());
        RXMESH_CHECK_LAUNCH();
    }
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    return out;
}

}  // namespace rxmesh::python
