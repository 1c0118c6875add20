// The sparse-matrix layer (include/rxmesh/matrix) at size: the vertex
// pattern's build, the cotangent Laplacian's assembly (float, deterministic
// gather) against the matrix-free MCF terms pass it replaces
// (mcf_system: edge weights and vertex areas), and y = L x on the assembled
// matrix, ours against cuSPARSE's SpMV on the same CSR arrays (each of its
// algorithms, its best reported), plus the matrix-free product
// (mcf_apply, three columns) for scale. Every size is verified: our product
// against cuSPARSE's (max |diff| relative to max |y|) and L 1 = 0 (row sums
// relative to the largest diagonal entry). CUDA events, warm-up, median.
//
// usage: bench_matrix [--mesh FILE] [--levels L] [--min-level M] [--runs R] [--json OUT]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_util.h"
#include "rxmesh/algo/mcf.cuh"
#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/matrix/cusparse.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/mesh_operators.cuh"
#include "rxmesh/matrix/vertex_pattern.h"
#include "rxmesh/rxmesh.cuh"

namespace {

using namespace rxmesh;

struct Row
{
    std::string mesh;
    int         level = 0;
    std::uint32_t faces = 0, vertices = 0;
    std::uint64_t blocks = 0;
    double pattern_ms = 0, assemble_ms = 0, mcf_terms_ms = 0;
    double spmv_ms = 0, spmv3_ms = 0, cusparse_ms = 0, mcf_apply3_ms = 0;
    std::string cusparse_best;
    double      spmv_gbps = 0;
    double      spmv_vs_cusparse = 0, row_sum_error = 0;
    std::size_t pattern_bytes = 0, value_bytes = 0;
    bool        verified = false;
};

double max_abs(const std::vector<float>& v)
{
    double m = 0;
    for (float x : v) m = std::max(m, double(std::abs(x)));
    return m;
}

//! The relative difference of two products and the row-sum check.
void verify(Row& r, const SparseMatrix<float>& L, const std::vector<float>& ours,
            const std::vector<float>& theirs, RXMesh& mesh)
{
    double diff = 0;
    for (std::size_t i = 0; i < ours.size(); ++i)
        diff = std::max(diff, double(std::abs(ours[i] - theirs[i])));
    r.spmv_vs_cusparse = diff / std::max(max_abs(theirs), 1e-30);

    auto ones = mesh.add_vertex_attribute<float>("bench:ones", 1.f), sums = mesh.add_vertex_attribute<float>("bench:sums");
    auto diag = mesh.add_vertex_attribute<float>("bench:diag");
    multiply(L, ones.view(), sums);
    diagonal(L, diag);
    const auto s = to_host(sums.view()), d = to_host(diag.view());
    r.row_sum_error = max_abs(s) / std::max(max_abs(d), 1e-30);
    r.verified = r.spmv_vs_cusparse < 1e-5 && r.row_sum_error < 1e-4;
    for (const char* n : {"bench:ones", "bench:sums", "bench:diag"}) mesh.attributes().remove(n);
}

//! cuSPARSE's SpMV on L's arrays with each algorithm that takes CSR: the best.
void time_cusparse(Row& r, const SparseMatrix<float>& L, VertexView<const float, 1> x,
                   VertexView<float, 1> y, int runs)
{
    CusparseHandle          handle;
    CusparseMatrix<float, 1> csr(L);
    const std::pair<cusparseSpMVAlg_t, const char*> algs[] = {
        {CUSPARSE_SPMV_ALG_DEFAULT, "default"}, {CUSPARSE_SPMV_CSR_ALG1, "csr_alg1"},
        {CUSPARSE_SPMV_CSR_ALG2, "csr_alg2"}};
    r.cusparse_ms = 1e30;
    for (const auto& [alg, name] : algs) {
        CusparseSpmv<float, 1> spmv(handle, csr, x, y, alg);
        const double ms = bench::gpu_median_ms([&] { spmv(); }, 3, runs);
        if (ms < r.cusparse_ms) r.cusparse_ms = ms, r.cusparse_best = name;
    }
}

Row measure(const std::string& name, int level, const TriangleSoup& soup, int runs)
{
    Row r;
    r.mesh = name, r.level = level;
    RXMesh mesh(soup);
    r.faces = mesh.num_faces(), r.vertices = mesh.num_vertices();
    const auto positions = mesh.positions().view();

    std::shared_ptr<const SparsePattern> pattern;
    r.pattern_ms = bench::gpu_median_ms([&] { pattern = vertex_pattern(mesh); }, 1, runs);
    r.blocks = pattern->num_blocks();
    SparseMatrix<float> L = cotangent_laplacian<float>(pattern, positions);
    r.assemble_ms = bench::gpu_median_ms([&] { L = cotangent_laplacian<float>(pattern, positions); }, 2, runs);
    r.mcf_terms_ms = bench::gpu_median_ms([&] { (void)mcf_system(mesh, positions, false); }, 2, runs);
    r.pattern_bytes = pattern->csr_bytes(), r.value_bytes = L.value_bytes();

    auto x = mesh.add_vertex_attribute<float>("bench:x"), y = mesh.add_vertex_attribute<float>("bench:y"),
         t = mesh.add_vertex_attribute<float>("bench:t");
    for (std::uint32_t v = 0; v < r.vertices; ++v) x.host(VertexId(v)) = std::sin(0.001f * v);
    x.to_device();
    r.spmv_ms = bench::gpu_median_ms([&] { multiply(L, x.view(), y); }, 3, runs);
    time_cusparse(r, L, x, t, runs);
    // bytes a product must move: offsets, columns, values, x once, y written
    const double bytes = double(pattern->csr_bytes()) + double(L.value_bytes()) + 8.0 * r.vertices;
    r.spmv_gbps = bytes / (r.spmv_ms * 1e6);

    auto x3 = mesh.add_vertex_attribute<float, 3>("bench:x3"), y3 = mesh.add_vertex_attribute<float, 3>("bench:y3");
    copy(x3, mesh.positions());
    r.spmv3_ms = bench::gpu_median_ms([&] { multiply(L, x3.view(), y3); }, 3, runs);
    const McfSystem s = mcf_system(mesh, positions, false);
    r.mcf_apply3_ms = bench::gpu_median_ms([&] { mcf_apply(mesh, s, 1.f, x3, y3, false); }, 3, runs);

    multiply(L, x.view(), y);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    verify(r, L, to_host(y.view()), to_host(t.view()), mesh);
    return r;
}

std::string row_json(const Row& r)
{
    using bench::json_number;
    return "{\"mesh\":\"" + r.mesh + "\",\"level\":" + std::to_string(r.level) +
           ",\"faces\":" + std::to_string(r.faces) + ",\"vertices\":" + std::to_string(r.vertices) +
           ",\"blocks\":" + std::to_string(r.blocks) + ",\"pattern_ms\":" + json_number(r.pattern_ms) +
           ",\"assemble_ms\":" + json_number(r.assemble_ms) +
           ",\"mcf_terms_ms\":" + json_number(r.mcf_terms_ms) + ",\"spmv_ms\":" + json_number(r.spmv_ms) +
           ",\"spmv_gbps\":" + json_number(r.spmv_gbps) + ",\"cusparse_spmv_ms\":" +
           json_number(r.cusparse_ms) + ",\"cusparse_best\":\"" + r.cusparse_best +
           "\",\"spmv3_ms\":" + json_number(r.spmv3_ms) + ",\"mcf_apply3_ms\":" +
           json_number(r.mcf_apply3_ms) + ",\"pattern_bytes\":" + std::to_string(r.pattern_bytes) +
           ",\"value_bytes\":" + std::to_string(r.value_bytes) + ",\"spmv_vs_cusparse\":" +
           json_number(r.spmv_vs_cusparse) + ",\"row_sum_error\":" + json_number(r.row_sum_error) +
           ",\"verified\":" + (r.verified ? "true" : "false") + "}";
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::guarded_main("bench_matrix", [&] {
        std::string mesh_file, json;
        int         levels = 4, min_level = 2, runs = 15;
        CLI::App    cli{"The sparse-matrix layer: pattern, assembly, SpMV against cuSPARSE",
                     "bench_matrix"};
        bench::add_mesh(cli, mesh_file, "a noisy icosphere otherwise");
        bench::add_levels(cli, levels);
        bench::add_min_level(cli, min_level);
        bench::add_runs(cli, runs);
        bench::add_json(cli, json);
        if (const int rc = bench::parse(cli, argc, argv); rc >= 0) return rc;
        std::vector<Row> rows;
        std::printf("| mesh | faces | pattern ms | assemble L ms | MCF terms ms | SpMV ms | GB/s | "
                    "cuSPARSE ms (best) | SpMV 3 col ms | mcf_apply 3 col ms | verified |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|\n");
        bench::for_each_mesh_level(mesh_file.empty() ? std::vector<std::string>{}
                                                     : std::vector<std::string>{mesh_file},
                                   min_level, levels, [&](const std::string& name, int level,
                                                          const TriangleSoup& soup) {
            const Row r = measure(name, level, soup, runs);
            std::printf("| %s L%d | %u | %.3f | %.3f | %.3f | %.3f | %.0f | %.3f (%s) | %.3f | %.3f | "
                        "%s (%.1e, %.1e) |\n",
                        r.mesh.c_str(), r.level, r.faces, r.pattern_ms, r.assemble_ms,
                        r.mcf_terms_ms, r.spmv_ms, r.spmv_gbps, r.cusparse_ms,
                        r.cusparse_best.c_str(), r.spmv3_ms, r.mcf_apply3_ms,
                        r.verified ? "yes" : "NO", r.spmv_vs_cusparse, r.row_sum_error);
            std::fflush(stdout);
            rows.push_back(r);
        });
        const bool ok = bench::write_rows_json(
            json, "{\"benchmark\":\"matrix\",\"gpu\":\"" + bench::gpu_name() + "\",\"rows\":[",
            rows, row_json, [](const Row& r) { return r.verified; });
        return ok ? 0 : 1;
    });
}
