// Build benchmark: RXMesh's constructor as a user waits for it (from a
// TriangleSoup in pageable host memory to a mesh ready to query: patch store,
// attribute registry and boundary flags), its time per stage, the upload
// from pageable memory reported apart; against face count, with store bytes
// per face, all device memory held (RXMesh::memory()), and the Lloyd patcher
// against METIS k-way on the same face graph and number of parts (time,
// largest part, contiguity).
//
// "constructor ms": the host's clock around the constructor (it returns with
// the mesh ready; the GPU's stage times sum to at most this); "without
// upload": that minus the upload stage.
//
// usage: bench_build [--mesh FILE]... [--max-faces N] [--runs R] [--capacity C]
//                    [--metis-max-faces N] [--json FILE]
// Real meshes are refined 1-to-4 until they pass 1M, 4M, 16M faces (and
// --max-faces); generated tori cover the same range.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/build/import.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/patch/patcher.h"
#include "rxmesh/rxmesh.h"

#ifdef RXMESH_HAVE_METIS_BASELINE
#include "metis_partition.h"
#endif

namespace {

struct Options
{
    std::vector<std::string> meshes;
    std::uint64_t            max_faces       = 21'000'000;
    std::uint64_t            metis_max_faces = 1'500'000;
    int                      runs            = 5;
    std::uint32_t            capacity        = 512;
    std::string              json;
};

Options parse(int argc, char** argv)
{
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--mesh")
            o.meshes.push_back(v);
        else if (a == "--max-faces")
            o.max_faces = std::stoull(v);
        else if (a == "--metis-max-faces")
            o.metis_max_faces = std::stoull(v);
        else if (a == "--runs")
            o.runs = std::stoi(v);
        else if (a == "--capacity")
            o.capacity = static_cast<std::uint32_t>(std::stoul(v));
        else if (a == "--json")
            o.json = v;
    }
    return o;
}

struct Row
{
    std::string          name;
    rxmesh::BuildStats   median;  // stage times are medians over the runs
    double               wall_ms = 0;  // median of the constructor on the host's clock
    rxmesh::MemoryReport memory;
    rxmesh::PatcherStageTimes stages;  // of the first timed build
    std::string          metis;
};

double median_of(std::vector<rxmesh::BuildStats>& runs, float rxmesh::BuildStats::*field)
{
    std::vector<double> v;
    for (const auto& r : runs)
        v.push_back(r.*field);
    return rxmesh::bench::median(v);
}

Row measure(const std::string& name, const rxmesh::TriangleSoup& soup, const Options& o)
{
    rxmesh::BuildOptions options;
    options.patcher.capacity = o.capacity;
    Row row;
    row.name = name;
    {
        const rxmesh::RXMesh warmup(soup, options);
        row.memory = warmup.memory();
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
    row.median  = runs.front();
    row.stages  = runs.front().patcher_stages;
    row.wall_ms = rxmesh::bench::median(wall);
    row.metis   = "-";
    for (auto field : {&rxmesh::BuildStats::upload_ms, &rxmesh::BuildStats::reindex_ms,
                       &rxmesh::BuildStats::topology_ms, &rxmesh::BuildStats::patching_ms,
                       &rxmesh::BuildStats::store_ms, &rxmesh::BuildStats::attributes_ms,
                       &rxmesh::BuildStats::total_ms})
        row.median.*field = static_cast<float>(median_of(runs, field));

#ifdef RXMESH_HAVE_METIS_BASELINE
    if (soup.faces.size() <= o.metis_max_faces) {
        // the same face graph and number of parts as RXMesh's patcher
        const auto            mesh = rxmesh::import_mesh(soup);
        rxmesh::PatcherOptions popt;
        popt.capacity       = o.capacity;
        const auto patches  = rxmesh::lloyd_patches(mesh.topology.ff, mesh.num_faces, popt);
        const auto offsets  = mesh.topology.ff.offsets.to_host();
        const auto adjacent = mesh.topology.ff.indices.to_host();
        const auto ours     = rxmesh::bench::assess_partition(
            offsets, adjacent, patches.face_patch.to_host(), patches.num_patches);
        const auto metis = rxmesh::bench::metis_kway(offsets, adjacent, patches.num_patches);
        char       buf[256];
        if (metis.available)
            std::snprintf(buf, sizeof(buf),
                          "METIS %.0f ms, largest %u, disconnected %u | Lloyd largest %u, "
                          "disconnected %u",
                          metis.ms, metis.largest, metis.disconnected_parts, ours.largest,
                          ours.disconnected_parts);
        else
            std::snprintf(buf, sizeof(buf), "%s", metis.note.c_str());
        row.metis = buf;
    }
#else
    row.metis = "METIS baseline not built";
#endif
    return row;
}

//! Where the patcher's time goes: its stages (GPU ms, one build) and passes.
void print_patcher_stages(const std::vector<Row>& rows)
{
    std::printf("\nLloyd patcher by stage (ms, summed over the iterations; one build of each "
                "mesh):\n\n| mesh | iterations | BFS passes | relaxation passes | components "
                "| propagate | members | central faces | seeds | split |\n"
                "|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& row : rows) {
        const rxmesh::PatcherStageTimes& t = row.stages;
        std::printf("| %s | %u | %u | %u | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                    row.name.c_str(), row.median.patcher_iterations, t.propagate_passes,
                    t.relax_passes, t.components_ms, t.propagate_ms, t.members_ms, t.central_ms,
                    t.seeds_ms, t.split_ms);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    const Options o = parse(argc, argv);
    rxmesh::bench::keep_pool_memory();
    std::printf("GPU: %s, capacity %u faces per patch, median of %d builds\n\n",
                rxmesh::bench::gpu_name().c_str(), o.capacity, o.runs);

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

    std::ostringstream json;
    json << "{\"gpu\": \"" << rxmesh::bench::gpu_name() << "\", \"capacity\": " << o.capacity
         << ", \"rows\": [";
    std::printf("| mesh | faces | patches | max patch | iters | upload | reindex | topology | "
                "patching | store | attributes | constructor ms | without upload | Mfaces/s | "
                "store bytes/face | all memory MB | ribbon faces | METIS vs Lloyd |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    bool             first = true;
    std::vector<Row> rows;
    for (const auto& [name, soup] : inputs) {
        rows.push_back(measure(name, soup, o));
        const Row&  row = rows.back();
        const auto& s   = row.median;
        std::printf("| %s | %u | %u | %u | %u | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | "
                    "%.2f | %.1f | %.1f | %.1f | %.3f | %s |\n",
                    name.c_str(), s.num_faces, s.num_patches, s.max_patch_faces,
                    s.patcher_iterations, s.upload_ms, s.reindex_ms, s.topology_ms, s.patching_ms,
                    s.store_ms, s.attributes_ms, row.wall_ms, row.wall_ms - s.upload_ms,
                    s.num_faces / (row.wall_ms * 1e3), s.store_bytes_per_face,
                    row.memory.total() / 1e6, s.ribbon_overhead_faces, row.metis.c_str());
        std::fflush(stdout);
        json << (first ? "" : ", ") << "{\"mesh\": \"" << name << "\", \"stats\": " << s.to_json()
             << ", \"constructor_ms\": " << row.wall_ms
             << ", \"memory\": " << row.memory.to_json() << ", \"metis\": \"" << row.metis
             << "\"}";
        first = false;
    }
    json << "]}\n";
    print_patcher_stages(rows);
    if (!o.json.empty())
        if (FILE* f = std::fopen(o.json.c_str(), "w")) {
            std::fputs(json.str().c_str(), f);
            std::fclose(f);
        }
    return 0;
}
