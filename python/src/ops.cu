#include "ops.h"

#include "rxmesh/algo/mcf.cuh"
#include "rxmesh/algo/vertex_normals.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh::python {

namespace {

//! out[i] = values[map[i]] (3 floats); where map[i] is ~0u (a vertex the
//! mesh dropped) out[i] = fallback[i] (3 floats), or zero without one.
__global__ void gather_rows3(const float* values, const std::uint32_t* map, std::uint32_t n,
                             const float* fallback, float* out)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const std::uint32_t g = map[i];
    for (int k = 0; k < 3; ++k)
        out[3 * std::size_t(i) + k] = g != ~0u ? values[3 * std::size_t(g) + k]
                                      : fallback ? fallback[3 * std::size_t(i) + k]
                                                 : 0.f;
}

//! Rows of `global` (3 floats per mesh vertex) in input order.
std::shared_ptr<DeviceBuffer<float>> to_input_order3(const RXMesh& mesh, const float* global,
                                                     const float* fallback)
{
    const auto&         map = mesh.input_vertex_to_global();
    const std::uint32_t n   = std::uint32_t(map.size());
    auto                out = std::make_shared<DeviceBuffer<float>>(3 * std::size_t(n));
    if (n > 0) {
        gather_rows3<<<(n + 255) / 256, 256>>>(global, map.data(), n, fallback, out->data());
        RXMESH_CHECK_LAUNCH();
    }
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    return out;
}

}  // namespace

std::shared_ptr<DeviceBuffer<float>> vertex_normals_input_order(const RXMesh& mesh)
{
    DeviceBuffer<float> global(3 * std::size_t(mesh.num_vertices()));
    vertex_normals(mesh, mesh.positions(), VertexView<float, 3>(global.data(), mesh.num_vertices()));
    return to_input_order3(mesh, global.data(), nullptr);
}

FlowResult mean_curvature_flow_input_order(const RXMesh& mesh, float dt, float relative_dt,
                                           int steps, double tolerance, int max_iterations,
                                           bool uniform, const std::vector<float>& input_positions)
{
    McfOptions o;
    o.dt = dt, o.relative_dt = relative_dt, o.steps = steps, o.uniform = uniform;
    o.cg.tolerance = tolerance, o.cg.max_iterations = max_iterations;
    DeviceBuffer<float> global(3 * std::size_t(mesh.num_vertices()));
    const McfReport     rep = mean_curvature_flow(
        mesh, mesh.positions(), VertexView<float, 3>(global.data(), mesh.num_vertices()), o);
    const auto fallback = DeviceBuffer<float>::from_host(input_positions);
    FlowResult r;
    r.positions      = to_input_order3(mesh, global.data(), fallback.data());
    r.dt             = rep.dt;
    r.iterations     = rep.iterations;
    r.final_residual = rep.final_residual;
    r.converged      = rep.converged;
    return r;
}

}  // namespace rxmesh::python
