// The GPU supernodal Cholesky (solver/cholesky.h) against CHOLMOD on the
// CPU, on the implicit smoothing system M + t L (double, t the mean squared
// edge length) of a mesh and its 1-to-4 refinements: the analysis
// (ordering and symbolic, host wall clock, one run), the numeric factor and
// a 3-column solve (CUDA events for ours, wall clock for CHOLMOD; a warm-up,
// then the median of --runs), L's nonzeros and the flops. CHOLMOD runs at
// each of --threads BLAS threads, its best factor + solve reported. Every
// method's solution is verified at every size: each column's relative
// residual |b - A x| / |b| in double on the host, at most 1e-8.
//
// usage: bench_cholesky [--mesh FILE] [--levels L] [--min-level M] [--runs R]
//                       [--threads 1,2,4,8,16] [--cholmod-max-faces F] [--json OUT]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_util.h"
#include "cholmod_baseline.h"
#include "rxmesh/matrix/host_export.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/mesh_operators.cuh"
#include "rxmesh/matrix/vertex_pattern.h"
#include "rxmesh/rxmesh.cuh"
#include "rxmesh/solver/cholesky.h"

namespace {

using namespace rxmesh;

constexpr std::uint32_t kColumns        = 3;
constexpr double        kResidualBound  = 1e-8;

struct Args : bench::RefinedMeshArgs
{
    std::vector<int> threads = {1, 2, 4, 8, 16};
    //! CHOLMOD is not run above this many faces (at 13.3M it takes minutes).
    std::size_t cholmod_max_faces = 4'000'000;
};

struct Row
{
    bench::MeshLevel input;
    CholeskyAnalysis ours;
    double           factor_ms = 0, solve_ms = 0, residual = 0;
    bench::CholmodRun cholmod;  // the best thread count's
    std::vector<std::pair<int, double>> cholmod_by_threads;  // factor + solve ms
    double           cholmod_residual = 0;
    bool             verified = false;
};

//! The largest relative residual of x's columns (rows x R, row-major).
double residual(const HostCsr& A, const std::vector<double>& b, const std::vector<double>& x)
{
    double worst = 0;
    for (std::uint32_t r = 0; r < kColumns; ++r) {
        double rr = 0, bb = 0;
        for (std::uint64_t i = 0; i < A.num_rows; ++i) {
            double ax = 0;
            for (auto e = A.row_offsets[i]; e < A.row_offsets[i + 1]; ++e)
                ax += A.values[e] * x[A.columns[e] * kColumns + r];
            rr += (b[i * kColumns + r] - ax) * (b[i * kColumns + r] - ax);
            bb += b[i * kColumns + r] * b[i * kColumns + r];
        }
        worst = std::max(worst, std::sqrt(rr / std::max(bb, 1e-300)));
    }
    return x.size() == b.size() ? worst : INFINITY;
}

std::vector<double> right_hand_sides(const RXMesh& mesh)
{
    const std::vector<float> p = to_host(mesh.positions().view());
    std::vector<double>      b(std::size_t(mesh.num_vertices()) * kColumns);
    for (std::size_t v = 0; v < mesh.num_vertices(); ++v)
        for (std::uint32_t r = 0; r < kColumns; ++r)
            b[v * kColumns + r] = std::sin((r + 1) * 3.0 * p[3 * v]) + r * p[3 * v + 1];
    return b;
}

double mean_squared_edge_length(const TriangleSoup& soup)
{
    double sum = 0;
    for (const auto& t : soup.faces)
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d) {
                const double e = double(soup.positions[t[k]][d]) - soup.positions[t[(k + 1) % 3]][d];
                sum += e * e;
            }
    return soup.faces.empty() ? 1.0 : sum / (3.0 * soup.faces.size());
}

void measure_ours(Row& r, const RXMesh& mesh, const SparseMatrix<double>& A, const HostCsr& host,
                  const std::vector<double>& b, int runs)
{
    CholeskySolver chol(A, mesh);
    r.ours      = chol.analysis();
    r.factor_ms = bench::gpu_median_ms([&] { chol.factor(A); }, 1, runs);
    DeviceBuffer<double> d_b = DeviceBuffer<double>::from_host(b), d_x(b.size());
    r.solve_ms   = bench::gpu_median_ms([&] { chol.solve(d_b.data(), d_x.data(), kColumns); }, 1, runs);
    r.residual   = residual(host, b, d_x.to_host());
}

void measure_cholmod(Row& r, const HostCsr& host, const std::vector<double>& b, const Args& a)
{
    if (r.input.F > a.cholmod_max_faces) {
        r.cholmod.note = "not run: over --cholmod-max-faces";
        return;
    }
    double best = INFINITY;
    for (const int threads : a.threads) {
        bench::CholmodRun run = bench::cholmod_solve(host, b, kColumns, threads, a.runs);
        if (!run.available) {
            r.cholmod = run;
            return;
        }
        r.cholmod_by_threads.push_back({threads, run.factor_ms + run.solve_ms});
        if (run.factor_ms + run.solve_ms < best) {
            best      = run.factor_ms + run.solve_ms;
            r.cholmod = std::move(run);
        }
        if (r.cholmod.threads == 0) break;  // its BLAS's threads cannot be set: one run
    }
    r.cholmod_residual = residual(host, b, r.cholmod.x);
    r.cholmod.x.clear();
}

Row measure(const std::string& name, int level, const TriangleSoup& soup, const Args& a)
{
    Row r;
    r.input.set_input(name, level, soup);
    RXMesh                     mesh(soup);
    const auto                 pattern = vertex_pattern(mesh);
    SparseMatrix<double>       A       = full_mass<double>(pattern, mesh.positions());
    const SparseMatrix<double> L       = cotangent_laplacian<double>(pattern, mesh.positions());
    axpby(mean_squared_edge_length(soup), L, 1.0, A);
    const HostCsr             host = to_host(A);
    const std::vector<double> b    = right_hand_sides(mesh);
    measure_ours(r, mesh, A, host, b, a.runs);
    measure_cholmod(r, host, b, a);
    r.verified = r.residual <= kResidualBound &&
                 (!r.cholmod.available || r.cholmod_residual <= kResidualBound);
    return r;
}

void print_row(const Row& r)
{
    const double ours_total = r.factor_ms + r.solve_ms;
    std::printf("| %s L%d | %zu | %u | %.0f | %.1f | %.1f | %.2f | %.3g |", r.input.name.c_str(),
                r.input.level, r.input.F, r.ours.rows,
                r.ours.ordering_ms + r.ours.symbolic_ms + r.ours.plan_ms, r.factor_ms, r.solve_ms,
                r.ours.factor_nonzeros / 1e6, r.residual);
    if (r.cholmod.available)
        std::printf(" %s, %d thr | %.0f | %.1f | %.1f | %.2f | %.3g | %.2fx | %.2fx |",
                    r.cholmod.ordering.c_str(), r.cholmod.threads, r.cholmod.analyze_ms,
                    r.cholmod.factor_ms, r.cholmod.solve_ms, r.cholmod.factor_nonzeros / 1e6,
                    r.cholmod_residual, (r.cholmod.factor_ms + r.cholmod.solve_ms) / ours_total,
                    r.cholmod.solve_ms / r.solve_ms);
    else
        std::printf(" %s | | | | | | | |", r.cholmod.note.c_str());
    std::printf(" %s |\n", bench::yes(r.verified));
    std::fflush(stdout);
}

std::string row_json(const Row& r)
{
    using bench::json_number;
    std::string by_threads = "[";
    for (std::size_t i = 0; i < r.cholmod_by_threads.size(); ++i)
        by_threads += std::string(i ? "," : "") + "{\"threads\":" +
                      std::to_string(r.cholmod_by_threads[i].first) +
                      ",\"factor_solve_ms\":" + json_number(r.cholmod_by_threads[i].second) + "}";
    by_threads += "]";
    const CholeskyAnalysis& o = r.ours;
    return "{\"mesh\":\"" + r.input.name + "\",\"level\":" + std::to_string(r.input.level) +
           ",\"faces\":" + std::to_string(r.input.F) + ",\"rows\":" + std::to_string(o.rows) +
           ",\"ours\":{\"ordering_ms\":" + json_number(o.ordering_ms) +
           ",\"symbolic_ms\":" + json_number(o.symbolic_ms) + ",\"plan_ms\":" + json_number(o.plan_ms) +
           ",\"factor_ms\":" + json_number(r.factor_ms) + ",\"solve3_ms\":" + json_number(r.solve_ms) +
           ",\"factor_nonzeros\":" + std::to_string(o.factor_nonzeros) +
           ",\"panel_values\":" + std::to_string(o.panel_values) + ",\"flops\":" + json_number(o.flops) +
           ",\"supernodes\":" + std::to_string(o.supernodes) + ",\"levels\":" + std::to_string(o.levels) +
           ",\"device_bytes\":" + std::to_string(o.device_bytes) +
           ",\"residual\":" + json_number(r.residual) + "},\"cholmod\":{\"available\":" +
           (r.cholmod.available ? "true" : "false") + ",\"note\":" + bench::json_string(r.cholmod.note) +
           ",\"ordering\":\"" + r.cholmod.ordering + "\",\"threads\":" + std::to_string(r.cholmod.threads) +
           ",\"analyze_ms\":" + json_number(r.cholmod.analyze_ms) +
           ",\"factor_ms\":" + json_number(r.cholmod.factor_ms) +
           ",\"solve3_ms\":" + json_number(r.cholmod.solve_ms) +
           ",\"factor_nonzeros\":" + json_number(r.cholmod.factor_nonzeros) +
           ",\"flops\":" + json_number(r.cholmod.flops) + ",\"residual\":" + json_number(r.cholmod_residual) +
           ",\"by_threads\":" + by_threads + "},\"verified\":" + (r.verified ? "true" : "false") + "}";
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(
        argc, argv,
        {"bench_cholesky", "GPU supernodal Cholesky against CHOLMOD on M + t L, verified"},
        [](CLI::App& cli, Args& a) {
            bench::add_refined_mesh_runs(cli, a);
            cli.add_option("--threads", a.threads, "CHOLMOD's BLAS thread counts tried")
                ->delimiter(',')
                ->capture_default_str();
            cli.add_option("--cholmod-max-faces", a.cholmod_max_faces,
                           "CHOLMOD runs up to this many faces")
                ->capture_default_str();
            bench::add_json(cli, a.json);
        },
        [](const Args& a) {
            bench::keep_pool_memory();
            std::printf(
                "| mesh | faces | rows | ours analysis ms | factor ms | solve 3 ms | L nnz M | "
                "residual | CHOLMOD | analysis ms | factor ms | solve 3 ms | L nnz M | residual | "
                "factor+solve speedup | solve speedup | verified |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
            return bench::verified_mesh_levels<Row>(
                a,
                [&](const std::string& name, int level, const TriangleSoup& soup, const Args& args) {
                    Row r = measure(name, level, soup, args);
                    print_row(r);
                    return r;
                },
                bench::gpu_rows_head("\"benchmark\":\"cholesky\",\"columns\":3"), row_json,
                [](const Row& r) { return r.verified; },
                "each method's 3 columns: relative residual <= 1e-8 in double");
        });
}
