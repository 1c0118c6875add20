// OBJ parsing throughput: rxmesh::io::read (every hardware thread, and one)
// against tinyobjloader (when it was found at configure time) on a generated
// grid of a few million triangles. Our outputs are verified bit for bit
// against the generated grid (the OBJ writer's floats read back exactly).
//
// usage: bench_obj_parse [grid_n = 1200] [runs = 5] [dir = system temp dir]
// The grid has grid_n^2 quads (2 * grid_n^2 triangles); 1200 gives ~115 MB.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "common/bench_cli.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/io.h"

#ifdef RXMESH_HAVE_TINYOBJLOADER
#include <tiny_obj_loader.h>
#endif

namespace {

// Grid with a wavy height so that coordinates have realistic digit counts.
rxmesh::TriangleSoup wavy_grid(int n)
{
    rxmesh::TriangleSoup s;
    s.positions.reserve(static_cast<std::size_t>(n + 1) * (n + 1));
    s.faces.reserve(static_cast<std::size_t>(2) * n * n);
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
            const float x = static_cast<float>(i) / n, y = static_cast<float>(j) / n;
            s.positions.push_back({x, y, 0.1f * std::sin(7.f * x) * std::cos(5.f * y)});
        }
    const auto id = [n](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            s.faces.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
            s.faces.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
        }
    return s;
}

// Median wall time of `runs` calls; `faces` receives the last call's count.
double median_seconds(int runs, const std::function<std::size_t()>& f, std::size_t& faces)
{
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
        const auto start = std::chrono::steady_clock::now();
        faces            = f();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv)
{
    int         n    = 1200;
    int         runs = 5;
    std::string dir  = std::filesystem::temp_directory_path().string();
    CLI::App    cli{"bench_obj_parse: OBJ parsing throughput, rxmesh::io::read vs tinyobjloader",
                 "bench_obj_parse"};
    cli.add_option("grid_n", n, "the generated grid's quads per side")
        ->check(CLI::Range(1, 1 << 15))
        ->capture_default_str();
    cli.add_option("runs", runs, "timed runs (the median is reported)")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cli.add_option("dir", dir, "where to write the grid")->capture_default_str();
    if (const int rc = rxmesh::bench::parse(cli, argc, argv); rc >= 0) return rc;
    const std::string path = dir + "/rxmesh_bench_grid_" + std::to_string(n) + ".obj";
    const rxmesh::TriangleSoup grid = wavy_grid(n);
    try {
        rxmesh::io::write_obj(path, grid);
    } catch (const rxmesh::Error& e) {
        std::fprintf(stderr, "cannot write the input: %s\n", e.what());
        return 1;
    }
    const double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
    std::printf("input: %s, %.1f MB, %d triangles, median of %d runs (file in page cache)\n\n",
                path.c_str(), mb, 2 * n * n, runs);

    // Warm the page cache so that both parsers see the same conditions.
    rxmesh::io::read(path);

    bool       verified = true;
    const auto timed    = [&](const rxmesh::io::ReadOptions& options) {
        return [&, options] {
            const rxmesh::TriangleSoup s = rxmesh::io::read(path, options);
            verified = verified && s.positions == grid.positions && s.faces == grid.faces;
            return s.faces.size();
        };
    };
    std::size_t  ours_faces = 0, serial_faces = 0;
    const double ours   = median_seconds(runs, timed({}), ours_faces);
    const double serial = median_seconds(runs, timed(rxmesh::io::ReadOptions{1}), serial_faces);

    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("%-22s %10s %10s %8s\n", "parser", "median s", "MB/s", "vs ours");
    std::printf("%-22s %10.3f %10.1f %8s\n",
                ("rxmesh::io, " + std::to_string(threads) + " threads").c_str(), ours, mb / ours,
                "1.00");
    std::printf("%-22s %10.3f %10.1f %8.2f\n", "rxmesh::io, 1 thread", serial, mb / serial,
                ours / serial);
    std::printf("rxmesh::io output equal to the generated grid, bit for bit: %s\n",
                verified ? "yes" : "NO");
#ifdef RXMESH_HAVE_TINYOBJLOADER
    std::size_t  tiny_faces = 0;
    const double tiny = median_seconds(
        runs,
        [&] {
            tinyobj::attrib_t                attrib;
            std::vector<tinyobj::shape_t>    shapes;
            std::vector<tinyobj::material_t> materials;
            std::string                      warn, err;
            if (!tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, path.c_str(), nullptr, true))
                std::fprintf(stderr, "tinyobjloader failed: %s\n", err.c_str());
            std::size_t faces = 0;
            for (const auto& sh : shapes)
                faces += sh.mesh.num_face_vertices.size();
            return faces;
        },
        tiny_faces);
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", ours / tiny);
    std::printf("%-22s %10.3f %10.1f %8s\n", "tinyobjloader", tiny, mb / tiny, ratio);
    std::printf("\nrxmesh::io is %.2fx the throughput of tinyobjloader", tiny / ours);
    std::printf(" (faces: %zu vs %zu)\n", ours_faces, tiny_faces);
    if (ours_faces != tiny_faces)
        std::printf("WARNING: the parsers disagree on the face count\n");
#else
    std::printf("\ntinyobjloader was not found at configure time: no comparison\n");
    (void)ours_faces;
#endif
    std::filesystem::remove(path);
    return verified ? 0 : 1;
}
