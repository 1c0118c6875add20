// rxmesh-geodesic: approximate geodesic distance from source vertices by
// parallel toplesets propagation on the GPU (algo/geodesic.cuh), a thin front
// end: options, input, output, --check. Run with --help for the options;
// without FILE it measures distances on an embedded torus.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "../common/app_support.h"
#include "rxmesh/algo/geodesic.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/geodesic.h"
#include "rxmesh/rxmesh.cuh"

namespace {

using namespace rxmesh;

struct Options
{
    std::string                file, output, json;
    std::vector<std::uint32_t> sources{0};
    bool                       check = false, weld = false;
    std::uint32_t              capacity = 512;
    GeodesicOptions            geodesic;
};

//! A relative tolerance: a number in (0, 0.5].
CLI::Validator relative_tolerance()
{
    return CLI::Validator(
        [](std::string& text) -> std::string {
            char*        end = nullptr;
            const double v   = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !(v > 0 && v <= 0.5))
                return "must be a number in (0, 0.5], got " + text;
            return {};
        },
        "(0, 0.5]");
}

void add_options(CLI::App& cli, Options& o)
{
    cli.add_option("FILE", o.file, "input mesh (OBJ, OFF, PLY, STL); default: an embedded torus");
    cli.add_option("-s,--source", o.sources, "source vertices (input indices, comma separated)")
        ->delimiter(',')->capture_default_str();
    cli.add_option("-o,--output", o.output,
                   "write the mesh as binary PLY with a 'distance' vertex property (input vertex order; "
                   "+inf where unreachable)");
    cli.add_option("--json", o.json, "write a JSON report");
    cli.add_flag("--check", o.check, "check against the serial CPU reference (exit 2 on mismatch)");
    cli.add_option("--tol", o.geodesic.tolerance,
                   "a level leaves the window once no vertex of it changes by more than this, relative")
        ->check(relative_tolerance())->capture_default_str();
    cli.add_option("--max-iter", o.geodesic.max_iterations, "iteration limit (0: 8 x levels + 64)")
        ->check(CLI::Range(0L, 1000000000L))->capture_default_str();
    cli.add_flag("--weld", o.weld, "merge vertices with identical positions");
    cli.add_option("--capacity", o.capacity, "faces per patch")->check(CLI::Range(64u, 4096u))->capture_default_str();
}

struct Input
{
    TriangleSoup soup;
    std::string  name;
};

Input load(const std::string& file)
{
    if (!file.empty())
        return {io::read(file), file};
    return {generate::torus(192, 64), "embedded torus (192 x 64 quads, radii 1 and 0.3)"};
}

//! Host-side checks of the sources, before any GPU work. \throw InvalidInputError.
void validate_sources(const TriangleSoup& soup, const std::vector<std::uint32_t>& sources,
                      const std::string& name)
{
    if (sources.empty())
        throw InvalidInputError("no source vertex given (--source)");
    std::vector<bool> used(soup.positions.size(), false);
    for (const Triangle& f : soup.faces)
        for (std::uint32_t v : f)
            used[v] = true;
    for (std::uint32_t s : sources) {
        if (s >= soup.positions.size())
            throw InvalidInputError(name + ": source vertex " + std::to_string(s) +
                                    " is out of range (the mesh has " +
                                    std::to_string(soup.positions.size()) + " vertices)");
        if (!used[s])
            throw InvalidInputError(name + ": source vertex " + std::to_string(s) +
                                    " belongs to no face");
    }
}

std::vector<std::uint32_t> to_global(const RXMesh& mesh, const std::vector<std::uint32_t>& input_ids)
{
    const std::vector<std::uint32_t> map = mesh.input_vertex_to_global().to_host();
    std::vector<std::uint32_t>       out;
    for (std::uint32_t s : input_ids)
        out.push_back(map[s]);
    return out;
}

//! --check: the serial double reference of the same algorithm; the same
//! unreachable set, elsewhere within 1e-4 relative (float storage and a level
//! that float sees converge one iteration early; tests/gpu/test_geodesic.cu).
double check_against_reference(const RXMesh& mesh, const std::vector<std::uint32_t>& sources,
                               const std::vector<float>& d, const GeodesicOptions& o)
{
    const std::vector<float> flat = mesh.positions().to_host();
    std::vector<Vec3f>       p(mesh.num_vertices());
    for (std::size_t v = 0; v < p.size(); ++v)
        p[v] = {flat[3 * v], flat[3 * v + 1], flat[3 * v + 2]};
    std::vector<Triangle> faces(mesh.num_faces());
    const auto            f = mesh.faces().to_host();
    for (std::size_t i = 0; i < faces.size(); ++i)
        faces[i] = {f[3 * i], f[3 * i + 1], f[3 * i + 2]};
    const reference::Geodesic ref = reference::geodesic_ptp(p, faces, sources, o.tolerance, int(o.max_iterations));
    double                    worst = 0;
    for (std::size_t v = 0; v < d.size(); ++v) {
        const double r = ref.distance[v];
        if (std::isinf(r) != std::isinf(d[v]))
            throw app::CheckFailed("vertex " + std::to_string(v) + ": GPU " + std::to_string(d[v]) +
                                   ", reference " + std::to_string(r));
        if (std::isinf(r) || r == 0)
            continue;
        const double rel = std::abs(d[v] - r) / r;
        if (rel > 1e-4)
            throw app::CheckFailed("vertex " + std::to_string(v) + ": GPU " + std::to_string(d[v]) +
                                   ", reference " + std::to_string(r) + " (relative " +
                                   std::to_string(rel) + ")");
        worst = std::max(worst, rel);
    }
    return worst;
}

void write_output(app::Outputs& out, const std::string& path, const RXMesh& mesh, const TriangleSoup& input,
                  const std::vector<float>& d)
{
    const float              inf = std::numeric_limits<float>::infinity();
    const std::vector<float> dist =
        app::to_input_vertices(mesh, d, 1, input.positions.size(), [&](std::size_t, int) { return inf; });
    std::vector<float> pos;
    for (const auto& p : input.positions)
        pos.insert(pos.end(), p.begin(), p.end());
    out.stage(path, [&](const std::string& tmp) {
        app::write_input_order_ply(tmp, input, pos, {io::VertexScalar{"distance", dist}});
    });
}

struct Summary
{
    std::size_t unreachable = 0;
    double      max_distance = 0;
};

Summary summarize(const std::vector<float>& d)
{
    Summary s;
    for (float x : d) {
        if (std::isinf(x))
            ++s.unreachable;
        else
            s.max_distance = std::max(s.max_distance, double(x));
    }
    return s;
}

int run_geodesic(const Options& o)
{
    app::Stopwatch    import_clock;
    const Input       in        = load(o.file);
    const double      import_ms = import_clock.ms();
    app::validate_input(in.soup, in.name);
    validate_sources(in.soup, o.sources, in.name);
    app::Outputs::expect(o.output);
    app::Outputs::expect(o.json);
    const std::string gpu = app::require_gpu();
    BuildOptions      build;
    build.weld             = o.weld;
    build.patcher.capacity = o.capacity;
    const RXMesh mesh(in.soup, build);

    const std::vector<std::uint32_t> sources = to_global(mesh, o.sources);
    DeviceBuffer<float>              d(mesh.num_vertices());
    const GeodesicReport r = geodesic_distance(mesh, mesh.positions().data(), sources, d.data(), o.geodesic);
    const std::vector<float> result = d.to_host();
    const double worst = o.check ? check_against_reference(mesh, sources, result, o.geodesic) : 0;
    const Summary s    = summarize(result);
    app::Outputs  out;
    if (!o.output.empty())
        write_output(out, o.output, mesh, in.soup, result);

    std::printf("rxmesh-geodesic: %s on %s\n", in.name.c_str(), gpu.c_str());
    std::printf("  %u vertices, %u faces, %u patches; %zu source(s)\n", mesh.num_vertices(), mesh.num_faces(),
                mesh.num_patches(), o.sources.size());
    std::printf("  import %.1f ms, build %.1f ms, toplesets %.2f ms, propagation %.2f ms\n", import_ms,
                mesh.stats().total_ms, r.toplesets_ms, r.propagation_ms);
    std::printf("  %u levels, %ld iterations (%ld closing sweeps)%s; largest distance %.6g, %zu unreachable "
                "vertices%s\n",
                r.levels, r.iterations, r.sweeps, r.converged ? "" : " (not converged)", s.max_distance,
                s.unreachable, o.check ? ", check passed" : "");
    if (!o.json.empty()) {
        app::Json times, params, j;
        times.num("import", import_ms).num("build", mesh.stats().total_ms).num("toplesets", r.toplesets_ms)
            .num("propagation", r.propagation_ms);
        params.num("sources", double(o.sources.size())).num("tolerance", o.geodesic.tolerance)
            .num("max_iterations", double(o.geodesic.max_iterations)).num("capacity", o.capacity)
            .flag("weld", o.weld);
        j.str("app", "rxmesh-geodesic").str("gpu", gpu).str("input", in.name)
            .obj("mesh", app::mesh_json(mesh, in.soup)).obj("parameters", params).obj("times_ms", times)
            .num("levels", r.levels).num("iterations", double(r.iterations)).num("closing_sweeps", double(r.sweeps))
            .flag("converged", r.converged).num("max_distance", s.max_distance)
            .num("unreachable_vertices", double(s.unreachable)).flag("checked", o.check);
        if (o.check)
            j.num("max_relative_difference_to_reference", worst);
        out.stage(o.json, [&](const std::string& tmp) { j.write(tmp); });
    }
    out.commit();
    return r.converged ? 0 : 3;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App cli{"rxmesh-geodesic: approximate geodesic distance by parallel toplesets propagation on the GPU"};
    Options  o;
    add_options(cli, o);
    if (const int rc = app::parse(cli, argc, argv, "rxmesh-geodesic"); rc >= 0)
        return rc;
    return app::run("rxmesh-geodesic", [&] { return run_geodesic(o); });
}
