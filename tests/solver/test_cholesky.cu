// The GPU supernodal Cholesky against Eigen's SimplicialLDLT in double
// (solution and residual) on generated and real meshes, several right-hand
// sides, a refactorization with new values, and bad systems refused with a
// clear error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/matrix/assemble.cuh"
#include "rxmesh/matrix/host_export.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/mesh_operators.cuh"
#include "rxmesh/matrix/vertex_pattern.h"
#include "rxmesh/rxmesh.cuh"
#include "rxmesh/solver/cholesky.h"
#include "solver_systems.h"
#include "test_data.h"

#if RXMESH_HAVE_EIGEN
#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#endif

namespace cholesky_test {

using namespace rxmesh;

namespace {

#if RXMESH_HAVE_EIGEN
#define RXMESH_SKIP_WITHOUT_EIGEN() (void)0
#else
#define RXMESH_SKIP_WITHOUT_EIGEN() GTEST_SKIP() << "Eigen not found at configure time"
#endif

//! R right-hand sides, row-major (row i's R values together), smooth in the
//! positions so that they differ per column.
std::vector<double> right_hand_sides(const std::vector<Vec3f>& p, std::uint32_t R)
{
    std::vector<double> b(p.size() * R);
    for (std::size_t v = 0; v < p.size(); ++v)
        for (std::uint32_t r = 0; r < R; ++r)
            b[v * R + r] = std::sin((r + 1) * 3.0 * p[v][0]) + r * p[v][1] + p[v][2] * p[v][2];
    return b;
}

std::vector<Vec3f> host_positions(const RXMesh& mesh)
{
    const std::vector<float> flat = to_host(mesh.positions().view());
    std::vector<Vec3f>       out(flat.size() / 3);
    for (std::size_t v = 0; v < out.size(); ++v) out[v] = {flat[3 * v], flat[3 * v + 1], flat[3 * v + 2]};
    return out;
}

#if RXMESH_HAVE_EIGEN
//! Column r of a row-major rows x R array.
Eigen::VectorXd column(const std::vector<double>& x, std::size_t rows, std::uint32_t R,
                       std::uint32_t r)
{
    Eigen::VectorXd c(rows);
    for (std::size_t i = 0; i < rows; ++i) c[i] = x[i * R + r];
    return c;
}

//! Each of x's R columns against A x = b: the residual within rounding of
//! 1e-12 and, where `compare_solution`, Eigen's solution within 1e-8.
void expect_solves(const HostCsr& A, const std::vector<double>& b, const std::vector<double>& x,
                   std::uint32_t R, bool compare_solution, const std::string& what)
{
    const Eigen::SparseMatrix<double>                 E = test::to_eigen(A);
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(E);
    ASSERT_EQ(ldlt.info(), Eigen::Success) << what;
    for (std::uint32_t r = 0; r < R; ++r) {
        const Eigen::VectorXd eb = column(b, A.num_rows, R, r), ex = column(x, A.num_rows, R, r);
        const double          residual = (E * ex - eb).norm() / eb.norm();
        EXPECT_LE(residual, 1e-12 + test::rounding_of_residual(E, ex, eb))
            << what << ", column " << r << ": residual";
        if (!compare_solution) continue;
        const Eigen::VectorXd want = ldlt.solve(eb);
        EXPECT_LE((ex - want).norm() / want.norm(), 1e-8) << what << ", column " << r;
    }
}
#endif

//! M + t L on the mesh: factored and solved with R columns, checked against
//! Eigen; a matrix with a zero diagonal (a vertex on zero-area faces only)
//! must be refused instead.
void check_mesh(const TriangleSoup& soup, const std::string& what, std::uint32_t R,
                bool compare_solution = true, const CholeskyOptions& options = {})
{
#if RXMESH_HAVE_EIGEN
    RXMesh         mesh(soup);
    const auto     pattern = vertex_pattern(mesh);
    const auto     A       = test::smoothing_matrix(mesh, pattern, test::mean_squared_edge_length(soup));
    const HostCsr  host    = to_host(A);
    CholeskySolver chol(A, mesh, options);
    EXPECT_EQ(chol.analysis().rows, mesh.num_vertices()) << what;
    if (test::min_diagonal(host) <= 0) {
        EXPECT_THROW(chol.factor(A), InvalidInputError) << what;
        EXPECT_FALSE(chol.factored()) << what;
        return;
    }
    chol.factor(A);
    const std::vector<double> b = right_hand_sides(host_positions(mesh), R);
    expect_solves(host, b, chol.solve(b, R), R, compare_solution, what);
    // a second solve: the split levels' counters were left ready for it
    expect_solves(host, b, chol.solve(b, R), R, compare_solution, what + ", again");
#else
    (void)soup, (void)what, (void)R, (void)compare_solution, (void)options;
#endif
}

//! Solves whose every panel with rows below splits them into chunks of
//! `rows` (a block each), whatever the level's size.
CholeskyOptions split_solves(std::uint32_t rows)
{
    CholeskyOptions o;
    o.solve.target_blocks  = 1u << 30;
    o.solve.min_chunk_rows = rows;
    return o;
}

TEST(GpuCholesky, SolvesLikeEigenOnEveryFamily)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_EIGEN();
    check_mesh(generate::noisy(generate::icosphere(3), 0.05f), "closed", 3);
    check_mesh(generate::grid(12, 9), "open", 1);
    check_mesh(generate::cylinder(24, 10), "two boundary loops", 3);
    check_mesh(generate::components(3, 2), "components", 3);
    check_mesh(generate::fin(4), "non-manifold edge", 2);
    check_mesh(generate::bowtie(), "non-manifold vertex", 1);
    check_mesh(generate::isolated_faces(4), "isolated faces", 3);
    check_mesh(generate::fan(120), "high valence", 3);
    check_mesh(generate::with_degenerate_faces(), "degenerate faces", 1);
}

TEST(GpuCholesky, ManyLevelsWidePanelsAndManyColumns)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_EIGEN();
    // separators of hundreds of vertices: panels of 64 columns (two tiles of
    // columns in an update) and hundreds of rows below
    check_mesh(generate::noisy(generate::icosphere(6), 0.02f), "icosphere 6", 3);
    check_mesh(generate::grid(160, 150), "grid 160 x 150", 1);
    // more right-hand sides than one solve kernel takes
    check_mesh(generate::torus(40, 24), "torus, 19 columns", 19);
}

TEST(GpuCholesky, SplitLevelsSolveLikeEigen)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_EIGEN();
    // the policy must really split: more tasks than panels
    RXMesh         sphere(generate::noisy(generate::icosphere(5), 0.02f));
    const auto     A = test::smoothing_matrix(sphere, vertex_pattern(sphere), 1e-3);
    CholeskyOptions one_block_per_panel;
    one_block_per_panel.solve.target_blocks = 1;
    CholeskySolver unsplit(A, sphere, one_block_per_panel), split(A, sphere, split_solves(5));
    EXPECT_EQ(unsplit.analysis().solve_tasks, unsplit.analysis().supernodes);
    EXPECT_GT(split.analysis().solve_tasks, 2 * split.analysis().supernodes);
    // chunks of 1, 5 and 40 rows below (a chunk narrower and wider than a
    // warp), one and many right-hand sides
    for (const std::uint32_t rows : {1u, 5u, 40u}) {
        const std::string how = ", chunks of " + std::to_string(rows);
        check_mesh(generate::noisy(generate::icosphere(6), 0.02f), "icosphere 6" + how, 3, true,
                   split_solves(rows));
        check_mesh(generate::grid(160, 150), "grid 160 x 150" + how, 1, true, split_solves(rows));
        check_mesh(generate::torus(40, 24), "torus, 19 columns" + how, 19, true, split_solves(rows));
    }
    check_mesh(generate::components(3, 2), "components, split", 3, true, split_solves(2));
    check_mesh(generate::isolated_faces(4), "isolated faces, split", 3, true, split_solves(1));
    check_mesh(generate::fan(120), "high valence, split", 2, true, split_solves(3));
    test::for_each_real_mesh(60000, [&](const std::string& file, const TriangleSoup& soup) {
        check_mesh(soup, file + ", split", 3, test::largest_cotangent(soup) <= 1e3, split_solves(7));
        return !::testing::Test::HasFailure();
    });
}

TEST(GpuCholesky, SolvesLikeEigenOnRealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_EIGEN();
    const int visited =
        test::for_each_real_mesh(60000, [&](const std::string& file, const TriangleSoup& soup) {
            // a needle's condition number leaves only the residual to compare
            check_mesh(soup, file, 3, test::largest_cotangent(soup) <= 1e3);
            return !::testing::Test::HasFailure();
        });
    if (visited == 0) GTEST_SKIP() << "no real meshes installed (libcgal-demo, assimp-testmodels)";
}

TEST(GpuCholesky, RefactorsNewValuesOnTheAnalyzedPattern)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_EIGEN();
#if RXMESH_HAVE_EIGEN
    RXMesh         mesh(generate::noisy(generate::torus(30, 20), 0.1f));
    const auto     pattern = vertex_pattern(mesh);
    auto           A       = test::smoothing_matrix(mesh, pattern, 0.01);
    CholeskySolver chol(A, mesh);
    chol.factor(A);
    const std::vector<double> b     = right_hand_sides(host_positions(mesh), 2);
    const std::vector<double> first = chol.solve(b, 2);
    // a new time step: M + 10 t L, the analysis reused
    A = test::smoothing_matrix(mesh, pattern, 0.1);
    chol.factor(A);
    const HostCsr host = to_host(A);
    expect_solves(host, b, chol.solve(b, 2), 2, true, "refactored");
    // the host path gives the same factor
    CholeskySolver from_host(host, host_positions(mesh));
    from_host.factor(host);
    expect_solves(host, b, from_host.solve(b, 2), 2, true, "host pattern");
    // device arrays in place: x = b
    DeviceBuffer<double> x = DeviceBuffer<double>::from_host(b);
    chol.solve(x.data(), x.data(), 2);
    expect_solves(host, b, x.to_host(), 2, true, "in place");
    EXPECT_NE(first, x.to_host());
#endif
}

//! Two solvers of one analysis hold their own factors: factoring the second
//! leaves the first's solutions as they were, and each solves its own
//! system like Eigen.
TEST(GpuCholesky, ASharedAnalysisKeepsTwoFactors)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_EIGEN();
#if RXMESH_HAVE_EIGEN
    RXMesh         mesh(generate::noisy(generate::icosphere(4), 0.1f));
    const auto     pattern = vertex_pattern(mesh);
    const auto     A       = test::smoothing_matrix(mesh, pattern, 0.01);
    const auto     B       = test::smoothing_matrix(mesh, pattern, 1.0);
    CholeskySolver first(A, mesh);
    EXPECT_THROW(first.with_same_analysis().solve(std::vector<double>(mesh.num_vertices()), 1),
                 Error);  // a copy of the analysis has no factor yet
    first.factor(A);
    const std::vector<double> b      = right_hand_sides(host_positions(mesh), 2);
    const std::vector<double> before = first.solve(b, 2);
    CholeskySolver            second = first.with_same_analysis();
    EXPECT_FALSE(second.factored());
    EXPECT_EQ(second.analysis().factor_nonzeros, first.analysis().factor_nonzeros);
    second.factor(B);
    // the first's factor is untouched: its solve as before, up to the
    // rounding of the solve's atomic sums (their order varies)
    const std::vector<double> again = first.solve(b, 2);
    double                    most  = 0;
    for (double x : before) most = std::max(most, std::abs(x));
    for (std::size_t i = 0; i < b.size(); ++i)
        ASSERT_NEAR(again[i], before[i], 1e-12 * most) << "row " << i / 2;
    expect_solves(to_host(A), b, before, 2, true, "first");
    expect_solves(to_host(B), b, second.solve(b, 2), 2, true, "second");
    EXPECT_NE(second.solve(b, 2), before);
    // the analysis outlives the solver it came from
    CholeskySolver third = second.with_same_analysis();
    second               = CholeskySolver(first.with_same_analysis());
    third.factor(A);
    expect_solves(to_host(A), b, third.solve(b, 2), 2, true, "third");
#endif
}

//! The path graph's Laplacian (1, 2, ..., 2, 1 on the diagonal, -1 beside):
//! singular, with integer entries, so that the last pivot is exactly 0.
HostCsr path_laplacian(std::uint32_t n)
{
    HostCsr A;
    A.num_rows = n;
    A.row_offsets.assign(1, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (i > 0) A.columns.push_back(i - 1), A.values.push_back(-1);
        A.columns.push_back(i), A.values.push_back(i == 0 || i + 1 == n ? 1 : 2);
        if (i + 1 < n) A.columns.push_back(i + 1), A.values.push_back(-1);
        A.row_offsets.push_back(A.columns.size());
    }
    return A;
}

std::vector<Vec3f> on_a_line(std::uint32_t n)
{
    std::vector<Vec3f> p(n);
    for (std::uint32_t i = 0; i < n; ++i) p[i] = {float(i), 0.f, 0.f};
    return p;
}

TEST(GpuCholesky, BadSystemsAreRefused)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMesh     mesh(generate::icosphere(2));
    const auto pattern = vertex_pattern(mesh);
    const auto A       = test::smoothing_matrix(mesh, pattern, 1e-3);
    CholeskySolver chol(A, mesh);
    EXPECT_THROW(chol.solve(std::vector<double>(mesh.num_vertices(), 1.0)), Error);  // not factored

    SparseMatrix<double> negative = A.clone();
    scale(negative, -1.0);
    EXPECT_THROW(chol.factor(negative), InvalidInputError);
    SparseMatrix<double> indefinite(pattern);
    test::assemble_indefinite(indefinite);
    EXPECT_THROW(chol.factor(indefinite), InvalidInputError);
    EXPECT_FALSE(chol.factored());

    HostCsr host = to_host(A);  // a HostCsr analysis of the same pattern
    CholeskySolver from_host(host, host_positions(mesh));
    HostCsr        bad = host;
    bad.values[1]      = std::nan("");
    EXPECT_THROW(from_host.factor(bad), InvalidInputError);
    bad           = host;
    bad.values[1] = 3 * bad.values[1] + 1;  // an off-diagonal entry, its mirror unchanged
    ASSERT_NE(bad.columns[1], 0u);
    EXPECT_THROW(from_host.factor(bad), InvalidInputError);
    bad = host;
    bad.values.pop_back();
    EXPECT_THROW(from_host.factor(bad), InvalidInputError);
    from_host.factor(host);
    EXPECT_TRUE(from_host.factored());
    EXPECT_THROW(from_host.solve(std::vector<double>(3, 1.0)), InvalidInputError);  // wrong size
    EXPECT_THROW(from_host.solve(std::vector<double>(), 0), InvalidInputError);

    // singular: refused at the last pivot, naming it
    const HostCsr  L = path_laplacian(50);
    CholeskySolver path(L, on_a_line(50));
    try {
        path.factor(L);
        ADD_FAILURE() << "a singular matrix was factored";
    } catch (const InvalidInputError& e) {
        EXPECT_NE(std::string(e.what()).find("not positive definite"), std::string::npos) << e.what();
    }
    // the same path with 1 added to the diagonal is positive definite
    HostCsr shifted = L;
    for (std::uint32_t i = 0; i < 50; ++i)
        for (auto e = shifted.row_offsets[i]; e < shifted.row_offsets[i + 1]; ++e)
            if (shifted.columns[e] == i) shifted.values[e] += 1;
    path.factor(shifted);
    EXPECT_TRUE(path.factored());

    // patterns that cannot be analyzed
    HostCsr asymmetric = L;
    asymmetric.columns[1] = 2;  // row 0: (0, 0), (0, 2); row 2 has no (2, 0)
    EXPECT_THROW(CholeskySolver(asymmetric, on_a_line(50)), InvalidInputError);
    HostCsr twice = path_laplacian(2);
    twice.columns = {1, 1, 0, 0};  // each row holds one column twice
    EXPECT_THROW(CholeskySolver(twice, on_a_line(2)), InvalidInputError);
    const HostCsr no_diagonal{2, {0, 1, 2}, {1, 0}, {1, 1}};
    EXPECT_THROW(CholeskySolver(no_diagonal, on_a_line(2)), InvalidInputError);
    EXPECT_THROW(CholeskySolver(L, on_a_line(49)), InvalidInputError);
    CholeskyOptions wide;
    wide.supernodes.max_columns = 128;
    EXPECT_THROW(CholeskySolver(L, on_a_line(50), wide), InvalidInputError);
    CholeskyOptions no_chunk;
    no_chunk.solve.min_chunk_rows = 0;
    EXPECT_THROW(CholeskySolver(L, on_a_line(50), no_chunk), InvalidInputError);
}

TEST(GpuCholesky, AnEmptyMatrixSolvesNothing)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const HostCsr  A{0, {0}, {}, {}};
    CholeskySolver chol(A, {});
    chol.factor(A);
    EXPECT_TRUE(chol.factored());
    EXPECT_TRUE(chol.solve(std::vector<double>{}, 2).empty());
    EXPECT_EQ(chol.analysis().supernodes, 0u);
}

}  // namespace
}  // namespace cholesky_test
