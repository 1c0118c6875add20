// The patch preconditioner (solver/patch_preconditioner.cuh) against a
// serial double one: block Jacobi over the store's patches, symmetric
// Gauss-Seidel inside each, in the order of its colours (the colours read
// back and checked to be a proper colouring of each patch's graph), the
// diagonal blocks solved by Gaussian elimination; for 1 x 1 and 3 x 3
// blocks, one and several right-hand sides, one and two sweeps. Then PCG
// with it against Eigen's SimplicialLDLT (solution and residual) on the
// generated families and real meshes, and bad input refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "random_values.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/matrix/host_export.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/mesh_operators.cuh"
#include "rxmesh/matrix/vertex_pattern.h"
#include "rxmesh/rxmesh.cuh"
#include "rxmesh/solver/patch_preconditioner.cuh"
#include "rxmesh/solver/pcg.cuh"
#include "solver_systems.h"
#include "test_data.h"

#if RXMESH_HAVE_EIGEN
#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#endif

namespace patch_preconditioner_test {

using namespace rxmesh;
using test::mean_squared_edge_length;
using test::min_diagonal;
using test::smoothing_matrix;

namespace {

//! kron(A, B): block (i, j) = a_ij B, on A's pattern, B a symmetric positive
//! definite 3 x 3 (kron(A, B) is SPD for SPD A).
SparseMatrix<double, 3> kron_with_b(const SparseMatrix<double>& A)
{
    SparseMatrix<double, 3> A3(A.pattern());
    const double*           a = A.values();
    double*                 v = A3.values();
    detail::for_indices(A3.num_values(), [=] __device__(std::uint64_t i) {
        const double b[9] = {2.0, 0.5, 0.0, 0.5, 1.0, 0.2, 0.0, 0.2, 1.5};
        v[i]              = a[i / 9] * b[i % 9];
    }, 0);
    return A3;
}

//! x solving the dense K x K system m x = s (Gaussian elimination, partial pivoting).
std::vector<double> dense_solve(std::vector<double> m, std::vector<double> s, int k)
{
    for (int c = 0; c < k; ++c) {
        int piv = c;
        for (int r = c + 1; r < k; ++r)
            if (std::abs(m[r * k + c]) > std::abs(m[piv * k + c])) piv = r;
        for (int j = 0; j < k; ++j) std::swap(m[c * k + j], m[piv * k + j]);
        std::swap(s[c], s[piv]);
        for (int r = c + 1; r < k; ++r) {
            const double f = m[r * k + c] / m[c * k + c];
            for (int j = c; j < k; ++j) m[r * k + j] -= f * m[c * k + j];
            s[r] -= f * s[c];
        }
    }
    for (int c = k - 1; c >= 0; --c) {
        for (int j = c + 1; j < k; ++j) s[c] -= m[c * k + j] * s[j];
        s[c] /= m[c * k + c];
    }
    return s;
}

//! The serial preconditioner on the host: for each patch, `sweeps`
//! symmetric Gauss-Seidel sweeps from z = 0, the rows taken colour by colour
//! (ascending, then descending) and, inside a colour, in ascending order.
//! h: the matrix's scalar rows (K per vertex); r, z: n x N values, N = R K.
std::vector<double> serial_patch_gauss_seidel(const HostCsr& h, int K, int N,
                                              const std::vector<std::uint32_t>& offsets,
                                              const std::vector<std::uint16_t>& colour,
                                              const std::vector<double>& r, int sweeps)
{
    std::vector<double> z(r.size(), 0.0);
    auto relax = [&](std::uint32_t i, std::uint32_t lo, std::uint32_t hi) {
        std::vector<double> d(K * K, 0.0);
        for (int c = 0; c < N / K; ++c) {
            std::vector<double> s(K);
            for (int k = 0; k < K; ++k) {
                const std::uint64_t row = std::uint64_t(i) * K + k;
                s[k] = r[std::uint64_t(i) * N + c * K + k];
                for (std::uint64_t e = h.row_offsets[row]; e < h.row_offsets[row + 1]; ++e) {
                    const std::uint64_t j = h.columns[e] / K, l = h.columns[e] % K;
                    if (j == i)
                        d[k * K + l] = h.values[e];
                    else if (j >= lo && j < hi)
                        s[k] -= h.values[e] * z[j * N + c * K + l];
                }
            }
            const std::vector<double> x = dense_solve(d, s, K);
            for (int k = 0; k < K; ++k) z[std::uint64_t(i) * N + c * K + k] = x[k];
        }
    };
    for (std::size_t p = 0; p + 1 < offsets.size(); ++p) {
        const std::uint32_t lo = offsets[p], hi = offsets[p + 1];
        int                 colours = 0;
        for (std::uint32_t i = lo; i < hi; ++i) colours = std::max(colours, colour[i] + 1);
        for (int s = 0; s < 2 * sweeps; ++s)
            for (int step = 0; step < colours; ++step) {
                const int c = s % 2 == 0 ? step : colours - 1 - step;
                for (std::uint32_t i = lo; i < hi; ++i)
                    if (colour[i] == c) relax(i, lo, hi);
            }
    }
    return z;
}

//! No two rows of one patch that the pattern couples share a colour, and
//! each patch's count is its largest colour + 1.
void expect_proper_colouring(const HostCsr& h, int K, const std::vector<std::uint32_t>& offsets,
                             const std::vector<std::uint16_t>& colour,
                             const std::vector<std::uint16_t>& per_patch, const std::string& what)
{
    ASSERT_EQ(per_patch.size() + 1, offsets.size()) << what;
    int conflicts = 0;
    for (std::size_t p = 0; p + 1 < offsets.size(); ++p) {
        int largest = -1;
        for (std::uint32_t i = offsets[p]; i < offsets[p + 1]; ++i) {
            largest = std::max(largest, int(colour[i]));
            const std::uint64_t row = std::uint64_t(i) * K;
            for (std::uint64_t e = h.row_offsets[row]; e < h.row_offsets[row + 1]; ++e) {
                const std::uint64_t j = h.columns[e] / K;
                conflicts += j != i && j >= offsets[p] && j < offsets[p + 1] && colour[j] == colour[i];
            }
        }
        EXPECT_EQ(int(per_patch[p]), largest + 1) << what << ": patch " << p;
    }
    EXPECT_EQ(conflicts, 0) << what << ": neighbours inside a patch with one colour";
}

//! The device's application against the serial one, for R right-hand sides.
template <int K, int N>
void check_application(const RXMesh& mesh, const SparseMatrix<double, K>& A, int sweeps,
                       const std::string& what)
{
    const HostCsr            h = to_host(A);
    PatchGaussSeidelOptions  opt;
    opt.sweeps = sweeps;
    const PatchGaussSeidel<double, K> M(mesh, A, opt);
    const auto offsets = mesh.store().vertex_offsets.to_host();
    const auto colour  = M.colours();
    expect_proper_colouring(h, K, offsets, colour, M.colours_per_patch(), what);

    const std::uint32_t       n = mesh.num_vertices();
    const std::vector<double> r = test::random_values<double>(std::size_t(n) * N, 7u + N);
    DeviceBuffer<double>      rd(r.size()), zd(r.size());
    rd.upload(r.data(), r.size());
    M.apply(A, VertexView<const double, N>(rd.data(), n), VertexView<double, N>(zd.data(), n));
    const std::vector<double> got  = zd.to_host();
    const std::vector<double> want = serial_patch_gauss_seidel(h, K, N, offsets, colour, r, sweeps);
    double scale = 0, worst = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        scale = std::max(scale, std::abs(want[i]));
        worst = std::max(worst, std::abs(got[i] - want[i]));
    }
    ASSERT_GT(scale, 0) << what;
    EXPECT_LE(worst, 1e-11 * scale) << what << ": K = " << K << ", N = " << N << ", sweeps "
                                    << sweeps;

    // symmetric and positive: <M^-1 u, v> = <u, M^-1 v>, <M^-1 u, u> > 0
    const std::vector<double> v = test::random_values<double>(r.size(), 99u + N);
    DeviceBuffer<double>      vd(v.size()), wd(v.size());
    vd.upload(v.data(), v.size());
    M.apply(A, VertexView<const double, N>(vd.data(), n), VertexView<double, N>(wd.data(), n));
    const std::vector<double> mv = wd.to_host();
    double uMv = 0, vMu = 0, uMu = 0, norms = 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
        uMv += r[i] * mv[i];
        vMu += v[i] * got[i];
        uMu += r[i] * got[i];
        norms += std::abs(r[i] * mv[i]) + std::abs(v[i] * got[i]);
    }
    EXPECT_NEAR(uMv, vMu, 1e-11 * norms) << what << ": symmetric";
    EXPECT_GT(uMu, 0) << what << ": positive";
}

//! Both block sizes, one and several right-hand sides, one and two sweeps.
void check_mesh(const TriangleSoup& soup, const std::string& what)
{
    RXMesh     mesh(soup);
    const auto pattern = vertex_pattern(mesh);
    const auto A       = smoothing_matrix(mesh, pattern, mean_squared_edge_length(soup));
    if (min_diagonal(to_host(A)) <= 0) {  // a vertex on zero-area faces only: refused
        EXPECT_THROW(PatchGaussSeidel<double>(mesh, A), InvalidInputError) << what;
        return;
    }
    check_application<1, 1>(mesh, A, 1, what);
    check_application<1, 3>(mesh, A, 2, what);
    const auto A3 = kron_with_b(A);
    check_application<3, 3>(mesh, A3, 1, what);
    check_application<3, 6>(mesh, A3, 2, what);
}

TEST(GpuPatchGaussSeidel, AppliesTheSerialPreconditionerOnEveryFamily)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    check_mesh(generate::noisy(generate::icosphere(4), 0.05f), "closed");
    check_mesh(generate::grid(40, 31), "open");
    check_mesh(generate::components(5, 3), "components");
    check_mesh(generate::fin(6), "non-manifold edge");
    check_mesh(generate::bowtie(), "non-manifold vertex");
    check_mesh(generate::isolated_faces(7), "isolated faces");
    check_mesh(generate::fan(300), "high valence");
}

TEST(GpuPatchGaussSeidel, AppliesTheSerialPreconditionerOnRealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
    const int visited = test::for_each_real_mesh(30000, [&](const std::string& file,
                                                            const TriangleSoup& soup) {
        check_mesh(soup, file);
        return !::testing::Test::HasFailure();
    });
    EXPECT_GT(visited, 0);
}

#if RXMESH_HAVE_EIGEN
struct Solved
{
    bool converged  = false;
    int  iterations = 0;
};

//! PCG with the patch preconditioner on (M + t L) X = M F, three columns at
//! once, against Eigen's SimplicialLDLT column by column.
Solved solve_against_eigen(const TriangleSoup& soup, const std::string& what, bool must_converge,
                           int* jacobi_iterations)
{
    constexpr double kTolerance = 1e-9;
    constexpr int    kBudget    = 5000;
    RXMesh           mesh(soup);
    const auto       pattern = vertex_pattern(mesh);
    const auto       A       = smoothing_matrix(mesh, pattern, mean_squared_edge_length(soup));
    const HostCsr    host    = to_host(A);
    if (min_diagonal(host) <= 0)
        return {true, 0};  // refused: check_mesh covers it
    const std::uint32_t n = mesh.num_vertices();
    const auto          M = full_mass<double>(pattern, mesh.positions());
    auto       f = mesh.add_vertex_attribute<double, 3>("f"), b = mesh.add_vertex_attribute<double, 3>("b"),
         x = mesh.add_vertex_attribute<double, 3>("x", 0.0), xj = mesh.add_vertex_attribute<double, 3>("xj", 0.0);
    const auto p = mesh.positions();
    p.to_host();
    for (std::uint32_t v = 0; v < n; ++v)
        for (int c = 0; c < 3; ++c)
            f.host(VertexId(v), c) = std::sin((3.0 + c) * p.host(VertexId(v), c)) + p.host(VertexId(v), (c + 1) % 3);
    f.to_device();
    multiply(M, f.view(), b);
    const PatchGaussSeidel<double> patch(mesh, A);
    const PcgReport rep = pcg_solve(A, b.view(), x, patch, {kBudget, kTolerance});
    const PcgReport jac = pcg_solve(A, b.view(), xj, {kBudget, kTolerance});
    if (jacobi_iterations != nullptr && rep.converged && jac.converged)
        *jacobi_iterations += jac.iterations;
    if (must_converge)
        EXPECT_TRUE(rep.converged) << what << ": " << rep.iterations << " iterations, residual "
                                   << rep.relative_residual;
    x.to_host();
    b.to_host();
    const Eigen::SparseMatrix<double> E = test::to_eigen(host);
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(E);
    EXPECT_EQ(ldlt.info(), Eigen::Success) << what;
    double r2 = 0, b2 = 0, rounding = 0;
    for (int c = 0; c < 3; ++c) {
        Eigen::VectorXd eb(n), ex(n);
        for (std::uint32_t v = 0; v < n; ++v) {
            eb[v] = b.host(VertexId(v), c);
            ex[v] = x.host(VertexId(v), c);
        }
        r2 += (E * ex - eb).squaredNorm();
        b2 += eb.squaredNorm();
        rounding = std::max(rounding, test::rounding_of_residual(E, ex, eb));
        if (rep.converged) {
            const Eigen::VectorXd want = ldlt.solve(eb);
            EXPECT_LE((ex - want).norm() / want.norm(), 1e-6) << what << ": column " << c;
        }
    }
    const double residual = std::sqrt(r2 / b2);
    // each column's rounding bounds its part of the joint residual
    EXPECT_NEAR(rep.relative_residual, residual, 1e-3 * residual + 3 * rounding)
        << what << ": the reported residual is the true one";
    if (rep.converged)
        EXPECT_LE(residual, kTolerance + 3 * rounding) << what << ": true residual";
    return {rep.converged, rep.iterations};
}
#endif

TEST(GpuPatchGaussSeidel, PcgSolvesLikeEigenOnEveryFamily)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
#if !RXMESH_HAVE_EIGEN
    GTEST_SKIP() << "Eigen not found at configure time";
#else
    solve_against_eigen(generate::noisy(generate::icosphere(4), 0.05f), "closed", true, nullptr);
    solve_against_eigen(generate::grid(40, 31), "open", true, nullptr);
    solve_against_eigen(generate::components(5, 3), "components", true, nullptr);
    solve_against_eigen(generate::fin(6), "non-manifold edge", true, nullptr);
    solve_against_eigen(generate::bowtie(), "non-manifold vertex", true, nullptr);
    solve_against_eigen(generate::isolated_faces(7), "isolated faces", true, nullptr);
    solve_against_eigen(generate::fan(300), "high valence", true, nullptr);
#endif
}

TEST(GpuPatchGaussSeidel, PcgSolvesLikeEigenOnRealMeshesInFewerIterationsThanJacobi)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
#if !RXMESH_HAVE_EIGEN
    GTEST_SKIP() << "Eigen not found at configure time";
#else
    int patch_iterations = 0, jacobi_iterations = 0, well_shaped = 0;
    const int visited = test::for_each_real_mesh(20000, [&](const std::string& file,
                                                            const TriangleSoup& soup) {
        // needles (cotangents above 1e3) may stop at the budget; the report must say so
        const bool   must = test::largest_cotangent(soup) <= 1e3;
        int          jacobi = 0;
        const Solved s = solve_against_eigen(soup, file, must, &jacobi);
        if (must && s.converged && jacobi > 0) {
            patch_iterations += s.iterations;
            jacobi_iterations += jacobi;
            ++well_shaped;
        }
        return !::testing::Test::HasFailure();
    });
    EXPECT_GT(visited, 0);
    std::printf("%d well-shaped real meshes: %d PCG iterations with the patches, %d with Jacobi\n",
                well_shaped, patch_iterations, jacobi_iterations);
    ASSERT_GT(well_shaped, 0);
    // symmetric Gauss-Seidel inside the patches must cut the iterations
    EXPECT_LT(patch_iterations, jacobi_iterations);
#endif
}

//! Diagonal blocks of 1 on the diagonal and 2 off it (eigenvalue -1).
SparseMatrix<double, 3> indefinite_diagonal_blocks(std::shared_ptr<const SparsePattern> pattern)
{
    SparseMatrix<double, 3>           blocks(pattern);
    const SparseMatrixView<double, 3> bv = blocks.view();
    detail::for_indices(blocks.num_rows(), [=] __device__(std::uint32_t row) {
        double* d = bv.block(bv.pattern.find(row, row));
        for (int k = 0; k < 9; ++k) d[k] = k % 4 == 0 ? 1.0 : 2.0;
    }, 0);
    return blocks;
}

TEST(GpuPatchGaussSeidel, BadInputIsRefused)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMesh     mesh(generate::icosphere(3));
    const auto pattern = vertex_pattern(mesh);
    const auto A       = smoothing_matrix(mesh, pattern, 1e-3);

    SparseMatrix<double> negative = A.clone();
    scale(negative, -1.0);
    EXPECT_THROW(PatchGaussSeidel<double>(mesh, negative), InvalidInputError);

    // 3 x 3 diagonal blocks of positive diagonal that are not positive definite
    const SparseMatrix<double, 3> blocks = indefinite_diagonal_blocks(pattern);
    EXPECT_THROW((PatchGaussSeidel<double, 3>(mesh, blocks)), InvalidInputError);

    PatchGaussSeidelOptions none;
    none.sweeps = 0;
    EXPECT_THROW(PatchGaussSeidel<double>(mesh, A, none), InvalidInputError);
    PatchGaussSeidelOptions odd;
    odd.threads = 100;
    EXPECT_THROW(PatchGaussSeidel<double>(mesh, A, odd), InvalidInputError);

    // another mesh's matrix, another pattern's matrix
    RXMesh     other(generate::icosphere(2));
    const auto other_A = smoothing_matrix(other, vertex_pattern(other), 1e-3);
    EXPECT_THROW(PatchGaussSeidel<double>(mesh, other_A), InvalidInputError);
    const PatchGaussSeidel<double> M(mesh, A);
    const auto                     A2 = smoothing_matrix(mesh, vertex_pattern(mesh), 1e-3);
    auto b = mesh.add_vertex_attribute<double>("b", 1.0), x = mesh.add_vertex_attribute<double>("x", 0.0);
    EXPECT_THROW(pcg_solve(A2, b.view(), x, M), InvalidInputError);

    // an indefinite matrix of positive diagonal: refused during the solve
    SparseMatrix<double> indefinite(pattern);
    test::assemble_indefinite(indefinite);
    const PatchGaussSeidel<double> MI(mesh, indefinite);
    EXPECT_THROW(pcg_solve(indefinite, b.view(), x, MI), Error);

    // non-finite right-hand side
    auto nan = mesh.add_vertex_attribute<double>("nan", std::nan(""));
    EXPECT_THROW(pcg_solve(A, nan.view(), x, M), InvalidInputError);
}

}  // namespace
}  // namespace patch_preconditioner_test
