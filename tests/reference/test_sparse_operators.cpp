// The serial sparse operators (reference/sparse_operators.h), the oracle of
// the GPU builders to come, against what is known of them independently:
// entries worked out by hand on two triangles; on every mesh family and the
// real meshes, the pattern (each face's vertex pairs and the diagonal,
// collected here from the faces), exact symmetry, L 1 = 0, x^T L x >= 0,
// the mass matrices' total equal to the surface's area; the cotangent
// Laplacian's linear precision on a planar mesh (L x = 0 at interior vertices
// for x linear in the plane); and agreement with reference/mcf.h's weights
// where those are not clamped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rxmesh/io/generate.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/reference/sparse_operators.h"
#include "test_data.h"

namespace {

using rxmesh::Triangle;
using rxmesh::TriangleSoup;
using rxmesh::Vec3f;
using rxmesh::reference::CsrMatrix;
namespace gen = rxmesh::generate;
namespace ref = rxmesh::reference;

TriangleSoup one_triangle(Vec3f a, Vec3f b, Vec3f c)
{
    TriangleSoup s;
    s.positions = {a, b, c};
    s.faces     = {{0, 1, 2}};
    return s;
}

bool repeats_vertex(const Triangle& t) { return t[0] == t[1] || t[1] == t[2] || t[0] == t[2]; }

double total_area(const TriangleSoup& s)
{
    double a = 0;
    for (const Triangle& t : s.faces)
        if (!repeats_vertex(t))
            a += ref::triangle_area(s.positions[t[0]], s.positions[t[1]], s.positions[t[2]]);
    return a;
}

//! Each row's columns: the vertex itself and every vertex sharing a face.
std::vector<std::set<std::uint32_t>> expected_pattern(const TriangleSoup& s)
{
    std::vector<std::set<std::uint32_t>> rows(s.positions.size());
    for (std::uint32_t v = 0; v < rows.size(); ++v) rows[v].insert(v);
    for (const Triangle& t : s.faces)
        if (!repeats_vertex(t))
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) rows[t[i]].insert(t[j]);
    return rows;
}

//! Structure every operator has: size, sorted pattern as expected, exact
//! symmetry, finite values.
void expect_structure(const CsrMatrix& m, const TriangleSoup& s, const std::string& what)
{
    SCOPED_TRACE(what);
    const auto pattern = expected_pattern(s);
    ASSERT_EQ(m.size, s.positions.size());
    ASSERT_EQ(m.row_offsets.size(), m.size + 1ull);
    for (std::uint32_t i = 0; i < m.size; ++i) {
        const std::vector<std::uint32_t> cols(m.columns.begin() + std::ptrdiff_t(m.row_offsets[i]),
                                              m.columns.begin() + std::ptrdiff_t(m.row_offsets[i + 1]));
        ASSERT_EQ(cols, std::vector<std::uint32_t>(pattern[i].begin(), pattern[i].end()))
            << "row " << i;
        for (std::uint64_t k = m.row_offsets[i]; k < m.row_offsets[i + 1]; ++k) {
            ASSERT_TRUE(std::isfinite(m.values[k])) << "row " << i;
            ASSERT_EQ(m.values[k], m.at(m.columns[k], i)) << "(" << i << ", " << m.columns[k] << ")";
        }
    }
}

//! L 1 = 0 and x^T L x >= 0 for random x (relative to the entries' size).
void expect_laplacian_properties(const CsrMatrix& L, const std::string& what)
{
    SCOPED_TRACE(what);
    double scale = 0;
    for (double v : L.values) scale = std::max(scale, std::abs(v));
    const std::vector<double> ones(L.size, 1.0);
    for (double r : L.apply(ones)) ASSERT_LE(std::abs(r), 1e-12 * std::max(1.0, scale * 8));
    std::mt19937                           rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int trial = 0; trial < 4; ++trial) {
        std::vector<double> x(L.size);
        for (double& v : x) v = u(rng);
        const auto y   = L.apply(x);
        double     xLx = 0, mag = 0;
        for (std::uint32_t i = 0; i < L.size; ++i) xLx += x[i] * y[i], mag += std::abs(x[i] * y[i]);
        EXPECT_GE(xLx, -1e-12 * std::max(1.0, mag));
    }
}

void expect_mass_totals(const CsrMatrix& M, const std::vector<double>& lumped,
                        const TriangleSoup& s, const std::string& what)
{
    SCOPED_TRACE(what);
    const double area = total_area(s);
    double       full = 0, diag = 0;
    for (double v : M.values) full += v;
    for (double v : lumped) {
        ASSERT_GE(v, 0.0);
        diag += v;
    }
    EXPECT_NEAR(full, area, 1e-9 * std::max(1.0, area));
    EXPECT_NEAR(diag, area, 1e-6 * std::max(1.0, area));  // mixed_area skips near-zero faces
    // M 1: a third of each incident face's area per vertex
    std::vector<double> third(s.positions.size(), 0.0);
    for (const Triangle& t : s.faces)
        if (!repeats_vertex(t))
            for (int k = 0; k < 3; ++k)
                third[t[k]] += ref::triangle_area(s.positions[t[0]], s.positions[t[1]],
                                                  s.positions[t[2]]) / 3;
    const auto row_sums = M.apply(std::vector<double>(M.size, 1.0));
    for (std::size_t v = 0; v < third.size(); ++v)
        ASSERT_NEAR(row_sums[v], third[v], 1e-12 * std::max(1.0, third[v])) << "vertex " << v;
}

void expect_all(const TriangleSoup& s, const std::string& what)
{
    const CsrMatrix L = ref::cotangent_laplacian(s.positions, s.faces);
    const CsrMatrix M = ref::full_mass(s.positions, s.faces);
    expect_structure(L, s, what + " (Laplacian)");
    expect_structure(M, s, what + " (mass)");
    expect_laplacian_properties(L, what);
    expect_mass_totals(M, ref::lumped_voronoi_mass(s.positions, s.faces), s, what);
}

TEST(ReferenceSparseOperators, RightTriangleByHand)
{
    // angles: 90 degrees at 0, 45 at 1 and 2; area 1/2
    const TriangleSoup s = one_triangle({0, 0, 0}, {1, 0, 0}, {0, 1, 0});
    const CsrMatrix    L = ref::cotangent_laplacian(s.positions, s.faces);
    EXPECT_NEAR(L.at(0, 1), -0.5, 1e-15);  // cot 45 / 2, the angle at 2
    EXPECT_NEAR(L.at(0, 2), -0.5, 1e-15);
    EXPECT_NEAR(L.at(1, 2), 0.0, 1e-15);  // cot 90
    EXPECT_NEAR(L.at(0, 0), 1.0, 1e-15);
    EXPECT_NEAR(L.at(1, 1), 0.5, 1e-15);
    EXPECT_NEAR(L.at(2, 2), 0.5, 1e-15);
    const CsrMatrix M = ref::full_mass(s.positions, s.faces);
    EXPECT_NEAR(M.at(0, 0), 1.0 / 12, 1e-15);
    EXPECT_NEAR(M.at(1, 2), 1.0 / 24, 1e-15);
    const auto m = ref::lumped_voronoi_mass(s.positions, s.faces);
    EXPECT_NEAR(m[0], 0.25, 1e-15);  // the Voronoi cell of the right-angled corner
    EXPECT_NEAR(m[1], 0.125, 1e-15);
    EXPECT_NEAR(m[2], 0.125, 1e-15);
    EXPECT_EQ(L.num_entries(), 9u);
}

TEST(ReferenceSparseOperators, ObtuseAngleGivesAPositiveEntry)
{
    // the angle at 2 is obtuse: cot = dot / |cross| = -0.24 / 0.1 = -2.4
    const TriangleSoup s = one_triangle({0, 0, 0}, {1, 0, 0}, {0.5f, 0.1f, 0});
    const CsrMatrix    L = ref::cotangent_laplacian(s.positions, s.faces);
    EXPECT_NEAR(L.at(0, 1), 1.2, 1e-6);
    EXPECT_GT(L.at(0, 1), 0.0);
    // the obtuse corner's mixed area is half the triangle's (Meyer et al.)
    const auto m = ref::lumped_voronoi_mass(s.positions, s.faces);
    EXPECT_NEAR(m[2], 0.5 * ref::triangle_area(s.positions[0], s.positions[1], s.positions[2]),
                1e-9);
}

TEST(ReferenceSparseOperators, LinearFunctionsAreHarmonicOnAPlanarMesh)
{
    TriangleSoup s = gen::grid(12, 9);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> jitter(-0.2f, 0.2f);
    float step = INFINITY;  // the shortest edge: the jitter keeps every face's orientation
    for (const Triangle& t : s.faces)
        for (int k = 0; k < 3; ++k) {
            const Vec3f &a = s.positions[t[k]], &b = s.positions[t[(k + 1) % 3]];
            step = std::min(step, std::hypot(a[0] - b[0], a[1] - b[1]));
        }
    ASSERT_GT(step, 0.f);
    for (Vec3f& p : s.positions) p = {p[0] + step * jitter(rng), p[1] + step * jitter(rng), 0.f};
    // boundary vertices: the ends of edges with one face
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> uses;
    for (const Triangle& t : s.faces)
        for (int k = 0; k < 3; ++k)
            ++uses[std::minmax(t[k], t[(k + 1) % 3])];
    std::vector<bool> boundary(s.positions.size(), false);
    for (const auto& [e, n] : uses)
        if (n == 1) boundary[e.first] = boundary[e.second] = true;
    const CsrMatrix L = ref::cotangent_laplacian(s.positions, s.faces);
    for (int d = 0; d < 2; ++d) {
        std::vector<double> x(s.positions.size());
        for (std::size_t v = 0; v < x.size(); ++v) x[v] = 0.3 + 1.7 * s.positions[v][d];
        const auto y        = L.apply(x);
        int        interior = 0;
        for (std::size_t v = 0; v < x.size(); ++v) {
            if (boundary[v]) continue;
            ++interior;
            ASSERT_NEAR(y[v], 0.0, 1e-9) << "interior vertex " << v << ", coordinate " << d;
        }
        EXPECT_GT(interior, 50);
    }
    expect_all(s, "jittered grid");
}

TEST(ReferenceSparseOperators, AgreesWithTheMcfWeightsWhereNoneIsClamped)
{
    // every angle at most 90 degrees: reference/mcf.h's w_ij = cot a + cot b
    // is not clamped there, and L_ij = -w_ij / 2
    for (const auto& [name, s] : {std::pair<std::string, TriangleSoup>{"grid", gen::grid(6, 5)},
                                  {"icosphere", gen::icosphere(2)}}) {
        SCOPED_TRACE(name);
        const auto      system = ref::mcf_system(s.positions, s.faces, false);
        const CsrMatrix L      = ref::cotangent_laplacian(s.positions, s.faces);
        ASSERT_FALSE(system.edges.empty());
        for (std::size_t e = 0; e < system.edges.size(); ++e) {
            const auto [i, j] = system.edges[e];
            ASSERT_NEAR(L.at(i, j), -system.weight[e] / 2, 1e-12) << i << " " << j;
        }
        const auto lumped = ref::lumped_voronoi_mass(s.positions, s.faces);
        for (std::size_t v = 0; v < lumped.size(); ++v)
            ASSERT_NEAR(lumped[v], system.area[v], 1e-12) << "vertex " << v;
    }
}

TEST(ReferenceSparseOperators, EveryMeshFamily)
{
    TriangleSoup unused = gen::grid(3, 3);
    unused.positions.push_back({9, 9, 9});  // a vertex of no face: its diagonal alone, 0
    const std::vector<std::pair<std::string, TriangleSoup>> meshes = {
        {"sphere", gen::noisy(gen::icosphere(3), 0.2f, 2)},
        {"torus", gen::torus(16, 8)},
        {"open cylinder", gen::cylinder(12, 5)},
        {"components", gen::components(6, 1)},
        {"non-manifold fin", gen::fin(5)},
        {"bowtie", gen::bowtie()},
        {"isolated faces", gen::isolated_faces(7)},
        {"degenerate faces", gen::with_degenerate_faces()},
        {"high valence fan", gen::fan(64)},
        {"vertex in no face", unused}};
    for (const auto& [name, s] : meshes) expect_all(s, name);
    const CsrMatrix L = ref::cotangent_laplacian(unused.positions, unused.faces);
    const std::uint32_t last = L.size - 1;
    EXPECT_EQ(L.row_offsets[last + 1] - L.row_offsets[last], 1u);
    EXPECT_EQ(L.at(last, last), 0.0);
}

TEST(ReferenceSparseOperators, RealMeshes)
{
    const int n = rxmesh::test::for_each_real_mesh(60000, [](const std::string& file,
                                                             const TriangleSoup& s) {
        expect_all(s, file);
        return !::testing::Test::HasFatalFailure();
    });
    if (n == 0) GTEST_SKIP() << "no real meshes (libcgal-demo, assimp-testmodels) installed";
}

}  // namespace
