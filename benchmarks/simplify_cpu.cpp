// bench_simplify_cpu: the CPU baselines of quadric simplification (issue 30)
// with their quality, for the device machine's CPU in the same run as the
// GPU simplifier (carried there by bench_cpu_baselines_bundle):
//   meshoptimizer   meshopt_simplify, the full (not sloppy) simplifier, target
//                   error unlimited so that it aims at the face count;
//   OpenMesh 9      Decimater with ModQuadric, decimate_to_faces;
//   CGAL 5.5        Surface_mesh_simplification::edge_collapse with the
//                   Garland-Heckbert plane policies, stopped at 3/2 x the
//                   target face count in edges (closed meshes: E = 3F/2);
//   reference       reference::qem_simplify (serial oracle), small meshes only.
// Each takes the same soup (the input and its 1-to-4 refinements); its time
// is the wall clock of the simplification alone (the mesh built before,
// the output read after), median of --runs. Quality of every output:
// faces, the symmetric Hausdorff distance to the input (sampled,
// reference::hausdorff_fast) relative to the input's bounding-box diagonal,
// and the minimum angle.
//
// usage: bench_simplify_cpu --mesh FILE [--levels L] [--min-level M]
//          [--ratio 0.1] [--runs R] [--reference-max-faces N] [--json OUT]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#ifdef RXMESH_HAVE_MESHOPTIMIZER
#include <meshoptimizer.h>
#endif
#ifdef RXMESH_HAVE_OPENMESH
#include <OpenMesh/Tools/Decimater/DecimaterT.hh>
#include <OpenMesh/Tools/Decimater/ModQuadricT.hh>
#endif
#ifdef RXMESH_HAVE_CGAL
#include <CGAL/Simple_cartesian.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/Surface_mesh_simplification/Policies/Edge_collapse/Count_stop_predicate.h>
#include <CGAL/Surface_mesh_simplification/Policies/Edge_collapse/GarlandHeckbert_plane_policies.h>
#include <CGAL/Surface_mesh_simplification/edge_collapse.h>

#include "common/cgal_soup.h"
#endif

#include "common/cpu_baseline.h"
#include "common/openmesh_baseline.h"
#include "format.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/reference/isotropic_remesh.h"
#include "rxmesh/reference/qem_simplify.h"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_simplify_cpu",
    "quadric simplification on the CPU (meshoptimizer, OpenMesh, CGAL, the serial "
    "reference) with quality"};

using rxmesh::TriangleSoup;

struct Args : rxmesh::bench::OutcomeArgs
{
    double        ratio          = 0.1;
    std::uint64_t slow_max_faces = ~std::uint64_t(0);
    Args() : OutcomeArgs(3, 3, 20'000) {}
};

void add_options(CLI::App& cli, Args& a)
{
    rxmesh::bench::add_outcome_input(cli, a);
    cli.add_option("--ratio", a.ratio, "target faces / input faces")
        ->check(CLI::Range(0.001, 1.0))
        ->capture_default_str();
    rxmesh::bench::add_outcome_runs(cli, a);
    cli.add_option("--slow-max-faces", a.slow_max_faces,
                   "run OpenMesh and CGAL (minutes at millions of faces) up to this many faces; "
                   "meshoptimizer runs at every size");
    rxmesh::bench::add_json(cli, a.json);
}

using rxmesh::bench::Outcome;
using rxmesh::bench::timed;
using rxmesh::bench::wall_ms;

#ifdef RXMESH_HAVE_MESHOPTIMIZER
Outcome run_meshoptimizer(const TriangleSoup& in, std::uint32_t target, int runs)
{
    return timed("meshoptimizer", runs, [&](TriangleSoup& out) {
        std::vector<float>        positions;
        std::vector<unsigned int> indices, result(3 * in.faces.size());
        for (const auto& p : in.positions) positions.insert(positions.end(), p.begin(), p.end());
        for (const auto& t : in.faces) indices.insert(indices.end(), t.begin(), t.end());
        std::size_t n  = 0;
        const double ms = wall_ms([&] {
            n = meshopt_simplify(result.data(), indices.data(), indices.size(), positions.data(),
                                 in.positions.size(), 12, 3 * std::size_t(target), 1.0f, 0, nullptr);
        });
        out.positions = in.positions;  // it picks a subset of the vertices, unmoved
        out.faces.resize(n / 3);
        for (std::size_t i = 0; i < n / 3; ++i)
            out.faces[i] = {result[3 * i], result[3 * i + 1], result[3 * i + 2]};
        return ms;
    });
}
#endif

#ifdef RXMESH_HAVE_OPENMESH
Outcome run_openmesh(const TriangleSoup& in, std::uint32_t target, int runs)
{
    using Mesh = OpenMesh::TriMesh_ArrayKernelT<>;
    return timed("OpenMesh Decimater", runs, [&](TriangleSoup& out) {
        Mesh          m;
        std::uint64_t rejected = 0;
        rxmesh::bench::add_soup(m, in, rejected);
        m.request_vertex_status();
        m.request_edge_status();
        m.request_face_status();
        OpenMesh::Decimater::DecimaterT<Mesh>                 dec(m);
        OpenMesh::Decimater::ModQuadricT<Mesh>::Handle        quadric;
        dec.add(quadric);
        dec.module(quadric).unset_max_err();
        dec.initialize();
        const double ms = wall_ms([&] { dec.decimate_to_faces(0, target); });
        m.garbage_collection();
        out = rxmesh::bench::soup_of(m);
        return ms;
    });
}
#endif

#ifdef RXMESH_HAVE_CGAL
Outcome run_cgal(const TriangleSoup& in, std::uint32_t target, int runs)
{
    using K    = CGAL::Simple_cartesian<double>;
    using Mesh = CGAL::Surface_mesh<K::Point_3>;
    namespace SMS = CGAL::Surface_mesh_simplification;
    return timed("CGAL edge_collapse (GH)", runs, [&](TriangleSoup& out) {
        Mesh m = rxmesh::bench::surface_mesh_of<Mesh>(in);
        SMS::GarlandHeckbert_plane_policies<Mesh, K> policies(m);
        SMS::Count_stop_predicate<Mesh>              stop(3 * std::size_t(target) / 2);
        const double ms = wall_ms([&] {
            SMS::edge_collapse(m, stop, CGAL::parameters::get_cost(policies.get_cost())
                                            .get_placement(policies.get_placement()));
        });
        out = rxmesh::bench::soup_of_surface_mesh(m);
        return ms;
    });
}
#endif

Outcome run_reference(const TriangleSoup& in, std::uint32_t target)
{
    return timed("reference (serial oracle)", 1, [&](TriangleSoup& out) {
        return wall_ms([&] { out = rxmesh::reference::qem_simplify(in, {target, 1000}); });
    });
}

//! Every method's outcome at one size.
std::vector<Outcome> simplify_outcomes(const TriangleSoup& soup, const Args& a)
{
    const auto target = std::uint32_t(std::lround(a.ratio * double(soup.faces.size())));
    std::vector<Outcome> outcomes;
#ifdef RXMESH_HAVE_MESHOPTIMIZER
    outcomes.push_back(run_meshoptimizer(soup, target, a.runs));
#endif
    const bool slow_ones = soup.faces.size() <= a.slow_max_faces;
#ifdef RXMESH_HAVE_OPENMESH
    if (slow_ones) outcomes.push_back(run_openmesh(soup, target, a.runs));
#endif
#ifdef RXMESH_HAVE_CGAL
    if (slow_ones) outcomes.push_back(run_cgal(soup, target, a.runs));
#endif
    (void)slow_ones;
    if (soup.faces.size() <= a.reference_max_faces) outcomes.push_back(run_reference(soup, target));
    return outcomes;
}

//! One outcome's table row, printed; returns its JSON object.
std::string quality_row(int level, const TriangleSoup& soup, const Outcome& o, double diag,
                        const Args&)
{
    const double h     = o.output.faces.empty()
                             ? INFINITY
                             : rxmesh::reference::hausdorff_fast(soup, o.output).symmetric() / diag;
    const auto   q     = rxmesh::reference::mesh_quality(o.output, 1.0);
    const double angle = q.min_angle_degrees;
    std::printf("| %d | %zu | %s | %.2f | %zu | %.3e | %.2f | %.4f |\n", level, soup.faces.size(),
                o.method.c_str(), o.ms, o.output.faces.size(), h, angle, q.share_below_5_degrees);
    return "{\"level\":" + std::to_string(level) + ",\"faces\":" + std::to_string(soup.faces.size()) +
           ",\"method\":\"" + o.method + "\",\"ms\":" + std::to_string(o.ms) +
           ",\"faces_out\":" + std::to_string(o.output.faces.size()) +
           ",\"hausdorff_rel\":" + std::to_string(h) + ",\"min_angle\":" + std::to_string(angle) +
           ",\"share_below_5_degrees\":" + std::to_string(q.share_below_5_degrees) + "}";
}

//! Measures every size, prints the tables, writes --json; the exit status.
int run(const Args& a)
{
    return rxmesh::bench::outcome_baseline(
        a,
        {rxmesh::app::formatted("CPU quadric simplification to %.3g of the faces", a.ratio),
         "simplification",
         "| level | faces | method | ms | faces out | Hausdorff | min angle | faces below 5 degrees |",
         "{\"ratio\":" + std::to_string(a.ratio) + ",\"rows\":["},
        simplify_outcomes, quality_row);
}

}  // namespace

int main(int argc, char** argv)
{
    return rxmesh::bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
