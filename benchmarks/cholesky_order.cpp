// The direct solvers' analysis (solver/ordering.h) on a mesh and its 1-to-4
// refinements: the fill of L (nonzeros, flops) and the time of our
// geometric nested dissection and of the symbolic factorization, against
// METIS_NodeND's order (the yardstick: fill within 1.3x of it) and
// the input's own order, on the VV + diagonal pattern (the Laplacian's and
// mass matrix's). Host code, one thread; wall-clock medians of --runs.
// Verified at every size: each order is a permutation (Permutation checks)
// and L holds at least A's lower triangle.
//
// usage: bench_cholesky_order [--mesh FILE] [--levels L] [--min-level M] [--runs R]
//                             [--leaf N] [--json OUT]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "metis_partition.h"
#include "rxmesh/reference/sparse_operators.h"
#include "rxmesh/solver/ordering.h"

namespace {

using namespace rxmesh;

struct Args : bench::RefinedMeshArgs
{
    std::uint32_t leaf = 64;
};

struct Row
{
    std::string   mesh;
    int           level = 0;
    std::size_t   faces = 0, vertices = 0;
    std::uint64_t lower_a = 0;  // A's entries on and below the diagonal
    std::uint64_t nnz_input = 0, nnz_ours = 0, nnz_metis = 0;
    double        flops_ours = 0, flops_metis = 0;
    double        order_ms = 0, symbolic_ms = 0, metis_ms = 0;
    std::string   metis_note;
    bool          verified = false;
};

HostCsr pattern_of(const TriangleSoup& soup)
{
    reference::CsrMatrix m = reference::full_mass(soup.positions, soup.faces);
    HostCsr              h;
    h.num_rows    = m.size;
    h.row_offsets = std::move(m.row_offsets);
    h.columns.assign(m.columns.begin(), m.columns.end());
    return h;
}

//! The graph METIS reads: A's pattern without the diagonal.
void metis_graph(const HostCsr& A, std::vector<std::uint32_t>& offsets,
                 std::vector<std::uint32_t>& neighbours)
{
    offsets.assign(1, 0);
    for (std::uint64_t i = 0; i < A.num_rows; ++i) {
        for (auto k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k)
            if (A.columns[k] != i) neighbours.push_back(std::uint32_t(A.columns[k]));
        offsets.push_back(std::uint32_t(neighbours.size()));
    }
}

template <typename F>
double median_ms(int runs, F&& f)
{
    std::vector<double> t;
    for (int r = 0; r < std::max(runs, 1); ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        t.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    return bench::median(t);
}

void measure_metis(const HostCsr& A, int runs, Row& r)
{
    std::vector<std::uint32_t> offsets, neighbours, order;
    metis_graph(A, offsets, neighbours);
    std::vector<double> t;
    for (int k = 0; k < std::max(runs, 1); ++k) {
        double ms = 0;
        if (!bench::metis_node_nd(offsets, neighbours, order, ms, r.metis_note)) return;
        t.push_back(ms);
    }
    r.metis_ms                = bench::median(t);
    const SymbolicFactor s    = symbolic_factor(A, Permutation::from_new_to_old(order));
    r.nnz_metis               = s.factor_nonzeros;
    r.flops_metis             = s.flops;
}

Row measure(const std::string& name, int level, const TriangleSoup& soup, const Args& a)
{
    Row r;
    r.mesh = name, r.level = level, r.faces = soup.faces.size(), r.vertices = soup.positions.size();
    const HostCsr A = pattern_of(soup);
    r.lower_a       = (A.columns.size() + A.num_rows) / 2;
    r.nnz_input = symbolic_factor(A, Permutation::identity(std::uint32_t(A.num_rows))).factor_nonzeros;
    Permutation p;
    r.order_ms = median_ms(a.runs, [&] { p = geometric_nested_dissection(A, soup.positions, {a.leaf}); });
    SymbolicFactor s;
    r.symbolic_ms = median_ms(a.runs, [&] { s = symbolic_factor(A, p); });
    r.nnz_ours = s.factor_nonzeros, r.flops_ours = s.flops;
    measure_metis(A, a.runs, r);
    r.verified = r.nnz_ours >= r.lower_a && r.nnz_input >= r.lower_a &&
                 (r.nnz_metis == 0 || r.nnz_metis >= r.lower_a);
    return r;
}

std::string row_json(const Row& r)
{
    char text[1024];
    std::snprintf(text, sizeof text,
                  "{\"mesh\":%s,\"level\":%d,\"faces\":%zu,\"vertices\":%zu,\"lower_a\":%llu,"
                  "\"nnz_input_order\":%llu,\"nnz_ours\":%llu,\"nnz_metis\":%llu,"
                  "\"flops_ours\":%.6g,\"flops_metis\":%.6g,\"order_ms\":%.3f,"
                  "\"symbolic_ms\":%.3f,\"metis_ms\":%.3f,\"metis_note\":%s,\"verified\":%s}",
                  bench::json_string(r.mesh).c_str(), r.level, r.faces, r.vertices,
                  (unsigned long long)r.lower_a, (unsigned long long)r.nnz_input,
                  (unsigned long long)r.nnz_ours, (unsigned long long)r.nnz_metis, r.flops_ours,
                  r.flops_metis, r.order_ms, r.symbolic_ms, r.metis_ms,
                  bench::json_string(r.metis_note).c_str(), r.verified ? "true" : "false");
    return text;
}

void print_row(const Row& r)
{
    const double fill = r.nnz_metis ? double(r.nnz_ours) / double(r.nnz_metis) : 0;
    const double flop = r.flops_metis > 0 ? r.flops_ours / r.flops_metis : 0;
    std::printf("| %s L%d | %zu | %.2fM | %.2fM | %.2fM (%.0f ms) | %.3f / %.3f | %.0f + %.0f ms | "
                "%.2fM (%.0f ms)%s | %s |\n",
                r.mesh.c_str(), r.level, r.faces, r.lower_a / 1e6, r.nnz_input / 1e6,
                r.nnz_ours / 1e6, r.order_ms, fill, flop, r.order_ms, r.symbolic_ms,
                r.nnz_metis / 1e6, r.metis_ms, r.metis_note.empty() ? "" : (" " + r.metis_note).c_str(),
                r.verified ? "yes" : "NO");
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(
        argc, argv,
        {"bench_cholesky_order",
         "fill-reducing orders for Cholesky: our nested dissection against METIS_NodeND"},
        [](CLI::App& cli, Args& a) {
            bench::add_refined_mesh_runs(cli, a);
            cli.add_option("--leaf", a.leaf, "nested dissection's leaf size")->capture_default_str();
            bench::add_json(cli, a.json);
        },
        [](const Args& a) {
            std::printf("| mesh | faces | nnz(A) lower | nnz(L) input order | nnz(L) ours (order) | "
                        "ours / METIS nnz / flops | analysis: order + symbolic | nnz(L) METIS "
                        "(NodeND) | verified |\n|---|---|---|---|---|---|---|---|---|\n");
            std::vector<Row> rows = bench::rows_of_mesh_levels<Row>(a, [](auto&&... x) {
                Row r = measure(x...);
                print_row(r);
                return r;
            });
            return bench::finish_verified_rows(
                a.json, "{\"benchmark\":\"cholesky_order\",\"rows\":[", rows, row_json,
                [](const Row& r) { return r.verified; },
                "every order a permutation; L holds A's lower triangle");
        });
}
