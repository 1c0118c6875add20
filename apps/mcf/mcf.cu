// rxmesh-mcf: smoothing by implicit mean curvature flow on the GPU
// (algo/mcf.cuh), a thin front end: options, input, output, --check.
// Run with --help for the options; without FILE it smooths an embedded
// noisy sphere.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/app_support.h"
#include "rxmesh/algo/mcf.cuh"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/rxmesh.cuh"

namespace {

using namespace rxmesh;

struct Options
{
    std::string  file, output, json;
    bool         check = false, weld = false;
    std::uint32_t capacity = 512;
    McfOptions   mcf;
};

void add_options(CLI::App& cli, Options& o)
{
    cli.add_option("FILE", o.file, "input mesh (OBJ, OFF, PLY, STL); default: an embedded noisy sphere");
    cli.add_option("-o,--output", o.output, "write the smoothed mesh as binary PLY (input vertex order)");
    cli.add_option("--json", o.json, "write a JSON report");
    cli.add_flag("--check", o.check, "check each step against the CPU reference (exit 2 on mismatch)");
    cli.add_option("--dt", o.mcf.dt, "time step (> 0); default: --dt-scale x mean edge length^2")
        ->check(app::positive_float());
    cli.add_option("--dt-scale", o.mcf.relative_dt, "time step relative to the mean edge length squared")
        ->check(app::positive_float())->capture_default_str();
    cli.add_option("--tol", o.mcf.cg.tolerance, "CG stops when |r| <= tol |r0|")
        ->check(CLI::PositiveNumber)->capture_default_str();
    cli.add_option("--max-iter", o.mcf.cg.max_iterations, "CG iteration limit per step")
        ->check(CLI::Range(0, 100000000))->capture_default_str();
    cli.add_option("--steps", o.mcf.steps, "number of flow steps")->check(CLI::Range(1, 1000000))->capture_default_str();
    cli.add_flag("--uniform", o.mcf.uniform, "uniform weights (1) and areas (valence / 2)");
    cli.add_flag("--weld", o.weld, "merge vertices with identical positions");
    cli.add_option("--capacity", o.capacity, "faces per patch")->check(CLI::Range(64u, 4096u))->capture_default_str();
}

std::vector<float> download(const DeviceBuffer<float>& b) { return b.to_host(); }

//! --check of one step: the GPU's X solves the reference's system
//! (2 a + dt L) X = 2 a X0 to the CG tolerance, up to float rounding of X.
void check_step(const RXMesh& mesh, const std::vector<float>& x0, const std::vector<float>& x,
                float dt, int iterations, const McfOptions& o)
{
    std::vector<Vec3f> p(mesh.num_vertices());
    for (std::size_t v = 0; v < p.size(); ++v)
        p[v] = {x0[3 * v], x0[3 * v + 1], x0[3 * v + 2]};
    std::vector<Triangle> faces(mesh.num_faces());
    const auto            flat = mesh.faces().to_host();
    for (std::size_t f = 0; f < faces.size(); ++f)
        faces[f] = {flat[3 * f], flat[3 * f + 1], flat[3 * f + 2]};
    const reference::McfSystem   s = reference::mcf_system(p, faces, o.uniform);
    const reference::McfResidual r = reference::mcf_residual(
        s, dt, std::vector<double>(x0.begin(), x0.end()), std::vector<double>(x.begin(), x.end()));
    if (!r.within(o.cg.tolerance, iterations))
        throw app::CheckFailed("residual of the reference system " + std::to_string(r.residual) +
                               " (initial " + std::to_string(r.initial) + ")");
}

}  // namespace

namespace {

struct Input
{
    TriangleSoup soup;
    std::string  name;
};

Input load(const std::string& file)
{
    if (!file.empty())
        return {io::read(file), file};
    return {generate::noisy(generate::icosphere(5), 0.3f, 1),
            "embedded noisy icosphere (5 subdivisions, noise 0.3 x mean edge)"};
}

//! The smoothed positions and per-vertex displacement, one per input vertex.
void write_output(app::Outputs& out, const std::string& path, const RXMesh& mesh, const TriangleSoup& input,
                  const std::vector<float>& x)
{
    const auto own = [&](std::size_t i, int k) { return input.positions[i][k]; };
    const std::vector<float> pos = app::to_input_vertices(mesh, x, 3, input.positions.size(), own);
    io::VertexScalar moved{"displacement", std::vector<float>(input.positions.size())};
    for (std::size_t i = 0; i < moved.values.size(); ++i) {
        double d2 = 0;
        for (int k = 0; k < 3; ++k)
            d2 += double(pos[3 * i + k] - own(i, k)) * (pos[3 * i + k] - own(i, k));
        moved.values[i] = float(std::sqrt(d2));
    }
    out.stage(path, [&](const std::string& tmp) { app::write_input_order_ply(tmp, input, pos, {moved}); });
}

int run_mcf(const Options& o)
{
    app::Stopwatch    import_clock;
    const Input       in = load(o.file);
    const double      import_ms = import_clock.ms();
    app::validate_input(in.soup, in.name);
    app::Outputs::expect(o.output);
    app::Outputs::expect(o.json);
    const std::string gpu = app::require_gpu();
    BuildOptions      build;
    build.weld              = o.weld;
    build.patcher.capacity  = o.capacity;
    const RXMesh mesh(in.soup, build);

    DeviceBuffer<float> x(3 * std::size_t(mesh.num_vertices()));
    RXMESH_CHECK_CUDA(cudaMemcpy(x.data(), mesh.positions().data(), x.bytes(), cudaMemcpyDeviceToDevice));
    McfOptions one = o.mcf;
    one.steps      = 1;
    McfReport total;
    for (int step = 0; step < o.mcf.steps; ++step) {
        const std::vector<float> x0 = o.check ? download(x) : std::vector<float>{};
        const McfReport          r  = mean_curvature_flow(mesh, x.data(), one);
        if (o.check)
            check_step(mesh, x0, download(x), r.dt, r.iterations, o.mcf);
        if (step == 0) {  // one time step for the whole flow, as the library takes it
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
    const std::vector<float> result = download(x);
    app::Outputs             out;
    if (!o.output.empty())
        write_output(out, o.output, mesh, in.soup, result);

    std::printf("rxmesh-mcf: %s on %s\n", in.name.c_str(), gpu.c_str());
    std::printf("  %u vertices, %u faces, %u patches\n", mesh.num_vertices(), mesh.num_faces(), mesh.num_patches());
    std::printf("  import %.1f ms, build %.1f ms, weights+areas %.2f ms, solve %.2f ms\n", import_ms,
                mesh.stats().total_ms, total.terms_ms, total.solve_ms);
    std::printf("  dt %.4g, %d CG iterations, relative residual %.3g%s%s\n", total.dt, total.iterations,
                total.final_residual, total.converged ? "" : " (not converged)", o.check ? ", check passed" : "");
    if (!o.json.empty()) {
        app::Json times, params, j;
        times.num("import", import_ms).num("build", mesh.stats().total_ms).num("weights_areas", total.terms_ms)
            .num("solve", total.solve_ms);
        params.num("dt", total.dt).num("dt_scale", o.mcf.dt > 0 ? 0 : o.mcf.relative_dt)
            .num("tolerance", o.mcf.cg.tolerance).num("max_iterations", o.mcf.cg.max_iterations)
            .num("steps", o.mcf.steps).flag("uniform", o.mcf.uniform).num("capacity", o.capacity);
        j.str("app", "rxmesh-mcf").str("gpu", gpu).str("input", in.name).obj("mesh", app::mesh_json(mesh, in.soup))
            .obj("parameters", params).obj("times_ms", times).num("mean_edge_length", total.mean_edge_length)
            .num("iterations", total.iterations).num("final_relative_residual", total.final_residual)
            .flag("converged", total.converged).flag("checked", o.check);
        out.stage(o.json, [&](const std::string& tmp) { j.write(tmp); });
    }
    out.commit();
    return total.converged ? 0 : 3;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App cli{"rxmesh-mcf: smoothing by implicit mean curvature flow (matrix-free CG) on the GPU"};
    Options  o;
    add_options(cli, o);
    if (const int rc = app::parse(cli, argc, argv, "rxmesh-mcf"); rc >= 0)
        return rc;
    return app::run("rxmesh-mcf", [&] { return run_mcf(o); });
}
