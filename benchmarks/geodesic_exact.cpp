// Accuracy of approximate geodesic distances against exact ones: CGAL's
// Surface_mesh_shortest_path (Xin and Wang's exact algorithm) from the same
// source, on the same mesh (the input refined --level times, as
// bench_geodesic does), against a file of distances per input vertex
// (float32, as bench_geodesic --dump writes them). Host only; accuracy only,
// never timing against the GPU.
//
// usage: bench_geodesic_exact --mesh FILE --level K --distances F [--source I]
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/bench_cli.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"

#if RXMESH_HAVE_CGAL
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/Surface_mesh_shortest_path.h>
#endif

namespace {

std::vector<float> read_floats(const std::string& path, std::size_t count)
{
    std::ifstream      in(path, std::ios::binary);
    std::vector<float> v(count);
    if (!in.read(reinterpret_cast<char*>(v.data()), std::streamsize(count * sizeof(float))))
        throw std::runtime_error(path + ": expected " + std::to_string(count) + " float32 values");
    return v;
}

#if RXMESH_HAVE_CGAL
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Mesh   = CGAL::Surface_mesh<Kernel::Point_3>;
using Traits = CGAL::Surface_mesh_shortest_path_traits<Kernel, Mesh>;
using Paths  = CGAL::Surface_mesh_shortest_path<Traits>;

//! Exact distance from input vertex `source` to every input vertex.
std::vector<double> exact_distances(const rxmesh::TriangleSoup& soup, std::uint32_t source)
{
    Mesh                           m;
    std::vector<Mesh::Vertex_index> vi;
    for (const auto& p : soup.positions)
        vi.push_back(m.add_vertex(Kernel::Point_3(p[0], p[1], p[2])));
    for (const auto& f : soup.faces)
        if (m.add_face(vi[f[0]], vi[f[1]], vi[f[2]]) == Mesh::null_face())
            throw std::runtime_error("CGAL rejected a face (non-manifold input)");
    Paths paths(m);
    paths.add_source_point(vi[source]);
    paths.build_sequence_tree();
    std::vector<double> d(soup.positions.size());
    for (std::size_t i = 0; i < d.size(); ++i)
        d[i] = paths.shortest_distance_to_source_points(vi[i]).first;
    return d;
}
#endif

}  // namespace

int main(int argc, char** argv)
{
    std::string   mesh, distances;
    int           level  = 0;
    std::uint32_t source = 0;
    CLI::App cli{"bench_geodesic_exact: approximate geodesic distances against CGAL's exact ones",
                 "bench_geodesic_exact"};
    rxmesh::bench::add_geodesic_file_options(cli, mesh, level, distances, source);
    if (const int rc = rxmesh::bench::parse(cli, argc, argv); rc >= 0) return rc;
#if !RXMESH_HAVE_CGAL
    std::printf("bench_geodesic_exact: CGAL not found at build time; no exact geodesics\n");
    return 0;
#else
    try {
        rxmesh::TriangleSoup soup = rxmesh::io::read(mesh);
        for (int k = 0; k < level; ++k)
            soup = rxmesh::generate::refine(soup);
        const std::vector<float>  approx = read_floats(distances, soup.positions.size());
        const std::vector<double> exact  = exact_distances(soup, source);
        double sum = 0, worst = 0, max_exact = 0;
        std::size_t n = 0;
        for (std::size_t i = 0; i < exact.size(); ++i)
            max_exact = std::max(max_exact, exact[i]);
        for (std::size_t i = 0; i < exact.size(); ++i) {
            // relative to the exact distance, away from the source where it
            // is a few edges long and any first-order scheme's error dominates
            if (i == source || !(exact[i] > 0) || std::isinf(approx[i]))
                continue;
            const double rel = std::abs(approx[i] - exact[i]) / exact[i];
            sum += rel;
            worst = std::max(worst, rel);
            ++n;
        }
        std::printf("| %zu | %zu | %.3e | %.3e | %.4g |\n", soup.faces.size(), n, sum / n, worst, max_exact);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_geodesic_exact: %s\n", e.what());
        return 1;
    }
#endif
}
