// bench_remesh_cpu: the CPU baseline of isotropic remeshing (issue 30) with
// its quality, for the device machine's CPU in the same run as the GPU
// remesher (carried there by bench_cpu_baselines_bundle):
//   CGAL 5.5    Polygon_mesh_processing::isotropic_remeshing, the same
//               target length L and iterations (its defaults otherwise:
//               tangential relaxation and projection onto the input);
//   reference   reference::isotropic_remesh (serial oracle), small meshes only.
// L defaults to the input's mean edge length (as CGAL's and PMP's examples);
// --scale multiplies it. Time: the wall clock of the remeshing alone, median
// of --runs. Quality of every output: faces, the share of edges within
// [4/5 L, 4/3 L], the minimum angle, the share of interior vertices of
// valence 6, and the symmetric Hausdorff distance to the input (sampled,
// reference::hausdorff_fast) relative to the bounding-box diagonal.
//
// usage: bench_remesh_cpu --mesh FILE [--levels L] [--min-level M]
//          [--iterations 3] [--scale 1] [--runs R] [--reference-max-faces N] [--json OUT]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#ifdef RXMESH_HAVE_CGAL
#include <CGAL/Polygon_mesh_processing/remesh.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/Surface_mesh.h>

#include "common/cgal_soup.h"
#endif

#include "common/bench_cli.h"
#include "common/bench_util.h"
#include "common/cpu_baseline.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/reference/isotropic_remesh.h"
#include "rxmesh/reference/mcf.h"

namespace {

using rxmesh::TriangleSoup;

struct Args
{
    std::string   file, json;
    int           levels = 2, min_level = 0, runs = 1, iterations = 3;
    double        scale               = 1.0;
    std::uint64_t reference_max_faces = 5'000;
};

int parse(int argc, char** argv, Args& a)
{
    CLI::App cli{"bench_remesh_cpu: isotropic remeshing on the CPU (CGAL, the serial "
                 "reference) with quality",
                 "bench_remesh_cpu"};
    rxmesh::bench::add_mesh(cli, a.file, "required")->required();
    rxmesh::bench::add_levels(cli, a.levels);
    rxmesh::bench::add_min_level(cli, a.min_level);
    cli.add_option("--iterations", a.iterations, "remeshing iterations")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cli.add_option("--scale", a.scale, "target length L = scale x the input's mean edge length")
        ->check(CLI::Range(0.01, 100.0))
        ->capture_default_str();
    rxmesh::bench::add_runs(cli, a.runs);
    cli.add_option("--reference-max-faces", a.reference_max_faces,
                   "run the serial reference (quadratic time) up to this many faces")
        ->capture_default_str();
    rxmesh::bench::add_json(cli, a.json);
    return rxmesh::bench::parse(cli, argc, argv);
}

using rxmesh::bench::Outcome;
using rxmesh::bench::timed;
using rxmesh::bench::wall_ms;

#ifdef RXMESH_HAVE_CGAL
Outcome run_cgal(const TriangleSoup& in, double target, int iterations, int runs)
{
    using K    = CGAL::Simple_cartesian<double>;
    using Mesh = CGAL::Surface_mesh<K::Point_3>;
    return timed("CGAL isotropic_remeshing", runs, [&](TriangleSoup& out) {
        Mesh m = rxmesh::bench::surface_mesh_of<Mesh>(in);
        const double ms = wall_ms([&] {
            CGAL::Polygon_mesh_processing::isotropic_remeshing(
                faces(m), target, m, CGAL::parameters::number_of_iterations(iterations));
        });
        out = rxmesh::bench::soup_of_surface_mesh(m);
        return ms;
    });
}
#endif

double valence6_share(const rxmesh::reference::MeshQuality& q)
{
    double all = 0;
    for (auto n : q.interior_valences) all += n;
    return all == 0 || q.interior_valences.size() <= 6 ? 0 : q.interior_valences[6] / all;
}

}  // namespace

int main(int argc, char** argv)
{
    Args a;
    if (const int rc = parse(argc, argv, a); rc >= 0) return rc;
    try {
        TriangleSoup soup = rxmesh::io::read(a.file);
        std::printf("CPU isotropic remeshing, %d iterations, L = %g x the mean edge length; wall "
                    "time of the remeshing alone, median of %d runs; Hausdorff: symmetric, sampled, "
                    "/ bounding-box diagonal\n\n| level | faces | method | ms | faces out | in "
                    "[4/5 L, 4/3 L] | min angle | valence 6 | Hausdorff |\n"
                    "|---|---|---|---|---|---|---|---|---|\n",
                    a.iterations, a.scale, a.runs);
        std::string json  = "{\"iterations\":" + std::to_string(a.iterations) + ",\"rows\":[";
        bool        first = true;
        for (int level = 0; level <= a.levels; ++level) {
            if (level > 0) soup = rxmesh::generate::refine(soup);
            if (level < a.min_level) continue;
            const double L = a.scale * rxmesh::reference::mean_edge_length(soup.positions, soup.faces);
            std::vector<Outcome> outcomes;
#ifdef RXMESH_HAVE_CGAL
            outcomes.push_back(run_cgal(soup, L, a.iterations, a.runs));
#endif
            if (soup.faces.size() <= a.reference_max_faces)
                outcomes.push_back(timed("reference (serial oracle)", 1, [&](TriangleSoup& out) {
                    return wall_ms([&] {
                        out = rxmesh::reference::isotropic_remesh(soup, {L, a.iterations});
                    });
                }));
            const double diag = rxmesh::bounding_box_diagonal(soup.positions);
            for (const Outcome& o : outcomes) {
                const auto   q = rxmesh::reference::mesh_quality(o.output, L);
                const double h = rxmesh::reference::hausdorff_fast(soup, o.output).symmetric() / diag;
                std::printf("| %d | %zu | %s | %.1f | %zu | %.3f | %.2f | %.3f | %.3e |\n", level,
                            soup.faces.size(), o.method.c_str(), o.ms, o.output.faces.size(),
                            q.share_in_band, q.min_angle_degrees, valence6_share(q), h);
                json += std::string(first ? "" : ",") + "{\"level\":" + std::to_string(level) +
                        ",\"faces\":" + std::to_string(soup.faces.size()) + ",\"method\":\"" +
                        o.method + "\",\"ms\":" + std::to_string(o.ms) + ",\"faces_out\":" +
                        std::to_string(o.output.faces.size()) + ",\"in_band\":" +
                        std::to_string(q.share_in_band) + ",\"min_angle\":" +
                        std::to_string(q.min_angle_degrees) + ",\"valence6\":" +
                        std::to_string(valence6_share(q)) + ",\"hausdorff_rel\":" +
                        std::to_string(h) + "}";
                first = false;
            }
        }
        if (!a.json.empty()) rxmesh::bench::write_text_file(a.json, json + "]}\n");
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_remesh_cpu: %s\n", e.what());
        return 1;
    }
}
