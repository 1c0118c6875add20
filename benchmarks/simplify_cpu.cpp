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
#include <OpenMesh/Core/Mesh/TriMesh_ArrayKernelT.hh>
#include <OpenMesh/Tools/Decimater/DecimaterT.hh>
#include <OpenMesh/Tools/Decimater/ModQuadricT.hh>

#include "common/openmesh_soup.h"
#endif
#ifdef RXMESH_HAVE_CGAL
#include <CGAL/Simple_cartesian.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/Surface_mesh_simplification/Policies/Edge_collapse/Count_stop_predicate.h>
#include <CGAL/Surface_mesh_simplification/Policies/Edge_collapse/GarlandHeckbert_plane_policies.h>
#include <CGAL/Surface_mesh_simplification/edge_collapse.h>

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
#include "rxmesh/reference/qem_simplify.h"

namespace {

using rxmesh::TriangleSoup;

struct Args
{
    std::string   file, json;
    int           levels = 3, min_level = 0, runs = 3;
    double        ratio               = 0.1;
    std::uint64_t reference_max_faces = 20'000;
    std::uint64_t slow_max_faces      = ~std::uint64_t(0);
};

int parse(int argc, char** argv, Args& a)
{
    CLI::App cli{"bench_simplify_cpu: quadric simplification on the CPU (meshoptimizer, "
                 "OpenMesh, CGAL, the serial reference) with quality",
                 "bench_simplify_cpu"};
    rxmesh::bench::add_mesh(cli, a.file, "required")->required();
    rxmesh::bench::add_levels(cli, a.levels);
    rxmesh::bench::add_min_level(cli, a.min_level);
    cli.add_option("--ratio", a.ratio, "target faces / input faces")
        ->check(CLI::Range(0.001, 1.0))
        ->capture_default_str();
    rxmesh::bench::add_runs(cli, a.runs);
    cli.add_option("--reference-max-faces", a.reference_max_faces,
                   "run the serial reference (quadratic time) up to this many faces")
        ->capture_default_str();
    cli.add_option("--slow-max-faces", a.slow_max_faces,
                   "run OpenMesh and CGAL (minutes at millions of faces) up to this many faces; "
                   "meshoptimizer runs at every size");
    rxmesh::bench::add_json(cli, a.json);
    return rxmesh::bench::parse(cli, argc, argv);
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

}  // namespace

int main(int argc, char** argv)
{
    Args a;
    if (const int rc = parse(argc, argv, a); rc >= 0) return rc;
    try {
        TriangleSoup soup = rxmesh::io::read(a.file);
        std::printf("CPU quadric simplification to %.3g of the faces; wall time of the "
                    "simplification alone, median of %d runs; Hausdorff: symmetric, sampled, / "
                    "bounding-box diagonal\n\n| level | faces | method | ms | faces out | "
                    "Hausdorff | min angle | faces below 5 degrees |\n|---|---|---|---|---|---|---|---|\n",
                    a.ratio, a.runs);
        std::string json = "{\"ratio\":" + std::to_string(a.ratio) + ",\"rows\":[";
        bool        first = true;
        for (int level = 0; level <= a.levels; ++level) {
            if (level > 0) soup = rxmesh::generate::refine(soup);
            if (level < a.min_level) continue;
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
            if (soup.faces.size() <= a.reference_max_faces) outcomes.push_back(run_reference(soup, target));
            const double diag = rxmesh::bounding_box_diagonal(soup.positions);
            for (const Outcome& o : outcomes) {
                const double h = o.output.faces.empty()
                                     ? INFINITY
                                     : rxmesh::reference::hausdorff_fast(soup, o.output).symmetric() / diag;
                const auto   q     = rxmesh::reference::mesh_quality(o.output, 1.0);
                const double angle = q.min_angle_degrees;
                std::printf("| %d | %zu | %s | %.2f | %zu | %.3e | %.2f | %.4f |\n", level,
                            soup.faces.size(), o.method.c_str(), o.ms, o.output.faces.size(), h,
                            angle, q.share_below_5_degrees);
                json += std::string(first ? "" : ",") + "{\"level\":" + std::to_string(level) +
                        ",\"faces\":" + std::to_string(soup.faces.size()) + ",\"method\":\"" +
                        o.method + "\",\"ms\":" + std::to_string(o.ms) + ",\"faces_out\":" +
                        std::to_string(o.output.faces.size()) + ",\"hausdorff_rel\":" +
                        std::to_string(h) + ",\"min_angle\":" + std::to_string(angle) +
                        ",\"share_below_5_degrees\":" + std::to_string(q.share_below_5_degrees) + "}";
                first = false;
            }
        }
        if (!a.json.empty()) rxmesh::bench::write_text_file(a.json, json + "]}\n");
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_simplify_cpu: %s\n", e.what());
        return 1;
    }
}
