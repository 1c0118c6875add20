// Topology construction benchmark: edges (EV, FE, EF), face adjacency (FF)
// and the vertex CSRs (VV, VE, VF) against face count, on welded grids.
//
// usage: bench_topology [--max-faces 40000000] [--runs 7]
#include <cstdio>
#include <string>

#include "bench_cli.h"
#include "bench_util.h"
#include "rxmesh/build/import.h"
#include "rxmesh/io/generate.h"

int main(int argc, char** argv)
{
    std::uint64_t max_faces = 40'000'000;
    int           runs      = 7;
    CLI::App      cli{"bench_topology: topology construction against face count, on welded grids",
                 "bench_topology"};
    cli.add_option("--max-faces", max_faces, "the largest grid")->capture_default_str();
    rxmesh::bench::add_runs(cli, runs);
    if (const int rc = rxmesh::bench::parse(cli, argc, argv); rc >= 0) return rc;
    rxmesh::bench::keep_pool_memory();
    std::printf("GPU: %s\n\n", rxmesh::bench::gpu_name().c_str());
    std::printf("| faces | vertices | edges only ms | + FF ms | all (edges, FF, VV, VE, VF) ms "
                "| Mfaces/s (all) |\n|---|---|---|---|---|---|\n");
    for (int n = 256; 2ull * n * n <= max_faces; n *= 2) {
        rxmesh::ImportOptions options;
        options.parts = {false, false, false};
        const auto mesh = rxmesh::import_mesh(rxmesh::generate::grid(n, n), options);
        auto time_parts = [&](rxmesh::TopologyParts parts) {
            return rxmesh::bench::gpu_median_ms(
                [&] {
                    rxmesh::build_topology(mesh.faces.data(), mesh.num_faces, mesh.num_vertices,
                                           parts);
                },
                2, runs);
        };
        const double edges = time_parts({false, false, false});
        const double ff    = time_parts({true, false, false});
        const double all   = time_parts({true, true, true});
        std::printf("| %u | %u | %.2f | %.2f | %.2f | %.0f |\n", mesh.num_faces,
                    mesh.num_vertices, edges, ff, all, mesh.num_faces / (all * 1e3));
    }
    return 0;
}
