// CPU baseline of one implicit mean-curvature-flow step (benchmarks/mcf.cu
// is the GPU side): (2 diag(a) + dt L) X = 2 diag(a) X0 solved by
// un-preconditioned matrix-free CG on an OpenMesh 9 TriMesh, serial and
// with OpenMP threads. The mathematics is the GPU's, in float as there
// (rxmesh/algo/detail/mcf_terms.cuh, top comment); CG is Shewchuk's B2 as in
// rxmesh/solver/cg.cuh: x0 = X0, r0 = -dt L X0 formed as sum w (x_i - x_j),
// vectors in float, dot products in double.
//
// Per refinement level (the input refined 1-to-4, levels 0..L) and per mode
// (1 thread, T threads; one code path, omp_set_num_threads):
//   terms      cotangent weights into an edge property and mixed areas into
//              a vertex property (median of 3);
//   iteration  a fixed K iterations with tolerance 0, divided by K (median
//              of 3; r0 is formed before the clock starts);
//   solution   r0 and CG to --tol, one run, verified against the double
//              reference system (reference::mcf_residual). The terms are
//              not included: add the terms column for the whole step.
// The product circulates each vertex's outgoing halfedges (cvoh_iter),
// reading the weight from the edge property and the area from the vertex
// property, as an OpenMesh user would write it.
//
// usage: bench_mcf_openmesh --mesh FILE [--levels L] [--threads T]
//          [--fixed-iterations K] [--solve-max-faces F] [--tol 1e-5]
//          [--dt-scale 10] [--json OUT]
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "common/openmesh_baseline.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/mcf.h"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_mcf_openmesh",
    "one implicit MCF step by matrix-free CG on OpenMesh, serial and threaded"};

struct Args
{
    std::string   file, json;
    int           levels = 4, threads = 0, fixed_iterations = 5;
    int           min_level = 0;  // every level is measured (no option)
    std::uint64_t solve_max_faces = 1'000'000;
    double        tol = 1e-5, dt_scale = 10;
};

void add_options(CLI::App& cli, Args& a)
{
    rxmesh::bench::add_mesh(cli, a.file, "required")->required();
    rxmesh::bench::add_levels(cli, a.levels);
    rxmesh::bench::add_threads(cli, a.threads);
    cli.add_option("--fixed-iterations", a.fixed_iterations,
                   "CG iterations of the per-iteration time")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cli.add_option("--solve-max-faces", a.solve_max_faces, "solve to --tol up to this many faces")
        ->capture_default_str();
    rxmesh::bench::add_mcf_step(cli, a.tol, a.dt_scale);
    rxmesh::bench::add_json(cli, a.json);
}

}  // namespace

#ifdef RXMESH_HAVE_OPENMESH
namespace {

using rxmesh::bench::upper_median;
using rxmesh::bench::wall_ms;

//! One mode's measurements; ms < 0 where not run.
struct Mode
{
    double terms_ms = -1, iteration_ms = -1, solution_ms = -1;
    int    iterations = 0;
    bool   converged = false, verified = false;
};

struct Row
{
    int           level = 0;
    std::uint64_t faces = 0, vertices = 0, edges = 0, rejected = 0;
    float         dt     = 0;
    bool          solved = false;
    Mode          serial, par;
};

using Mesh = OpenMesh::TriMesh_ArrayKernelT<>;  // float points

//! The mesh with the step's terms as OpenMesh properties.
struct McfMesh
{
    Mesh                          m;
    OpenMesh::EPropHandleT<float> w;     // cotangent weight per edge
    OpenMesh::VPropHandleT<float> a;     // mixed area per vertex
    std::vector<rxmesh::Triangle> kept;  // faces OpenMesh accepted
};

float dot3(const Mesh::Point& a, const Mesh::Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
float cross_norm(const Mesh::Point& a, const Mesh::Point& b)
{
    const float c0 = a[1] * b[2] - a[2] * b[1], c1 = a[2] * b[0] - a[0] * b[2], c2 = a[0] * b[1] - a[1] * b[0];
    return std::sqrt(c0 * c0 + c1 * c1 + c2 * c2);
}

//! cot of the angle at k of triangle (k, i, j); 0 when degenerate (the
//! GPU's mcf::cotangent, on the host).
float cotangent(const Mesh::Point& pk, const Mesh::Point& pi, const Mesh::Point& pj)
{
    const Mesh::Point e0 = pi - pk, e1 = pj - pk;
    const float       c  = cross_norm(e0, e1);
    return c > FLT_MIN ? dot3(e0, e1) / c : 0.f;
}

//! Mixed Voronoi area of triangle (i, q, r) at i: mcf::mixed_area's formula.
float mixed_area(const Mesh::Point& pi, const Mesh::Point& pq, const Mesh::Point& pr)
{
    const Mesh::Point iq = pq - pi, ir = pr - pi, qr = pr - pq;
    const float       c  = cross_norm(iq, ir);
    if (!(c > FLT_MIN))
        return 0.f;
    const float at_i = dot3(iq, ir), at_q = -dot3(iq, qr), at_r = dot3(ir, qr);
    if (at_i < 0.f)
        return c / 4.f;
    if (at_q < 0.f || at_r < 0.f)
        return c / 8.f;
    return (dot3(ir, ir) * (at_q / c) + dot3(iq, iq) * (at_r / c)) / 8.f;
}

//! Vertices in input order (OpenMesh keeps it), then the faces; faces that
//! OpenMesh refuses (complex edge or vertex) are left out and counted, and
//! the reference system is then that of the faces it kept.
void build_mesh(const rxmesh::TriangleSoup& soup, McfMesh& mm, std::uint64_t& rejected)
{
    mm.kept = rxmesh::bench::add_soup(mm.m, soup, rejected);
    mm.m.add_property(mm.w);
    mm.m.add_property(mm.a);
}

//! Weights (over the edges) and areas (over the vertices' outgoing
//! halfedges), each loop on the current OpenMP thread count.
void compute_terms(McfMesh& mm)
{
    Mesh&              m  = mm.m;
    const std::int64_t ne = std::int64_t(m.n_edges()), nv = std::int64_t(m.n_vertices());
#pragma omp parallel for schedule(static)
    for (std::int64_t e = 0; e < ne; ++e) {
        const auto eh  = OpenMesh::EdgeHandle(int(e));
        float      sum = 0.f;
        for (int s = 0; s < 2; ++s) {
            const auto h = m.halfedge_handle(eh, s);
            if (m.is_boundary(h))
                continue;
            const auto k = m.to_vertex_handle(m.next_halfedge_handle(h));
            sum += cotangent(m.point(k), m.point(m.from_vertex_handle(h)), m.point(m.to_vertex_handle(h)));
        }
        m.property(mm.w, eh) = std::max(sum, 0.f);
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < nv; ++i) {
        const auto v    = OpenMesh::VertexHandle(int(i));
        float      area = 0.f;
        for (auto h = m.cvoh_iter(v); h.is_valid(); ++h) {
            if (m.is_boundary(*h))  // no face on this side
                continue;
            const auto q = m.to_vertex_handle(*h), r = m.to_vertex_handle(m.next_halfedge_handle(*h));
            area += mixed_area(m.point(v), m.point(q), m.point(r));
        }
        m.property(mm.a, v) = area;
    }
}

double mean_edge_length(const Mesh& m)
{
    double sum = 0;
    for (const auto e : m.edges())
        sum += m.calc_edge_length(e);
    return m.n_edges() ? sum / double(m.n_edges()) : 0.0;
}

//! y = scale (2 a x + dt L x), or scale dt L x without the areas, by
//! circulating each vertex's outgoing halfedges; returns x.y in double.
double apply(const McfMesh& mm, float dt, const float* x, float* y, bool with_areas, float scale)
{
    const Mesh&        m  = mm.m;
    const std::int64_t nv = std::int64_t(m.n_vertices());
    double             dot = 0;
#pragma omp parallel for schedule(static) reduction(+ : dot)
    for (std::int64_t i = 0; i < nv; ++i) {
        const auto   v    = OpenMesh::VertexHandle(int(i));
        const float* xi   = x + 3 * i;
        float        s[3] = {0.f, 0.f, 0.f};
        for (auto h = m.cvoh_iter(v); h.is_valid(); ++h) {
            const float  we = dt * m.property(mm.w, m.edge_handle(*h));
            const float* xj = x + 3 * std::int64_t(m.to_vertex_handle(*h).idx());
            for (int d = 0; d < 3; ++d)
                s[d] += we * (xi[d] - xj[d]);
        }
        const float diag = with_areas ? 2.f * m.property(mm.a, v) : 0.f;
        for (int d = 0; d < 3; ++d) {
            const float yd = scale * (diag * xi[d] + s[d]);
            y[3 * i + d]   = yd;
            dot += double(xi[d]) * double(yd);
        }
    }
    return dot;
}

//! x, r, d, q: 3 floats per vertex, allocated once per level and mode.
struct Vectors
{
    std::vector<float> x, r, d, q;
    explicit Vectors(std::size_t n) : x(n), r(n), d(n), q(n) {}
};

//! x = X0 and r = -dt L X0 (the sum of w (x_i - x_j): no cancellation).
void initial_state(const McfMesh& mm, float dt, Vectors& v)
{
    const std::int64_t nv = std::int64_t(mm.m.n_vertices());
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < nv; ++i) {
        const auto& p = mm.m.point(OpenMesh::VertexHandle(int(i)));
        for (int d = 0; d < 3; ++d)
            v.x[3 * i + d] = p[d];
    }
    (void)apply(mm, dt, v.x.data(), v.r.data(), false, -1.f);
}

struct CgOut
{
    int  iterations = 0;
    bool converged  = false;
};

//! Shewchuk B2 from v.x and v.r: stops when r.r <= tol^2 r0.r0 or after
//! max_iterations (tol = 0 runs exactly max_iterations).
CgOut cg(const McfMesh& mm, float dt, Vectors& v, double tol, int max_iterations)
{
    const std::int64_t n = std::int64_t(v.x.size());
    float *x = v.x.data(), *r = v.r.data(), *d = v.d.data(), *q = v.q.data();
    double delta = 0;
#pragma omp parallel for schedule(static) reduction(+ : delta)
    for (std::int64_t i = 0; i < n; ++i) {
        d[i] = r[i];
        delta += double(r[i]) * r[i];
    }
    const double bound = tol * tol * delta;
    CgOut        out;
    while (delta > bound && out.iterations < max_iterations) {
        const double dq    = apply(mm, dt, d, q, true, 1.f);
        const float  alpha = dq == 0 ? 0.f : float(delta / dq);
        double       rr    = 0;
#pragma omp parallel for schedule(static) reduction(+ : rr)
        for (std::int64_t i = 0; i < n; ++i) {
            x[i] += alpha * d[i];
            r[i] -= alpha * q[i];
            rr += double(r[i]) * r[i];
        }
        const float beta = float(rr / delta);  // delta > bound >= 0 here
        delta            = rr;
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < n; ++i)
            d[i] = r[i] + beta * d[i];
        ++out.iterations;
    }
    out.converged = delta <= bound;
    return out;
}

using rxmesh::bench::set_threads;

//! Whether v.x solves the level's system, by the double reference.
bool verify(const rxmesh::TriangleSoup& soup, const rxmesh::reference::McfSystem& s, float dt,
            const Vectors& v, double tol, int iterations)
{
    std::vector<double> x0(3 * soup.positions.size());
    for (std::size_t i = 0; i < soup.positions.size(); ++i)
        for (int d = 0; d < 3; ++d)
            x0[3 * i + d] = soup.positions[i][d];
    const std::vector<double> x(v.x.begin(), v.x.end());
    return rxmesh::reference::mcf_residual(s, dt, x0, x).within(tol, iterations);
}

constexpr int kSolveMaxIterations = 100000;

//! One mode at one level on `threads` OpenMP threads: terms, the fixed
//! iterations and, with a reference system, the verified solution.
Mode run_mode(McfMesh& mm, const rxmesh::TriangleSoup& soup, const rxmesh::reference::McfSystem* ref,
              float dt, const Args& a, int threads)
{
    set_threads(threads);
    Mode                out;
    std::vector<double> ms;
    for (int k = 0; k < 3; ++k)
        ms.push_back(wall_ms([&] { compute_terms(mm); }));
    out.terms_ms = upper_median(ms);
    Vectors v(3 * std::size_t(mm.m.n_vertices()));
    ms.clear();
    for (int k = 0; k < 3; ++k) {
        initial_state(mm, dt, v);  // outside the clock: only iterations are timed
        ms.push_back(wall_ms([&] { (void)cg(mm, dt, v, 0.0, a.fixed_iterations); }));
    }
    out.iteration_ms = upper_median(ms) / a.fixed_iterations;
    if (!ref)
        return out;
    CgOut res;
    out.solution_ms = wall_ms([&] {
        initial_state(mm, dt, v);
        res = cg(mm, dt, v, a.tol, kSolveMaxIterations);
    });
    out.iterations = res.iterations;
    out.converged  = res.converged;
    out.verified   = res.converged && verify(soup, *ref, dt, v, a.tol, res.iterations);
    return out;
}

//! Builds the OpenMesh mesh of `soup` and measures both modes on it.
Row run_level(const rxmesh::TriangleSoup& soup, int level, const Args& a)
{
    McfMesh mm;
    Row     row;
    row.level = level;
    build_mesh(soup, mm, row.rejected);
    row.faces    = mm.m.n_faces();
    row.vertices = mm.m.n_vertices();
    row.edges    = mm.m.n_edges();
    const double h = mean_edge_length(mm.m);
    row.dt         = float(a.dt_scale * h * h);
    row.solved     = row.faces <= a.solve_max_faces;
    rxmesh::reference::McfSystem ref;
    if (row.solved)  // the system of the faces OpenMesh kept
        ref = rxmesh::reference::mcf_system(soup.positions, mm.kept, false);
    row.serial = run_mode(mm, soup, row.solved ? &ref : nullptr, row.dt, a, 1);
    row.par    = run_mode(mm, soup, row.solved ? &ref : nullptr, row.dt, a, a.threads);
    return row;
}

std::string pair_cell(double serial, double par, const char* fmt)
{
    if (serial < 0)
        return "not run";
    char b[96], s[40], p[40];
    std::snprintf(s, sizeof s, fmt, serial);
    std::snprintf(p, sizeof p, fmt, par);
    std::snprintf(b, sizeof b, "%s / %s", s, p);
    return b;
}

using rxmesh::bench::yes;

void print_table(const std::vector<Row>& rows, const Args& a)
{
    const int t = a.threads;
    std::printf("\n| faces | vertices | terms ms serial / %d thr | ms per iteration serial / %d thr "
                "| iterations serial / %d thr | solution ms serial / %d thr | verified serial / %d thr |\n"
                "|---|---|---|---|---|---|---|\n", t, t, t, t, t);
    for (const Row& r : rows) {
        std::string its = "not run", ver = "not run";
        if (r.solved) {
            its = std::to_string(r.serial.iterations) + " / " + std::to_string(r.par.iterations);
            ver = std::string(yes(r.serial.verified)) + " / " + yes(r.par.verified);
        }
        std::printf("| %llu | %llu | %s | %s | %s | %s | %s |\n", (unsigned long long)r.faces,
                    (unsigned long long)r.vertices,
                    pair_cell(r.serial.terms_ms, r.par.terms_ms, "%.2f").c_str(),
                    pair_cell(r.serial.iteration_ms, r.par.iteration_ms, "%.3f").c_str(), its.c_str(),
                    r.solved ? pair_cell(r.serial.solution_ms, r.par.solution_ms, "%.1f").c_str() : "not run",
                    ver.c_str());
    }
}

std::string mode_json(const Mode& m, bool solved)
{
    char b[512];
    if (!solved)
        std::snprintf(b, sizeof b,
                      "{\"terms_ms\": %.4f, \"iteration_ms\": %.5f, \"solution_ms\": null, "
                      "\"iterations\": null, \"converged\": null, \"verified\": null}",
                      m.terms_ms, m.iteration_ms);
    else
        std::snprintf(b, sizeof b,
                      "{\"terms_ms\": %.4f, \"iteration_ms\": %.5f, \"solution_ms\": %.4f, "
                      "\"iterations\": %d, \"converged\": %s, \"verified\": %s}",
                      m.terms_ms, m.iteration_ms, m.solution_ms, m.iterations,
                      m.converged ? "true" : "false", m.verified ? "true" : "false");
    return b;
}

using rxmesh::bench::json_string;

bool write_json(const std::vector<Row>& rows, const Args& a)
{
    std::FILE* f = std::fopen(a.json.c_str(), "wb");
    if (!f)
        return false;
    std::fprintf(f,
                 "{\"library\": \"OpenMesh 9 TriMesh_ArrayKernelT\", \"mesh\": %s, "
                 "\"vertex_order\": \"input\", \"threads\": %d, \"tolerance\": %g, \"dt_scale\": %g, "
                 "\"fixed_iterations\": %d, \"solve_max_faces\": %llu, \"rows\": [",
                 json_string(a.file).c_str(), a.threads, a.tol, a.dt_scale, a.fixed_iterations,
                 (unsigned long long)a.solve_max_faces);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        std::fprintf(f,
                     "%s\n  {\"level\": %d, \"faces\": %llu, \"vertices\": %llu, \"edges\": %llu, "
                     "\"rejected_faces\": %llu, \"dt\": %.6g, \"serial\": %s, \"parallel\": %s}",
                     i ? "," : "", r.level, (unsigned long long)r.faces, (unsigned long long)r.vertices,
                     (unsigned long long)r.edges, (unsigned long long)r.rejected, r.dt,
                     mode_json(r.serial, r.solved).c_str(), mode_json(r.par, r.solved).c_str());
    }
    std::fprintf(f, "\n]}\n");
    return std::fclose(f) == 0;
}

//! One level's row, with its line of counts printed.
Row measure(const rxmesh::TriangleSoup& soup, const Args& a, int level)
{
    const Row r = run_level(soup, level, a);
    std::printf("level %d: %llu faces, %llu vertices, %llu edges, %llu faces rejected by "
                "OpenMesh (complex edge or vertex), dt %.4g\n", level, (unsigned long long)r.faces,
                (unsigned long long)r.vertices, (unsigned long long)r.edges,
                (unsigned long long)r.rejected, r.dt);
    std::fflush(stdout);
    return r;
}

//! Runs every level, prints the tables, writes --json; returns the exit
//! status (3 when a solution is not verified).
int run(Args& a)
{
    rxmesh::bench::resolve_threads(a.threads, "columns run");
    rxmesh::TriangleSoup soup = rxmesh::io::read(a.file);
    std::printf("OpenMesh 9 TriMesh, matrix-free CG without preconditioner; mesh %s refined "
                "1-to-4, levels 0..%d, no welding; vertex numbering: the input's (OpenMesh keeps "
                "the input order), not RXMesh's patch order (bench_mcf welds; the meshes are the "
                "same when the input has no duplicate vertices)\n"
                "tol %.1e; dt = %g x mean edge length^2; terms: median of 3; ms per iteration: "
                "%d fixed iterations / %d, median of 3, r0 untimed; solution: r0 + CG to tol, one "
                "run, terms not included, faces <= %llu only; %d threads (hardware %u)\n",
                a.file.c_str(), a.levels, a.tol, a.dt_scale, a.fixed_iterations, a.fixed_iterations,
                (unsigned long long)a.solve_max_faces, a.threads, std::thread::hardware_concurrency());
    const auto rows = rxmesh::bench::rows_of_levels<Row>(std::move(soup), a, measure);
    print_table(rows, a);
    std::printf("\niterations: the serial and threaded counts can differ only through the order "
                "of the double dot-product sums; the operator and recurrence are bench_mcf's, so "
                "its counts on the same mesh are the ones to compare with\n");
    if (!a.json.empty() && !write_json(rows, a)) {
        std::fprintf(stderr, "bench_mcf_openmesh: cannot write %s\n", a.json.c_str());
        return 1;
    }
    bool ok = true;
    for (const Row& r : rows)
        ok = ok && (!r.solved || (r.serial.verified && r.par.verified));
    return ok ? 0 : 3;
}

}  // namespace
#endif  // RXMESH_HAVE_OPENMESH

int main(int argc, char** argv)
{
    return rxmesh::bench::openmesh_main<Args>(argc, argv, kAbout, add_options,
                                              [](auto& a) { return run(a); });
}
