// The serial CPU baseline of bench_geodesic (baselines/cpu_ptp.h) at one size,
// as its own process: at the largest sizes it runs for minutes, so the device
// script starts it beside the GPU benchmark. Times one run on the input's
// numbering (the input refined --level times, source input vertex --source),
// then checks it against RXMesh's distances that bench_geodesic --dump wrote
// for the same size (float32 per input vertex; waits for the file): 1e-4
// relative, the same unreachable set. Prints one table row.
//
// usage: bench_geodesic_cpu --mesh FILE --level K --distances F [--source I] [--tol T]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/bench_cli.h"
#include "cpu_ptp.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"

namespace {

std::vector<float> wait_for_floats(const std::string& path, std::size_t count)
{
    const std::size_t bytes = count * sizeof(float);
    for (int second = 0; second < 1800; ++second) {
        std::ifstream in(path, std::ios::binary | std::ios::ate);
        if (in && std::size_t(in.tellg()) == bytes) {
            std::vector<float> v(count);
            in.seekg(0);
            if (in.read(reinterpret_cast<char*>(v.data()), std::streamsize(bytes)))
                return v;
        }
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    throw std::runtime_error(path + ": no file of " + std::to_string(count) + " float32 values");
}

}  // namespace

int main(int argc, char** argv)
{
    std::string   mesh, distances;
    int           level  = 0;
    std::uint32_t source = 0;
    double        tol    = 1e-4;
    CLI::App      cli{"bench_geodesic_cpu: bench_geodesic's serial CPU baseline at one size",
                 "bench_geodesic_cpu"};
    rxmesh::bench::add_geodesic_file_options(cli, mesh, level, distances, source);
    cli.add_option("--tol", tol, "relative tolerance of a level's convergence")
        ->check(CLI::Range(1e-12, 0.5))
        ->capture_default_str();
    if (const int rc = rxmesh::bench::parse(cli, argc, argv); rc >= 0) return rc;
    try {
        rxmesh::TriangleSoup soup = rxmesh::io::read(mesh);
        for (int k = 0; k < level; ++k)
            soup = rxmesh::generate::refine(soup);
        const auto t0 = std::chrono::steady_clock::now();
        const auto r  = rxmesh::baselines::cpu_ptp(soup.positions, soup.faces, {source}, tol);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        const std::vector<float> rx = wait_for_floats(distances, soup.positions.size());
        double worst = 0;
        bool   same_unreached = true;
        for (std::size_t i = 0; i < rx.size(); ++i) {
            if (std::isinf(rx[i]) || std::isinf(r.distance[i])) {
                same_unreached = same_unreached && std::isinf(rx[i]) == std::isinf(r.distance[i]);
                continue;
            }
            if (rx[i] > 0)
                worst = std::max(worst, std::abs(double(r.distance[i]) - rx[i]) / rx[i]);
        }
        const bool ok = r.converged && same_unreached && worst <= 1e-4;
        std::printf("| %zu | %u | %ld (%ld) | %.0f | %.1e | %s |\n", soup.faces.size(), r.levels, r.iterations,
                    r.sweeps, ms, worst, ok ? "yes" : "NO");
        return ok ? 0 : 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_geodesic_cpu: %s\n", e.what());
        return 1;
    }
}
