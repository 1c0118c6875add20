// bench_simplify: quadric-error simplification on the GPU (algo/simplify.h
// over the changing-topology engine DynamicMesh) with the quality of its
// output, on each --mesh and its 1-to-4 refinements (levels --min-level ..
// --levels; the armadillo's 52K faces give 208K, 832K, 3.3M). Its CPU
// baselines are bench_simplify_cpu (meshoptimizer, OpenMesh Decimater, CGAL
// edge_collapse, carried to the GPU machine as .bench-bin/run_simplify.sh):
// the same target face count and the same quality figures, so that the
// rows of both compare.
//
// Work. qem_simplify to --ratio (0.1) of the input's faces (target =
// round(ratio x faces), bench_simplify_cpu's), once per --batch-share value
// (SimplifyOptions::batch_share: the most faces one pass may remove, as a
// share of the faces; smaller follows the cheapest-first order more
// closely, larger needs fewer passes): one row per value and size, so one
// device run shows that trade-off.
//
// Timing. One warm-up on its own DynamicMesh, then --runs runs, each on a
// fresh DynamicMesh built from the host soup: device ms =
// SimplifyReport::ms (CUDA events around the whole call, the quadrics
// included), wall ms = host time around the call (synchronised); end-to-end
// ms = the host arrays to the compact output (DynamicMesh from the
// TriangleSoup + qem_simplify + compact() + cudaDeviceSynchronize), the
// figure to set beside the CPU's wall time plus its mesh build. Medians
// over the runs.
//
// Quality of the last run's output (the runs agree; see Verification): the
// symmetric sampled Hausdorff distance to the input / the input's
// bounding-box diagonal (spatial/hausdorff.h through one TriangleBvh over
// the input's device arrays and one over compact()'s; bench_simplify_cpu's
// sample set, see common/dynamic_output.h), and the smallest angle
// (surface_quality on the GPU, bench_simplify_cpu's reference::mesh_quality
// figure).
//
// Verification of every run's output, outside the timing: validate().ok();
// where the input is manifold, is_manifold() and the Euler characteristic
// kept (the engine's link condition keeps both); the same faces and
// vertices out, collapses and passes in every run, and every run's compact
// output the same bit for bit (the simplifier is deterministic). Exit
// status 1 when any row fails.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_util.h"
#include "dynamic_output.h"
#include "rxmesh/algo/mesh_quality.h"
#include "rxmesh/algo/simplify.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_simplify",
    "quadric-error simplification on RXMesh's changing-topology GPU engine, with the "
    "quality of its output"};

using namespace rxmesh;
using bench::json_number;
using bench::mib;

struct Args : bench::RefinedMeshArgs
{
    double                   ratio           = 0.1;
    std::vector<double>      batch_shares    = {SimplifyOptions{}.batch_share};
    double                   boundary_weight = SimplifyOptions{}.boundary_weight;
    std::uint32_t            max_passes      = SimplifyOptions{}.max_passes;
    std::string              json;
};

struct Row : bench::MeshLevel
{
    SimplifyOptions options;
    SimplifyReport  report;  // of the last run
    bench::RunMedians times;
    DynamicMemory memory;
    double        min_angle = 0, share_below_5 = 0;
    bench::Distance distance;
    bench::Verdict  verdict;
};

bool same_counts(const SimplifyReport& a, const SimplifyReport& b)
{
    return a.faces == b.faces && a.vertices == b.vertices && a.collapses == b.collapses &&
           a.passes == b.passes && a.reached_target == b.reached_target &&
           a.hit_pass_bound == b.hit_pass_bound;
}

Row measure_one(const std::string& name, int level, const TriangleSoup& soup,
                const bench::InputSurface& input, const SimplifyOptions& o, const Args& a)
{
    Row r;
    r.set_input(name, level, soup);
    r.options = o;
    r.verdict = bench::Verdict(input);
    const auto simplify = [&](DynamicMesh& mesh) { return qem_simplify(mesh, o); };
    bench::warm_up(soup, simplify);
    r.times = bench::timed_runs(
        soup, a.runs, r.verdict, simplify, same_counts,
        [&](DynamicMesh& mesh, const CompactMesh& out, const SimplifyReport& rep, int run) {
            r.report = rep;
            if (run == a.runs - 1) {  // quality and memory, outside the timing
                r.memory = mesh.memory();
                // the length only scales the band figures, unused here
                // (bench_simplify_cpu passes 1 as well)
                if (out.num_faces) {
                    const SurfaceQuality q = surface_quality(mesh, 1.0);
                    r.min_angle = q.min_angle_degrees, r.share_below_5 = q.share_below_5_degrees;
                }
                r.distance = bench::distance_to_input(input, out);
            }
        });
    return r;
}

//! The table's columns (bench::print_table_head).
constexpr const char* kColumns =
    "| mesh | level | faces in | batch share | target | faces out | device ms | wall ms | "
    "end-to-end ms (host arrays to compact output) | passes | collapses | stop | Hausdorff | "
    "min angle | faces below 5 degrees | DynamicMesh MiB (peak) | verified |";

void print_row(const Row& r)
{
    const SimplifyReport& g = r.report;
    std::printf(
        "| %s | %d | %zu | %g | %u | %u | %.3f | %.3f | %.3f | %u | %llu | %s | %.3e | %.2f | %.4f "
        "| %s (%s) | %s |\n",
        r.name.c_str(), r.level, r.F, r.options.batch_share, r.options.target_faces,
        r.verdict.last.faces, r.times.ms, r.times.wall_ms, r.times.end_to_end_ms, g.passes,
        (unsigned long long)g.collapses, g.stop_reason().c_str(), r.distance.relative, r.min_angle,
        r.share_below_5, mib(double(r.memory.total())).c_str(), mib(double(r.memory.peak)).c_str(),
        r.verdict.ok() ? "yes" : "**NO**");
    if (!r.verdict.ok()) std::printf("  failed: %s\n", r.verdict.failure.c_str());
    std::fflush(stdout);
}

std::string row_json(const Row& r)
{
    return "{\"mesh\":\"" + r.name + "\",\"level\":" + std::to_string(r.level) +
           ",\"vertices\":" + std::to_string(r.V) + ",\"faces\":" + std::to_string(r.F) +
           ",\"target_faces\":" + std::to_string(r.options.target_faces) +
           ",\"batch_share\":" + json_number(r.options.batch_share) +
           ",\"boundary_weight\":" + json_number(r.options.boundary_weight) +
           ",\"vertices_out\":" + std::to_string(r.verdict.last.vertices) +
           ",\"faces_out\":" + std::to_string(r.verdict.last.faces) +
           r.times.to_json() + ",\"report\":" + r.report.to_json() +
           ",\"stop_reason\":\"" + r.report.stop_reason() + "\"" +
           ",\"min_angle\":" + json_number(r.min_angle) +
           ",\"share_below_5_degrees\":" + json_number(r.share_below_5) +
           ",\"hausdorff\":" + bench::distance_json(r.distance) +
           ",\"memory\":" + bench::memory_json(r.memory) + ",\"check\":" + r.verdict.to_json() +
           ",\"verified\":" + (r.verdict.ok() ? "true" : "false") + "}";
}

//! One row per batch share at one size, each printed as it is measured.
void measure_shares(const std::string& name, int level, const TriangleSoup& soup, const Args& a,
                    std::vector<Row>& rows)
{
    const bench::InputSurface input(soup);
    SimplifyOptions           o;
    o.target_faces    = std::uint32_t(std::lround(a.ratio * double(soup.faces.size())));
    o.boundary_weight = a.boundary_weight;
    o.max_passes      = a.max_passes;
    for (const double share : a.batch_shares) {
        o.batch_share = share;
        rows.push_back(measure_one(name, level, soup, input, o, a));
        print_row(rows.back());
    }
}

void add_options(CLI::App& cli, Args& a)
{
    bench::add_refined_mesh_runs(cli, a);
    cli.add_option("--ratio", a.ratio, "target faces / input faces (as bench_simplify_cpu)")
        ->check(CLI::Range(0.001, 1.0))
        ->capture_default_str();
    // SimplifyOptions::batch_share's range, (0, 1]: CLI::Range includes 0
    const CLI::Validator share(
        [](std::string& s) -> std::string {
            double v = 0;
            return CLI::detail::lexical_cast(s, v) && v > 0 && v <= 1 ? "" : "not in (0, 1]";
        },
        "in (0, 1]");
    cli.add_option("--batch-share", a.batch_shares,
                   "comma-separated values of SimplifyOptions::batch_share (the most faces one "
                   "pass may remove, as a share of the faces), one row each")
        ->delimiter(',')
        ->check(share)
        ->capture_default_str();
    cli.add_option("--boundary-weight", a.boundary_weight,
                   "SimplifyOptions::boundary_weight (the boundary planes' weight)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cli.add_option("--max-passes", a.max_passes, "the bound on passes")
        ->check(CLI::Range(1u, 1000000000u))
        ->capture_default_str();
    bench::add_json(cli, a.json);
}

//! Measures every size, prints the tables, writes --json; the exit status.
int run(const Args& a)
{
    bench::keep_pool_memory();
    std::printf(
        "GPU: %s; qem_simplify to %.3g of the faces (as bench_simplify_cpu), one row per "
        "batch share; median of %d runs after a warm-up, each on a fresh DynamicMesh. "
        "device ms: SimplifyReport::ms (CUDA events; the quadrics included); wall ms: host "
        "time around the call; end-to-end ms: host arrays to compact output (DynamicMesh "
        "from the soup + qem_simplify + compact() + sync). Hausdorff: symmetric, sampled, "
        "/ the input's bounding-box diagonal, bench_simplify_cpu's samples (every vertex "
        "used by a face, face centroids, edge midpoints; float on the GPU, double on the "
        "CPU). min angle in degrees.\n\n",
        bench::gpu_name().c_str(), a.ratio, a.runs);
    bench::print_table_head(kColumns);
    std::vector<Row> rows;
    bench::for_each_mesh_level(
        a.meshes, a.min_level, a.levels,
        [&](const std::string& name, int level, const TriangleSoup& soup) {
            measure_shares(name, level, soup, a, rows);
        });
    return bench::finish_verified_rows(
        a.json,
        bench::gpu_rows_head("\"ratio\":" + json_number(a.ratio) +
                             ",\"runs\":" + std::to_string(a.runs)),
        rows, row_json, [](const Row& r) { return r.verdict.ok(); },
        bench::kDynamicRunChecks);
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
