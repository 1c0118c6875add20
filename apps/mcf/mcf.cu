// rxmesh-mcf: smoothing by implicit mean curvature flow on the GPU
// (algo/mcf.cuh), a thin front end over the apps' skeleton
// (apps/common/app.h). Run with --help for the options; without FILE it
// smooths an embedded noisy sphere.
#include <string>
#include <vector>

#include "../common/app.h"
#include "../common/mesh_data.h"
#include "rxmesh/algo/mcf.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/rxmesh.cuh"

namespace {

using namespace rxmesh;

const app::Info kInfo{
    "rxmesh-mcf", "smoothing by implicit mean curvature flow (matrix-free CG) on the GPU",
    "an embedded noisy sphere", "write the smoothed mesh as binary PLY (input vertex order)",
    "check each step against the CPU reference (exit 2 on mismatch)"};

//! --check of one step: the GPU's X solves the reference's system
//! (2 a + dt L) X = 2 a X0 to the CG tolerance, up to float rounding of X.
void check_step(const RXMesh& mesh, const std::vector<float>& x0, const std::vector<float>& x,
                float dt, int iterations, const McfOptions& o)
{
    const reference::McfSystem s =
        reference::mcf_system(app::to_points(x0), app::host_faces(mesh), o.uniform);
    const reference::McfResidual r = reference::mcf_residual(
        s, dt, std::vector<double>(x0.begin(), x0.end()), std::vector<double>(x.begin(), x.end()));
    if (!r.within(o.cg.tolerance, iterations))
        throw app::CheckFailed("residual of the reference system " + std::to_string(r.residual) +
                               " (initial " + std::to_string(r.initial) + ")");
}

//! The algorithm, one step: x (3 floats per vertex, global order) in place.
McfReport flow_step(const RXMesh& mesh, DeviceBuffer<float>& x, const McfOptions& one_step)
{
    const VertexView<float, 3> xv(x.data(), mesh.num_vertices());
    return mean_curvature_flow(mesh, xv, xv, one_step);  // in place
}

//! Every step, one call each (so that --check sees each), with one time step
//! for the whole flow, as the library takes it.
McfReport flow(const RXMesh& mesh, DeviceBuffer<float>& x, const McfOptions& o, bool check)
{
    McfOptions one = o;
    one.steps      = 1;
    McfReport total;
    for (int step = 0; step < o.steps; ++step) {
        const std::vector<float> x0 = check ? x.to_host() : std::vector<float>{};
        const McfReport          r  = flow_step(mesh, x, one);
        if (check) check_step(mesh, x0, x.to_host(), r.dt, r.iterations, o);
        if (step == 0) {
            one.dt                 = r.dt;
            total.dt               = r.dt;
            total.mean_edge_length = r.mean_edge_length;
        }
        total.iterations += r.iterations;
        total.final_residual = r.final_residual;
        total.converged      = total.converged && r.converged;
        total.terms_ms += r.terms_ms;
        total.solve_ms += r.solve_ms;
    }
    return total;
}

class Mcf final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override
    {
        CLI::Option* dt = cli.add_option("--dt", m_mcf.dt,
                                         "time step (> 0); default: --dt-scale x mean edge "
                                         "length^2")
                              ->check(app::positive_float());
        cli.add_option("--dt-scale", m_mcf.relative_dt,
                       "time step relative to the mean edge length squared (not with --dt)")
            ->check(app::positive_float())
            ->excludes(dt)
            ->capture_default_str();
        cli.add_option("--tol", m_mcf.cg.tolerance, "CG stops when |r| <= tol |r0|")
            ->check(app::positive_double())
            ->capture_default_str();
        cli.add_option("--max-iter", m_mcf.cg.max_iterations, "CG iteration limit per step")
            ->check(app::integer_in(0, 100000000))
            ->capture_default_str();
        cli.add_option("--steps", m_mcf.steps, "number of flow steps")
            ->check(app::integer_in(1, 1000000))
            ->capture_default_str();
        cli.add_flag("--uniform", m_mcf.uniform, "uniform weights (1) and areas (valence / 2)");
    }

    app::Input default_input() const override
    {
        return {generate::noisy(generate::icosphere(5), 0.3f, 1),
                "embedded noisy icosphere (5 subdivisions, noise 0.3 x mean edge)"};
    }

    int run(app::Session& s) override
    {
        const RXMesh        mesh  = s.build_mesh();
        DeviceBuffer<float> x     = app::positions_copy(mesh);
        const McfReport     total = flow(mesh, x, m_mcf, s.check());
        s.write_moved_mesh(mesh, VertexView<const float, 3>(x.data(), mesh.num_vertices()));
        s.print_header(mesh);
        std::printf("  import %.1f ms, build %.1f ms, weights+areas %.2f ms, solve %.2f ms\n",
                    s.import_ms(), mesh.stats().total_ms, total.terms_ms, total.solve_ms);
        std::printf("  dt %.4g, %d CG iterations, relative residual %.3g%s%s\n", total.dt,
                    total.iterations, total.final_residual,
                    total.converged ? "" : " (not converged)", s.check() ? ", check passed" : "");
        s.write_report(report(s, mesh, total));
        return total.converged ? 0 : 3;
    }

   private:
    app::Json report(const app::Session& s, const RXMesh& mesh, const McfReport& total) const
    {
        app::Json params;
        params.num("dt", total.dt)
            .num("dt_scale", m_mcf.dt > 0 ? 0 : m_mcf.relative_dt)
            .num("tolerance", m_mcf.cg.tolerance)
            .num("max_iterations", m_mcf.cg.max_iterations)
            .num("steps", m_mcf.steps)
            .flag("uniform", m_mcf.uniform)
            .num("capacity", s.options().capacity);
        app::Json j = s.report(mesh);
        j.obj("parameters", params)
            .obj("times_ms",
                 s.times(mesh).num("weights_areas", total.terms_ms).num("solve", total.solve_ms))
            .num("mean_edge_length", total.mean_edge_length)
            .num("iterations", total.iterations)
            .num("final_relative_residual", total.final_residual)
            .flag("converged", total.converged)
            .flag("checked", s.check());
        return j;
    }

    McfOptions m_mcf;
};

}  // namespace

int main(int argc, char** argv)
{
    Mcf program;
    return app::run_app(program, argc, argv);
}
