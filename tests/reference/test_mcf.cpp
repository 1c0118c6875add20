// Tests of the MCF reference (rxmesh::reference::mcf_system and friends):
// expected weights and areas worked out by hand from the geometry, invariants
// (areas sum to the surface area, L 1 = 0, A symmetric), the operator against
// a dense matrix, and Eigen's direct solve against the operator.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "rxmesh/io/generate.h"
#include "rxmesh/reference/mcf.h"
#include "random_values.h"

#if RXMESH_HAVE_EIGEN
#include "eigen_mcf.h"
#endif

namespace {

using rxmesh::Triangle;
using rxmesh::TriangleSoup;
using rxmesh::Vec3f;
using rxmesh::reference::McfSystem;
using Edge = std::array<std::uint32_t, 2>;
namespace gen = rxmesh::generate;
namespace ref = rxmesh::reference;

std::vector<double> flatten(const std::vector<Vec3f>& p)
{
    std::vector<double> x;
    for (const Vec3f& v : p)
        x.insert(x.end(), {double(v[0]), double(v[1]), double(v[2])});
    return x;
}

// Twice the area of each face, summed and halved: the surface area.
double surface_area(const TriangleSoup& m)
{
    double total = 0;
    for (const Triangle& t : m.faces) {
        double e1[3], e2[3];
        for (int d = 0; d < 3; ++d) {
            e1[d] = double(m.positions[t[1]][d]) - m.positions[t[0]][d];
            e2[d] = double(m.positions[t[2]][d]) - m.positions[t[0]][d];
        }
        const double c[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                             e1[0] * e2[1] - e1[1] * e2[0]};
        total += std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / 2;
    }
    return total;
}

double weight_of(const McfSystem& s, Edge e)
{
    for (std::size_t k = 0; k < s.edges.size(); ++k)
        if (s.edges[k] == e)
            return s.weight[k];
    ADD_FAILURE() << "edge (" << e[0] << ", " << e[1] << ") missing";
    return -1;
}

std::vector<double> random_vector(std::size_t n, std::uint32_t seed)
{
    return rxmesh::test::random_values<double>(n, seed);
}

double dot(const std::vector<double>& a, const std::vector<double>& b)
{
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += a[i] * b[i];
    return s;
}

double norm(const std::vector<double>& a) { return std::sqrt(dot(a, a)); }

const std::vector<Triangle> kOneFace = {{0, 1, 2}};

TEST(ReferenceMcf, EquilateralTriangle)
{
    // side 1: every angle is 60 degrees, cot = 1/sqrt(3); no obtuse angle,
    // so each corner's Voronoi area is (1 * cot + 1 * cot) / 8 = sqrt(3)/12,
    // a third of the area sqrt(3)/4
    const float              h = float(std::sqrt(3.0) / 2);
    const std::vector<Vec3f> p = {{0, 0, 0}, {1, 0, 0}, {0.5f, h, 0}};
    const double             cot60 = 1 / std::sqrt(3.0);
    EXPECT_NEAR(ref::cotangent(p[0], p[1], p[2]), cot60, 1e-6);
    EXPECT_NEAR(ref::cotangent(p[2], p[0], p[1]), cot60, 1e-6);
    const McfSystem s = ref::mcf_system(p, kOneFace, false);
    ASSERT_EQ(s.edges, (std::vector<Edge>{{0, 1}, {0, 2}, {1, 2}}));
    for (double w : s.weight)
        EXPECT_NEAR(w, cot60, 1e-6);
    for (double a : s.area)
        EXPECT_NEAR(a, std::sqrt(3.0) / 12, 1e-7);
    EXPECT_EQ(s.in_face, (std::vector<std::uint8_t>{1, 1, 1}));
    EXPECT_NEAR(ref::mean_edge_length(p, kOneFace), 1.0, 1e-7);
}

TEST(ReferenceMcf, RightIsoscelesTriangle)
{
    // right angle at 0 (cot 0), 45 degrees at 1 and 2 (cot 1); the right
    // angle is not obtuse, so the Voronoi formula applies everywhere:
    // a0 = (|p0-p2|^2 cot1 + |p0-p1|^2 cot2) / 8 = 2/8,
    // a1 = (|p1-p0|^2 cot2 + |p1-p2|^2 cot0) / 8 = 1/8, a2 likewise
    const std::vector<Vec3f> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    EXPECT_EQ(ref::cotangent(p[0], p[1], p[2]), 0.0);
    EXPECT_DOUBLE_EQ(ref::cotangent(p[1], p[0], p[2]), 1.0);
    const McfSystem s = ref::mcf_system(p, kOneFace, false);
    EXPECT_DOUBLE_EQ(weight_of(s, {0, 1}), 1.0);  // opposite vertex 2
    EXPECT_DOUBLE_EQ(weight_of(s, {0, 2}), 1.0);  // opposite vertex 1
    EXPECT_EQ(weight_of(s, {1, 2}), 0.0);         // opposite the right angle
    EXPECT_DOUBLE_EQ(s.area[0], 0.25);
    EXPECT_DOUBLE_EQ(s.area[1], 0.125);
    EXPECT_DOUBLE_EQ(s.area[2], 0.125);
    EXPECT_DOUBLE_EQ(ref::mean_edge_length(p, kOneFace), (2 + std::sqrt(2.0)) / 3);
}

TEST(ReferenceMcf, ObtuseTriangle)
{
    // p2 = (2, 1): edges leaving it (-2,-1), (2,-1), dot -3 < 0, obtuse;
    // |cross| = |(4,0) x (2,1)| = 4 (area 2). Mixed areas: 4/4 at the
    // obtuse corner, 4/8 at the others. cot at p2 = -3/4 (w clamped to 0);
    // at p0: dot((4,0),(2,1)) / 4 = 2; at p1: dot((-4,0),(-2,1)) / 4 = 2
    const std::vector<Vec3f> p = {{0, 0, 0}, {4, 0, 0}, {2, 1, 0}};
    EXPECT_DOUBLE_EQ(ref::cotangent(p[2], p[0], p[1]), -0.75);
    const McfSystem s = ref::mcf_system(p, kOneFace, false);
    EXPECT_EQ(weight_of(s, {0, 1}), 0.0);
    EXPECT_DOUBLE_EQ(weight_of(s, {1, 2}), 2.0);
    EXPECT_DOUBLE_EQ(weight_of(s, {0, 2}), 2.0);
    EXPECT_DOUBLE_EQ(s.area[2], 1.0);
    EXPECT_DOUBLE_EQ(s.area[0], 0.5);
    EXPECT_DOUBLE_EQ(s.area[1], 0.5);
    EXPECT_DOUBLE_EQ(ref::mixed_area(p[2], p[0], p[1]), 1.0);
}

TEST(ReferenceMcf, MixedAreasSumToSurfaceArea)
{
    // the mixed areas partition each triangle among its corners
    const TriangleSoup meshes[] = {gen::icosphere(2), gen::grid(5, 4),
                                   gen::noisy(gen::icosphere(2), 0.3f, 7)};
    for (const TriangleSoup& m : meshes) {
        const McfSystem s   = ref::mcf_system(m.positions, m.faces, false);
        double          sum = 0;
        for (double a : s.area)
            sum += a;
        const double want = surface_area(m);
        EXPECT_NEAR(sum, want, 1e-12 * want);
    }
}

TEST(ReferenceMcf, NonManifoldFinSumsEveryWing)
{
    // shared edge (0,0,0)-(0,0,1), tips (cos a, sin a, 0.5): the edges leaving
    // a tip are (-c,-s,-1/2) and (-c,-s,1/2), dot = 1 - 1/4, |cross| =
    // |(-s, c, 0)| = 1, so every wing adds cot = 3/4
    const TriangleSoup fin = gen::fin(3);
    const McfSystem    s   = ref::mcf_system(fin.positions, fin.faces, false);
    EXPECT_NEAR(weight_of(s, {0, 1}), 3 * 0.75, 1e-6);
    EXPECT_EQ(s.edges.size(), 1u + 2 * 3);
    const TriangleSoup one = gen::fin(1);
    EXPECT_NEAR(weight_of(ref::mcf_system(one.positions, one.faces, false), {0, 1}), 0.75, 1e-6);
}

TEST(ReferenceMcf, FacesRepeatingAVertexAreSkipped)
{
    const TriangleSoup d = gen::with_degenerate_faces();
    const TriangleSoup g = gen::grid(3, 3);
    const McfSystem    a = ref::mcf_system(d.positions, d.faces, false);
    const McfSystem    b = ref::mcf_system(g.positions, g.faces, false);
    EXPECT_EQ(a.edges, b.edges);
    EXPECT_EQ(a.weight, b.weight);
    EXPECT_EQ(a.area, b.area);
    EXPECT_EQ(a.in_face, b.in_face);
    EXPECT_EQ(ref::mean_edge_length(d.positions, d.faces),
              ref::mean_edge_length(g.positions, g.faces));
    // only a repeated-vertex face: no edges, no face, nothing
    const std::vector<Vec3f>    p = {{0, 0, 0}, {1, 0, 0}};
    const std::vector<Triangle> f = {{0, 1, 1}};
    const McfSystem             c = ref::mcf_system(p, f, true);
    EXPECT_TRUE(c.edges.empty());
    EXPECT_EQ(c.area, (std::vector<double>{0, 0}));
    EXPECT_EQ(c.in_face, (std::vector<std::uint8_t>{0, 0}));
    EXPECT_EQ(ref::mean_edge_length(p, f), 0.0);
}

TEST(ReferenceMcf, ZeroAreaTriangleContributesNothing)
{
    // collinear corners: |cross| = 0 exactly; and a tiny triangle whose
    // |cross| = 1e-40 is below FLT_MIN
    const std::vector<Vec3f> line = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    const std::vector<Vec3f> tiny = {{0, 0, 0}, {1e-20f, 0, 0}, {0, 1e-20f, 0}};
    for (const auto& p : {line, tiny}) {
        EXPECT_EQ(ref::cotangent(p[0], p[1], p[2]), 0.0);
        const McfSystem s = ref::mcf_system(p, kOneFace, false);
        EXPECT_EQ(s.edges.size(), 3u);
        EXPECT_EQ(s.weight, (std::vector<double>{0, 0, 0}));
        EXPECT_EQ(s.area, (std::vector<double>{0, 0, 0}));
        EXPECT_EQ(s.in_face, (std::vector<std::uint8_t>{1, 1, 1}));
    }
    // a collinear face glued to the right isosceles triangle changes nothing
    // but adds its two new edges with weight 0
    const std::vector<Vec3f>    p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0}};
    const std::vector<Triangle> f = {{0, 1, 2}, {0, 3, 1}};
    const McfSystem             s = ref::mcf_system(p, f, false);
    EXPECT_DOUBLE_EQ(weight_of(s, {0, 1}), 1.0);
    EXPECT_EQ(weight_of(s, {0, 3}), 0.0);
    EXPECT_EQ(weight_of(s, {1, 3}), 0.0);
    EXPECT_EQ(s.area, (std::vector<double>{0.25, 0.125, 0.125, 0}));
}

TEST(ReferenceMcf, UniformWeightsAndValenceAreas)
{
    // fan(5): centre of valence 5, each rim vertex joined to the centre and
    // its two rim neighbours (valence 3); 10 edges
    const TriangleSoup fan = gen::fan(5);
    const McfSystem    s   = ref::mcf_system(fan.positions, fan.faces, true);
    ASSERT_EQ(s.edges.size(), 10u);
    for (double w : s.weight)
        EXPECT_EQ(w, 1.0);
    EXPECT_EQ(s.area[0], 2.5);
    for (std::size_t v = 1; v <= 5; ++v)
        EXPECT_EQ(s.area[v], 1.5);
    // a single triangle: valence 2 everywhere
    const std::vector<Vec3f> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 5, 5}};
    const McfSystem          t = ref::mcf_system(p, kOneFace, true);
    EXPECT_EQ(t.area, (std::vector<double>{1, 1, 1, 0}));
    EXPECT_EQ(t.in_face, (std::vector<std::uint8_t>{1, 1, 1, 0}));
}

// y = A x with A = 2 diag(a) + dt L assembled as a dense matrix.
std::vector<double> dense_apply(const McfSystem& s, double dt, const std::vector<double>& x)
{
    const std::size_t                n = s.area.size();
    std::vector<std::vector<double>> A(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i)
        A[i][i] = 2 * s.area[i];
    for (std::size_t e = 0; e < s.edges.size(); ++e) {
        const std::size_t i = s.edges[e][0], j = s.edges[e][1];
        A[i][i] += dt * s.weight[e];
        A[j][j] += dt * s.weight[e];
        A[i][j] -= dt * s.weight[e];
        A[j][i] -= dt * s.weight[e];
    }
    std::vector<double> y(3 * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            for (int d = 0; d < 3; ++d)
                y[3 * i + d] += A[i][j] * x[3 * j + d];
    return y;
}

TEST(ReferenceMcf, ApplyMatchesDenseMatrix)
{
    const TriangleSoup m = gen::noisy(gen::icosphere(1), 0.3f, 3);
    for (bool uniform : {false, true}) {
        const McfSystem           s = ref::mcf_system(m.positions, m.faces, uniform);
        const std::vector<double> x = random_vector(3 * m.positions.size(), 11);
        const std::vector<double> got  = ref::mcf_apply(s, 0.37, x);
        const std::vector<double> want = dense_apply(s, 0.37, x);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            EXPECT_NEAR(got[i], want[i], 1e-12 * (1 + std::abs(want[i])));
        // L alone is A with a = 0, dt = 1
        McfSystem l = s;
        l.area.assign(l.area.size(), 0.0);
        const std::vector<double> lx = ref::laplacian_apply(s, x);
        const std::vector<double> dl = dense_apply(l, 1.0, x);
        for (std::size_t i = 0; i < lx.size(); ++i)
            EXPECT_NEAR(lx[i], dl[i], 1e-12 * (1 + std::abs(dl[i])));
    }
}

//! The assembled matrix applies as mcf_apply does, per coordinate, and a
//! vertex of no face (appended, isolated) gets an identity row and keeps
//! its position through a solve of mcf_matrix with mcf_right_hand_side.
TEST(ReferenceMcf, MatrixMatchesApplyAndKeepsIsolatedVertices)
{
    TriangleSoup m = gen::noisy(gen::icosphere(1), 0.3f, 3);
    m.positions.push_back({5, 6, 7});  // in no face
    const std::uint32_t iso = std::uint32_t(m.positions.size() - 1);
    for (bool uniform : {false, true}) {
        const McfSystem      s = ref::mcf_system(m.positions, m.faces, uniform);
        const ref::CsrMatrix A = ref::mcf_matrix(s, 0.37);
        ASSERT_EQ(A.size, m.positions.size());
        const std::vector<double> x    = random_vector(3 * m.positions.size(), 13);
        const std::vector<double> want = ref::mcf_apply(s, 0.37, x);
        for (int d = 0; d < 3; ++d) {
            std::vector<double> column(A.size);
            for (std::uint32_t v = 0; v < A.size; ++v) column[v] = x[3 * v + d];
            const std::vector<double> got = A.apply(column);
            for (std::uint32_t v = 0; v < iso; ++v)
                EXPECT_NEAR(got[v], want[3 * v + d], 1e-12 * (1 + std::abs(want[3 * v + d])));
        }
        EXPECT_EQ(A.at(iso, iso), 1.0);
        EXPECT_EQ(A.row_offsets[iso + 1] - A.row_offsets[iso], 1u);
        const std::vector<double> x0 = flatten(m.positions);
        const std::vector<double> b  = ref::mcf_right_hand_side(s, 0.37, x0);
        for (int d = 0; d < 3; ++d) EXPECT_EQ(b[3 * iso + d], x0[3 * iso + d]);
        for (std::uint32_t v = 0; v < iso; ++v)
            EXPECT_DOUBLE_EQ(b[3 * v], 2 * s.area[v] * x0[3 * v]);
    }
}

TEST(ReferenceMcf, OperatorIsSymmetric)
{
    const TriangleSoup m = gen::noisy(gen::torus(8, 6), 0.2f, 5);
    const McfSystem    s = ref::mcf_system(m.positions, m.faces, false);
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
        const std::vector<double> x   = random_vector(3 * m.positions.size(), seed);
        const std::vector<double> y   = random_vector(3 * m.positions.size(), seed + 100);
        const double              xay = dot(x, ref::mcf_apply(s, 0.5, y));
        const double              yax = dot(y, ref::mcf_apply(s, 0.5, x));
        EXPECT_NEAR(xay, yax, 1e-12 * norm(x) * norm(ref::mcf_apply(s, 0.5, y)));
    }
}

TEST(ReferenceMcf, ConstantsAreInTheKernelOfL)
{
    // x_i - x_j is exactly 0 for a constant, so L 1 is exactly 0
    const TriangleSoup m = gen::noisy(gen::grid(6, 5), 0.2f, 2);
    for (bool uniform : {false, true}) {
        const McfSystem           s = ref::mcf_system(m.positions, m.faces, uniform);
        std::vector<double>       x(3 * m.positions.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] = 1.0 + double(i % 3);  // a different constant per coordinate
        for (double v : ref::laplacian_apply(s, x))
            EXPECT_EQ(v, 0.0);
    }
}

#if RXMESH_HAVE_EIGEN

TEST(ReferenceMcf, EigenStepSolvesTheSystem)
{
    TriangleSoup meshes[] = {gen::icosphere(3), gen::grid(8, 8), gen::components(3, 1)};
    for (TriangleSoup& m : meshes) {
        m.positions.push_back({7.f, -3.f, 2.5f});  // isolated: keeps its place
        const double h = ref::mean_edge_length(m.positions, m.faces);
        for (bool uniform : {false, true}) {
            const McfSystem           s  = ref::mcf_system(m.positions, m.faces, uniform);
            const double              dt = uniform ? 2.0 : 2.0 * h * h;
            const std::vector<double> x0 = flatten(m.positions);
            const std::vector<double> x  = rxmesh::test::eigen_mcf_step(s, dt, m.positions);
            ASSERT_EQ(x.size(), x0.size());
            // A X against 2 a X0
            std::vector<double> rhs(x0.size()), r = ref::mcf_apply(s, dt, x);
            for (std::size_t i = 0; i < x0.size(); ++i) {
                rhs[i] = 2 * s.area[i / 3] * x0[i];
                r[i] -= rhs[i];
            }
            EXPECT_LE(norm(r), 1e-9 * norm(rhs));
            const std::size_t last = x.size() - 3;
            for (int d = 0; d < 3; ++d)
                EXPECT_EQ(x[last + d], x0[last + d]);
            // the step moved the mesh (the solve is not the identity)
            double moved = 0;
            for (std::size_t i = 0; i < x.size(); ++i)
                moved = std::max(moved, std::abs(x[i] - x0[i]));
            EXPECT_GT(moved, 1e-3 * h);
        }
    }
}

#else

TEST(ReferenceMcf, EigenStepSolvesTheSystem) { GTEST_SKIP() << "Eigen3 not found"; }

#endif

}  // namespace
