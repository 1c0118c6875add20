// rxmesh-info [FILE] [options]: the mesh's statistics as one JSON object on
// stdout (vertices, edges, faces, boundary and non-manifold counts,
// components, Euler characteristic), from the GPU import pipeline when a
// CUDA device is present (or --device gpu), from the serial CPU reference
// otherwise (or --device cpu). On the GPU path it also builds the RXMesh
// patch store and reports its statistics (--validate: every contract of
// the store checked). -o writes the mesh as read (welded with --weld; the
// vertices no face uses and the faces that collapse dropped) as PLY or OBJ;
// --json writes the object to a file too; --check compares the GPU's
// statistics with the CPU reference's. Run with --help for the options.
// Exit status as every app's (apps/common/policy.h): 0 done; 1 bad input or
// option, nothing written; 2 --check failed; 77 --device gpu without a GPU.
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <string>

#include "../common/json.h"
#include "../common/outputs.h"
#include "../common/policy.h"
#include "../common/timing.h"
#include "rxmesh/build/import.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/topology.h"
#include "rxmesh/rxmesh.h"

namespace {

using namespace rxmesh;
using Clock = std::chrono::steady_clock;

constexpr const char* kName = "rxmesh-info";

struct Options
{
    std::string   file, output, json, generator = "icosphere", device = "auto";
    bool          weld = false, cpu_alias = false, validate = false, check = false;
    std::uint32_t capacity = 512;
};

const std::map<std::string, std::function<TriangleSoup()>>& generators()
{
    namespace g = generate;
    static const std::map<std::string, std::function<TriangleSoup()>> table = {
        {"icosphere", [] { return g::icosphere(5); }},
        {"torus", [] { return g::torus(256, 128); }},
        {"grid", [] { return g::grid(512, 512); }},
        {"quad_grid", [] { return g::duplicated_quad_grid(256); }},
    };
    return table;
}

void add_options(CLI::App& cli, Options& o)
{
    cli.add_option("FILE", o.file, "input mesh (OBJ, OFF, PLY, STL); default: --generate's mesh");
    app::add_option(cli, "--generate", o.generator, "the mesh without FILE",
                    CLI::IsMember({"icosphere", "torus", "grid", "quad_grid"}));
    cli.add_option("-o,--output", o.output,
                   "write the mesh as read (welded with --weld; unused vertices and collapsed "
                   "faces dropped), PLY or OBJ by the extension")
        ->check([](const std::string& path) { return app::mesh_format_error(path, kName, true); },
                "*.ply or *.obj");
    cli.add_option("--json", o.json, "write the JSON object to this file too");
    app::add_option(cli, "--device", o.device,
                    "auto (the GPU when present, else the CPU reference), gpu or cpu",
                    CLI::IsMember({"auto", "gpu", "cpu"}));
    cli.add_flag("--cpu", o.cpu_alias, "the same as --device cpu");
    cli.add_flag("--weld", o.weld, "merge vertices with bit-identical positions first");
    app::add_option(cli, "--capacity", o.capacity, "faces per patch of the RXMesh store",
                    app::integer_in(64, 4096));
    cli.add_flag("--validate", o.validate,
                 "check every contract of the patch store (slow; the GPU path only)");
    cli.add_flag("--check", o.check,
                 "compare the GPU's statistics with the CPU reference's (exit 2 on a mismatch; "
                 "the GPU path only)");
    cli.set_version_flag("--version", std::string(kName) + " " + rxmesh::version());
    cli.footer(app::kExitStatusHelp);
}

bool gpu_present()
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

//! The reference's statistics of the mesh as read, with its times.
struct CpuResult
{
    reference::Reindexed mesh;
    MeshStats            stats;
    double               reindex_ms = 0, topology_ms = 0, stats_ms = 0;
};

CpuResult cpu_statistics(const TriangleSoup& soup, bool weld)
{
    CpuResult r;
    auto      t0    = Clock::now();
    r.mesh          = reference::reindex(soup.positions, soup.faces, weld);
    r.reindex_ms    = app::ms_since(t0);
    t0              = Clock::now();
    const auto topo = reference::build_topology(std::uint32_t(r.mesh.positions.size()), r.mesh.faces);
    r.topology_ms   = app::ms_since(t0);
    t0              = Clock::now();
    r.stats         = reference::compute_stats(topo, r.mesh.faces);
    r.stats_ms      = app::ms_since(t0);
    return r;
}

//! The GPU's statistics (import pipeline), its times into `times`, and the
//! patch store's report into `patches` ("null" for a mesh without faces).
MeshStats gpu_statistics(const TriangleSoup& soup, const Options& o, app::Json& times,
                         std::string& patches, std::uint64_t& dropped)
{
    ImportOptions options;
    options.weld    = o.weld;
    const auto mesh = import_mesh(soup, options);
    GpuTimer   timer;
    timer.start();
    const MeshStats stats = compute_stats(mesh.topology, mesh.faces.data());
    times.num("upload_ms", mesh.timings.upload_ms)
        .num("reindex_ms", mesh.timings.reindex_ms)
        .num("topology_ms", mesh.timings.topology_ms)
        .num("stats_ms", timer.stop_ms());
    dropped += mesh.dropped_faces;
    if (stats.faces == 0)
        return stats;
    BuildOptions build;
    build.weld             = o.weld;
    build.patcher.capacity = o.capacity;
    const RXMesh rx(soup, build);
    patches = rx.stats().to_json();
    if (o.validate) {
        const auto report = rx.validate(1);
        app::Json  v;
        v.str("validate", report.ok() ? "ok" : report.summary());
        patches.insert(patches.size() - 1, ", " + v.text().substr(1, v.text().size() - 2));
    }
    return stats;
}

std::string stats_text(const MeshStats& s)
{
    return "vertices " + std::to_string(s.vertices) + ", edges " + std::to_string(s.edges) +
           ", faces " + std::to_string(s.faces) + ", components " +
           std::to_string(s.components) + ", euler " + std::to_string(s.euler);
}

int run(const Options& o)
{
    app::Outputs::expect(o.output);
    app::Outputs::expect(o.json);
    auto               t0   = Clock::now();
    const TriangleSoup soup = o.file.empty() ? generators().at(o.generator)() : io::read(o.file);
    const double       read_ms = app::ms_since(t0);
    const std::string  device  = o.cpu_alias ? "cpu" : o.device;
    const bool         use_gpu = device == "gpu" || (device == "auto" && gpu_present());
    if (device == "gpu" && !gpu_present())
        throw app::NoGpu("--device cpu runs the CPU reference");
    if (!use_gpu && (o.validate || o.check))
        throw InvalidInputError(std::string(o.validate ? "--validate" : "--check") +
                                " needs the GPU path: not with --device cpu or without a device");

    app::Json times;
    times.num("read_ms", read_ms);
    std::string   patches = "null", device_name;
    std::uint64_t dropped = soup.dropped_faces;
    MeshStats     stats;
    CpuResult     cpu;
    if (use_gpu) {
        cudaDeviceProp prop{};
        RXMESH_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
        device_name = prop.name;
        stats       = gpu_statistics(soup, o, times, patches, dropped);
    }
    if (!use_gpu || o.check || !o.output.empty()) {
        cpu = cpu_statistics(soup, o.weld);
        if (!use_gpu) {
            device_name = device == "cpu" ? "cpu (reference, --device cpu)"
                                          : "cpu (reference; no CUDA device found)";
            stats       = cpu.stats;
            times.num("reindex_ms", cpu.reindex_ms)
                .num("topology_ms", cpu.topology_ms)
                .num("stats_ms", cpu.stats_ms);
            dropped += cpu.mesh.dropped_faces;
        }
    }
    if (o.check && !(stats == cpu.stats))
        throw app::CheckFailed("the GPU's statistics (" + stats_text(stats) +
                               ") differ from the CPU reference's (" + stats_text(cpu.stats) + ")");

    app::Json j;
    j.str("input", o.file.empty() ? "generated:" + o.generator : o.file)
        .str("device", device_name)
        .flag("welded", o.weld)
        .num("vertices", double(stats.vertices))
        .num("faces", double(stats.faces))
        .num("edges", double(stats.edges))
        .num("boundary_edges", double(stats.boundary_edges))
        .num("nonmanifold_edges", double(stats.nonmanifold_edges))
        .num("nonmanifold_vertices", double(stats.nonmanifold_vertices))
        .num("components", double(stats.components))
        .num("euler", double(stats.euler))
        .num("dropped_faces", double(dropped))
        .obj("timings", times)
        .embed("rxmesh", patches);
    if (o.check)
        j.flag("checked", true);
    app::Outputs outputs;
    outputs.stage(o.output, [&](const std::string& tmp) {
        TriangleSoup out;
        out.positions = cpu.mesh.positions;
        out.faces     = cpu.mesh.faces;
        app::write_mesh_as(tmp, o.output, out);
    });
    outputs.stage(o.json, [&](const std::string& tmp) { j.write(tmp); });
    outputs.commit();
    std::printf("%s\n", j.text().c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    Options  o;
    CLI::App cli{std::string(kName) + ": a mesh's statistics (and the RXMesh patch store's, with a GPU)"};
    add_options(cli, o);
    if (const int rc = app::parse(cli, argc, argv, kName); rc >= 0)
        return rc;
    return app::run(kName, [&] { return run(o); });
}
