// bench_remesh: isotropic remeshing on the GPU (algo/remesh.h over the
// changing-topology engine DynamicMesh) with the quality of its output, on
// each --mesh and its 1-to-4 refinements (levels --min-level .. --levels;
// the armadillo's 52K faces give 208K, 832K, 3.3M). Its CPU baseline is
// bench_remesh_cpu (CGAL isotropic_remeshing, carried to the GPU machine as
// .bench-bin/run_remesh.sh): the same iterations, the same L and the same
// quality figures, so that the rows of both compare.
//
// Work. --iterations (3) iterations of split / collapse / flip / tangential
// smoothing / projection onto the input, L = --scale (1) x the input's mean
// edge length. L is computed on the host by reference::mean_edge_length in
// double, as bench_remesh_cpu does, and passed as RemeshOptions::
// target_length: RemeshOptions' default (0) computes the same mean on the
// GPU from float lengths, which may differ in the last digits, and the two
// benchmarks must remesh to the same L.
//
// Timing. One warm-up on its own DynamicMesh, then --runs runs, each on a
// fresh DynamicMesh built from the host soup: device ms = RemeshReport::ms
// (CUDA events around the whole call: the input's BVH and every step), wall
// ms = host time around the call (synchronised); end-to-end ms = the host
// arrays to the compact output (DynamicMesh from the TriangleSoup +
// isotropic_remesh + compact() + cudaDeviceSynchronize), the figure to set
// beside the CPU's wall time plus its mesh build. Medians over the runs.
//
// Quality of the last run's output (the runs agree; see Verification):
// surface_quality(mesh, L) on the GPU (share of edges within [4/5 L,
// 4/3 L], smallest angle, share of interior vertices of valence 6: the
// figures of bench_remesh_cpu's reference::mesh_quality), and the
// symmetric sampled Hausdorff distance to the input / the input's
// bounding-box diagonal (spatial/hausdorff.h through one TriangleBvh over
// the input's device arrays and one over compact()'s; the CPU baseline's
// sample set, see common/dynamic_output.h).
//
// Verification of every run's output, outside the timing: validate().ok();
// where the input is manifold, is_manifold() and the Euler characteristic
// kept (the engine's link condition keeps both); the same faces and
// vertices out and the same splits, collapses, flips and passes in every
// run, and every run's compact output the same bit for bit (the remesher
// is deterministic). Exit status 1 when any size fails.
#include <cstdio>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_util.h"
#include "dynamic_output.h"
#include "rxmesh/algo/mesh_quality.h"
#include "rxmesh/algo/remesh.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/mcf.h"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_remesh",
    "isotropic remeshing on RXMesh's changing-topology GPU engine, with the quality of "
    "its output"};

using namespace rxmesh;
using bench::json_number;
using bench::mib;

struct Args : bench::RefinedMeshArgs
{
    std::uint32_t iterations = 3, max_passes_per_step = RemeshOptions{}.max_passes_per_step;
    double        scale = 1.0;
    bool          passes = false;  // every pass's report of the last run in the JSON
};

struct Row : bench::MeshLevel
{
    double         mean_edge = 0, L = 0;
    RemeshReport   report;  // of the last run
    bench::RunMedians times;
    DynamicMemory  memory;
    SurfaceQuality quality;
    bench::Distance distance;
    bench::Verdict  verdict;
    std::vector<PassReport> passes;  // of the last run, with --passes
};

bool same_counts(const RemeshReport& a, const RemeshReport& b)
{
    return a.splits == b.splits && a.collapses == b.collapses && a.flips == b.flips &&
           a.split_passes == b.split_passes && a.collapse_passes == b.collapse_passes &&
           a.flip_passes == b.flip_passes;
}

//! The table's columns (bench::print_table_head).
constexpr const char* kColumns =
    "| mesh | level | faces in | faces out | device ms | wall ms | end-to-end ms (host arrays "
    "to compact output) | splits | collapses | flips | passes (split / collapse / flip) | in "
    "[4/5 L, 4/3 L] | min angle | valence 6 | Hausdorff | DynamicMesh MiB (peak) | verified |";

void print_row(const Row& r)
{
    const RemeshReport& g = r.report;
    std::printf(
        "| %s | %d | %zu | %u | %.3f | %.3f | %.3f | %llu | %llu | %llu | %u / %u / %u%s | %.3f "
        "| %.2f | %.3f | %.3e | %s (%s) | %s |\n",
        r.name.c_str(), r.level, r.F, r.verdict.last.faces, r.times.ms, r.times.wall_ms,
        r.times.end_to_end_ms,
        (unsigned long long)g.splits, (unsigned long long)g.collapses, (unsigned long long)g.flips,
        g.split_passes, g.collapse_passes, g.flip_passes, g.hit_pass_bound ? " (bound)" : "",
        r.quality.share_in_band, r.quality.min_angle_degrees, r.quality.share_valence6(),
        r.distance.relative, mib(double(r.memory.total())).c_str(),
        mib(double(r.memory.peak)).c_str(), r.verdict.ok() ? "yes" : "**NO**");
    if (!r.verdict.ok()) std::printf("  failed: %s\n", r.verdict.failure.c_str());
    std::fflush(stdout);
}

Row measure(const std::string& name, int level, const TriangleSoup& soup, const Args& a)
{
    Row r;
    r.set_input(name, level, soup);
    r.mean_edge = reference::mean_edge_length(soup.positions, soup.faces);
    r.L         = a.scale * r.mean_edge;
    RemeshOptions o;
    o.target_length       = r.L;
    o.iterations          = a.iterations;
    o.max_passes_per_step = a.max_passes_per_step;
    const bench::InputSurface input(soup);
    r.verdict = bench::Verdict(input);
    const auto remesh = [&](DynamicMesh& mesh) { return isotropic_remesh(mesh, o); };
    bench::warm_up(soup, remesh);
    // set after the warm-up, so that only the timed runs' passes are kept;
    // emptied after each run's inspection, so each run starts with none
    std::vector<PassReport> passes;
    if (a.passes) o.on_pass = [&](const PassReport& p) { passes.push_back(p); };
    r.times = bench::timed_runs(
        soup, a.runs, r.verdict, remesh, same_counts,
        [&](DynamicMesh& mesh, const CompactMesh& out, const RemeshReport& rep, int run) {
            r.report = rep;
            if (run == a.runs - 1) {  // quality and memory, outside the timing
                r.memory   = mesh.memory();
                r.quality  = surface_quality(mesh, r.L);
                r.distance = bench::distance_to_input(input, out);
                r.passes   = passes;
            }
            passes.clear();
        });
    print_row(r);
    return r;
}

std::string passes_json(const Row& r)
{
    if (r.passes.empty()) return "";
    std::string s = ",\"passes\":[";
    for (std::size_t i = 0; i < r.passes.size(); ++i) s += (i ? "," : "") + r.passes[i].to_json();
    return s + "]";
}

std::string row_json(const Row& r)
{
    return "{\"mesh\":\"" + r.name + "\",\"level\":" + std::to_string(r.level) +
           ",\"vertices\":" + std::to_string(r.V) + ",\"faces\":" + std::to_string(r.F) +
           ",\"vertices_out\":" + std::to_string(r.verdict.last.vertices) +
           ",\"faces_out\":" + std::to_string(r.verdict.last.faces) +
           ",\"mean_edge_length\":" + json_number(r.mean_edge) +
           ",\"target_length\":" + json_number(r.L) + r.times.to_json() +
           ",\"report\":" + r.report.to_json() +
           ",\"quality\":" + r.quality.to_json() +
           ",\"hausdorff\":" + bench::distance_json(r.distance) +
           ",\"memory\":" + bench::memory_json(r.memory) + ",\"check\":" + r.verdict.to_json() +
           ",\"verified\":" + (r.verdict.ok() ? "true" : "false") + passes_json(r) + "}";
}

void add_options(CLI::App& cli, Args& a)
{
    bench::add_refined_mesh_runs(cli, a);
    cli.add_option("--iterations", a.iterations, "remeshing iterations")
        ->check(CLI::Range(1u, 100u))
        ->capture_default_str();
    cli.add_option("--scale", a.scale,
                   "target length L = scale x the input's mean edge length (as bench_remesh_cpu)")
        ->check(CLI::Range(0.01, 100.0))
        ->capture_default_str();
    cli.add_option("--max-passes-per-step", a.max_passes_per_step,
                   "the bound on the passes of one step (reaching it is shown as \"(bound)\")")
        ->check(CLI::Range(1u, 1000000u))
        ->capture_default_str();
    cli.add_flag("--passes", a.passes,
                 "every pass's report of the last run in the JSON (its phase times: edge table, "
                 "callback, checks, conflict rounds, applying)");
    bench::add_json(cli, a.json);
}

//! Measures every size, prints the tables, writes --json; the exit status.
int run(const Args& a)
{
    bench::keep_pool_memory();
    std::printf(
        "GPU: %s; isotropic_remesh, %u iterations, L = %g x the input's mean edge length "
        "(as bench_remesh_cpu); median of %d runs after a warm-up, each on a fresh "
        "DynamicMesh. device ms: RemeshReport::ms (CUDA events; the input's BVH and every "
        "step); wall ms: host time around the call; end-to-end ms: host arrays to compact "
        "output (DynamicMesh from the soup + isotropic_remesh + compact() + sync). Quality "
        "of the GPU output: share of edges in [4/5 L, 4/3 L], min angle (degrees), share of "
        "interior vertices of valence 6. Hausdorff: symmetric, sampled, / the input's "
        "bounding-box diagonal, bench_remesh_cpu's samples (every vertex used by a face, "
        "face centroids, edge midpoints; float on the GPU, double on the CPU).\n\n",
        bench::gpu_name().c_str(), a.iterations, a.scale, a.runs);
    bench::print_table_head(kColumns);
    return bench::verified_mesh_levels<Row>(
        a, measure,
        bench::gpu_rows_head("\"iterations\":" + std::to_string(a.iterations) +
                             ",\"scale\":" + json_number(a.scale) +
                             ",\"runs\":" + std::to_string(a.runs)),
        row_json, [](const Row& r) { return r.verdict.ok(); },
        bench::kDynamicRunChecks);
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
