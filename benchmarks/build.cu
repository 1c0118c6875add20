// Build benchmark: RXMesh's constructor as a user waits for it (from a
// TriangleSoup in pageable host memory to a mesh ready to query: patch store,
// attribute registry and boundary flags), for each patcher (curve, Lloyd),
// its time per stage and per patcher stage, and the patches' quality: ribbon
// faces per owned face, largest patch, disconnected patches, validate().
// METIS k-way on the same face graph and number of parts is the quality
// reference (its parts built into a patch store for the same ribbon measure).
//
// "constructor ms": the host's clock around the constructor (it returns with
// the mesh ready; the GPU's stage times sum to at most this); "without
// upload": that minus the upload stage. Goals (issue 18): under 100 ms at
// 13.3M faces, 150 Mfaces/s or more from 1M faces.
//
// usage: bench_build [--mesh FILE]... [--max-faces N] [--runs R] [--capacity C]
//                    [--methods curve,lloyd] [--metis-max-faces N]
//                    [--quality-dir DIR] [--quality-max-faces N] [--json FILE]
// Real meshes are refined 1-to-4 until they pass 1M, 4M, 16M faces (and
// --max-faces); generated tori cover the same range. --quality-dir: every
// mesh file under DIR (up to --quality-max-faces) built with each method,
// for the quality table only.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_util.h"
#include "build_quality.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/rxmesh.h"

namespace {

using rxmesh::bench::Quality;

struct Options
{
    std::vector<std::string>           meshes;
    std::vector<rxmesh::PatcherMethod> methods = {rxmesh::PatcherMethod::Curve,
                                                  rxmesh::PatcherMethod::Lloyd};
    std::uint64_t max_faces         = 21'000'000;
    std::uint64_t metis_max_faces   = 1'500'000;
    std::uint64_t quality_max_faces = 1'000'000;
    int           runs              = 5;
    std::uint32_t capacity          = 512;
    std::string   quality_dir, json;
};

std::vector<rxmesh::PatcherMethod> parse_methods(const std::string& list)
{
    std::vector<rxmesh::PatcherMethod> methods;
    if (list.find("curve") != std::string::npos)
        methods.push_back(rxmesh::PatcherMethod::Curve);
    if (list.find("lloyd") != std::string::npos)
        methods.push_back(rxmesh::PatcherMethod::Lloyd);
    return methods;
}

void add_options(CLI::App& cli, Options& o)
{
    cli.add_option("--mesh", o.meshes,
                   "a mesh file, refined 1-to-4 past 1M, 4M, 16M faces (repeatable)")
        ->allow_extra_args(false);
    cli.add_option("--max-faces", o.max_faces, "refine up to this many faces")
        ->capture_default_str();
    rxmesh::bench::add_runs(cli, o.runs);
    cli.add_option("--capacity", o.capacity, "faces per patch")->capture_default_str();
    cli.add_option_function<std::string>(
        "--methods", [&o](const std::string& list) { o.methods = parse_methods(list); },
        "the patchers, among curve and lloyd (default: both)");
    cli.add_option("--metis-max-faces", o.metis_max_faces, "METIS k-way up to this many faces")
        ->capture_default_str();
    cli.add_option("--quality-dir", o.quality_dir,
                   "every mesh file under this directory, for the quality table");
    cli.add_option("--quality-max-faces", o.quality_max_faces,
                   "--quality-dir meshes up to this many faces")
        ->capture_default_str();
    rxmesh::bench::add_json(cli, o.json);
}

struct Row
{
    std::string           name;
    rxmesh::PatcherMethod method = rxmesh::PatcherMethod::Curve;
    rxmesh::BuildStats    median;       // stage times are medians over the runs
    double                wall_ms = 0;  // median of the constructor on the host's clock
    rxmesh::MemoryReport  memory;
    Quality               quality;
};

double median_of(std::vector<rxmesh::BuildStats>& runs, float rxmesh::BuildStats::*field)
{
    std::vector<double> v;
    for (const auto& r : runs)
        v.push_back(r.*field);
    return rxmesh::bench::median(v);
}

Row measure(const std::string& name, const rxmesh::TriangleSoup& soup,
            rxmesh::PatcherMethod method, const Options& o)
{
    rxmesh::BuildOptions options;
    options.patcher.capacity = o.capacity;
    options.patcher.method   = method;
    Row row;
    row.name   = name;
    row.method = method;
    {
        const rxmesh::RXMesh warmup(soup, options);
        row.memory  = warmup.memory();
        row.quality = rxmesh::bench::assess_build(soup, warmup, options.patcher);
    }
    std::vector<rxmesh::BuildStats> runs;
    std::vector<double>             wall;
    for (int r = 0; r < o.runs; ++r) {
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        const auto start = std::chrono::steady_clock::now();
        const rxmesh::RXMesh mesh(soup, options);  // returns ready: no work left queued
        wall.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
        runs.push_back(mesh.stats());
    }
    row.median  = runs.front();  // sizes, counts and the patcher stages of the first build
    row.wall_ms = rxmesh::bench::median(wall);
    for (auto field : {&rxmesh::BuildStats::upload_ms, &rxmesh::BuildStats::reindex_ms,
                       &rxmesh::BuildStats::topology_ms, &rxmesh::BuildStats::patching_ms,
                       &rxmesh::BuildStats::store_ms, &rxmesh::BuildStats::attributes_ms,
                       &rxmesh::BuildStats::total_ms})
        row.median.*field = static_cast<float>(median_of(runs, field));
    return row;
}

void print_row(const Row& row)
{
    const auto& s = row.median;
    const auto& q = row.quality;
    std::printf("| %s | %s | %u | %u | %u | %u | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | "
                "%.2f | %.1f | %.1f | %.1f | %.3f | %u | %s |\n",
                row.name.c_str(), rxmesh::bench::method_name(row.method), s.num_faces,
                s.num_patches, s.max_patch_faces, s.patcher_iterations, s.upload_ms,
                s.reindex_ms, s.topology_ms, s.patching_ms, s.store_ms, s.attributes_ms,
                row.wall_ms, row.wall_ms - s.upload_ms, s.num_faces / (row.wall_ms * 1e3),
                s.store_bytes_per_face, row.memory.total() / 1e6, q.ribbon_faces,
                q.disconnected, q.valid ? "yes" : "NO");
    std::fflush(stdout);
}

//! Where each patcher's time goes: its stages (GPU ms, one build) and passes.
void print_patcher_stages(const std::vector<Row>& rows)
{
    std::printf("\nCurve patcher by stage (ms, one build of each mesh; sweeps of the block "
                "relaxation):\n\n| mesh | growths | growth sweeps | distance sweeps | order "
                "| components + seeds | grow | recenter | split | finish |\n"
                "|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& row : rows) {
        const rxmesh::PatcherStageTimes& t = row.median.patcher_stages;
        if (row.method == rxmesh::PatcherMethod::Curve)
            std::printf("| %s | %u | %u | %u | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                        row.name.c_str(), row.median.patcher_iterations, t.propagate_passes,
                        t.relax_passes, t.order_ms, t.components_ms, t.propagate_ms, t.central_ms,
                        t.split_ms, t.finish_ms);
    }
    std::printf("\nLloyd patcher by stage (ms, summed over the iterations; one build of each "
                "mesh):\n\n| mesh | iterations | BFS passes | relaxation passes | components "
                "| propagate | members | central faces | seeds | split |\n"
                "|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& row : rows) {
        const rxmesh::PatcherStageTimes& t = row.median.patcher_stages;
        if (row.method == rxmesh::PatcherMethod::Lloyd)
            std::printf("| %s | %u | %u | %u | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                        row.name.c_str(), row.median.patcher_iterations, t.propagate_passes,
                        t.relax_passes, t.components_ms, t.propagate_ms, t.members_ms,
                        t.central_ms, t.seeds_ms, t.split_ms);
    }
}

//! The issue's goals, for the curve patcher from 1M faces.
void print_goals(const std::vector<Row>& rows)
{
    std::printf("\nGoals: constructor under 100 ms at 13.3M faces; 150 Mfaces/s or more from "
                "1M faces (curve patcher):\n\n| mesh | faces | constructor ms | Mfaces/s | goal "
                "|\n|---|---|---|---|---|\n");
    for (const Row& row : rows) {
        const std::uint32_t F = row.median.num_faces;
        if (row.method != rxmesh::PatcherMethod::Curve || F < 1'000'000)
            continue;
        const double rate = F / (row.wall_ms * 1e3);
        const bool   met  = rate >= 150 && (F < 13'000'000 || F > 14'000'000 || row.wall_ms < 100);
        std::printf("| %s | %u | %.2f | %.1f | %s |\n", row.name.c_str(), F, row.wall_ms, rate,
                    met ? "met" : "missed");
    }
}

std::string row_json(const Row& row)
{
    std::ostringstream json;
    json << "{\"mesh\": \"" << row.name << "\", \"method\": \""
         << rxmesh::bench::method_name(row.method) << "\", \"stats\": " << row.median.to_json()
         << ", \"constructor_ms\": " << row.wall_ms << ", \"memory\": " << row.memory.to_json()
         << ", \"quality\": " << row.quality.to_json() << "}";
    return json.str();
}

std::vector<std::pair<std::string, rxmesh::TriangleSoup>> inputs(const Options& o)
{
    std::vector<std::pair<std::string, rxmesh::TriangleSoup>> inputs;
    for (int n : {128, 512, 1024, 2048, 4096}) {
        const int m = n * 5 / 8;
        if (2ull * n * m <= o.max_faces)
            inputs.emplace_back("torus " + std::to_string(n) + "x" + std::to_string(m),
                                rxmesh::generate::torus(n, m));
    }
    for (const auto& file : o.meshes) {
        rxmesh::TriangleSoup soup = rxmesh::io::read(file);
        const std::string    base = file.substr(file.find_last_of('/') + 1);
        for (int level = 0; soup.faces.size() <= o.max_faces; ++level) {
            inputs.emplace_back(base + " x4^" + std::to_string(level), soup);
            if (soup.faces.size() * 4 > o.max_faces)
                break;
            soup = rxmesh::generate::refine(soup);
        }
    }
    return inputs;
}

}  // namespace

int main(int argc, char** argv)
{
    Options  o;
    CLI::App cli{
        "bench_build: RXMesh's constructor per stage and patcher, and the patches' quality",
        "bench_build"};
    add_options(cli, o);
    if (const int rc = rxmesh::bench::parse(cli, argc, argv); rc >= 0) return rc;
    rxmesh::bench::keep_pool_memory();
    std::printf("GPU: %s, capacity %u faces per patch, median of %d builds\n\n",
                rxmesh::bench::gpu_name().c_str(), o.capacity, o.runs);
    std::printf("| mesh | patcher | faces | patches | max patch | iters | upload | reindex | "
                "topology | patching | store | attributes | constructor ms | without upload | "
                "Mfaces/s | store bytes/face | all memory MB | ribbon faces | disconnected | "
                "valid |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
                "---|---|---|\n");
    std::vector<Row>         rows;
    std::vector<std::string> metis;
    for (const auto& [name, soup] : inputs(o)) {
        for (rxmesh::PatcherMethod method : o.methods) {
            rows.push_back(measure(name, soup, method, o));
            print_row(rows.back());
        }
        if (soup.faces.size() <= o.metis_max_faces && !rows.empty())
            metis.push_back(rxmesh::bench::metis_reference(name, soup, o.capacity,
                                                           rows.back().median.num_patches));
    }
    print_patcher_stages(rows);
    print_goals(rows);
    std::printf("\nMETIS k-way (quality reference; same face graph, as many parts as the last "
                "patcher's patches):\n\n");
    for (const auto& line : metis)
        std::printf("%s\n", line.c_str());
    std::string quality_json = "[]";
    if (!o.quality_dir.empty())
        quality_json = rxmesh::bench::quality_table(o.quality_dir, o.quality_max_faces,
                                                    o.capacity, o.methods);

    std::ostringstream json;
    json << "{\"gpu\": \"" << rxmesh::bench::gpu_name() << "\", \"capacity\": " << o.capacity
         << ", \"rows\": [";
    for (std::size_t i = 0; i < rows.size(); ++i)
        json << (i ? ", " : "") << row_json(rows[i]);
    json << "], \"quality_meshes\": " << quality_json << "}\n";
    if (!o.json.empty())
        if (FILE* f = std::fopen(o.json.c_str(), "w")) {
            std::fputs(json.str().c_str(), f);
            std::fclose(f);
        }
    return 0;
}
