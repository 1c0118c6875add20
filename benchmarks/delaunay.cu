// bench_delaunay: Delaunay edge flips (algo/delaunay.cuh over the GPU
// engine DynamicMesh) against a serial CPU baseline of the same rule
// (reference/delaunay_flips.h: Lawson's stack of edges on a compact indexed
// halfedge mesh), on each --mesh and its 1-to-4 refinements (levels
// --min-level .. --levels; the armadillo's 52K faces give 208K, 832K, 3.3M).
// OpenMesh and CGAL are not installed on the benchmark machine: the CPU
// baseline is ours, in the reference library (rxmesh-delaunay --device cpu
// runs it too), in the same rule (float cotangents, the same tolerance, the
// same refusals as reference::EditableMesh::flip).
//
// Timing. GPU: every run on a fresh DynamicMesh built from the soup outside
// the timing (the build is reported apart); one warm-up on its own copy,
// then the median of --runs of delaunay_flips: the device time of its passes
// (CUDA events, DelaunayReport::ms) and the host wall time around the call.
// CPU: the halfedge build outside the timing, then the median of --cpu-runs
// of the flips (std::chrono).
//
// Verification at every size: both outputs through the same checker
// (reference/delaunay_check.h): valid faces, the input's vertices unchanged,
// and every interior edge with cot(alpha) + cot(beta) >= -(10 tol + 1e-4) in
// double or its flip refused by the serial reference. Memory: DynamicMesh's
// device bytes after the run (mesh, connectivity, pass workspace) and, for
// the ratio, the static RXMesh's memory().total() for the same soup.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "format.h"
#include "bench_util.h"
#include "rxmesh/algo/delaunay.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/delaunay_check.h"
#include "rxmesh/reference/delaunay_flips.h"
#include "rxmesh/rxmesh.h"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_delaunay",
    "Delaunay edge flips, RXMesh's GPU engine vs a serial CPU baseline of the same rule"};

using namespace rxmesh;
using bench::json_number;
using bench::median;

struct Args : bench::RefinedMeshArgs
{
    int                      cpu_runs = 3;
    float                    tolerance     = 1e-5f;
    std::uint32_t            max_passes    = 1000;
    bool                     static_memory = true;
};

struct Gpu
{
    DelaunayReport report;                // of the last timed run
    double         ms = 0, wall_ms = 0;   // medians
    double         build_ms      = 0;     // DynamicMesh from the soup (last run)
    bool           deterministic = true;  // every run made the same flips and passes
    DynamicMemory  memory;
    TriangleSoup   output;
};

struct Cpu
{
    reference::LawsonStats stats;
    double                 ms = 0, build_ms = 0;  // medians
    std::size_t            bytes = 0;
    TriangleSoup           output;
};

struct Row : bench::MeshLevel
{
    Gpu                      gpu;
    Cpu                      cpu;
    bool                     cpu_ran = false;
    reference::DelaunayCheck gpu_check, cpu_check;
    std::size_t              static_bytes = 0;
    bool                     verified     = false;
};

double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

Gpu run_gpu(const TriangleSoup& soup, const Args& a)
{
    const DelaunayOptions o{a.tolerance, a.max_passes};
    {
        DynamicMesh warm(soup);
        delaunay_flips(warm, o);
    }
    Gpu                 g;
    std::vector<double> ms, wall;
    for (int i = 0; i < a.runs; ++i) {
        auto        t0 = std::chrono::steady_clock::now();
        DynamicMesh mesh(soup);
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        g.build_ms             = ms_since(t0);
        t0                     = std::chrono::steady_clock::now();
        const DelaunayReport r = delaunay_flips(mesh, o);
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        wall.push_back(ms_since(t0));
        ms.push_back(r.ms);
        if (i > 0)
            g.deterministic =
                g.deterministic && r.flips == g.report.flips && r.passes == g.report.passes;
        g.report = r;
        if (i == a.runs - 1) {
            g.memory = mesh.memory();
            g.output = mesh.to_host();  // vertices in slot order: the input's
        }
    }
    g.ms = median(ms), g.wall_ms = median(wall);
    return g;
}

Cpu run_cpu(const TriangleSoup& soup, const Args& a)
{
    Cpu                 c;
    std::vector<double> ms, build;
    // a bound on flips, never met in practice: Lawson's flips need not end
    // on a curved surface (the GPU's bound is --max-passes)
    const std::uint64_t max_flips = 64 * std::uint64_t(3 * soup.faces.size());
    for (int i = 0; i < a.cpu_runs; ++i) {
        auto                  t0 = std::chrono::steady_clock::now();
        reference::LawsonMesh mesh(soup);
        build.push_back(ms_since(t0));
        t0      = std::chrono::steady_clock::now();
        c.stats = mesh.flip_all(a.tolerance, max_flips);
        ms.push_back(ms_since(t0));
        if (i == a.cpu_runs - 1) {
            c.bytes  = mesh.bytes();
            c.output = mesh.to_soup();
        }
    }
    c.ms = median(ms), c.build_ms = median(build);
    return c;
}

std::string mib(double bytes)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", bytes / 1048576.0);
    return b;
}

std::string counts(const reference::DelaunayCheck& c)
{
    return std::to_string(c.non_delaunay) + " (" + std::to_string(c.refused) + " refused, " +
           std::to_string(c.violations) + " not)";
}

//! The table's columns (bench::print_table_head).
constexpr const char* kColumns =
    "| mesh | L | faces | GPU ms (device) | GPU ms (wall) | passes | GPU flips | CPU ms | CPU "
    "flips | CPU / GPU wall | left non-Delaunay GPU | left non-Delaunay CPU | DynamicMesh MiB "
    "(mesh + conn. + workspace) | peak MiB | RXMesh MiB | ratio (held) | ratio (peak) | "
    "verified |";

void print_row(const Row& r)
{
    const DynamicMemory& m = r.gpu.memory;
    std::printf(
        "| %s | %d | %zu | %.3f | %.3f | %u%s | %u | %s | %s | %s | %s | %s | %s (%s + %s + %s) "
        "| %s | %s | %s | %s | %s |\n",
        r.name.c_str(), r.level, r.F, r.gpu.ms, r.gpu.wall_ms, r.gpu.report.passes,
        r.gpu.report.converged ? "" : " (limit)", r.gpu.report.flips,
        r.cpu_ran ? json_number(r.cpu.ms).c_str() : "-",
        r.cpu_ran ? std::to_string(r.cpu.stats.flips).c_str() : "-",
        r.cpu_ran ? json_number(r.cpu.ms / r.gpu.wall_ms).c_str() : "-",
        counts(r.gpu_check).c_str(), r.cpu_ran ? counts(r.cpu_check).c_str() : "-",
        mib(double(m.total())).c_str(), mib(double(m.mesh)).c_str(),
        mib(double(m.connectivity)).c_str(), mib(double(m.workspace)).c_str(),
        mib(double(m.peak)).c_str(), r.static_bytes ? mib(double(r.static_bytes)).c_str() : "-",
        r.static_bytes ? json_number(double(m.total()) / double(r.static_bytes)).c_str() : "-",
        r.static_bytes ? json_number(double(m.peak) / double(r.static_bytes)).c_str() : "-",
        r.verified ? "yes" : "**NO**");
    for (const auto* c : {&r.gpu_check, &r.cpu_check})
        if (!c->ok())
            std::printf("  %s: %s\n", c == &r.gpu_check ? "GPU" : "CPU", c->first.c_str());
    std::fflush(stdout);
}

Row measure(const std::string& name, int level, const TriangleSoup& soup, const Args& a)
{
    Row r;
    r.set_input(name, level, soup);
    const double bound = reference::delaunay_check_bound(a.tolerance);
    r.gpu              = run_gpu(soup, a);
    r.gpu_check        = reference::check_delaunay_flips(soup, r.gpu.output, bound);
    r.cpu_ran          = a.cpu_runs > 0;
    if (r.cpu_ran) {
        r.cpu       = run_cpu(soup, a);
        r.cpu_check = reference::check_delaunay_flips(soup, r.cpu.output, bound);
    }
    if (a.static_memory) r.static_bytes = RXMesh(soup).memory().total();
    r.verified   = r.gpu_check.ok() && r.cpu_check.ok();
    r.gpu.output = {};  // free the host copies
    r.cpu.output = {};
    print_row(r);
    return r;
}

std::string check_json(const reference::DelaunayCheck& c)
{
    return "{\"interior_edges\":" + std::to_string(c.interior_edges) +
           ",\"non_delaunay\":" + std::to_string(c.non_delaunay) +
           ",\"refused\":" + std::to_string(c.refused) +
           ",\"violations\":" + std::to_string(c.violations) +
           ",\"min_cot_sum\":" + json_number(c.min_cot_sum) +
           ",\"ok\":" + (c.ok() ? "true" : "false") + "}";
}

std::string row_json(const Row& r)
{
    const DelaunayReport& g   = r.gpu.report;
    const DynamicMemory&  m   = r.gpu.memory;
    std::string           cpu = "null";
    if (r.cpu_ran)
        cpu = "{\"ms\":" + json_number(r.cpu.ms) + ",\"build_ms\":" + json_number(r.cpu.build_ms) +
              ",\"flips\":" + std::to_string(r.cpu.stats.flips) +
              ",\"pops\":" + std::to_string(r.cpu.stats.pops) +
              ",\"converged\":" + (r.cpu.stats.converged ? "true" : "false") +
              ",\"bytes\":" + std::to_string(r.cpu.bytes) +
              ",\"check\":" + check_json(r.cpu_check) + "}";
    return "{\"mesh\":\"" + r.name + "\",\"level\":" + std::to_string(r.level) +
           ",\"vertices\":" + std::to_string(r.V) + ",\"faces\":" + std::to_string(r.F) +
           ",\"gpu\":{\"ms\":" + json_number(r.gpu.ms) +
           ",\"wall_ms\":" + json_number(r.gpu.wall_ms) +
           ",\"build_ms\":" + json_number(r.gpu.build_ms) +
           ",\"flips\":" + std::to_string(g.flips) + ",\"passes\":" + std::to_string(g.passes) +
           ",\"converged\":" + (g.converged ? "true" : "false") +
           ",\"refused_last_pass\":" + std::to_string(g.refused) +
           ",\"deterministic\":" + (r.gpu.deterministic ? "true" : "false") +
           ",\"memory\":{\"mesh\":" + std::to_string(m.mesh) +
           ",\"connectivity\":" + std::to_string(m.connectivity) +
           ",\"workspace\":" + std::to_string(m.workspace) +
           ",\"total\":" + std::to_string(m.total()) + ",\"peak\":" + std::to_string(m.peak) +
           "},\"check\":" + check_json(r.gpu_check) +
           "},\"cpu\":" + cpu + ",\"rxmesh_static_bytes\":" +
           (r.static_bytes ? std::to_string(r.static_bytes) : "null") +
           ",\"verified\":" + (r.verified ? "true" : "false") + "}";
}

void add_options(CLI::App& cli, Args& a)
{
    bench::add_refined_mesh_runs(cli, a);
    cli.add_option("--cpu-runs", a.cpu_runs,
                   "runs of the serial CPU baseline per size (0: skip it)")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    cli.add_option("--tolerance", a.tolerance, "flip when cot(alpha) + cot(beta) < -tolerance")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cli.add_option("--max-passes", a.max_passes, "the GPU's bound on flip passes")
        ->check(CLI::Range(1u, 1000000000u))
        ->capture_default_str();
    cli.add_flag("!--no-static-memory", a.static_memory,
                 "skip building the static RXMesh (its memory, for the ratio)");
    bench::add_json(cli, a.json);
}

//! Measures every size, prints the tables, writes --json; the exit status.
int run(const Args& a)
{
    bench::keep_pool_memory();
    std::printf("GPU: %s; tolerance %g; GPU: median of %d runs after a warm-up; CPU "
                "(serial Lawson, ours): median of %d runs\n\n",
                bench::gpu_name().c_str(), a.tolerance, a.runs, a.cpu_runs);
    bench::print_table_head(kColumns);
    return bench::verified_mesh_levels<Row>(
        a, measure, bench::gpu_rows_head("\"tolerance\":" + json_number(a.tolerance)), row_json, [](const Row& r) { return r.verified; },
        app::formatted("left non-Delaunay: interior edges with cot sum < -%g in double, "
                       "each refused or not by the serial reference",
                       reference::delaunay_check_bound(a.tolerance)));
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
