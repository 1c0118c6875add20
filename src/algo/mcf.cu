// mean_curvature_flow (algo/mcf.h): its steps over the pieces of mcf.cuh.
#include <cmath>
#include <string>

#include "rxmesh/algo/mcf.cuh"

namespace rxmesh {

McfReport mean_curvature_flow(const RXMesh& mesh, VertexView<const float, 3> positions,
                              VertexView<float, 3> smoothed, const McfOptions& options,
                              cudaStream_t stream)
{
    if (!(options.dt >= 0) || !std::isfinite(options.dt) ||
        (options.dt == 0 && !(options.relative_dt > 0 && std::isfinite(options.relative_dt))))
        throw InvalidInputError("mean_curvature_flow: the time step must be finite and > 0");
    if (options.steps < 1 || !(options.cg.tolerance > 0) || options.cg.max_iterations < 0)
        throw InvalidInputError(
            "mean_curvature_flow: steps >= 1, tolerance > 0 and max_iterations >= 0 required");
    require_vertex_count("mean_curvature_flow", mesh, positions, smoothed);
    copy(smoothed, positions, stream);
    McfReport rep;
    rep.mean_edge_length = mean_edge_length(mesh, smoothed, stream);
    rep.dt = options.dt > 0 ? options.dt
                            : float(options.relative_dt * rep.mean_edge_length * rep.mean_edge_length);
    if (!(rep.dt > 0) || !std::isfinite(rep.dt))
        throw InvalidInputError("mean_curvature_flow: the time step " + std::to_string(rep.dt) +
                                " (relative_dt x mean edge length^2) is not a positive float");
    GpuTimer timer(stream);
    for (int step = 0; step < options.steps; ++step) {
        timer.start();
        const McfSystem s = mcf_system(mesh, smoothed, options.uniform, stream);
        rep.terms_ms += timer.stop_ms();
        timer.start();
        const CgReport cg = mcf_step(mesh, s, rep.dt, smoothed, options.cg, stream);
        rep.solve_ms += timer.stop_ms();
        rep.iterations += cg.iterations;
        rep.final_residual = cg.initial_residual > 0 ? cg.final_residual / cg.initial_residual : 0;
        rep.converged      = rep.converged && cg.converged;
    }
    return rep;
}

}  // namespace rxmesh
