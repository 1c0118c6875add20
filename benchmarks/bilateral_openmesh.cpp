// CPU baseline of bilateral mesh denoising (Fleishman, Drori, Cohen-Or 2003)
// on an OpenMesh 9 TriMesh, serial and with OpenMP threads, in the float
// arithmetic of the GPU's algo/bilateral.cuh, so that its --dump is what the
// GPU result is compared with. The per-vertex formulas are the GPU's own
// functions (rxmesh/algo/detail/bilateral_terms.h: normal_term, normalize,
// squared_distance, in_ball, ball_offset), host-compiled here; the double
// oracle is rxmesh/reference/bilateral.h. One Jacobi iteration, per vertex i
// with p = positions before the iteration:
//
//   n = sum over the faces of i of normal_term(pi, q, r) = cross(q - pi,
//       r - pi), corners (i, q, r) in winding order starting at i; keep pi
//       when normalize(n) fails (dot(n, n) not > 0), else n *= 1 / sqrtf(.)
//   sc2 = min over the one-ring of squared_distance(pj, pi);
//       keep pi when there is no neighbour or sc2 == 0
//   ball: breadth-first search from i over vertex-vertex, entering v iff
//       in_ball: squared_distance(pv, pi) <= 4 * sc2; i is in the ball
//   ball_offset: pass 1 sums h * h and fabsf(h), h = dot(pj - pi, n);
//       sigma_s = fmaxf(1e-12f, sqrtf(fmaxf(0.f, mean(h^2) - mean(|h|)^2)));
//       pass 2 sums w h and w, w = expf(-t2 * (0.5f / sc2)) *
//       expf(-h * h * (0.5f / sigma_s^2)), t2 = dot(pj - pi, pj - pi)
//   p' = pi + n * (sum w h / sum w), per component
// Sums run in circulator / breadth-first order, so a GPU that sums in
// another order agrees to rounding, not bit for bit. Built without FMA
// contraction (CMakeLists.txt) so that every product above is rounded.
// Ties: on meshes refined 1-to-4, collinear midpoints put many ball
// candidates at exactly 2 sigma_c (on the armadillo refined twice, 20% of
// the vertices have one within 1e-6 of it), so membership is decided by
// rounding there; float and double balls then differ for a few vertices,
// and so will a GPU's that contracts squared distances into FMAs. Compare
// with a tolerance, or compute those products without contraction.
//
// The queries are OpenMesh's circulators: vertex-face (then face-vertex for
// the corners) for the normal, vertex-vertex for the one-ring and the ball.
// Each thread reuses one vector as the ball: the breadth-first queue and its
// visited set at once (membership by a linear scan; a ball holds a few dozen
// vertices, and no V-sized marker array per thread is needed). Positions are
// read from the mesh's points and written to a vertex property, copied back
// after the sweep (the copy is timed with the iteration).
//
// Timing: per mode (1 thread, T threads; one code path, omp_set_num_threads)
// one warm-up run, then --runs runs of --iters iterations each from the
// input positions (reset untimed); ms per iteration = median run / iters.
// The two modes must agree bit for bit (each vertex is computed the same
// way on any thread); exit 3 otherwise. One iteration from the input is
// compared with the double reference (faces <= --check-max-faces) and
// written by --dump: float32, 3 per vertex, in the vertex order of the
// (refined) input, no welding.
//
// usage: bench_bilateral_openmesh --mesh FILE [--refine K] [--iters K]
//          [--runs R] [--threads T] [--check-max-faces F] [--json OUT]
//          [--dump OUT]
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "common/openmesh_baseline.h"
#include "rxmesh/algo/detail/bilateral_terms.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/bilateral.h"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_bilateral_openmesh",
    "bilateral denoising iterations on OpenMesh, serial and threaded"};

struct Args
{
    std::string   file, json, dump;
    int           refine = 0, iters = 1, runs = 3, threads = 0;
    std::uint64_t check_max_faces = 1'000'000;
};

void add_options(CLI::App& cli, Args& a)
{
    rxmesh::bench::add_mesh(cli, a.file, "required")->required();
    rxmesh::bench::add_refine(cli, a.refine);
    cli.add_option("--iters", a.iters, "Jacobi iterations")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    rxmesh::bench::add_runs(cli, a.runs);
    rxmesh::bench::add_threads(cli, a.threads);
    cli.add_option("--check-max-faces", a.check_max_faces,
                   "check against the serial reference up to this many faces")
        ->capture_default_str();
    rxmesh::bench::add_json(cli, a.json);
    cli.add_option("--dump", a.dump, "write the result after one iteration (float32, input order)");
}

}  // namespace

#ifdef RXMESH_HAVE_OPENMESH
namespace {

using Mesh  = OpenMesh::TriMesh_ArrayKernelT<>;  // float points
using Point = Mesh::Point;
using VH    = OpenMesh::VertexHandle;

namespace terms = rxmesh::bilateral;

//! The normal sum of v: normal_term over its faces, corners from v in
//! winding order (vertex-face, then face-vertex circulators).
void normal_sum(const Mesh& m, VH v, float n[3])
{
    n[0] = n[1] = n[2] = 0.f;
    for (auto f = m.cvf_iter(v); f.is_valid(); ++f) {
        VH  c[3];
        int k = 0, at = 0;
        for (auto fv = m.cfv_iter(*f); fv.is_valid() && k < 3; ++fv, ++k) {
            c[k] = *fv;
            if (*fv == v)
                at = k;
        }
        float term[3];
        terms::normal_term(m.point(v).data(), m.point(c[(at + 1) % 3]).data(),
                           m.point(c[(at + 2) % 3]).data(), term);
        for (int d = 0; d < 3; ++d)
            n[d] += term[d];
    }
}

//! The ball of v (breadth-first, see the top of the file) into `ball`.
void gather_ball(const Mesh& m, VH v, float sc2, std::vector<VH>& ball)
{
    const float* p = m.point(v).data();
    ball.clear();
    ball.push_back(v);
    for (std::size_t head = 0; head < ball.size(); ++head)
        for (auto u = m.cvv_iter(ball[head]); u.is_valid(); ++u)
            if (terms::in_ball(p, m.point(*u).data(), sc2) &&
                std::find(ball.begin(), ball.end(), *u) == ball.end())
                ball.push_back(*u);
}

//! The new position of v (the float math at the top of the file); `size`
//! gets the ball's size, 0 where v keeps its position.
Point bilateral_vertex(const Mesh& m, VH v, std::vector<VH>& ball, int& size)
{
    const Point& p = m.point(v);
    size           = 0;
    float n[3];
    normal_sum(m, v, n);
    if (!terms::normalize(n))
        return p;
    float sc2 = std::numeric_limits<float>::infinity();
    bool  any = false;
    for (auto u = m.cvv_iter(v); u.is_valid(); ++u) {
        sc2 = std::min(sc2, terms::squared_distance(m.point(*u).data(), p.data()));
        any = true;
    }
    if (!any || sc2 == 0.f)
        return p;
    gather_ball(m, v, sc2, ball);
    size               = int(ball.size());
    const float offset = terms::ball_offset(p.data(), n, sc2, [&](const auto& g) {
        for (const VH j : ball)
            g(m.point(j).data());
    });
    return Point(p[0] + n[0] * offset, p[1] + n[1] * offset, p[2] + n[2] * offset);
}

struct BilateralMesh
{
    Mesh                          m;
    OpenMesh::VPropHandleT<Point> next;  // the iteration's output
    std::vector<rxmesh::Triangle> kept;  // faces OpenMesh accepted
    std::uint64_t                 rejected = 0;
};

//! One Jacobi iteration on the current OpenMP thread count; returns the sum
//! of the ball sizes.
std::uint64_t iteration(BilateralMesh& bm)
{
    Mesh&              m     = bm.m;
    const std::int64_t nv    = std::int64_t(m.n_vertices());
    std::uint64_t      balls = 0;
#pragma omp parallel reduction(+ : balls)
    {
        std::vector<VH> ball;  // this thread's scratch
        ball.reserve(64);
#pragma omp for schedule(static)
        for (std::int64_t i = 0; i < nv; ++i) {
            int      size          = 0;
            const VH v             = VH(int(i));
            m.property(bm.next, v) = bilateral_vertex(m, v, ball, size);
            balls += std::uint64_t(size);
        }
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < nv; ++i)
        m.set_point(VH(int(i)), m.property(bm.next, VH(int(i))));
    return balls;
}

void build_mesh(const rxmesh::TriangleSoup& soup, BilateralMesh& bm)
{
    bm.kept = rxmesh::bench::add_soup(bm.m, soup, bm.rejected);
    bm.m.add_property(bm.next);
}

void reset(BilateralMesh& bm, const std::vector<rxmesh::Vec3f>& p)
{
    for (std::size_t i = 0; i < p.size(); ++i)
        bm.m.set_point(VH(int(i)), Point(p[i][0], p[i][1], p[i][2]));
}

std::vector<float> points(const Mesh& m)
{
    std::vector<float> out;
    out.reserve(3 * m.n_vertices());
    for (const auto v : m.vertices())
        out.insert(out.end(), {m.point(v)[0], m.point(v)[1], m.point(v)[2]});
    return out;
}

using rxmesh::bench::set_threads;

struct Mode
{
    double             ms_per_iteration = 0;
    std::vector<float> result;  // positions after the last run
};

//! One warm-up run, then a.runs timed runs of a.iters iterations from p.
Mode run_mode(BilateralMesh& bm, const std::vector<rxmesh::Vec3f>& p, const Args& a, int threads)
{
    set_threads(threads);
    std::vector<double> ms;
    for (int r = 0; r <= a.runs; ++r) {
        reset(bm, p);
        const double t = rxmesh::bench::wall_ms([&] {
            for (int k = 0; k < a.iters; ++k)
                (void)iteration(bm);
        });
        if (r > 0)  // run 0 warms up
            ms.push_back(t);
    }
    return {rxmesh::bench::upper_median(ms) / a.iters, points(bm.m)};
}

//! One iteration from the input against the double reference.
struct Check
{
    bool          run       = false;
    double        max_rel   = 0;  // max |float - double| / mean edge length
    std::uint64_t over      = 0;  // vertices with that above 1e-4
    double        mean_ball = 0;
    double        mean_edge = 0;
};

double mean_edge_length(const Mesh& m)
{
    double sum = 0;
    for (const auto e : m.edges())
        sum += m.calc_edge_length(e);
    return m.n_edges() ? sum / double(m.n_edges()) : 0.0;
}

//! One iteration from p (ball statistics, the dump), compared with the
//! reference when the mesh is small enough.
Check one_iteration(BilateralMesh& bm, const std::vector<rxmesh::Vec3f>& p, const Args& a,
                    std::vector<float>& out)
{
    Check c;
    reset(bm, p);
    c.mean_edge               = mean_edge_length(bm.m);
    const std::uint64_t balls = iteration(bm);
    c.mean_ball               = p.empty() ? 0 : double(balls) / double(p.size());
    out                       = points(bm.m);
    if (bm.m.n_faces() > a.check_max_faces)
        return c;
    c.run = true;
    std::vector<std::array<double, 3>> pd(p.size());
    for (std::size_t i = 0; i < p.size(); ++i)
        pd[i] = {double(p[i][0]), double(p[i][1]), double(p[i][2])};
    const auto ref = rxmesh::reference::bilateral_iteration(pd, bm.kept);
    for (std::size_t i = 0; i < p.size(); ++i) {
        double d2 = 0;
        for (int k = 0; k < 3; ++k)
            d2 += (out[3 * i + k] - ref[i][k]) * (out[3 * i + k] - ref[i][k]);
        const double rel = c.mean_edge > 0 ? std::sqrt(d2) / c.mean_edge : std::sqrt(d2);
        c.max_rel        = std::max(c.max_rel, rel);
        c.over += rel > 1e-4;
    }
    return c;
}

bool write_floats(const std::string& path, const std::vector<float>& v)
{
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    const bool ok = std::fwrite(v.data(), sizeof(float), v.size(), f) == v.size();
    return std::fclose(f) == 0 && ok;
}

using rxmesh::bench::json_string;

struct Report
{
    std::uint64_t faces = 0, vertices = 0, rejected = 0;
    Mode          serial, par;
    bool          identical = false;
    Check         check;
};

bool write_json(const Report& r, const Args& a)
{
    std::FILE* f = std::fopen(a.json.c_str(), "wb");
    if (!f)
        return false;
    char check[160] = "null";
    if (r.check.run)
        std::snprintf(check, sizeof check,
                      "{\"max_deviation_over_mean_edge\": %.3g, \"vertices_over_1e-4\": %llu}",
                      r.check.max_rel, (unsigned long long)r.check.over);
    std::fprintf(f,
                 "{\"library\": \"OpenMesh 9 TriMesh_ArrayKernelT\", \"method\": \"bilateral "
                 "denoising, float, Jacobi\", \"mesh\": %s, \"refine\": %d, \"faces\": %llu, "
                 "\"vertices\": %llu, \"rejected_faces\": %llu, \"iters\": %d, \"runs\": %d, "
                 "\"threads\": %d, \"serial_ms_per_iteration\": %.4f, "
                 "\"parallel_ms_per_iteration\": %.4f, \"serial_equals_parallel\": %s, "
                 "\"mean_ball_size\": %.3f, \"reference_check\": %s}\n",
                 json_string(a.file).c_str(), a.refine, (unsigned long long)r.faces,
                 (unsigned long long)r.vertices, (unsigned long long)r.rejected, a.iters, a.runs,
                 a.threads, r.serial.ms_per_iteration, r.par.ms_per_iteration,
                 r.identical ? "true" : "false", r.check.mean_ball, check);
    return std::fclose(f) == 0;
}

void print_report(const Report& r, const Args& a)
{
    std::printf(
        "\n| faces | vertices | ms per iteration, 1 thread | ms per iteration, %d threads "
        "| speedup | serial == threaded |\n|---|---|---|---|---|---|\n",
        a.threads);
    std::printf("| %llu | %llu | %.2f | %.2f | %.2fx | %s |\n", (unsigned long long)r.faces,
                (unsigned long long)r.vertices, r.serial.ms_per_iteration, r.par.ms_per_iteration,
                r.serial.ms_per_iteration / r.par.ms_per_iteration, r.identical ? "yes" : "NO");
    std::printf("\nmean ball size %.2f vertices (kept vertices count 0); ", r.check.mean_ball);
    if (r.check.run)
        std::printf(
            "one iteration vs the double reference: max deviation %.3g x mean edge length "
            "(%.4g), %llu vertices above 1e-4 x\n",
            r.check.max_rel, r.check.mean_edge, (unsigned long long)r.check.over);
    else
        std::printf("reference check not run (faces > %llu)\n",
                    (unsigned long long)a.check_max_faces);
}

//! Reads, refines, measures, checks, reports; the process's exit code.
int run(Args& a)
{
    rxmesh::bench::resolve_threads(a.threads, "column runs");
    rxmesh::TriangleSoup soup = rxmesh::io::read(a.file);
    for (int k = 0; k < a.refine; ++k)
        soup = rxmesh::generate::refine(soup);
    BilateralMesh bm;
    build_mesh(soup, bm);
    Report r;
    r.faces    = bm.m.n_faces();
    r.vertices = bm.m.n_vertices();
    r.rejected = bm.rejected;
    std::printf(
        "OpenMesh 9 TriMesh, bilateral denoising in float (Jacobi); mesh %s refined 1-to-4 "
        "%d times, no welding: %llu faces (%llu rejected by OpenMesh: complex edge or "
        "vertex), %llu vertices; %d iterations per run, median of %d runs after 1 warm-up; "
        "%d threads (hardware %u)\n",
        a.file.c_str(), a.refine, (unsigned long long)r.faces, (unsigned long long)r.rejected,
        (unsigned long long)r.vertices, a.iters, a.runs, a.threads,
        std::thread::hardware_concurrency());
    std::fflush(stdout);
    r.serial    = run_mode(bm, soup.positions, a, 1);
    r.par       = run_mode(bm, soup.positions, a, a.threads);
    r.identical = r.serial.result == r.par.result;
    std::vector<float> once;
    r.check = one_iteration(bm, soup.positions, a, once);
    print_report(r, a);
    if (!a.dump.empty() && !write_floats(a.dump, once)) {
        std::fprintf(stderr, "bench_bilateral_openmesh: cannot write %s\n", a.dump.c_str());
        return 1;
    }
    if (!a.json.empty() && !write_json(r, a)) {
        std::fprintf(stderr, "bench_bilateral_openmesh: cannot write %s\n", a.json.c_str());
        return 1;
    }
    return r.identical ? 0 : 3;
}

}  // namespace
#endif  // RXMESH_HAVE_OPENMESH

int main(int argc, char** argv)
{
    return rxmesh::bench::openmesh_main<Args>(argc, argv, kAbout, add_options,
                                              [](auto& a) { return run(a); });
}
