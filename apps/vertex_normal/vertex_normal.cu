// rxmesh-vertex-normal: vertex normals (Max 1999 weights) on the GPU
// (algo/vertex_normals.cuh), a thin front end: options, input, output,
// --check. Run with --help for the options; without FILE it uses an
// embedded torus.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../common/app_support.h"
#include "rxmesh/algo/vertex_normals.cuh"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/vertex_normals.h"
#include "rxmesh/rxmesh.cuh"

namespace {

using namespace rxmesh;

struct Options
{
    std::string   file, output, json;
    bool          check = false, weld = false;
    std::uint32_t capacity = 512;
};

//! --check: the largest difference from the double-precision reference.
double reference_error(const RXMesh& mesh, const std::vector<float>& n)
{
    const auto            fpos = mesh.positions().to_host();
    const auto            ffac = mesh.faces().to_host();
    std::vector<Vec3f>    pos(mesh.num_vertices());
    std::vector<Triangle> faces(mesh.num_faces());
    std::memcpy(pos.data(), fpos.data(), fpos.size() * sizeof(float));
    std::memcpy(faces.data(), ffac.data(), ffac.size() * sizeof(std::uint32_t));
    const auto ref   = reference::vertex_normals(pos, faces);
    double     worst = 0;
    for (std::size_t v = 0; v < ref.size(); ++v)
        for (int k = 0; k < 3; ++k)
            worst = std::max(worst, std::abs(double(n[3 * v + k]) - ref[v][k]));
    return worst;
}

int run_normals(const Options& o)
{
    app::Stopwatch     import_clock;
    const TriangleSoup soup = o.file.empty() ? generate::torus(512, 256) : io::read(o.file);
    const std::string  name = o.file.empty() ? "embedded torus (512 x 256 quads)" : o.file;
    const double       import_ms = import_clock.ms();
    app::validate_input(soup, name);
    app::Outputs::expect(o.output);
    app::Outputs::expect(o.json);
    const std::string gpu = app::require_gpu();
    BuildOptions      build;
    build.weld             = o.weld;
    build.patcher.capacity = o.capacity;
    const RXMesh mesh(soup, build);

    DeviceBuffer<float> normals(3 * std::size_t(mesh.num_vertices()));
    vertex_normals(mesh, mesh.positions().data(), normals.data());  // warm-up
    GpuTimer timer;
    timer.start();
    vertex_normals(mesh, mesh.positions().data(), normals.data());
    const float              ms = timer.stop_ms();
    const std::vector<float> n  = normals.to_host();
    const double             error = o.check ? reference_error(mesh, n) : 0;
    if (o.check && !(error < 1e-5))
        throw app::CheckFailed("largest difference from the CPU reference " + std::to_string(error));
    app::Outputs out;
    if (!o.output.empty()) {
        const auto zero = [](std::size_t, int) { return 0.f; };
        const auto own  = [&](std::size_t i, int k) { return soup.positions[i][k]; };
        const auto pos  = app::to_input_vertices(mesh, mesh.positions().to_host(), 3, soup.positions.size(), own);
        const auto nin  = app::to_input_vertices(mesh, n, 3, soup.positions.size(), zero);
        std::vector<io::VertexScalar> props = {{"nx", {}}, {"ny", {}}, {"nz", {}}};
        for (std::size_t i = 0; i < soup.positions.size(); ++i)
            for (int k = 0; k < 3; ++k)
                props[k].values.push_back(nin[3 * i + k]);
        out.stage(o.output, [&](const std::string& tmp) { app::write_input_order_ply(tmp, soup, pos, props); });
    }
    std::printf("rxmesh-vertex-normal: %s on %s\n", name.c_str(), gpu.c_str());
    std::printf("  %u vertices, %u faces, %u patches\n", mesh.num_vertices(), mesh.num_faces(), mesh.num_patches());
    std::printf("  import %.1f ms, build %.1f ms, normals %.3f ms%s\n", import_ms, mesh.stats().total_ms, ms,
                o.check ? ", check passed" : "");
    if (!o.json.empty()) {
        app::Json times, j;
        times.num("import", import_ms).num("build", mesh.stats().total_ms).num("normals", ms);
        j.str("app", "rxmesh-vertex-normal").str("gpu", gpu).str("input", name)
            .obj("mesh", app::mesh_json(mesh, soup)).obj("times_ms", times).flag("checked", o.check);
        if (o.check)
            j.num("max_abs_error_vs_cpu", error);
        out.stage(o.json, [&](const std::string& tmp) { j.write(tmp); });
    }
    out.commit();
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App cli{"rxmesh-vertex-normal: vertex normals (Max's weights) on the GPU"};
    Options  o;
    cli.add_option("FILE", o.file, "input mesh (OBJ, OFF, PLY, STL); default: an embedded torus");
    cli.add_option("-o,--output", o.output, "write the mesh with normals nx, ny, nz as binary PLY (input vertex order)");
    cli.add_option("--json", o.json, "write a JSON report");
    cli.add_flag("--check", o.check, "compare with the CPU reference (exit 2 on mismatch)");
    cli.add_flag("--weld", o.weld, "merge vertices with identical positions");
    cli.add_option("--capacity", o.capacity, "faces per patch")->check(CLI::Range(64u, 4096u))->capture_default_str();
    if (const int rc = app::parse(cli, argc, argv, "rxmesh-vertex-normal"); rc >= 0)
        return rc;
    return app::run("rxmesh-vertex-normal", [&] { return run_normals(o); });
}
