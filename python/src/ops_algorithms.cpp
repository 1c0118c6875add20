// The library's per-vertex algorithms, results in input order.
#include <cmath>
#include <limits>

#include "ops.h"
#include "rxmesh/algo/bilateral.h"
#include "rxmesh/algo/geodesic.h"
#include "rxmesh/algo/mcf.h"
#include "rxmesh/algo/vertex_normals.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

namespace rxmesh::python {

Shared<float> vertex_normals(const MeshHandle& h, cudaStream_t s)
{
    const RXMesh&       mesh = *h.mesh;
    DeviceBuffer<float> global(3 * std::size_t(mesh.num_vertices()), s);
    rxmesh::vertex_normals(mesh, mesh.positions(),
                           VertexView<float, 3>(global.data(), mesh.num_vertices()), s);
    return to_input_order(h, global.data(), 3, nullptr, 0.f, s);
}

FlowResult mean_curvature_flow(const MeshHandle& h, float dt, float relative_dt, int steps,
                               double tolerance, int max_iterations, bool uniform,
                               McfSolver solver, cudaStream_t s)
{
    const RXMesh& mesh = *h.mesh;
    McfOptions    o;
    o.dt = dt, o.relative_dt = relative_dt, o.steps = steps, o.uniform = uniform;
    o.solver = solver;
    o.cg.tolerance = tolerance, o.cg.max_iterations = max_iterations;
    DeviceBuffer<float> global(3 * std::size_t(mesh.num_vertices()), s);
    const McfReport     rep = rxmesh::mean_curvature_flow(
        mesh, mesh.positions(), VertexView<float, 3>(global.data(), mesh.num_vertices()), o, s);
    FlowResult r;
    r.positions      = to_input_order(h, global.data(), 3, h.fallback_positions(), 0.f, s);
    r.dt             = rep.dt;
    r.iterations     = rep.iterations;
    r.final_residual = rep.final_residual;
    r.converged      = rep.converged;
    return r;
}

std::vector<std::uint32_t> global_sources(const MeshHandle& h,
                                          const std::vector<std::int64_t>& sources,
                                          const std::string& what, cudaStream_t s)
{
    if (sources.empty())
        throw InvalidInputError(what + ": no source vertex given");
    // the sources' entries of the map only, not the whole map
    const auto&                map = h.mesh->input_vertex_to_global();
    std::vector<std::uint32_t> global(sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const std::int64_t v = sources[i];
        if (v < 0 || v >= std::int64_t(map.size()))
            throw InvalidInputError(what + ": source vertex " + std::to_string(v) +
                                    " is out of range (the mesh has " + std::to_string(map.size()) +
                                    " vertices)");
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(&global[i], map.data() + v, sizeof(std::uint32_t),
                                          cudaMemcpyDeviceToHost, s));
    }
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));
    for (std::size_t i = 0; i < sources.size(); ++i)
        if (global[i] == ~0u)
            throw InvalidInputError(what + ": source vertex " + std::to_string(sources[i]) +
                                    " belongs to no face");
    return global;
}

GeodesicResult geodesic_distance(const MeshHandle& h, const std::vector<std::int64_t>& sources,
                                 double tolerance, cudaStream_t s)
{
    const RXMesh&                    mesh   = *h.mesh;
    const std::vector<std::uint32_t> global = global_sources(h, sources, "geodesic_distance", s);
    GeodesicOptions o;
    o.tolerance = tolerance;
    DeviceBuffer<float>  d(mesh.num_vertices(), s);
    const GeodesicReport rep = rxmesh::geodesic_distance(mesh, mesh.positions(), global,
                                                         VertexView<float>(d.data(), mesh.num_vertices()),
                                                         o, s);
    GeodesicResult r;
    r.distance   = to_input_order(h, d.data(), 1, nullptr, std::numeric_limits<float>::quiet_NaN(), s);
    r.levels     = rep.levels;
    r.iterations = rep.iterations;
    r.converged  = rep.converged;
    return r;
}

Shared<float> bilateral_denoise(const MeshHandle& h, int iterations, cudaStream_t s)
{
    const RXMesh&    mesh = *h.mesh;
    BilateralOptions o;
    o.iterations = iterations;
    DeviceBuffer<float> out(3 * std::size_t(mesh.num_vertices()), s);
    rxmesh::bilateral_denoise(mesh, mesh.positions(),
                              VertexView<float, 3>(out.data(), mesh.num_vertices()), o, s);
    return to_input_order(h, out.data(), 3, h.fallback_positions(), 0.f, s);
}

}  // namespace rxmesh::python
