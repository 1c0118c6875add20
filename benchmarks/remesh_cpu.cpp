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
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#ifdef RXMESH_HAVE_CGAL
#include <CGAL/Polygon_mesh_processing/remesh.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/Surface_mesh.h>
#endif

#include "common/bench_cli.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/reference/isotropic_remesh.h"

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
    cli.add_option("--min-level", a.min_level, "the first level measured")
        ->check(CLI::Range(0, 10))
        ->capture_default_str();
    cli.add_option("--iterations", a.iterations, "remeshing iterations")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cli.add_option("--scale", a.scale, "target length L = scale x the input's mean edge length")
        ->check(CLI::Range(0.01, 100.0))
        ->capture_default_str();
    cli.add_option("--runs", a.runs, "timed runs per method and level (median)")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cli.add_option("--reference-max-faces", a.reference_max_faces,
                   "run the serial reference (quadratic time) up to this many faces")
        ->capture_default_str();
    rxmesh::bench::add_json(cli, a.json);
    return rxmesh::bench::parse(cli, argc, argv);
}

struct Outcome
{
    std::string  method;
    double       ms = -1;
    TriangleSoup output;
};

double wall_ms(const std::function<void()>& f)
{
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

template <typename Run>
Outcome timed(const std::string& method, int runs, Run&& remesh)
{
    Outcome             o;
    std::vector<double> times;
    o.method = method;
    for (int r = 0; r < runs; ++r) times.push_back(remesh(o.output));
    std::sort(times.begin(), times.end());
    o.ms = times[times.size() / 2];
    return o;
}

#ifdef RXMESH_HAVE_CGAL
Outcome run_cgal(const TriangleSoup& in, double target, int iterations, int runs)
{
    using K    = CGAL::Simple_cartesian<double>;
    using Mesh = CGAL::Surface_mesh<K::Point_3>;
    return timed("CGAL isotropic_remeshing", runs, [&](TriangleSoup& out) {
        Mesh                            m;
        std::vector<Mesh::Vertex_index> vh;
        for (const auto& p : in.positions) vh.push_back(m.add_vertex(K::Point_3(p[0], p[1], p[2])));
        for (const auto& t : in.faces) m.add_face(vh[t[0]], vh[t[1]], vh[t[2]]);
        const double ms = wall_ms([&] {
            CGAL::Polygon_mesh_processing::isotropic_remeshing(
                faces(m), target, m, CGAL::parameters::number_of_iterations(iterations));
        });
        m.collect_garbage();
        out = TriangleSoup{};
        for (const auto v : m.vertices()) {
            const auto& p = m.point(v);
            out.positions.push_back({float(p.x()), float(p.y()), float(p.z())});
        }
        for (const auto f : m.faces()) {
            rxmesh::Triangle t;
            int              k = 0;
            for (const auto v : m.vertices_around_face(m.halfedge(f))) t[k++] = std::uint32_t(v.idx());
            out.faces.push_back(t);
        }
        return ms;
    });
}
#endif

double diagonal(const TriangleSoup& s)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (const auto& p : s.positions)
        for (int d = 0; d < 3; ++d) lo[d] = std::min(lo[d], double(p[d])), hi[d] = std::max(hi[d], double(p[d]));
    return std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                     (hi[2] - lo[2]) * (hi[2] - lo[2]));
}

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
            const double L = a.scale * rxmesh::reference::mean_edge_length(soup);
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
            const double diag = diagonal(soup);
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
        if (!a.json.empty()) {
            std::FILE* f = std::fopen(a.json.c_str(), "w");
            if (!f) throw std::runtime_error("cannot write " + a.json);
            std::fputs((json + "]}\n").c_str(), f);
            std::fclose(f);
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_remesh_cpu: %s\n", e.what());
        return 1;
    }
}
