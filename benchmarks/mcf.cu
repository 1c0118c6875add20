// Mean curvature flow, one implicit step (algo/mcf.cuh): RXMesh's
// matrix-free CG (weights and areas computed once per step into an edge and
// a vertex buffer, the product as RXMesh::accumulate<Op::EV> with the
// direction update and d.q fused in) against CG on the assembled float CSR
// matrix with cuSPARSE SpMM (baselines/assembled_cg.cuh) and, when Eigen is
// available, a serial CPU sparse LDLT. Both GPU methods use the mesh's patch
// numbering and the same fused vector kernels; every method's result is
// checked at every size against the double reference system
// (reference::mcf_residual).
//
// Per size (the input refined 1-to-4, levels 0..L): time per CG iteration
// (a fixed 50 iterations, median of runs), time to solution at the given
// tolerance (including what each method builds: weights and areas; the
// assembled matrix), iterations, GB/s of an iteration against measured
// copy bandwidth, and the device bytes each method keeps.
//
// usage: bench_mcf [--mesh FILE] [--levels L] [--runs R] [--tol T]
//                  [--dt-scale S] [--eigen-max-faces F] [--json OUT]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cub/device/device_for.cuh>
#include <string>
#include <type_traits>
#include <vector>

#include "assembled_cg.cuh"
#include "bench_cli.h"
#include "bench_main.h"
#include "bench_util.h"
#include "mcf_recompute.cuh"
#include "pde_mcf.cuh"
#include "rxmesh/algo/mcf.cuh"
#include "rxmesh/export.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/rxmesh.cuh"
#if RXMESH_HAVE_EIGEN
#include "eigen_mcf.h"
#endif

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_mcf",
    "implicit mean curvature flow by matrix-free CG, RXMesh vs PDE vs an assembled matrix"};

using namespace rxmesh;

struct Args
{
    std::string   file, json;
    int           levels = 4, min_level = 0, runs = 11, fixed_iterations = 50;
    double        tol = 1e-5, dt_scale = 10;
    std::uint64_t eigen_max_faces = 1'000'000;
};

struct Row
{
    int           level = 0;
    std::uint64_t faces = 0, vertices = 0, nnz = 0;
    float         dt    = 0;
    double rx_iter_ms_by_block[3] = {0, 0, 0};  // accumulate's product: 64, 128, 256 threads
    double rx_cached_by_block[3]  = {0, 0, 0};  // the cached operator's: 64, 128, 256 threads
    double rx_cached_build_ms = 0, rx_cached_bytes = 0, rx_accumulate_gbps = 0;
    double rx_cached_launches_ms = 0, rx_cached_persistent_ms = 0;  // 128 threads, each loop forced
    double rx_cached_single_pass_ms = 0;
    double pd_two_pass_ms = 0, pd_single_pass_ms = 0;  // each PDE loop at its best block
    int    pd_two_pass_block = 0, pd_single_pass_block = 0;
    bool   pd_single_pass    = false;  // the faster PDE loop, which pd_iter_ms and the solve use
    std::string sp_variant;
    double rx_iter_ms = 0, rx_terms_ms = 0, rx_solve_ms = 0, rx_bytes = 0, rx_iter_gbps = 0;
    double sp_iter_ms = 0, sp_assembly_ms = 0, sp_solve_ms = 0, sp_bytes = 0, sp_iter_gbps = 0;
    double pd_iter_ms = 0, pd_terms_ms = 0, pd_solve_ms = 0, pd_bytes = 0, pd_build_ms = 0;
    int    pd_block = 0, pd_iterations = 0;
    bool   pd_ok    = false;
    double rx_build_ms = 0;
    double rc_iter_ms = -1, rc_solve_ms = 0;  // weights recomputed in every product (paper's form)
    int    rc_block = 0, rc_iterations = 0;
    bool   rc_ok    = false;
    double eigen_ms   = -1;
    int    rx_iterations = 0, sp_iterations = 0;
    bool   rx_ok = false, sp_ok = false, eigen_ok = false;
};

//! The reference system of the mesh at its positions, and a checker.
struct Reference
{
    reference::McfSystem s;
    std::vector<double>  x0;

    Reference(const RXMesh& mesh)
    {
        const auto            p = to_host(mesh.positions().view());
        const auto            f = mesh.faces().to_host();
        std::vector<Vec3f>    pos(mesh.num_vertices());
        std::vector<Triangle> faces(mesh.num_faces());
        std::memcpy(pos.data(), p.data(), p.size() * sizeof(float));
        std::memcpy(faces.data(), f.data(), f.size() * sizeof(std::uint32_t));
        s  = reference::mcf_system(pos, faces, false);
        x0 = std::vector<double>(p.begin(), p.end());
    }
    bool accepts(const DeviceBuffer<float>& x, double dt, double tol, int iterations) const
    {
        const auto h = x.to_host();
        return reference::mcf_residual(s, dt, x0, std::vector<double>(h.begin(), h.end())).within(tol, iterations);
    }
};

void copy_positions(const RXMesh& mesh, DeviceBuffer<float>& x)
{
    RXMESH_CHECK_CUDA(
        cudaMemcpy(x.data(), mesh.positions().device_data(), x.bytes(), cudaMemcpyDeviceToDevice));
}

//! The vertex numbering a baseline runs in: RXMesh's patch order ("sorted",
//! no rank) or the input file's order (rank[g]: the input position of
//! global vertex g), as the query benchmarks' orders.
struct Numbering
{
    std::vector<std::uint32_t>  rank;  // empty: patch order
    DeviceBuffer<std::uint32_t> d_rank;

    bool identity() const { return rank.empty(); }
};

struct ToNumbering  // out[rank[g]] = in[g], 3 values per vertex
{
    const float*         in;
    float*               out;
    const std::uint32_t* rank;
    __device__ void operator()(std::uint64_t i) const { out[3 * std::uint64_t(rank[i / 3]) + i % 3] = in[i]; }
};

//! `global` (3 floats per vertex, patch order) into `out` in the numbering.
void renumber(const Numbering& num, const float* global, DeviceBuffer<float>& out)
{
    if (num.identity()) {
        RXMESH_CHECK_CUDA(cudaMemcpy(out.data(), global, out.bytes(), cudaMemcpyDeviceToDevice));
        return;
    }
    RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(out.size(), ToNumbering{global, out.data(), num.d_rank.data()}));
}

//! x in the numbering, back in patch order on the host (for the reference).
DeviceBuffer<float> to_patch_order(const Numbering& num, const DeviceBuffer<float>& x)
{
    DeviceBuffer<float> out(x.size());
    if (num.identity()) {
        RXMESH_CHECK_CUDA(cudaMemcpy(out.data(), x.data(), x.bytes(), cudaMemcpyDeviceToDevice));
        return out;
    }
    const auto         h = x.to_host();
    std::vector<float> g(h.size());
    for (std::size_t v = 0; v < num.rank.size(); ++v)
        for (int k = 0; k < 3; ++k)
            g[3 * v + k] = h[3 * std::size_t(num.rank[v]) + k];
    out.upload(g.data(), g.size());
    return out;
}

Numbering input_numbering(const RXMesh& mesh)
{
    Numbering num;
    num.rank   = input_vertex_rank(input_vertex_order(mesh));
    num.d_rank = DeviceBuffer<std::uint32_t>::from_host(num.rank);
    return num;
}

//! RXMesh: terms, a fixed number of iterations, and a solve to tolerance.
void time_rxmesh(const RXMesh& mesh, const Args& a, const Reference& ref, Row& row)
{
    const std::size_t   n = 3 * std::size_t(mesh.num_vertices());
    DeviceBuffer<float> x(n), r(n);
    const VertexView<float, 3> xv(x.data(), mesh.num_vertices()), rv(r.data(), mesh.num_vertices());
    copy_positions(mesh, x);
    row.rx_terms_ms = bench::gpu_median_ms([&] { (void)mcf_system(mesh, xv, false); }, 1, a.runs);
    const McfSystem s = mcf_system(mesh, xv, false);
    CgOptions fixed;
    fixed.tolerance      = 1e-30;  // never met: exactly fixed_iterations iterations
    fixed.max_iterations = a.fixed_iterations;
    const mcf::McfOperator op = s.op(mesh, row.dt);
    auto fixed_run = [&](auto block) {
        constexpr int kThreads = decltype(block)::value;
        return bench::gpu_median_ms([&] {
            copy_positions(mesh, x);
            mcf_apply(mesh, s, row.dt, xv, rv, false, -1.f);
            (void)cg_solve<3, kThreads>(mesh, op, xv, rv, fixed);
        }, 1, a.runs) / a.fixed_iterations;
    };
    row.rx_iter_ms_by_block[0] = fixed_run(std::integral_constant<int, 64>{});
    row.rx_iter_ms_by_block[1] = fixed_run(std::integral_constant<int, 128>{});
    row.rx_iter_ms_by_block[2] = fixed_run(std::integral_constant<int, 256>{});
    // the operator cached per patch (what mean_curvature_flow runs): built
    // once per time step, timed apart; the iterations timed as above
    const EdgeView<const float>   w(s.w.data(), mesh.num_edges());
    const VertexView<const float> areas(s.a.data(), mesh.num_vertices());
    row.rx_cached_build_ms =
        bench::gpu_median_ms([&] { (void)PatchLaplacian(mesh, w, row.dt); }, 1, a.runs);
    const PatchLaplacian lap(mesh, w, row.dt);
    auto cached_run = [&](auto block, CgLoop loop, auto min_blocks) {
        constexpr int kThreads = decltype(block)::value, kMin = decltype(min_blocks)::value;
        const double  ms = bench::gpu_median_ms([&] {
            copy_positions(mesh, x);
            mcf_apply(mesh, s, row.dt, xv, rv, false, -1.f);
            (void)cg_solve_cached<3, kThreads, kMin>(mesh, lap, areas, 2.f, xv, rv, fixed, 0, loop);
        }, 1, a.runs) / a.fixed_iterations;
        std::fprintf(stderr, "  level faces %zu, cached CG, %d threads (>= %d/SM), loop %d: %.4f ms/iter\n",
                     std::size_t(mesh.num_faces()), kThreads, kMin, int(loop), ms);
        return ms;
    };
    using NoBound = std::integral_constant<int, 0>;
    row.rx_cached_by_block[0] = cached_run(std::integral_constant<int, 64>{}, CgLoop::Auto, NoBound{});
    row.rx_cached_by_block[1] = cached_run(std::integral_constant<int, 128>{}, CgLoop::Auto, NoBound{});
    row.rx_cached_by_block[2] = cached_run(std::integral_constant<int, 256>{}, CgLoop::Auto, NoBound{});
    row.rx_cached_launches_ms =
        cached_run(std::integral_constant<int, 128>{}, CgLoop::Launches, NoBound{});
    row.rx_cached_persistent_ms =
        cached_run(std::integral_constant<int, 128>{}, CgLoop::Persistent, NoBound{});
    row.rx_cached_single_pass_ms =
        cached_run(std::integral_constant<int, 128>{}, CgLoop::SinglePass, NoBound{});
    (void)cached_run(std::integral_constant<int, 256>{}, CgLoop::SinglePass, NoBound{});
    // the two-pass loops at full occupancy (32 registers): a sweep, printed
    (void)cached_run(std::integral_constant<int, 128>{}, CgLoop::Persistent,
                     std::integral_constant<int, 16>{});
    (void)cached_run(std::integral_constant<int, 256>{}, CgLoop::Persistent,
                     std::integral_constant<int, 8>{});
    (void)cached_run(std::integral_constant<int, 128>{}, CgLoop::Launches,
                     std::integral_constant<int, 16>{});
    // the default (launch by size), which the solve below uses
    row.rx_iter_ms = cached_run(std::integral_constant<int, 0>{}, CgLoop::Auto, NoBound{});
    row.rx_cached_bytes = double(lap.bytes());
    McfOptions o;
    o.dt           = row.dt;  // the step every method and the check use
    o.cg.tolerance = a.tol;
    o.cg.max_iterations = 100000;
    McfReport rep;
    row.rx_solve_ms = bench::gpu_median_ms([&] {
        rep = mean_curvature_flow(mesh, mesh.positions(), xv, o);  // copies the positions to x
    }, 1, a.runs);
    row.rx_iterations = rep.iterations;
    row.rx_ok         = rep.converged && ref.accepts(x, row.dt, a.tol, rep.iterations);
    // kept: the patch store, weights, areas, positions, x, and the loop's
    // vectors (single pass: r, d, q twice; two passes: r, d twice, q) (the
    // faces that the weights read are made and freed by mcf_system)
    const bool   single_pass = mesh.num_vertices() <= kSinglePassMaxVertices;
    row.rx_bytes = double(mesh.stats().store_bytes) + s.w.bytes() + s.a.bytes() +
                   (single_pass ? 8.0 : 6.0) * n * 4 + row.rx_cached_bytes;
    // moved per iteration by the loop Auto takes, besides the cache and a:
    // single pass: r, q and d_old read at every local vertex (owned and
    // ribbon), x read and written, r, d, q written; two passes: r and d_old
    // read at every local vertex, d and q written, then x, r, d, q read and
    // x, r written
    const double local_values = n * (1.0 + mesh.stats().ribbon_overhead_vertices);
    const double vectors      = single_pass ? 3 * 4.0 * local_values + 5 * 4.0 * n
                                            : 2 * 4.0 * local_values + 8 * 4.0 * n;
    const double moved = row.rx_cached_bytes + 4.0 * mesh.num_vertices() + vectors;
    row.rx_iter_gbps = moved / (row.rx_iter_ms * 1e6);
    // accumulate's product reads the store, w, a, and r, d_old at every
    // local vertex, writes d, q; the update reads x, r, d, q, writes x, r
    const double moved_acc = double(mesh.stats().store_bytes) + 4.0 * mesh.num_edges() +
                             4.0 * mesh.num_vertices() + 2 * 4.0 * local_values + 2 * 4.0 * n +
                             6.0 * n * 4;
    row.rx_accumulate_gbps = moved_acc / (row.rx_iter_ms_by_block[1] * 1e6);
}

//! The baselines' CG to --tol (their iteration bound).
CgOptions baseline_cg_options(const Args& a)
{
    CgOptions solve;
    solve.tolerance      = a.tol;
    solve.max_iterations = 100000;
    return solve;
}

//! cuSPARSE: assembly, a fixed number of iterations, and a solve.
void time_assembled(const RXMesh& mesh, const Args& a, const Reference& ref, Row& row,
                    const Numbering& num)
{
    const std::size_t   n = 3 * std::size_t(mesh.num_vertices());
    DeviceBuffer<float> x(n), r(n), x0(n), r0(n);
    copy_positions(mesh, x);
    const VertexView<float, 3> xv(x.data(), mesh.num_vertices()), rv(r.data(), mesh.num_vertices());
    const McfSystem s = mcf_system(mesh, xv, false);
    mcf_apply(mesh, s, row.dt, xv, rv, false, -1.f);  // r0 = -dt L x0
    renumber(num, x.data(), x0);
    renumber(num, r.data(), r0);
    auto start = [&] {  // x = x0, r = r0 in the method's numbering
        RXMESH_CHECK_CUDA(cudaMemcpy(x.data(), x0.data(), x.bytes(), cudaMemcpyDeviceToDevice));
        RXMESH_CHECK_CUDA(cudaMemcpy(r.data(), r0.data(), r.bytes(), cudaMemcpyDeviceToDevice));
    };
    const std::uint32_t* rank = num.identity() ? nullptr : num.d_rank.data();
    row.sp_assembly_ms = bench::gpu_median_ms(
        [&] { (void)baselines::assemble_mcf_matrix(mesh, s, row.dt, rank); }, 1, a.runs);
    const baselines::AssembledMatrix A = baselines::assemble_mcf_matrix(mesh, s, row.dt, rank);
    row.nnz = A.nnz;
    CgOptions fixed;
    fixed.tolerance      = 1e-30;
    fixed.max_iterations = a.fixed_iterations;
    int                              count    = 0;
    const baselines::ProductVariant* variants = baselines::product_variants(&count);
    const baselines::ProductVariant* best     = nullptr;
    for (int i = 0; i < count; ++i) {
        double ms = 0;
        try {
            ms = bench::gpu_median_ms([&] {
                start();
                (void)baselines::assembled_cg(A, variants[i], x.data(), r.data(), fixed);
            }, 1, a.runs) / a.fixed_iterations;
        } catch (const CudaError& e) {
            std::fprintf(stderr, "bench_mcf: cuSPARSE variant '%s' skipped: %s\n", variants[i].name, e.what());
            continue;
        }
        std::fprintf(stderr, "  level faces %llu, cuSPARSE %s: %.4f ms/iter\n", (unsigned long long)row.faces,
                     variants[i].name, ms);
        if (!best || ms < row.sp_iter_ms) {
            best           = variants + i;
            row.sp_iter_ms = ms;
        }
    }
    if (!best)
        throw Error("bench_mcf: no cuSPARSE variant ran");
    row.sp_variant = best->name;
    const CgOptions solve = baseline_cg_options(a);
    CgReport res;
    const double solve_ms = bench::gpu_median_ms([&] {
        start();
        res = baselines::assembled_cg(A, *best, x.data(), r.data(), solve);
    }, 1, a.runs);
    row.sp_solve_ms   = row.rx_terms_ms + row.sp_assembly_ms + solve_ms;  // the same terms first
    row.sp_iterations = res.iterations;
    row.sp_ok         = res.converged && ref.accepts(to_patch_order(num, x), row.dt, a.tol, res.iterations);
    row.sp_bytes = double(A.bytes()) + baselines::assembled_cg_vector_bytes(A.n) + n * 4.0;
    // SpMM reads the matrix and d, writes q; the dot reads d, q; the update
    // reads x, r, d, q, writes x, r; the direction reads r, d, writes d
    const double moved = double(A.bytes()) + 2.0 * n * 4 + 2.0 * n * 4 + 6.0 * n * 4 + 3.0 * n * 4;
    row.sp_iter_gbps   = moved / (row.sp_iter_ms * 1e6);
}

//! PDE: the same CG with a halfedge-circulation product, block size swept.
void time_pde(const RXMesh& mesh, const Args& a, const Reference& ref, Row& row, const Numbering& num)
{
    const std::size_t   n = 3 * std::size_t(mesh.num_vertices());
    std::vector<Triangle> faces(mesh.num_faces());
    const auto            f = mesh.faces().to_host();
    std::memcpy(faces.data(), f.data(), f.size() * sizeof(std::uint32_t));
    if (!num.identity())
        for (Triangle& t : faces)
            for (auto& v : t)
                v = num.rank[v];
    const auto t0 = std::chrono::steady_clock::now();
    const baselines::PdeMesh pde(faces, mesh.num_vertices());  // in the numbering
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    row.pd_build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    DeviceBuffer<float> x(n), r(n), x0(n);
    renumber(num, mesh.positions().device_data(), x0);
    auto start = [&] { RXMESH_CHECK_CUDA(cudaMemcpy(x.data(), x0.data(), x.bytes(), cudaMemcpyDeviceToDevice)); };
    start();
    row.pd_terms_ms = bench::gpu_median_ms([&] { (void)baselines::pde_mcf_system(pde, x.data()); }, 1, a.runs);
    const baselines::PdeMcfSystem s = baselines::pde_mcf_system(pde, x.data());
    CgOptions fixed;
    fixed.tolerance      = 1e-30;
    fixed.max_iterations = a.fixed_iterations;
    // both CG loops at every block size; the faster one is PDE's figure
    auto cg = [&](bool single_pass, float* xd, float* rd, const CgOptions& o, int block) {
        return single_pass ? baselines::pde_mcf_cg_single_pass(pde, s, row.dt, xd, rd, o, block)
                           : baselines::pde_mcf_cg(pde, s, row.dt, xd, rd, o, block);
    };
    for (bool single_pass : {false, true})
        for (int block : {64, 128, 256}) {
            const double ms = bench::gpu_median_ms([&] {
                start();
                baselines::pde_mcf_initial_residual(pde, s, row.dt, x.data(), r.data());
                (void)cg(single_pass, x.data(), r.data(), fixed, block);
            }, 1, a.runs) / a.fixed_iterations;
            double& best       = single_pass ? row.pd_single_pass_ms : row.pd_two_pass_ms;
            int&    best_block = single_pass ? row.pd_single_pass_block : row.pd_two_pass_block;
            if (best_block == 0 || ms < best) {
                best_block = block;
                best       = ms;
            }
        }
    row.pd_single_pass = row.pd_single_pass_ms < row.pd_two_pass_ms;
    row.pd_iter_ms     = row.pd_single_pass ? row.pd_single_pass_ms : row.pd_two_pass_ms;
    row.pd_block       = row.pd_single_pass ? row.pd_single_pass_block : row.pd_two_pass_block;
    const CgOptions solve = baseline_cg_options(a);
    CgReport res;
    const double solve_ms = bench::gpu_median_ms([&] {
        start();
        baselines::pde_mcf_initial_residual(pde, s, row.dt, x.data(), r.data());
        res = cg(row.pd_single_pass, x.data(), r.data(), solve, row.pd_block);
    }, 1, a.runs);
    row.pd_solve_ms   = row.pd_terms_ms + solve_ms;
    row.pd_iterations = res.iterations;
    row.pd_ok         = res.converged && ref.accepts(to_patch_order(num, x), row.dt, a.tol, res.iterations);
    row.pd_bytes      = double(pde.bytes()) + s.w.bytes() + s.a.bytes() +
                   (row.pd_single_pass ? 8.0 : 6.0) * n * 4;
}

//! The paper's product (weights and areas recomputed from the positions in
//! every product, oriented VV), on closed meshes only.
void time_recompute(const RXMesh& mesh, const Args& a, const Reference& ref, Row& row)
{
    const auto boundary = mesh.boundary_edges();
    boundary.to_host();
    for (std::uint32_t e = 0; e < mesh.num_edges(); ++e)
        if (boundary.host(EdgeId(e)))
            return;  // the ring-based weights need closed fans
    const std::size_t   n = 3 * std::size_t(mesh.num_vertices());
    DeviceBuffer<float> x(n), r(n);
    const VertexView<float, 3> xv(x.data(), mesh.num_vertices()), rv(r.data(), mesh.num_vertices());
    const float*        pos = mesh.positions().device_data();
    CgOptions           fixed;
    fixed.tolerance      = 1e-30;
    fixed.max_iterations = a.fixed_iterations;
    // r0 = -dt L x0 from weights computed once, outside the timings, as for
    // RXMesh's own runs (time_rxmesh)
    const McfSystem s0 = mcf_system(mesh, mesh.positions(), false);
    auto residual = [&] {
        copy_positions(mesh, x);
        mcf_apply(mesh, s0, row.dt, xv, rv, false, -1.f);
    };
    auto fixed_run = [&](auto block) {
        constexpr int kThreads = decltype(block)::value;
        return bench::gpu_median_ms([&] {
            residual();
            (void)bench::recompute_cg<kThreads>(mesh, pos, row.dt, x.data(), r.data(), fixed);
        }, 1, a.runs) / a.fixed_iterations;
    };
    const double t128 = fixed_run(std::integral_constant<int, 128>{});
    const double t256 = fixed_run(std::integral_constant<int, 256>{});
    row.rc_block   = t128 <= t256 ? 128 : 256;
    row.rc_iter_ms = std::min(t128, t256);
    const CgOptions solve = baseline_cg_options(a);
    CgReport res;
    row.rc_solve_ms = bench::gpu_median_ms([&] {
        residual();
        res = row.rc_block == 128 ? bench::recompute_cg<128>(mesh, pos, row.dt, x.data(), r.data(), solve)
                                  : bench::recompute_cg<256>(mesh, pos, row.dt, x.data(), r.data(), solve);
    }, 1, a.runs);
    row.rc_iterations = res.iterations;
    row.rc_ok         = res.converged && ref.accepts(x, row.dt, a.tol, res.iterations);
}

void time_eigen(const Args& a, const Reference& ref, Row& row)
{
#if RXMESH_HAVE_EIGEN
    if (row.faces > a.eigen_max_faces)
        return;
    std::vector<Vec3f> p(ref.x0.size() / 3);
    for (std::size_t v = 0; v < p.size(); ++v)
        p[v] = {float(ref.x0[3 * v]), float(ref.x0[3 * v + 1]), float(ref.x0[3 * v + 2])};
    std::vector<double> x;
    row.eigen_ms = bench::cpu_median_ms([&] { x = test::eigen_mcf_step(ref.s, row.dt, p); }, 1);
    row.eigen_ok = reference::mcf_residual(ref.s, row.dt, ref.x0, x).within(a.tol, 0);  // a direct solve in double: no iterations
#else
    (void)a, (void)ref, (void)row;
#endif
}

}  // namespace

namespace {

void add_options(CLI::App& cli, Args& a)
{
    bench::add_mesh_levels_runs(cli, a.file, "default: a noisy icosphere of 5 subdivisions",
                                a.levels, a.min_level, a.runs);
    bench::add_mcf_step(cli, a.tol, a.dt_scale);
    cli.add_option("--eigen-max-faces", a.eigen_max_faces,
                   "the CPU direct solve (Eigen) up to this many faces")
        ->capture_default_str();
    bench::add_json(cli, a.json);
}

using bench::yes;

void print_tables(const std::vector<Row>& rows)
{
    std::printf("### Time per CG iteration (ms; median of runs of 50 iterations)\n\n"
                "RXMesh: the operator cached per patch (the library's default: loop Auto, launch by "
                "size; then Auto at 64 / 256 threads); then 128 threads with each loop forced: three launches per iteration, one "
                "cooperative launch of the two-pass loop, one launch of the single-pass loop; its build once "
                "per time step; and accumulate's product (64 / 128 / 256). PDE: its two-pass loop and its "
                "single-pass loop, each at its best block; the faster is PDE's figure.\n\n"
                "| faces | RXMesh cached (default) | cached 64 / 256 thr | launches / one launch / single pass "
                "| cache build ms | accumulate 64 / 128 / 256 "
                "| PDE two-pass / single-pass (block) | cuSPARSE (fastest product) | RXMesh vs PDE | RXMesh vs cuSPARSE "
                "| GB/s cached / accumulate / cuSPARSE |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows)
        std::printf("| %llu | %.3f | %.3f / %.3f | %.3f / %.3f / %.3f | %.2f | %.3f / %.3f / %.3f "
                    "| %.3f (%d) / %.3f (%d) | %.3f (%s) | %.2fx | %.2fx | %.0f / %.0f / %.0f |\n",
                    (unsigned long long)r.faces, r.rx_iter_ms, r.rx_cached_by_block[0], r.rx_cached_by_block[2],
                    r.rx_cached_launches_ms, r.rx_cached_persistent_ms, r.rx_cached_single_pass_ms,
                    r.rx_cached_build_ms, r.rx_iter_ms_by_block[0], r.rx_iter_ms_by_block[1],
                    r.rx_iter_ms_by_block[2], r.pd_two_pass_ms, r.pd_two_pass_block, r.pd_single_pass_ms,
                    r.pd_single_pass_block, r.sp_iter_ms, r.sp_variant.c_str(),
                    r.pd_iter_ms / r.rx_iter_ms, r.sp_iter_ms / r.rx_iter_ms, r.rx_iter_gbps,
                    r.rx_accumulate_gbps, r.sp_iter_gbps);
    std::printf("\n### Time to solution (ms) and iterations\n\n"
                "| faces | dt | iterations RX / PDE / cuSPARSE | RXMesh terms + CG | PDE terms + CG | cuSPARSE terms + "
                "assembly + CG | Eigen LDLT (CPU serial) | RXMesh vs best other | data structure build: RXMesh "
                "(GPU) / PDE (host) | verified RX / PDE / cuSPARSE / Eigen |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows) {
        double best = std::min(r.pd_solve_ms, r.sp_solve_ms);
        if (r.eigen_ms >= 0)
            best = std::min(best, r.eigen_ms);
        char eigen[64] = "not run";
        if (r.eigen_ms >= 0)
            std::snprintf(eigen, sizeof eigen, "%.0f", r.eigen_ms);
        std::printf("| %llu | %.4g | %d / %d / %d | %.2f + %.1f | %.2f + %.1f | %.2f + %.2f + %.1f | %s | %.2fx | %.0f / %.0f "
                    "| %s / %s / %s / %s |\n",
                    (unsigned long long)r.faces, r.dt, r.rx_iterations, r.pd_iterations, r.sp_iterations,
                    r.rx_terms_ms, r.rx_solve_ms - r.rx_terms_ms, r.pd_terms_ms, r.pd_solve_ms - r.pd_terms_ms,
                    r.rx_terms_ms, r.sp_assembly_ms, r.sp_solve_ms - r.rx_terms_ms - r.sp_assembly_ms, eigen,
                    best / r.rx_solve_ms, r.rx_build_ms, r.pd_build_ms, yes(r.rx_ok), yes(r.pd_ok), yes(r.sp_ok),
                    r.eigen_ms >= 0 ? yes(r.eigen_ok) : "-");
    }
    std::printf("\n### RXMesh product variants: weights and areas computed once per step (default) or "
                "recomputed from the positions in every product (the paper's Listing 4, oriented VV, "
                "closed meshes only)\n\n| faces | precomputed ms/iter | recomputed ms/iter (block) | "
                "precomputed solution ms | recomputed solution ms (incl. r0) | iterations | verified |\n"
                "|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows) {
        if (r.rc_iter_ms < 0) {
            std::printf("| %llu | %.3f | not run (open mesh) | | | | |\n", (unsigned long long)r.faces, r.rx_iter_ms);
            continue;
        }
        std::printf("| %llu | %.3f | %.3f (%d) | %.1f | %.1f | %d / %d | %s / %s |\n", (unsigned long long)r.faces,
                    r.rx_iter_ms, r.rc_iter_ms, r.rc_block, r.rx_solve_ms, r.rc_solve_ms, r.rx_iterations,
                    r.rc_iterations, yes(r.rx_ok), yes(r.rc_ok));
    }
    std::printf("\n### Device memory each method keeps (MiB)\n\n| faces | RXMesh | PDE | cuSPARSE |\n|---|---|---|---|\n");
    for (const Row& r : rows)
        std::printf("| %llu | %.1f | %.1f | %.1f |\n", (unsigned long long)r.faces, r.rx_bytes / 1048576.0,
                    r.pd_bytes / 1048576.0, r.sp_bytes / 1048576.0);
}

//! The baselines in the input file's vertex numbering (RXMesh renumbers by
//! patch whatever the input order, so its row is the same).
void print_input_order(const std::vector<Row>& rows, const std::vector<Row>& in)
{
    std::printf("\n### Input order: PDE and cuSPARSE in the file's vertex numbering (ms per iteration; "
                "solution ms)\n\n| faces | RXMesh | PDE sorted / input | cuSPARSE sorted / input | "
                "PDE solution input | cuSPARSE solution input | verified PDE / cuSPARSE (input) |\n"
                "|---|---|---|---|---|---|---|\n");
    for (std::size_t i = 0; i < rows.size() && i < in.size(); ++i)
        std::printf("| %llu | %.3f | %.3f / %.3f | %.3f / %.3f | %.1f | %.1f | %s / %s |\n",
                    (unsigned long long)rows[i].faces, rows[i].rx_iter_ms, rows[i].pd_iter_ms, in[i].pd_iter_ms,
                    rows[i].sp_iter_ms, in[i].sp_iter_ms, in[i].pd_solve_ms, in[i].sp_solve_ms, yes(in[i].pd_ok),
                    yes(in[i].sp_ok));
}

std::string row_json(const Row& r)
{
    char b[2048];
    std::snprintf(b, sizeof b,
                  "{\"level\": %d, \"faces\": %llu, \"vertices\": %llu, \"nnz\": %llu, \"dt\": %.6g, "
                  "\"rxmesh\": {\"iteration_ms\": %.5f, \"terms_ms\": %.4f, \"solution_ms\": %.4f, "
                  "\"iterations\": %d, \"gbps\": %.1f, \"device_bytes\": %.0f, \"verified\": %s}, "
                  "\"cusparse\": {\"iteration_ms\": %.5f, \"assembly_ms\": %.4f, \"solution_ms\": %.4f, "
                  "\"iterations\": %d, \"gbps\": %.1f, \"device_bytes\": %.0f, \"verified\": %s}, "
                  "\"eigen_ldlt_ms\": %.1f, \"rxmesh_iteration_ms_64_128_256\": [%.5f, %.5f, %.5f], "
                  "\"rxmesh_loops_ms_launches_persistent_single_pass\": [%.5f, %.5f, %.5f], "
                  "\"cusparse_product\": \"%s\", \"pde\": {\"iteration_ms\": %.5f, \"block\": %d, "
                  "\"single_pass\": %s, \"two_pass_ms\": %.5f, \"single_pass_ms\": %.5f, "
                  "\"solution_ms\": %.4f, \"iterations\": %d, \"build_ms_host\": %.1f, \"verified\": %s}, "
                  "\"recomputed_weights\": {\"iteration_ms\": %.5f, \"solution_ms\": %.4f, \"iterations\": %d, "
                  "\"verified\": %s}}",
                  r.level, (unsigned long long)r.faces, (unsigned long long)r.vertices,
                  (unsigned long long)r.nnz, r.dt, r.rx_iter_ms, r.rx_terms_ms, r.rx_solve_ms,
                  r.rx_iterations, r.rx_iter_gbps, r.rx_bytes, r.rx_ok ? "true" : "false", r.sp_iter_ms,
                  r.sp_assembly_ms, r.sp_solve_ms, r.sp_iterations, r.sp_iter_gbps, r.sp_bytes,
                  r.sp_ok ? "true" : "false", r.eigen_ms, r.rx_iter_ms_by_block[0], r.rx_iter_ms_by_block[1],
                  r.rx_iter_ms_by_block[2], r.rx_cached_launches_ms, r.rx_cached_persistent_ms,
                  r.rx_cached_single_pass_ms, r.sp_variant.c_str(), r.pd_iter_ms, r.pd_block,
                  r.pd_single_pass ? "true" : "false", r.pd_two_pass_ms, r.pd_single_pass_ms, r.pd_solve_ms,
                  r.pd_iterations, r.pd_build_ms, r.pd_ok ? "true" : "false", r.rc_iter_ms, r.rc_solve_ms,
                  r.rc_iterations, r.rc_ok ? "true" : "false");
    return b;
}

//! One size measured: its row, and the baselines' row in the input file's
//! numbering.
struct LevelRows
{
    Row row, in_order;
};

LevelRows measure(const TriangleSoup& soup, const Args& a, int level)
{
    BuildOptions opt;
    opt.weld = true;
    const RXMesh    mesh(soup, opt);
    const Reference ref(mesh);
    const Numbering sorted, input = input_numbering(mesh);
    Row             row;
    row.faces    = mesh.num_faces();
    row.vertices = mesh.num_vertices();
    row.level    = level;
    const double h = mean_edge_length(mesh, mesh.positions());
    row.dt = float(a.dt_scale * h * h);
    time_rxmesh(mesh, a, ref, row);
    time_assembled(mesh, a, ref, row, sorted);
    time_pde(mesh, a, ref, row, sorted);
    Row in_order;  // the baselines in the input file's numbering
    in_order.faces = row.faces;
    in_order.dt    = row.dt;
    in_order.rx_terms_ms = row.rx_terms_ms;  // the terms the assembly starts from
    time_assembled(mesh, a, ref, in_order, input);
    time_pde(mesh, a, ref, in_order, input);
    time_recompute(mesh, a, ref, row);
    row.rx_build_ms = mesh.stats().total_ms;
    time_eigen(a, ref, row);
    return {row, in_order};
}

//! Measures every size, prints the tables, writes --json; the exit status.
int run(const Args& a)
{
    bench::keep_pool_memory();
    const double copy_gbps = bench::measured_copy_gbps();
    TriangleSoup soup      = a.file.empty() ? generate::noisy(generate::icosphere(5), 0.3f)
                                            : io::read(a.file);
    std::printf("GPU: %s; measured copy bandwidth %.0f GB/s; mesh %s; tol %.1e; dt = %.3g "
                "x mean edge length^2; %d fixed iterations for the per-iteration time; "
                "median of %d runs\n\n",
                bench::gpu_name().c_str(), copy_gbps,
                a.file.empty() ? "noisy icosphere" : a.file.c_str(), a.tol, a.dt_scale,
                a.fixed_iterations, a.runs);
    const std::string head = "{\"gpu\": \"" + bench::gpu_name() + "\", \"copy_gbps\": " +
                             bench::json_number(copy_gbps) + ", \"tolerance\": " +
                             bench::json_number(a.tol) + ", \"rows\": [";
    std::vector<Row> rows, rows_input;
    bench::for_each_level(std::move(soup), a.min_level, a.levels,
                          [&](int level, const TriangleSoup& s) {
                              const LevelRows m = measure(s, a, level);
                              rows_input.push_back(m.in_order);
                              rows.push_back(m.row);
                              std::fprintf(stderr,
                                           "level %d done: RXMesh %.3f ms/iter, PDE %.3f, "
                                           "cuSPARSE %.3f\n",
                                           level, m.row.rx_iter_ms, m.row.pd_iter_ms,
                                           m.row.sp_iter_ms);
                          });
    print_tables(rows);
    print_input_order(rows, rows_input);
    bench::write_text_file_if(a.json, bench::rows_document(head, rows, row_json, ", "));
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
