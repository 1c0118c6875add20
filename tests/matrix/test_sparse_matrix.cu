// The sparse-matrix layer against the serial double oracle
// (reference/sparse_operators.h) on generated meshes of every family and on
// real ones: the vertex pattern, the Laplacian and mass builders, element
// assembly by faces and by edges, the products (ours and cuSPARSE's on the
// same storage), the element-wise operations and Dirichlet conditions, and
// bad calls refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/matrix/assemble.cuh"
#include "rxmesh/matrix/cusparse.h"
#include "rxmesh/matrix/host_export.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/mesh_operators.cuh"
#include "rxmesh/matrix/vertex_pattern.h"
#include "rxmesh/reference/sparse_operators.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace sparse_matrix_test {

using namespace rxmesh;

namespace {

using reference::CsrMatrix;

double entry(const HostCsr& m, std::uint64_t i, std::uint64_t j)
{
    const auto first = m.columns.begin() + std::ptrdiff_t(m.row_offsets[i]);
    const auto last  = m.columns.begin() + std::ptrdiff_t(m.row_offsets[i + 1]);
    const auto it    = std::lower_bound(first, last, j);
    return it != last && *it == j ? m.values[std::size_t(it - m.columns.begin())] : 0.0;
}

double row_scale(const CsrMatrix& r, std::uint32_t i)
{
    double s = 0;
    for (auto k = r.row_offsets[i]; k < r.row_offsets[i + 1]; ++k)
        s = std::max(s, std::abs(r.values[k]));
    return s;
}

//! Every entry of `ours` (input numbering) equals the reference's within
//! `rel` of its row's largest magnitude, and ours holds no entry outside
//! the reference's pattern.
void expect_equal(const HostCsr& ours, const CsrMatrix& ref, double rel, const std::string& what)
{
    ASSERT_EQ(ours.num_rows, ref.size) << what;
    int reported = 0;
    for (std::uint32_t i = 0; i < ref.size && reported < 5; ++i) {
        const double tol = rel * std::max(row_scale(ref, i), 1e-30);
        for (auto k = ref.row_offsets[i]; k < ref.row_offsets[i + 1]; ++k) {
            const double got = entry(ours, i, ref.columns[k]);
            if (std::abs(got - ref.values[k]) > tol && reported++ < 5)
                ADD_FAILURE() << what << ": (" << i << ", " << ref.columns[k] << ") " << got
                              << " vs " << ref.values[k];
        }
        for (auto k = ours.row_offsets[i]; k < ours.row_offsets[i + 1]; ++k) {
            const auto j = std::uint32_t(ours.columns[k]);
            const auto first = ref.columns.begin() + std::ptrdiff_t(ref.row_offsets[i]);
            const auto last  = ref.columns.begin() + std::ptrdiff_t(ref.row_offsets[i + 1]);
            if (!std::binary_search(first, last, j) && reported++ < 5)
                ADD_FAILURE() << what << ": (" << i << ", " << j << ") outside the pattern";
        }
    }
}

struct Family
{
    std::string  name;
    TriangleSoup soup;
};

std::vector<Family> families()
{
    return {{"closed icosphere", generate::icosphere(3)},
            {"open grid", generate::grid(9, 7)},
            {"torus", generate::torus(24, 12)},
            {"components", generate::components(4, 1)},
            {"non-manifold vertex", generate::bowtie()},
            {"non-manifold edge", generate::fin(4)},
            {"isolated faces", generate::isolated_faces(5)},
            {"high valence", generate::fan(200)},
            {"degenerate faces", generate::with_degenerate_faces()},
            {"noisy sphere", generate::noisy(generate::icosphere(3), 0.05f)}};
}

//! The faces the mesh kept (a build drops faces that repeat a vertex), in
//! the input's vertex ids: what the reference is built on.
std::vector<Triangle> kept_faces(const RXMesh& mesh)
{
    const auto g2i = mesh.global_vertex_to_input().to_host();
    const auto fv  = mesh.faces().to_host();
    std::vector<Triangle> faces(fv.size() / 3);
    for (std::size_t f = 0; f < faces.size(); ++f)
        faces[f] = {g2i[fv[3 * f]], g2i[fv[3 * f + 1]], g2i[fv[3 * f + 2]]};
    return faces;
}

void check_builders(const TriangleSoup& input, const std::string& what)
{
    RXMesh       mesh(input);
    TriangleSoup soup = input;
    soup.faces        = kept_faces(mesh);
    const auto pattern = vertex_pattern(mesh);
    ASSERT_EQ(pattern->num_blocks(), mesh.num_vertices() + 2ull * mesh.num_edges()) << what;
    const SparseMatrix<double> L = cotangent_laplacian<double>(pattern, mesh.positions());
    const SparseMatrix<double> M = full_mass<double>(pattern, mesh.positions());
    expect_equal(to_host(L, mesh), reference::cotangent_laplacian(soup.positions, soup.faces),
                 1e-9, what + " L");
    expect_equal(to_host(M, mesh), reference::full_mass(soup.positions, soup.faces), 1e-12,
                 what + " M");

    auto lumped = mesh.add_vertex_attribute<double>("lumped", -1.0);
    lumped_voronoi_mass<double>(*pattern, mesh.positions(), lumped);
    lumped.to_host();
    const auto ref = reference::lumped_voronoi_mass(soup.positions, soup.faces);
    const auto in  = mesh.input_vertex_to_global().to_host();
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i] != ~0u)
            EXPECT_NEAR(lumped.host(VertexId(in[i])), ref[i], 1e-12 * std::max(1.0, ref[i]))
                << what << " vertex " << i;
}

//! L (x) I_3: each face's cotangent terms on the three components.
void assemble_laplacian_blocks(SparseMatrix<double, 3>& L3, VertexView<const float, 3> p)
{
    assemble_faces(L3, [=] __device__(FaceId, const VertexId(&v)[3], FaceBlocks<double, 3>& b) {
        const detail::CornerPoints<double> corners(p, v);
        const auto&                        q = corners.p;
        for (int k = 0; k < 3; ++k) {
            const int    i = k, j = (k + 1) % 3, o = (k + 2) % 3;
            const double w = 0.5 * detail::cot_at(q[o], q[i], q[j]);
            for (int c = 0; c < 3; ++c) {
                b(i, j, c, c) -= w;
                b(j, i, c, c) -= w;
                b(i, i, c, c) += w;
                b(j, j, c, c) += w;
            }
        }
    });
}

//! The uniform graph Laplacian: degree on the diagonal, -1 per edge.
void assemble_graph_laplacian(SparseMatrix<double>& G)
{
    assemble_edges(G, [=] __device__(VertexId, VertexId, EdgeBlocks<double>& b) {
        b(0, 0) = b(1, 1) = 1;
        b(0, 1) = b(1, 0) = -1;
    });
}

//! A block matrix that is not symmetric, with blocks that are not either.
void assemble_asymmetric_blocks(SparseMatrix<double, 3>& B)
{
    assemble_faces(B, [=] __device__(FaceId f, const VertexId(&)[3], FaceBlocks<double, 3>& b) {
        for (int a = 0; a < 3; ++a)
            for (int c = 0; c < 3; ++c)
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j)
                        b(a, c, i, j) = 1.0 + 0.25 * i - 0.5 * j + 0.1 * a + 0.01 * (f.id() % 7);
    });
}

//! A scalar matrix whose (p, q) and (q, p) differ.
void assemble_asymmetric(SparseMatrix<double>& N)
{
    assemble_edges(N, [=] __device__(VertexId p, VertexId q, EdgeBlocks<double>& b) {
        b(0, 1) = p.id() + 0.5;
        b(1, 0) = q.id() + 0.25;
    });
}

TEST(SparseMatrix, BuildersEqualTheReferenceOnEveryFamily)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& f : families())
        check_builders(f.soup, f.name);
}

TEST(SparseMatrix, BuildersEqualTheReferenceOnRealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const int visited = test::for_each_real_mesh(60000, [&](const std::string& file,
                                                            const TriangleSoup& soup) {
        check_builders(soup, file);
        return !::testing::Test::HasFailure();
    });
    if (visited == 0)
        GTEST_SKIP() << "no real meshes installed (libcgal-demo, assimp-testmodels)";
}

TEST(SparseMatrix, FloatLaplacianIsCloseToTheDoubleOne)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::torus(40, 20), 0.02f);
    RXMesh             mesh(soup);
    const auto         pattern = vertex_pattern(mesh);
    expect_equal(to_host(cotangent_laplacian<float>(pattern, mesh.positions()), mesh),
                 reference::cotangent_laplacian(soup.positions, soup.faces), 2e-5, "float L");
}

TEST(SparseMatrix, AssemblyIsBitwiseRepeatable)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMesh     mesh(generate::noisy(generate::icosphere(4), 0.1f));
    const auto pattern = vertex_pattern(mesh);
    const auto a = to_host(cotangent_laplacian<float>(pattern, mesh.positions()));
    const auto b = to_host(cotangent_laplacian<float>(vertex_pattern(mesh), mesh.positions()));
    EXPECT_EQ(a.columns, b.columns);
    EXPECT_EQ(a.values, b.values);  // bit for bit, not within a tolerance
}

//! L (x) I_3 assembled by faces with 3 x 3 blocks, and the uniform graph
//! Laplacian assembled by edges, against the scalar operators.
TEST(SparseMatrix, BlockAndEdgeAssemblyEqualTheScalarOperators)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::components(3, 2), 0.05f);
    RXMesh             mesh(soup);
    const auto         pattern = vertex_pattern(mesh);
    const SparseMatrix<double> L = cotangent_laplacian<double>(pattern, mesh.positions());
    SparseMatrix<double, 3>    L3(pattern);
    assemble_laplacian_blocks(L3, mesh.positions());
    const HostCsr h1 = to_host(L, mesh), h3 = to_host(L3, mesh);
    ASSERT_EQ(h3.num_rows, 3 * h1.num_rows);
    for (std::uint64_t i = 0; i < h1.num_rows; ++i)
        for (auto k = h1.row_offsets[i]; k < h1.row_offsets[i + 1]; ++k)
            for (int c = 0; c < 3; ++c) {
                const double tol = 1e-12 * std::max(1.0, std::abs(h1.values[k]));
                EXPECT_NEAR(entry(h3, 3 * i + c, 3 * h1.columns[k] + c), h1.values[k], tol);
                EXPECT_EQ(entry(h3, 3 * i + c, 3 * h1.columns[k] + (c + 1) % 3), 0.0);
            }

    SparseMatrix<double> G(pattern);
    assemble_graph_laplacian(G);
    const CsrMatrix ref = reference::cotangent_laplacian(soup.positions, soup.faces);
    const HostCsr   g   = to_host(G, mesh);
    for (std::uint32_t i = 0; i < ref.size; ++i) {
        const auto degree = ref.row_offsets[i + 1] - ref.row_offsets[i] - 1;
        EXPECT_EQ(entry(g, i, i), double(degree)) << i;
        for (auto k = ref.row_offsets[i]; k < ref.row_offsets[i + 1]; ++k)
            if (ref.columns[k] != i)
                EXPECT_EQ(entry(g, i, ref.columns[k]), -1.0);
    }
}
//! y = 2 L x - y0 for three columns at once, ours and the reference's; and
//! cuSPARSE on the same storage (CSR and 3 x 3 BSR) agrees with ours.
TEST(SparseMatrix, ProductsEqualTheReferenceAndCusparse)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::torus(30, 15), 0.03f);
    RXMesh             mesh(soup);
    const auto         pattern = vertex_pattern(mesh);
    const auto         L       = cotangent_laplacian<double>(pattern, mesh.positions());
    const std::uint32_t V      = mesh.num_vertices();
    const auto          g2i    = mesh.global_vertex_to_input().to_host();

    auto x = mesh.add_vertex_attribute<double, 3>("x"), y = mesh.add_vertex_attribute<double, 3>("y");
    for (std::uint32_t v = 0; v < V; ++v)
        for (int c = 0; c < 3; ++c) {
            x.host(VertexId(v), c) = std::sin(1.0 + g2i[v] * 0.37 + c);
            y.host(VertexId(v), c) = std::cos(g2i[v] * 0.11 - c);
        }
    x.to_device();
    y.to_device();
    multiply(L, x.view(), y, 2.0, -1.0);
    y.to_host();
    const CsrMatrix ref = reference::cotangent_laplacian(soup.positions, soup.faces);
    for (int c = 0; c < 3; ++c) {
        std::vector<double> xc(soup.positions.size(), 0.0);
        for (std::uint32_t v = 0; v < V; ++v)
            xc[g2i[v]] = std::sin(1.0 + g2i[v] * 0.37 + c);
        const auto lx = ref.apply(xc);
        for (std::uint32_t v = 0; v < V; ++v)
            EXPECT_NEAR(y.host(VertexId(v), c), 2 * lx[g2i[v]] - std::cos(g2i[v] * 0.11 - c), 1e-9);
    }

    // cuSPARSE: one column through CSR
    auto x1 = mesh.add_vertex_attribute<double>("x1"), ours = mesh.add_vertex_attribute<double>("o1"),
         theirs = mesh.add_vertex_attribute<double>("t1");
    for (std::uint32_t v = 0; v < V; ++v)
        x1.host(VertexId(v)) = std::sin(0.5 * v);
    x1.to_device();
    multiply(L, x1.view(), ours);
    CusparseHandle             handle;
    CusparseMatrix<double, 1>  csr(L);
    CusparseSpmv<double, 1>    spmv(handle, csr, x1, theirs);
    spmv();
    ours.to_host();
    theirs.to_host();
    for (std::uint32_t v = 0; v < V; ++v)
        EXPECT_NEAR(ours.host(VertexId(v)), theirs.host(VertexId(v)), 1e-10);

    // cuSPARSE: 3 x 3 blocks through BSR (a non-symmetric block matrix)
    SparseMatrix<double, 3> B(pattern);
    assemble_asymmetric_blocks(B);
    auto yb = mesh.add_vertex_attribute<double, 3>("yb"), tb = mesh.add_vertex_attribute<double, 3>("tb");
    multiply(B, x.view(), yb);
    CusparseMatrix<double, 3> bsr(B);
    CusparseSpmv<double, 3>   spmv3(handle, bsr, x, tb);
    spmv3();
    yb.to_host();
    tb.to_host();
    for (std::uint32_t v = 0; v < V; ++v)
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(yb.host(VertexId(v), c), tb.host(VertexId(v), c), 1e-9);
}

TEST(SparseMatrix, ElementWiseOperationsAndDirichlet)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::grid(8, 6);
    RXMesh             mesh(soup);
    const auto         pattern = vertex_pattern(mesh);
    auto               L = cotangent_laplacian<double>(pattern, mesh.positions());
    const auto         M = full_mass<double>(pattern, mesh.positions());
    const HostCsr      l0 = to_host(L), m0 = to_host(M);

    SparseMatrix<double> A = L.clone();
    axpby(0.5, M, 2.0, A);  // A = 0.5 M + 2 L
    add_to_diagonal(A, 3.0);
    auto d = mesh.add_vertex_attribute<double>("d");
    diagonal(A, d);
    d.to_host();
    const HostCsr a = to_host(A);
    for (std::uint64_t i = 0; i < a.num_rows; ++i) {
        for (auto k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) {
            const double want = 0.5 * m0.values[k] + 2 * l0.values[k] + (a.columns[k] == i ? 3 : 0);
            EXPECT_NEAR(a.values[k], want, 1e-12);
        }
        EXPECT_NEAR(d.host(VertexId(std::uint32_t(i))), entry(a, i, i), 0.0);
    }

    // transpose of a non-symmetric matrix: the edge assembly's asymmetric blocks
    SparseMatrix<double> N(pattern);
    assemble_asymmetric(N);
    const HostCsr n = to_host(N), nt = to_host(transpose(N));
    for (std::uint64_t i = 0; i < n.num_rows; ++i)
        for (auto k = n.row_offsets[i]; k < n.row_offsets[i + 1]; ++k)
            EXPECT_EQ(entry(nt, n.columns[k], i), n.values[k]);
    scale(N, -2.0);
    const HostCsr n2 = to_host(N);
    for (std::size_t k = 0; k < n.values.size(); ++k)
        EXPECT_EQ(n2.values[k], -2 * n.values[k]);

    // Dirichlet: fix the boundary at x = position.x; A x = rhs keeps the
    // free rows' equations with the fixed values moved to the right
    auto fixed = mesh.boundary_vertices();
    auto value = mesh.add_vertex_attribute<double>("value"), rhs = mesh.add_vertex_attribute<double>("rhs");
    fixed.to_host();
    const std::uint32_t V = mesh.num_vertices();
    for (std::uint32_t v = 0; v < V; ++v) {
        value.host(VertexId(v)) = 1.0 + 0.1 * v;
        rhs.host(VertexId(v))   = 0.01 * v;
    }
    value.to_device();
    rhs.to_device();
    SparseMatrix<double> D = L.clone();
    impose_dirichlet(D, fixed, value.view(), rhs);
    rhs.to_host();
    const HostCsr dd = to_host(D);
    int           num_fixed = 0;
    for (std::uint32_t i = 0; i < V; ++i) {
        const bool fi = fixed.host(VertexId(i)) != 0;
        num_fixed += fi;
        double moved = 0;
        for (auto k = l0.row_offsets[i]; k < l0.row_offsets[i + 1]; ++k) {
            const auto j  = std::uint32_t(l0.columns[k]);
            const bool fj = fixed.host(VertexId(j)) != 0;
            const double want = fi || fj ? (i == j ? 1.0 : 0.0) : l0.values[k];
            EXPECT_EQ(dd.values[k], want) << i << ", " << j;
            if (!fi && fj)
                moved += l0.values[k] * (1.0 + 0.1 * j);
        }
        EXPECT_NEAR(rhs.host(VertexId(i)), fi ? 1.0 + 0.1 * i : 0.01 * i - moved, 1e-12);
    }
    EXPECT_GT(num_fixed, 0);
}

TEST(SparseMatrix, BadCallsAreRefused)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMesh     mesh(generate::icosphere(1)), other(generate::icosphere(2));
    const auto pattern = vertex_pattern(mesh);
    auto       L       = cotangent_laplacian<float>(pattern, mesh.positions());
    auto       M       = full_mass<float>(vertex_pattern(mesh), mesh.positions());
    auto       x       = mesh.add_vertex_attribute<float>("x");
    auto       wrong   = other.add_vertex_attribute<float>("x");
    EXPECT_THROW(multiply(L, wrong.view(), x), InvalidInputError);
    EXPECT_THROW(multiply(L, x.view(), x), InvalidInputError);  // aliasing
    EXPECT_THROW(axpby(1.f, M, 1.f, L), InvalidInputError);     // two patterns
    EXPECT_THROW(cotangent_laplacian<float>(pattern, other.positions()), InvalidInputError);
    EXPECT_THROW(to_host(L, other), InvalidInputError);
    EXPECT_THROW(SparseMatrix<float>(nullptr), InvalidInputError);
}

}  // namespace
}  // namespace sparse_matrix_test
