// bench_delaunay_openmesh: the serial CPU baseline of Delaunay edge flips on
// OpenMesh 9 (the library a user of the field would pick), in the rule of
// algo/delaunay.cuh, for the device machine's CPU in the same run as
// bench_delaunay (carried there by the bench_cpu_baselines_bundle target).
//
// Lawson's algorithm as an OpenMesh user writes it: every interior edge on a
// stack; pop one; when cot(alpha) + cot(beta) < -tolerance (float, with
// geometry/operators.h's cotangent(), the GPU's expression) and the flip is
// allowed, TriMesh::flip it and push the four outer edges not on the stack.
// Allowed: the engine's refusals (reference::EditableMesh::flip): the edge
// (c, d) must not exist (find_halfedge), and the new faces (c, a, d),
// (d, b, c) must be non-degenerate and turned with the old faces' summed
// normal (double). OpenMesh itself refuses complex vertices and edges when
// the mesh is built: those faces are counted and the output is not checked.
//
// Timing: the mesh built outside the clock; median of --runs of the flips,
// each on a fresh copy. Verification at every size: the output through
// reference::check_delaunay_flips (valid, the input's vertices unchanged,
// every interior edge Delaunay or its flip refused).
//
// usage: bench_delaunay_openmesh --mesh FILE [--levels L] [--min-level M]
//          [--runs R] [--tolerance T] [--json OUT]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/openmesh_baseline.h"
#include "rxmesh/geometry/operators.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/delaunay_check.h"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_delaunay_openmesh",
    "Lawson's Delaunay flips on OpenMesh, serial"};

struct Args
{
    std::string file, json;
    int         levels = 3, min_level = 0, runs = 3;
    float       tolerance = 1e-5f;
};

void add_options(CLI::App& cli, Args& a)
{
    rxmesh::bench::add_required_mesh_levels(cli, a.file, a.levels, a.min_level);
    rxmesh::bench::add_runs(cli, a.runs);
    cli.add_option("--tolerance", a.tolerance, "flip when cot(alpha) + cot(beta) < -tolerance")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    rxmesh::bench::add_json(cli, a.json);
}

}  // namespace

#ifdef RXMESH_HAVE_OPENMESH
namespace {

using Mesh = OpenMesh::TriMesh_ArrayKernelT<>;  // float points
using D3   = std::array<double, 3>;

rxmesh::Vec3 vec(const Mesh& m, Mesh::VertexHandle v)
{
    const auto& p = m.point(v);
    return {p[0], p[1], p[2]};
}

D3 normal(const Mesh& m, Mesh::VertexHandle p, Mesh::VertexHandle q, Mesh::VertexHandle r)
{
    const auto &a = m.point(p), &b = m.point(q), &c = m.point(r);
    const D3 u = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
    const D3 w = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
    return {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
}

double dot(const D3& a, const D3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

struct Quad
{
    Mesh::VertexHandle a, b, c, d;
};

//! h walks a -> b in its face (a, b, c); its opposite's face is (b, a, d).
Quad quad_of(const Mesh& m, Mesh::HalfedgeHandle h)
{
    const auto o = m.opposite_halfedge_handle(h);
    return {m.from_vertex_handle(h), m.to_vertex_handle(h),
            m.to_vertex_handle(m.next_halfedge_handle(h)),
            m.to_vertex_handle(m.next_halfedge_handle(o))};
}

bool flip_wanted(const Mesh& m, const Quad& q, float tolerance)
{
    const rxmesh::Vec3 a = vec(m, q.a), b = vec(m, q.b), c = vec(m, q.c), d = vec(m, q.d);
    return rxmesh::cotangent(c, a, b) + rxmesh::cotangent(d, a, b) < -tolerance;
}

bool flip_allowed(const Mesh& m, const Quad& q)
{
    if (q.c == q.d || m.find_halfedge(q.c, q.d).is_valid()) return false;
    const D3 n0 = normal(m, q.a, q.b, q.c), n1 = normal(m, q.b, q.a, q.d);
    const D3 sum = {n0[0] + n1[0], n0[1] + n1[1], n0[2] + n1[2]};
    for (const D3& n : {normal(m, q.c, q.a, q.d), normal(m, q.d, q.b, q.c)})
        if (!(dot(n, n) > 0) || !(dot(n, sum) > 0)) return false;
    return true;
}

struct Result
{
    std::uint64_t flips = 0;
    double        ms    = 0;
};

//! Lawson's stack; every flip lowers a bounded energy in the planar case,
//! and the flip count is capped so that a surface where flips cycle ends.
Result lawson(Mesh& m, float tolerance)
{
    std::vector<Mesh::EdgeHandle> stack;
    std::vector<char>             queued(m.n_edges(), 0);
    for (const auto e : m.edges())
        if (!m.is_boundary(e)) stack.push_back(e), queued[e.idx()] = 1;
    Result              r;
    const std::uint64_t cap = 100 * std::uint64_t(m.n_edges()) + 1000;
    r.ms = rxmesh::bench::wall_ms([&] {
        while (!stack.empty() && r.flips < cap) {
            const auto e = stack.back();
            stack.pop_back();
            queued[e.idx()] = 0;
            const auto h    = m.halfedge_handle(e, 0);
            const Quad q    = quad_of(m, h);
            if (!flip_wanted(m, q, tolerance) || !flip_allowed(m, q)) continue;
            const auto outer = {m.next_halfedge_handle(h),
                                m.prev_halfedge_handle(h),
                                m.next_halfedge_handle(m.opposite_halfedge_handle(h)),
                                m.prev_halfedge_handle(m.opposite_halfedge_handle(h))};
            m.flip(e);
            ++r.flips;
            for (const auto o : outer) {
                const auto oe = m.edge_handle(o);
                if (!m.is_boundary(oe) && !queued[oe.idx()]) stack.push_back(oe), queued[oe.idx()] = 1;
            }
        }
    });
    return r;
}

//! One size's outcome: its table row is printed, its JSON object kept.
struct LevelRow
{
    bool        verified = false;
    std::string json;
};

LevelRow measure(const rxmesh::TriangleSoup& soup, const Args& a, int level)
{
    std::vector<double> times;
    Result              last;
    Mesh                kept;
    std::uint64_t       rejected = 0;
    for (int run = 0; run < a.runs; ++run) {
        Mesh m;
        rxmesh::bench::add_soup(m, soup, rejected);
        last = lawson(m, a.tolerance);
        times.push_back(last.ms);
        if (run + 1 == a.runs) kept = m;
    }
    const auto check = rejected ? rxmesh::reference::DelaunayCheck{}
                                : rxmesh::reference::check_delaunay_flips(
                                      soup, rxmesh::bench::soup_of(kept),
                                      rxmesh::reference::delaunay_check_bound(a.tolerance));
    LevelRow     row;
    row.verified    = rejected == 0 && check.ok();
    const double ms = rxmesh::bench::upper_median(times);
    std::printf("| %d | %zu | %llu | %.3f | %llu | %s |\n", level, soup.faces.size(),
                (unsigned long long)rejected, ms, (unsigned long long)last.flips,
                row.verified ? "yes" : (rejected ? "not checked (faces rejected)" : "**NO**"));
    if (!check.ok()) std::printf("  %s\n", check.first.c_str());
    row.json = "{\"level\":" + std::to_string(level) + ",\"faces\":" +
               std::to_string(soup.faces.size()) + ",\"ms\":" + std::to_string(ms) +
               ",\"flips\":" + std::to_string(last.flips) +
               ",\"verified\":" + (row.verified ? "true" : "false") + "}";
    return row;
}

//! Every size's row, then --json; the exit status (1 when a size is not verified).
int run(const Args& a)
{
    rxmesh::TriangleSoup soup = rxmesh::io::read(a.file);
    std::printf("OpenMesh 9 TriMesh, Lawson's flips, serial; tolerance %g; median of %d runs\n\n"
                "| level | faces | rejected faces | ms | flips | verified |\n|---|---|---|---|---|---|\n",
                a.tolerance, a.runs);
    const auto rows = rxmesh::bench::rows_of_levels<LevelRow>(std::move(soup), a, measure);
    const bool all = rxmesh::bench::write_rows_json(
        a.json, "{\"tolerance\":" + std::to_string(a.tolerance) + ",\"rows\":[", rows,
        [](const LevelRow& r) { return r.json; }, [](const LevelRow& r) { return r.verified; });
    return all ? 0 : 1;
}

}  // namespace
#endif

int main(int argc, char** argv)
{
    return rxmesh::bench::openmesh_main<Args>(argc, argv, kAbout, add_options,
                                              [](auto& a) { return run(a); });
}
