// rxmesh-mcf: smoothing by implicit mean curvature flow on the GPU
// (algo/mcf.h), a thin front end over the apps' skeleton
// (apps/common/app.h); --device cpu solves the serial double reference's
// system with a host CG instead. Run with --help for the options; without
// FILE it smooths an embedded noisy sphere.
#include <cmath>
#include <string>
#include <vector>

#include "../common/app.h"
#include "../common/cpu_mesh.h"
#include "../common/host_cg.h"
#include "../common/mesh_data.h"
#include "rxmesh/algo/mcf.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/reference/solve_spd.h"

namespace {

using namespace rxmesh;

const app::Info kInfo = app::moving_app(
    {"rxmesh-mcf",
     "smoothing by implicit mean curvature flow on the GPU (matrix-free CG, or --solver "
     "cholesky)",
     "an embedded noisy sphere",
     "write the smoothed mesh as binary PLY (input vertex order, a 'displacement' vertex "
     "property); --device cpu: the CG in double, each step's result in float as the GPU's",
     "check each step against the CPU reference (exit 2 on mismatch)"});

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

//! The summary's times and solver lines of either path (`build_ms`: its
//! mesh's build), the last ending with `suffix`.
void print_summary(const app::Session& s, double build_ms, const McfReport& total,
                   McfSolver solver, const std::string& suffix)
{
    std::printf("  import %.1f ms, build %.1f ms, weights+areas %.2f ms, solve %.2f ms\n",
                s.import_ms(), build_ms, total.terms_ms, total.solve_ms);
    if (solver == McfSolver::cholesky) {
        if (total.factor_ms > 0)  // the GPU's (the CPU's solve time holds its factor)
            std::printf(
                "  assembly %.2f ms, analysis %.1f ms (host, once), factor %.2f ms (all steps)\n",
                total.assembly_ms, total.analysis_ms, total.factor_ms);
        std::printf("  dt %.4g, Cholesky, relative residual %.3g%s\n", total.dt,
                    total.final_residual, suffix.c_str());
        return;
    }
    std::printf("  dt %.4g, %d CG iterations, relative residual %.3g%s\n", total.dt,
                total.iterations, total.final_residual, suffix.c_str());
}

//! Every step, one call each (so that --check sees each), with one time step
//! for the whole flow and one Cholesky analysis.
McfReport flow(const RXMesh& mesh, DeviceBuffer<float>& x, const McfOptions& o, bool check)
{
    const VertexView<float, 3> xv(x.data(), mesh.num_vertices());
    MeanCurvatureFlow          flow(mesh, xv, o);
    McfReport                  total;
    total.dt               = flow.dt();
    total.mean_edge_length = flow.mean_edge_length();
    for (int step = 0; step < o.steps; ++step) {
        const std::vector<float> x0 = check ? x.to_host() : std::vector<float>{};
        const McfReport          r  = flow.step(xv);
        if (check) check_step(mesh, x0, x.to_host(), r.dt, r.iterations, o);
        add_step(total, r);
    }
    return total;
}

double norm(const std::vector<double>& v)
{
    double sum = 0;
    for (double x : v) sum += x * x;
    return std::sqrt(sum);
}

//! host_step by the reference's envelope Cholesky: the matrix
//! 2 diag(a) + dt L and its right-hand side (reference/mcf.h), three columns
//! in one factorization; x becomes the solution, in float.
McfReport host_direct_step(std::vector<Vec3f>& x, const reference::McfSystem& s,
                           const std::vector<double>& x0, float dt, McfReport rep,
                           app::Session::Clock::time_point solve_start)
{
    const reference::CsrMatrix A = reference::mcf_matrix(s, dt);
    const std::vector<double>  b = reference::mcf_right_hand_side(s, dt, x0);
    std::vector<double>        solution;
    try {
        solution = reference::solve_spd(A, b, 3);
    } catch (const std::invalid_argument& e) {
        throw InvalidInputError(std::string("the reference's Cholesky: ") + e.what());
    }
    for (std::size_t v = 0; v < x.size(); ++v)
        for (int k = 0; k < 3; ++k) x[v][k] = float(solution[3 * v + k]);
    rep.solve_ms = float(app::ms_since(solve_start));
    std::vector<double> r = b;
    for (int k = 0; k < 3; ++k) {  // |b - A x| / |b| of the double solution
        std::vector<double> column(A.size);
        for (std::uint32_t v = 0; v < A.size; ++v) column[v] = solution[3 * std::size_t(v) + k];
        const std::vector<double> Ax = A.apply(column);
        for (std::uint32_t v = 0; v < A.size; ++v) r[3 * std::size_t(v) + k] -= Ax[v];
    }
    rep.final_residual = norm(b) > 0 ? norm(r) / norm(b) : 0;
    rep.converged      = std::isfinite(rep.final_residual);
    const reference::McfResidual check = reference::mcf_residual(s, dt, x0, app::flatten<double>(x));
    if (!check.within(1e-12, 0))
        throw app::CheckFailed("the CPU Cholesky's float solution's residual of the reference "
                               "system " + std::to_string(check.residual) + " (initial " +
                               std::to_string(check.initial) + ")");
    return rep;
}

//! One step on the host, as the GPU takes it: the system of the step's
//! starting positions x (float), the right-hand side 2 a X0, the initial
//! guess X0 with its residual -dt L X0; x becomes the solution, in float.
//! The float solution is then checked against the reference's system as
//! --check checks the GPU's. \throw app::CheckFailed when a converged
//! solve does not solve it.
McfReport host_step(std::vector<Vec3f>& x, const std::vector<Triangle>& faces, float dt,
                    const McfOptions& o)
{
    McfReport  rep;
    const auto terms_start = app::Session::Clock::now();
    const reference::McfSystem s = reference::mcf_system(x, faces, o.uniform);
    rep.terms_ms                 = float(app::ms_since(terms_start));
    const auto                solve_start = app::Session::Clock::now();
    const std::vector<double> x0          = app::flatten<double>(x);
    if (o.solver == McfSolver::cholesky) return host_direct_step(x, s, x0, dt, rep, solve_start);
    std::vector<double>       r           = reference::laplacian_apply(s, x0);
    for (double& v : r) v *= -double(dt);
    std::vector<double> solution = x0;
    const CgReport      cg       = app::host_cg(
        [&](const std::vector<double>& d) { return reference::mcf_apply(s, dt, d); }, solution,
        std::move(r), o.cg);
    for (std::size_t v = 0; v < x.size(); ++v)
        for (int k = 0; k < 3; ++k) x[v][k] = float(solution[3 * v + k]);
    rep.solve_ms       = float(app::ms_since(solve_start));
    rep.iterations     = cg.iterations;
    rep.final_residual = cg.initial_residual > 0 ? cg.final_residual / cg.initial_residual : 0;
    rep.converged      = cg.converged;
    const reference::McfResidual check = reference::mcf_residual(s, dt, x0, app::flatten<double>(x));
    if (cg.converged && !check.within(o.cg.tolerance, cg.iterations))
        throw app::CheckFailed("the CPU solution's residual of the reference system " +
                               std::to_string(check.residual) + " (initial " +
                               std::to_string(check.initial) + ")");
    return rep;
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
        app::add_option(cli, "--tol", m_mcf.cg.tolerance, "CG stops when |r| <= tol |r0|",
                        app::positive_double());
        app::add_option(cli, "--max-iter", m_mcf.cg.max_iterations, "CG iteration limit per step",
                        app::integer_in(0, 100000000));
        app::add_option(cli, "--steps", m_mcf.steps, "number of flow steps",
                        app::integer_in(1, 1000000));
        cli.add_flag("--uniform", m_mcf.uniform, "uniform weights (1) and areas (valence / 2)");
        cli.add_option("--solver", m_solver,
                       "cg: matrix-free, float; cholesky: the same system assembled in double "
                       "and factored, the analysis once for all --steps")
            ->check(CLI::IsMember({"cg", "cholesky"}))
            ->capture_default_str();
    }

    app::Input default_input() const override
    {
        return {generate::noisy(generate::icosphere(5), 0.3f, 1),
                "embedded noisy icosphere (5 subdivisions, noise 0.3 x mean edge)"};
    }

    int run(app::Session& s) override
    {
        m_mcf.solver = m_solver == "cholesky" ? McfSolver::cholesky : McfSolver::cg;
        if (s.on_cpu()) return run_cpu(s);
        const RXMesh        mesh  = s.build_mesh();
        DeviceBuffer<float> x     = app::positions_copy(mesh);
        const McfReport     total = flow(mesh, x, m_mcf, s.check());
        s.write_moved_mesh(mesh, VertexView<const float, 3>(x.data(), mesh.num_vertices()));
        s.print_header(mesh);
        print_summary(s, mesh.stats().total_ms, total, m_mcf.solver,
                      std::string(total.converged ? "" : " (not converged)") +
                          (s.check() ? ", check passed" : ""));
        s.write_report(report(s.report(mesh),
                              parameters(total).num("capacity", s.options().capacity),
                              s.times(mesh), total, s.check(),
                              m_mcf.solver == McfSolver::cholesky));
        return total.converged ? 0 : 3;
    }

   private:
    //! --device cpu: every step on the host (host_step) on the mesh as the
    //! GPU path's build makes it (reindexed, --weld), with the GPU's one time
    //! step for the whole flow, written like the GPU path writes. Exit 3 when
    //! a solve did not converge.
    int run_cpu(app::Session& s)
    {
        const app::CpuMesh mesh = app::cpu_mesh(s);
        std::vector<Vec3f> x    = mesh.positions();
        McfReport           total;
        total.mean_edge_length = reference::mean_edge_length(x, mesh.faces());
        total.dt               = m_mcf.dt > 0 ? m_mcf.dt
                                              : float(m_mcf.relative_dt * total.mean_edge_length *
                                                      total.mean_edge_length);
        if (!(total.dt > 0) || !std::isfinite(total.dt))
            throw InvalidInputError("the time step " + std::to_string(total.dt) +
                                    " (--dt-scale x mean edge length^2) is not a positive float");
        for (int step = 0; step < m_mcf.steps; ++step) {
            s.progress().show("smoothing", double(step) / m_mcf.steps);
            add_step(total, host_step(x, mesh.faces(), total.dt, m_mcf));
        }
        app::write_moved_mesh(s, mesh, x);
        app::print_header(s, mesh);
        print_summary(s, mesh.build_ms(), total, m_mcf.solver,
                      total.converged ? ", every step's solution verified" : " (not converged)");
        s.write_report(report(app::report(s, mesh),
                              parameters(total).flag("weld", s.options().weld),
                              s.times(mesh.build_ms()), total, false,
                              m_mcf.solver == McfSolver::cholesky));
        return total.converged ? 0 : 3;
    }

    //! The report's parameters both paths share.
    app::Json parameters(const McfReport& total) const
    {
        app::Json p;
        p.num("dt", total.dt)
            .num("dt_scale", m_mcf.dt > 0 ? 0 : m_mcf.relative_dt)
            .num("tolerance", m_mcf.cg.tolerance)
            .num("max_iterations", m_mcf.cg.max_iterations)
            .num("steps", m_mcf.steps)
            .flag("uniform", m_mcf.uniform)
            .str("solver", m_solver);
        return p;
    }

    //! The report of either path: `j` its first keys, `params` and `times`
    //! (its first times) its own.
    static app::Json report(app::Json j, const app::Json& params, app::Json times,
                            const McfReport& total, bool checked, bool direct)
    {
        times.num("weights_areas", total.terms_ms).num("solve", total.solve_ms);
        if (direct)
            times.num("assembly", total.assembly_ms)
                .num("analysis", total.analysis_ms)
                .num("factor", total.factor_ms);
        j.obj("parameters", params)
            .obj("times_ms", times)
            .num("mean_edge_length", total.mean_edge_length)
            .num("iterations", total.iterations)
            .num("final_relative_residual", total.final_residual)
            .flag("converged", total.converged)
            .flag("checked", checked);
        return j;
    }

    McfOptions  m_mcf;
    std::string m_solver = "cg";
};

}  // namespace

int main(int argc, char** argv) { return app::run_app<Mcf>(argc, argv); }
