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

#include "common/bench_main.h"
#include "common/cpu_baseline.h"
#include "format.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/reference/isotropic_remesh.h"
#include "rxmesh/reference/mcf.h"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_remesh_cpu",
    "isotropic remeshing on the CPU (CGAL, the serial reference) with quality"};

using rxmesh::TriangleSoup;

struct Args : rxmesh::bench::OutcomeArgs
{
    int    iterations = 3;
    double scale      = 1.0;
    Args() : OutcomeArgs(2, 1, 5'000) {}
};

void add_options(CLI::App& cli, Args& a)
{
    rxmesh::bench::add_outcome_input(cli, a);
    cli.add_option("--iterations", a.iterations, "remeshing iterations")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cli.add_option("--scale", a.scale, "target length L = scale x the input's mean edge length")
        ->check(CLI::Range(0.01, 100.0))
        ->capture_default_str();
    rxmesh::bench::add_outcome_runs(cli, a);
    rxmesh::bench::add_json(cli, a.json);
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

//! The target length L at one size.
double target_length(const TriangleSoup& soup, const Args& a)
{
    return a.scale * rxmesh::reference::mean_edge_length(soup.positions, soup.faces);
}

//! Every method's outcome at one size.
std::vector<Outcome> remesh_outcomes(const TriangleSoup& soup, const Args& a)
{
    const double         L = target_length(soup, a);
    std::vector<Outcome> outcomes;
#ifdef RXMESH_HAVE_CGAL
    outcomes.push_back(run_cgal(soup, L, a.iterations, a.runs));
#endif
    if (soup.faces.size() <= a.reference_max_faces)
        outcomes.push_back(timed("reference (serial oracle)", 1, [&](TriangleSoup& out) {
            return wall_ms([&] { out = rxmesh::reference::isotropic_remesh(soup, {L, a.iterations}); });
        }));
    return outcomes;
}

//! One outcome's table row, printed; returns its JSON object.
std::string quality_row(int level, const TriangleSoup& soup, const Outcome& o, double diag,
                        const Args& a)
{
    const auto   q = rxmesh::reference::mesh_quality(o.output, target_length(soup, a));
    const double h = rxmesh::reference::hausdorff_fast(soup, o.output).symmetric() / diag;
    std::printf("| %d | %zu | %s | %.1f | %zu | %.3f | %.2f | %.3f | %.3e |\n", level,
                soup.faces.size(), o.method.c_str(), o.ms, o.output.faces.size(), q.share_in_band,
                q.min_angle_degrees, valence6_share(q), h);
    return "{\"level\":" + std::to_string(level) + ",\"faces\":" + std::to_string(soup.faces.size()) +
           ",\"method\":\"" + o.method + "\",\"ms\":" + std::to_string(o.ms) +
           ",\"faces_out\":" + std::to_string(o.output.faces.size()) +
           ",\"in_band\":" + std::to_string(q.share_in_band) +
           ",\"min_angle\":" + std::to_string(q.min_angle_degrees) +
           ",\"valence6\":" + std::to_string(valence6_share(q)) +
           ",\"hausdorff_rel\":" + std::to_string(h) + "}";
}

//! Measures every size, prints the tables, writes --json; the exit status.
int run(const Args& a)
{
    const rxmesh::bench::OutcomeReport report{
        rxmesh::app::formatted(
            "CPU isotropic remeshing, %d iterations, L = %g x the mean edge length", a.iterations,
            a.scale),
        "remeshing",
        "| level | faces | method | ms | faces out | in [4/5 L, 4/3 L] | min angle | valence 6 | "
        "Hausdorff |",
        "{\"iterations\":" + std::to_string(a.iterations) + ",\"rows\":["};
    return rxmesh::bench::outcome_baseline(a, report, remesh_outcomes, quality_row);
}

}  // namespace

int main(int argc, char** argv)
{
    return rxmesh::bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
