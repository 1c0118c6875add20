// Time to a relative residual of 1e-6 on one system: the matrix-free CG of
// today (solver/cg_cached.cuh, as rxmesh-mcf runs it: dt L cached per
// patch, float), and PCG on the assembled matrix (solver/pcg.cuh) with the
// Jacobi preconditioner and with the patch preconditioner
// (solver/patch_preconditioner.cuh, one and two symmetric sweeps, the block
// size of 64, 128 or 256 threads that is fastest), in float and in double.
//
// The system: an implicit MCF step's (2 diag(a) + dt L) X = 2 diag(a) X0 for
// the three coordinates at once (one CG over 3n values in every method), from
// X = 0, so that |r0| = |b| and the two stopping rules (the matrix-free CG's
// |r| <= tol |r0|, PCG's |b - A X| <= tol |b|) are one. dt = relative_dt x
// the mean edge length squared, for each --relative-dt (MCF's default 10,
// and a stiffer step). A float X cannot have a residual much below its
// floor eps_f |(|A| |X| + |b|)| / |b| (reported): where that is above the
// tolerance, a float method's answer is judged against its floor.
//
// Per size (the input refined, levels K..L) and dt: each method's solve
// (median of --runs after a warm-up, CUDA events, from the same X = 0; the
// setup outside it: the patch cache, or the assembly and the
// preconditioner, timed apart), its iterations, and its answer verified: the
// residual |b - A X| / |b| formed again in double from a double assembly of
// the same float weights and areas, at most 10 x the larger of the
// tolerance and the method's precision floor, and X within 1e-4 of the
// bounding box's diagonal of a double PCG's to 1e-10.
//
// usage: bench_pcg [--mesh FILE] [--levels L] [--min-level K] [--runs R]
//                  [--relative-dt D]... [--tolerance T] [--max-iterations M] [--json FILE]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_mesh.h"
#include "bench_util.h"
#include "rxmesh/algo/mcf.cuh"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/vertex_pattern.h"
#include "rxmesh/rxmesh.cuh"
#include "rxmesh/solver/jacobi_preconditioner.cuh"
#include "rxmesh/solver/patch_preconditioner.cuh"
#include "rxmesh/solver/pcg.cuh"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_pcg",
    "time to a relative residual of 1e-6: the matrix-free CG against PCG with Jacobi and with "
    "the patch preconditioner"};

using namespace rxmesh;

struct Args
{
    std::string         file, json;
    int                 levels = 3, runs = 9, min_level = 0, max_iterations = 20000;
    double              tolerance = 1e-6;
    std::vector<double> relative_dt{10.0, 1000.0};
};

struct Method
{
    std::string name;
    double      solve_ms = 0, setup_ms = 0;
    int         iterations = 0, restarts = 0;
    bool        converged = false, stagnated = false;
    double      residual   = NAN;  // |b - A X| / |b| in double
    double      floor      = NAN;  // eps |(|A| |X| + |b|)| / |b| for the method's precision
    double      difference = NAN;  // max |X - X_ref| / bounding-box diagonal
    std::size_t bytes      = 0;    // device bytes of the operator and preconditioner
    bool        ok         = false;
};

struct Row
{
    std::uint64_t       faces = 0, vertices = 0;
    double              relative_dt = 0;
    std::uint32_t       patches = 0, max_colours = 0;
    std::vector<Method> methods;
};

//! The double system for the verification: A in double, b = 2 a X0, and a
//! double PCG's answer to 1e-10.
struct Check
{
    SparseMatrix<double> A;
    DeviceBuffer<double> b;
    double               b_norm = 0, diagonal = 0;
    std::vector<double>  answer;
};

//! X (float or double) as double.
template <typename T>
DeviceBuffer<double> as_double(const DeviceBuffer<T>& x)
{
    DeviceBuffer<double> xd(x.size());
    const T*             xs = x.data();
    double*              xo = xd.data();
    detail::for_indices(x.size(), [=] __device__(std::uint64_t i) { xo[i] = double(xs[i]); }, 0);
    return xd;
}

//! |b - A X| / |b| in double, and |(|A| |X| + |b|)| / |b|.
std::pair<double, double> residual_and_scale(const Check& c, const DeviceBuffer<double>& xd,
                                             std::uint32_t n)
{
    DeviceBuffer<double> r(xd.size()), s(xd.size());
    residual(c.A, VertexView<const double, 3>(c.b.data(), n), VertexView<const double, 3>(xd.data(), n),
             VertexView<double, 3>(r.data(), n));
    const SparseMatrixView<const double, 1> a  = c.A.view();
    const double*                           x  = xd.data();
    const double*                           b  = c.b.data();
    double*                                 so = s.data();
    detail::for_indices(n, [=] __device__(std::uint32_t row) {
        for (int d = 0; d < 3; ++d) {
            double sum = fabs(b[3 * std::uint64_t(row) + d]);
            for (int e = a.pattern.row_offsets[row]; e < a.pattern.row_offsets[row + 1]; ++e)
                sum += fabs(a.values[e]) * fabs(x[3 * std::uint64_t(a.pattern.columns[e]) + d]);
            so[3 * std::uint64_t(row) + d] = sum;
        }
    }, 0);
    return {norm2(VertexView<const double, 3>(r.data(), n)) / c.b_norm,
            norm2(VertexView<const double, 3>(s.data(), n)) / c.b_norm};
}

template <typename T>
void verify(const Check& c, const DeviceBuffer<T>& x, std::uint32_t n, double tolerance, Method& m)
{
    const DeviceBuffer<double> xd = as_double(x);
    const auto [residual, scale]  = residual_and_scale(c, xd, n);
    m.residual = residual;
    m.floor    = std::numeric_limits<T>::epsilon() / 2 * scale;
    const std::vector<double> h = xd.to_host();
    double                    worst = 0;
    for (std::size_t i = 0; i < h.size(); ++i)
        worst = std::max(worst, std::abs(h[i] - c.answer[i]));
    m.difference = c.diagonal > 0 ? worst / c.diagonal : worst;
    // converged, or stopped at its precision's floor (PCG says so; the CG
    // stops on its recurrence, which may sit below the true residual)
    m.ok = std::isfinite(m.residual) && m.residual <= 10 * std::max(tolerance, m.floor) &&
           m.difference <= 1e-4 && (m.converged || m.stagnated);
}

//! The matrix-free CG as mcf_step runs it, from X = 0 (r0 = b).
Method time_matrix_free(const RXMesh& mesh, const McfSystem& s, float dt,
                        const DeviceBuffer<float>& b, DeviceBuffer<float>& x, const Args& a)
{
    Method              m{"matrix-free CG, float (cached dt L)"};
    const std::uint32_t n = mesh.num_vertices();
    DeviceBuffer<float> r(b.size());
    const CgOptions     cg{a.max_iterations, a.tolerance};
    const bool          cached = patch_laplacian_fits<3>(mesh);
    std::unique_ptr<PatchLaplacian> lap;
    m.setup_ms = bench::gpu_median_ms(
        [&] {
            lap = cached ? std::make_unique<PatchLaplacian>(
                               mesh, EdgeView<const float>(s.w.data(), mesh.num_edges()), dt)
                         : nullptr;
        },
        1, a.runs);
    if (cached) m.bytes = lap->bytes();
    else m.name = "matrix-free CG, float (accumulate)";
    m.bytes += s.w.allocated_bytes() + s.a.allocated_bytes();
    CgReport rep;
    auto     reset = [&] {
        RXMESH_CHECK_CUDA(cudaMemset(x.data(), 0, x.bytes()));
        RXMESH_CHECK_CUDA(cudaMemcpy(r.data(), b.data(), b.bytes(), cudaMemcpyDeviceToDevice));
    };
    m.solve_ms = bench::gpu_median_ms(reset, [&] {
        const VertexView<float, 3> xv(x.data(), n), rv(r.data(), n);
        rep = cached ? cg_solve_cached<3>(mesh, *lap, VertexView<const float>(s.a.data(), n), 2.f, xv, rv, cg)
                     : cg_solve<3>(mesh, s.op(mesh, dt), xv, rv, cg);
    }, 1, a.runs);
    m.iterations = rep.iterations;
    m.converged  = rep.converged;
    return m;
}

//! PCG on the assembled matrix with preconditioner `make`'s, from X = 0.
template <typename T, typename Make>
Method time_pcg(const std::string& name, const SparseMatrix<T>& A, Make make,
                const DeviceBuffer<T>& b, DeviceBuffer<T>& x, std::uint32_t n, double assembly_ms,
                const Args& a)
{
    Method m{name};
    decltype(make()) M = make();  // warm-up
    m.setup_ms = assembly_ms + bench::gpu_median_ms([&] { M = make(); }, 0, a.runs);
    m.bytes    = A.pattern()->csr_bytes() + A.value_bytes() + M.bytes();
    PcgReport rep;
    m.solve_ms = bench::gpu_median_ms(
        [&] { RXMESH_CHECK_CUDA(cudaMemset(x.data(), 0, x.bytes())); },
        [&] {
            rep = pcg_solve(A, VertexView<const T, 3>(b.data(), n), VertexView<T, 3>(x.data(), n),
                            M, {a.max_iterations, a.tolerance});
        },
        1, a.runs);
    m.iterations = rep.iterations;
    m.restarts   = rep.restarts;
    m.converged  = rep.converged;
    m.stagnated  = rep.stagnated;
    return m;
}

//! The PCG methods in T: Jacobi, the patches with 1 and 2 sweeps (float) or 1 (double).
template <typename T>
void time_pcgs(const RXMesh& mesh, const McfSystem& s, const std::shared_ptr<const SparsePattern>& pattern,
               const DeviceBuffer<std::uint32_t>& ev, float dt, const DeviceBuffer<T>& b,
               const Check& c, const Args& a, Row& row)
{
    const std::uint32_t n = mesh.num_vertices();
    const std::string   type = std::is_same_v<T, float> ? "float" : "double";
    SparseMatrix<T>     A(pattern);
    const double assembly_ms = bench::gpu_median_ms(
        [&] { mcf_system_matrix(s, ev.data(), mesh.num_edges(), dt, A); }, 1, a.runs);
    DeviceBuffer<T> x(b.size());
    auto add = [&](Method m) {
        verify(c, x, n, a.tolerance, m);
        row.methods.push_back(m);
    };
    add(time_pcg<T>("PCG, " + type + ", Jacobi", A, [&] { return JacobiPreconditioner<T>(A); }, b,
                    x, n, assembly_ms, a));
    for (int sweeps : {1, 2}) {
        if (sweeps == 2 && !std::is_same_v<T, float>) break;
        // the patch kernel's block size tuned as the baselines are: the fastest kept
        Method best;
        for (int threads : {64, 128, 256}) {
            PatchGaussSeidelOptions o;
            o.sweeps  = sweeps;
            o.threads = threads;
            Method m  = time_pcg<T>("PCG, " + type + ", patches (" + std::to_string(sweeps) +
                                       " sweep" + (sweeps > 1 ? "s" : "") + ", " +
                                       std::to_string(threads) + " threads)",
                                   A, [&] { return PatchGaussSeidel<T>(mesh, A, o); }, b, x, n,
                                   assembly_ms, a);
            verify(c, x, n, a.tolerance, m);
            if (best.name.empty() || m.solve_ms < best.solve_ms) best = m;
            const auto per_patch = PatchGaussSeidel<T>(mesh, A, o).colours_per_patch();
            for (auto k : per_patch) row.max_colours = std::max<std::uint32_t>(row.max_colours, k);
        }
        row.methods.push_back(best);
    }
}

Row measure_dt(const RXMesh& mesh, const McfSystem& s, const std::shared_ptr<const SparsePattern>& pattern,
               const DeviceBuffer<std::uint32_t>& ev, double relative_dt, double h, const Args& a)
{
    const std::uint32_t n  = mesh.num_vertices();
    const float         dt = float(relative_dt * h * h);
    Row                 row;
    row.faces       = mesh.num_faces();
    row.vertices    = n;
    row.relative_dt = relative_dt;
    row.patches     = mesh.num_patches();

    // b = 2 a X0 in float and in double
    const auto                       positions = mesh.positions();
    const VertexView<const float, 3> pv        = positions;
    DeviceBuffer<float>              bf(3 * std::size_t(n)), xf(bf.size());
    Check                            c{SparseMatrix<double>(pattern), DeviceBuffer<double>(bf.size())};
    {
        const float* p  = pv.data();
        const float* ar = s.a.data();
        float*       bo = bf.data();
        double*      bd = c.b.data();
        detail::for_indices(bf.size(), [=] __device__(std::uint64_t i) {
            bo[i] = 2.f * ar[i / 3] * p[i];
            bd[i] = 2.0 * double(ar[i / 3]) * double(p[i]);
        }, 0);
    }
    mcf_system_matrix(s, ev.data(), mesh.num_edges(), dt, c.A);
    c.b_norm = norm2(VertexView<const double, 3>(c.b.data(), n));
    c.diagonal = bounding_box_diagonal(bench::global_positions(mesh));
    {  // the reference answer: double PCG with the patches to 1e-10
        DeviceBuffer<double> xr(bf.size());
        RXMESH_CHECK_CUDA(cudaMemset(xr.data(), 0, xr.bytes()));
        const PatchGaussSeidel<double> M(mesh, c.A);
        const PcgReport rep = pcg_solve(c.A, VertexView<const double, 3>(c.b.data(), n),
                                        VertexView<double, 3>(xr.data(), n), M, {200000, 1e-10});
        if (!rep.converged)
            throw Error("bench_pcg: the reference solve did not reach 1e-10 (" +
                        std::to_string(rep.relative_residual) + ")");
        c.answer = xr.to_host();
    }

    Method cg = time_matrix_free(mesh, s, dt, bf, xf, a);
    verify(c, xf, n, a.tolerance, cg);
    row.methods.push_back(cg);
    time_pcgs<float>(mesh, s, pattern, ev, dt, bf, c, a, row);
    time_pcgs<double>(mesh, s, pattern, ev, dt, c.b, c, a, row);
    return row;
}

std::vector<Row> measure(const TriangleSoup& soup, const Args& a, int level)
{
    BuildOptions opt;
    opt.weld = true;
    const RXMesh mesh(soup, opt);
    const auto   positions = mesh.positions();
    const McfSystem s      = mcf_system(mesh, positions, false);
    const double    h      = mean_edge_length(mesh, positions);
    const auto      pattern = vertex_pattern(mesh);
    DeviceBuffer<std::uint32_t> ev(2 * std::size_t(mesh.num_edges()));
    mesh.for_each<Op::EV>(mcf::StoreEdgeVertices{ev.data()}, AllActive{}, false);
    std::vector<Row> rows;
    for (double d : a.relative_dt) {
        rows.push_back(measure_dt(mesh, s, pattern, ev, d, h, a));
        std::fprintf(stderr, "level %d: %llu faces, dt %g h^2:", level,
                     (unsigned long long)rows.back().faces, d);
        for (const Method& m : rows.back().methods)
            std::fprintf(stderr, " [%s %.2f ms, %d it]", m.name.c_str(), m.solve_ms, m.iterations);
        std::fprintf(stderr, "\n");
    }
    return rows;
}

using bench::yes;

void print_table(const std::vector<Row>& rows, const Args& a)
{
    std::printf(
        "### Time to |b - A X| <= %.0e |b|: (2 diag(a) + dt L) X = 2 diag(a) X0, 3 columns, float unless a method says double, "
        "from X = 0 (ms)\n\n"
        "Solve: median of runs after a warm-up (CUDA events), from the same X = 0. Setup, apart: "
        "the matrix-free CG's per-patch cache of dt L; PCG's assembly (the same float weights "
        "and areas) plus its preconditioner's construction. Residual: formed again in double. "
        "Difference: the largest |X - X_ref| over the bounding box's diagonal, X_ref a double PCG's answer to 1e-10.\n\n"
        "| faces | dt / h^2 | method | solve | iterations | ms / iteration | solve vs CG | setup | "
        "MiB | residual (double) | precision floor | restarts | converged | difference | verified |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        a.tolerance);
    for (const Row& r : rows)
        for (const Method& m : r.methods)
            std::printf("| %llu | %g | %s | %.2f | %d | %.4f | %.2fx | %.2f | %.1f | %.2e | %.1e | %d | %s | %.1e | %s |\n",
                        (unsigned long long)r.faces, r.relative_dt, m.name.c_str(), m.solve_ms,
                        m.iterations, m.iterations > 0 ? m.solve_ms / m.iterations : 0.0,
                        r.methods[0].solve_ms / m.solve_ms, m.setup_ms, double(m.bytes) / (1 << 20),
                        m.residual, m.floor, m.restarts,
                        m.converged ? "yes" : (m.stagnated ? "floor" : "NO"), m.difference, yes(m.ok));
    std::printf("\n| faces | patches | most colours in a patch |\n|---|---|---|\n");
    for (std::size_t i = 0; i < rows.size(); i += a.relative_dt.size())
        std::printf("| %llu | %u | %u |\n", (unsigned long long)rows[i].faces, rows[i].patches,
                    rows[i].max_colours);
}

std::string row_json(const Row& r)
{
    using bench::json_number;
    std::string s = "{\"faces\": " + std::to_string(r.faces) +
                    ", \"vertices\": " + std::to_string(r.vertices) +
                    ", \"relative_dt\": " + json_number(r.relative_dt) +
                    ", \"patches\": " + std::to_string(r.patches) +
                    ", \"max_colours\": " + std::to_string(r.max_colours) + ", \"methods\": [";
    for (std::size_t i = 0; i < r.methods.size(); ++i) {
        const Method& m = r.methods[i];
        s += std::string(i ? ", " : "") + "{\"name\": \"" + m.name +
             "\", \"solve_ms\": " + json_number(m.solve_ms) +
             ", \"setup_ms\": " + json_number(m.setup_ms) +
             ", \"iterations\": " + std::to_string(m.iterations) +
             ", \"restarts\": " + std::to_string(m.restarts) +
             ", \"converged\": " + (m.converged ? "true" : "false") +
             ", \"stagnated\": " + (m.stagnated ? "true" : "false") +
             ", \"residual_double\": " + json_number(m.residual) +
             ", \"precision_floor\": " + json_number(m.floor) +
             ", \"difference_of_diagonal\": " + json_number(m.difference) +
             ", \"device_bytes\": " + std::to_string(m.bytes) +
             ", \"verified\": " + (m.ok ? "true" : "false") + "}";
    }
    return s + "]}";
}

void add_options(CLI::App& cli, Args& a)
{
    bench::add_mesh_levels_runs(cli, a.file, "default: an icosphere of 5 subdivisions", a.levels,
                                a.min_level, a.runs);
    cli.add_option("--relative-dt", a.relative_dt, "dt / h^2 of the system (repeatable)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cli.add_option("--tolerance", a.tolerance, "relative residual to reach")
        ->check(CLI::Range(1e-12, 1e-1))
        ->capture_default_str();
    cli.add_option("--max-iterations", a.max_iterations, "every method's iteration cap")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    bench::add_json(cli, a.json);
}

bool verified(const Row& r)
{
    return std::all_of(r.methods.begin(), r.methods.end(), [](const Method& m) { return m.ok; });
}

int run(const Args& a)
{
    TriangleSoup soup = bench::gpu_driver_input(a.file);
    std::printf("GPU: %s; mesh %s; median of %d runs after a warm-up\n\n", bench::gpu_name().c_str(),
                bench::input_name(a.file), a.runs);
    std::vector<Row> rows;
    for (auto& level_rows : bench::rows_of_levels<std::vector<Row>>(std::move(soup), a, measure))
        rows.insert(rows.end(), level_rows.begin(), level_rows.end());
    print_table(rows, a);
    const bool all =
        bench::write_rows_json(a.json, "{\"gpu\": \"" + bench::gpu_name() + "\", \"rows\": [", rows,
                               row_json, verified, ", ");
    return all ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
