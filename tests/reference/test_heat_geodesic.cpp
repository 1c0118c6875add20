// Tests of the heat-method reference (reference/heat_geodesic.h) and its
// envelope Cholesky: solve_spd against known solutions and refusals; the
// distances against closed forms (Euclidean on a plane, the great-circle arc
// on a sphere) within the method's own error, which shrinks as the mesh is
// refined; sources, unreachable components and vertices of no face; a
// renumbering of the vertices changes nothing but rounding; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "geodesic_bounds.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/heat_geodesic.h"
#include "rxmesh/reference/sparse_operators.h"

namespace {

using namespace rxmesh;
namespace gen = rxmesh::generate;
namespace ref = rxmesh::reference;

double length(const Vec3f& a, const Vec3f& b)
{
    return std::sqrt(std::pow(double(a[0]) - b[0], 2) + std::pow(double(a[1]) - b[1], 2) +
                     std::pow(double(a[2]) - b[2], 2));
}

//! A = L + M of a noisy torus: symmetric positive definite, with the
//! torus's (wrapped, so wide) envelope.
ref::CsrMatrix spd_system()
{
    const TriangleSoup m = gen::noisy(gen::torus(24, 12), 0.2f, 3);
    ref::CsrMatrix     A = ref::cotangent_laplacian(m.positions, m.faces);
    const auto         M = ref::lumped_voronoi_mass(m.positions, m.faces);
    for (std::uint32_t i = 0; i < A.size; ++i)
        for (std::uint64_t k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k)
            if (A.columns[k] == i) A.values[k] += M[i];
    return A;
}

TEST(ReferenceSolveSpd, RecoversAKnownSolution)
{
    const ref::CsrMatrix A = spd_system();
    std::mt19937         rng(5);
    std::vector<double>  x(A.size);
    for (double& v : x) v = std::uniform_real_distribution<double>(-1, 1)(rng);
    const std::vector<double> b = A.apply(x);
    const std::vector<double> y = ref::solve_spd(A, b);
    ASSERT_EQ(y.size(), x.size());
    // the system is well conditioned (L + M with unit-scale M): a backward
    // stable solve is good to many digits
    for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(y[i], x[i], 1e-9) << "row " << i;
    const std::vector<double> r = A.apply(y);
    for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(r[i], b[i], 1e-12) << "row " << i;
}

//! Three right-hand sides at once (row-major) recover three known
//! solutions; a b of the wrong size is refused.
TEST(ReferenceSolveSpd, SolvesSeveralColumnsAtOnce)
{
    const ref::CsrMatrix A = spd_system();
    std::mt19937         rng(7);
    std::vector<double>  x(3 * std::size_t(A.size)), b(x.size());
    for (double& v : x) v = std::uniform_real_distribution<double>(-1, 1)(rng);
    for (int c = 0; c < 3; ++c) {
        std::vector<double> column(A.size);
        for (std::uint32_t i = 0; i < A.size; ++i) column[i] = x[3 * std::size_t(i) + c];
        const std::vector<double> Ax = A.apply(column);
        for (std::uint32_t i = 0; i < A.size; ++i) b[3 * std::size_t(i) + c] = Ax[i];
    }
    const std::vector<double> y = ref::solve_spd(A, b, 3);
    ASSERT_EQ(y.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(y[i], x[i], 1e-9) << "value " << i;
    EXPECT_THROW(ref::solve_spd(A, b, 2), std::invalid_argument);
    EXPECT_THROW(ref::solve_spd(A, b, 0), std::invalid_argument);
}

TEST(ReferenceSolveSpd, SolvesADiagonalAndATridiagonalExactly)
{
    // diag(4, 16, 64): the factor's square roots and x = b / d exact in binary
    ref::CsrMatrix D{3, {0, 1, 2, 3}, {0, 1, 2}, {4, 16, 64}};
    EXPECT_EQ(ref::solve_spd(D, {4, 4, 4}), (std::vector<double>{1, 0.25, 0.0625}));
    // the 1D Dirichlet Laplacian tridiag(-1, 2, -1) of 5 rows; A (1..5) is
    // (0, 0, 0, 0, 6): every step exact in binary
    ref::CsrMatrix T{5,
                     {0, 2, 5, 8, 11, 13},
                     {0, 1, 0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4},
                     {2, -1, -1, 2, -1, -1, 2, -1, -1, 2, -1, -1, 2}};
    const auto     x = ref::solve_spd(T, {0, 0, 0, 0, 6});
    for (int i = 0; i < 5; ++i) EXPECT_NEAR(x[i], i + 1, 1e-13) << "row " << i;
}

TEST(ReferenceSolveSpd, RefusesIndefiniteAndSingularSystems)
{
    ref::CsrMatrix indefinite{2, {0, 2, 4}, {0, 1, 0, 1}, {1, 2, 2, 1}};
    EXPECT_THROW(ref::solve_spd(indefinite, {1, 1}), std::invalid_argument);
    // a closed mesh's Laplacian without a fixed vertex: L 1 = 0
    const TriangleSoup   m = gen::icosphere(2);
    const ref::CsrMatrix L = ref::cotangent_laplacian(m.positions, m.faces);
    EXPECT_THROW(ref::solve_spd(L, std::vector<double>(L.size, 0.0)), std::invalid_argument);
    ref::CsrMatrix nan{1, {0, 1}, {0}, {std::nan("")}};
    EXPECT_THROW(ref::solve_spd(nan, {1}), std::invalid_argument);
}

struct Errors
{
    double mean_relative = 0, max_relative = 0;
};

//! Heat distances against `exact` on the vertices at least `skip` from the
//! source (near the source the method smooths over ~sqrt(t), as Crane et
//! al. section 3.2 says: the relative error there says nothing).
template <typename Exact>
Errors errors_against(const std::vector<double>& d, Exact exact, double skip)
{
    Errors        e;
    std::uint32_t counted = 0;
    for (std::uint32_t v = 0; v < d.size(); ++v) {
        const double x = exact(v);
        if (x < skip) continue;
        const double r = std::abs(d[v] - x) / x;
        e.mean_relative += r;
        e.max_relative = std::max(e.max_relative, r);
        ++counted;
    }
    e.mean_relative /= std::max<std::uint32_t>(counted, 1);
    return e;
}

//! On a plane the geodesic distance is the Euclidean one. The heat method
//! with t = h^2 is not exact on a mesh, but its error is a discretisation
//! error: it shrinks when the grid is refined, and on a regular grid it is
//! a few percent on average (Crane et al. report mean errors of about 1% on
//! their models at t = h^2), worst where the grid's diagonals bias it.
TEST(ReferenceHeatGeodesic, FlatGridIsEuclideanAndConvergesUnderRefinement)
{
    Errors previous{1, 1};
    for (const int n : {24, 48, 96}) {
        SCOPED_TRACE("grid " + std::to_string(n));
        const TriangleSoup  m = gen::grid(n, n);
        const std::uint32_t s = std::uint32_t((n / 3) * (n + 1) + n / 2);
        const auto          r = ref::heat_geodesic(m.positions, m.faces, {s});
        EXPECT_EQ(r.distance[s], 0.0);
        const Errors e = errors_against(
            r.distance, [&](std::uint32_t v) { return length(m.positions[v], m.positions[s]); },
            0.1);
        EXPECT_LT(e.mean_relative, 0.03);
        EXPECT_LT(e.max_relative, 0.15);
        EXPECT_LT(e.mean_relative, previous.mean_relative);
        EXPECT_LT(e.max_relative, previous.max_relative);
        previous = e;
    }
}

//! On a sphere of radius R the geodesic distance is R theta; the polyhedron's
//! own distances lie within rho / R of it (geodesic_bounds.h).
TEST(ReferenceHeatGeodesic, IcosphereIsTheGreatCircleArc)
{
    for (const int level : {3, 4, 5}) {
        SCOPED_TRACE("level " + std::to_string(level));
        const test::ScaledIcosphere sphere = test::scaled_icosphere(level, 2);
        const auto   r = ref::heat_geodesic(sphere.mesh.positions, sphere.mesh.faces, {0});
        const Errors e = errors_against(
            r.distance, [&](std::uint32_t v) { return sphere.arc(0, v); }, 0.5);
        EXPECT_LT(e.mean_relative, 0.03);
        EXPECT_LT(e.max_relative, 0.15);
    }
}

//! Two sources: the distance to the nearer one.
TEST(ReferenceHeatGeodesic, SeveralSourcesGiveTheNearest)
{
    const int           n = 64;
    const TriangleSoup  m = gen::grid(n, n);
    const std::uint32_t a = std::uint32_t((n / 4) * (n + 1) + n / 4);
    const std::uint32_t b = std::uint32_t((3 * n / 4) * (n + 1) + 3 * n / 4);
    const auto          r = ref::heat_geodesic(m.positions, m.faces, {a, b});
    const Errors        e = errors_against(
               r.distance,
               [&](std::uint32_t v) {
            return std::min(length(m.positions[v], m.positions[a]),
                                   length(m.positions[v], m.positions[b]));
        },
               0.1);
    EXPECT_LT(e.mean_relative, 0.03);
    EXPECT_LT(e.max_relative, 0.15);
}

//! Three equal spheres, one source on the first: the others are +inf and
//! the first's distances are those of the sphere alone (the systems
//! decouple; the spheres' edges, and so t, agree up to float rounding of
//! the shifted positions).
TEST(ReferenceHeatGeodesic, ComponentsWithoutASourceAreUnreachable)
{
    const TriangleSoup one   = gen::icosphere(3);
    const TriangleSoup three = gen::components(3, 3);
    const auto         alone = ref::heat_geodesic(one.positions, one.faces, {7});
    const auto         all   = ref::heat_geodesic(three.positions, three.faces, {7});
    const std::size_t  n     = one.positions.size();
    ASSERT_EQ(all.distance.size(), 3 * n);
    for (std::size_t v = 0; v < n; ++v)
        EXPECT_NEAR(all.distance[v], alone.distance[v], 1e-5 * (1 + alone.distance[v]))
            << "vertex " << v;
    for (std::size_t v = n; v < 3 * n; ++v) EXPECT_TRUE(std::isinf(all.distance[v])) << v;
    // a source on each of two: each measured from its own
    const auto two = ref::heat_geodesic(three.positions, three.faces, {7, std::uint32_t(n + 7)});
    for (std::size_t v = 0; v < n; ++v)
        EXPECT_NEAR(two.distance[n + v], alone.distance[v], 1e-5 * (1 + alone.distance[v]));
    for (std::size_t v = 2 * n; v < 3 * n; ++v) EXPECT_TRUE(std::isinf(two.distance[v])) << v;
}

//! A vertex of no face, and faces of no area, get no distance.
TEST(ReferenceHeatGeodesic, VerticesOfNoFaceAreUnreachable)
{
    TriangleSoup m = gen::grid(8, 8);
    m.positions.push_back({5, 5, 5});
    const auto r = ref::heat_geodesic(m.positions, m.faces, {0});
    EXPECT_TRUE(std::isinf(r.distance.back()));
    for (std::size_t v = 0; v + 1 < r.distance.size(); ++v)
        EXPECT_TRUE(std::isfinite(r.distance[v])) << v;
    // a source there: the mesh's vertices are on another component
    const auto lone =
        ref::heat_geodesic(m.positions, m.faces, {std::uint32_t(m.positions.size() - 1)});
    for (double d : lone.distance) EXPECT_TRUE(std::isinf(d));
}

//! The numbering of the vertices changes the order of the factor, never the
//! distances beyond rounding.
TEST(ReferenceHeatGeodesic, IndependentOfTheVertexNumbering)
{
    const TriangleSoup         m = gen::noisy(gen::torus(40, 16), 0.2f, 3);
    std::vector<std::uint32_t> perm(m.positions.size());
    std::iota(perm.begin(), perm.end(), 0u);
    std::shuffle(perm.begin(), perm.end(), std::mt19937(11));
    TriangleSoup p;
    p.positions.resize(m.positions.size());
    for (std::size_t v = 0; v < perm.size(); ++v) p.positions[perm[v]] = m.positions[v];
    for (const Triangle& f : m.faces) p.faces.push_back({perm[f[0]], perm[f[1]], perm[f[2]]});
    const auto a     = ref::heat_geodesic(m.positions, m.faces, {3, 500});
    const auto b     = ref::heat_geodesic(p.positions, p.faces, {perm[3], perm[500]});
    double     worst = 0, largest = 0;
    for (std::size_t v = 0; v < perm.size(); ++v) {
        worst   = std::max(worst, std::abs(a.distance[v] - b.distance[perm[v]]));
        largest = std::max(largest, a.distance[v]);
    }
    EXPECT_LT(worst, 1e-9 * largest);
}

//! A corner of a cube, its far face equilateral: from the right-angled
//! vertex, u is equal at that face's corners, and a gradient of rounding
//! noise must not give it a direction: the three far corners are at one
//! distance (the symmetry), the same in every numbering of the vertices.
TEST(ReferenceHeatGeodesic, AFaceOfEqualHeatHasNoDirection)
{
    const std::vector<Vec3f>    P    = {{0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
    const std::vector<Triangle> F    = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {0, 2, 3}};
    std::vector<std::uint32_t>  perm = {0, 1, 2, 3};
    std::vector<double>         first;
    do {
        std::vector<Vec3f> Q(4);
        for (int v = 0; v < 4; ++v) Q[perm[v]] = P[v];
        std::vector<Triangle> G;
        for (const Triangle& f : F) G.push_back({perm[f[0]], perm[f[1]], perm[f[2]]});
        const auto          r = ref::heat_geodesic(Q, G, {perm[0]});
        std::vector<double> d(4);
        for (int v = 0; v < 4; ++v) d[v] = r.distance[perm[v]];
        EXPECT_EQ(d[0], 0.0);
        EXPECT_NEAR(d[2], d[1], 1e-12);
        EXPECT_NEAR(d[3], d[1], 1e-12);
        if (first.empty()) first = d;
        for (int v = 1; v < 4; ++v) EXPECT_NEAR(d[v], first[v], 1e-12) << "vertex " << v;
    } while (std::next_permutation(perm.begin(), perm.end()));
}

//! A strip of 1000 x 1 square cells: from one end the heat at t = h^2 falls
//! by about 0.4 decades per edge, past the smallest double (1e-308) before
//! the other end, but within the ~540 decades between kHeatTop and
//! kHeatFloor: the heat's right-hand side is scaled up once, t is left
//! alone, and the distances are as accurate as on a short strip.
TEST(ReferenceHeatGeodesic, AnUnderflowingHeatIsRescaledFirst)
{
    const int    n = 1000;
    TriangleSoup m = gen::grid(n, 1);
    for (Vec3f& p : m.positions) p[1] /= float(n);
    const auto r = ref::heat_geodesic(m.positions, m.faces, {0});
    EXPECT_EQ(r.heat_rescales, 1u);
    EXPECT_GT(r.heat_scale, 1e200);
    EXPECT_EQ(r.time_step_raises, 0u);
    EXPECT_EQ(r.low_heat_vertices, 0u);
    EXPECT_DOUBLE_EQ(r.time_step, r.mean_edge_length * r.mean_edge_length);
    const Errors e = errors_against(
        r.distance, [&](std::uint32_t v) { return length(m.positions[v], m.positions[0]); },
        10 * std::sqrt(r.time_step));
    EXPECT_LT(e.mean_relative, 0.002);
    EXPECT_LT(e.max_relative, 0.01);
}

//! A strip of 1500 x 1 square cells: beyond what a rescale gains. The heat
//! is rescaled, then the time step raised until it reaches every vertex;
//! the distances are then the Euclidean ones but for the smoothing of the
//! larger t within a few sqrt(t) of the source (Crane et al. section 3.2).
TEST(ReferenceHeatGeodesic, AnUnderflowingTimeStepIsRaised)
{
    const int    n = 1500;
    TriangleSoup m = gen::grid(n, 1);
    for (Vec3f& p : m.positions) p[1] /= float(n);
    const auto r = ref::heat_geodesic(m.positions, m.faces, {0});
    EXPECT_EQ(r.heat_rescales, 1u);
    EXPECT_GT(r.time_step_raises, 0u);
    EXPECT_EQ(r.low_heat_vertices, 0u);
    EXPECT_DOUBLE_EQ(r.time_step, r.mean_edge_length * r.mean_edge_length *
                                      std::pow(ref::kTimeStepRaise, r.time_step_raises));
    const Errors e = errors_against(
        r.distance, [&](std::uint32_t v) { return length(m.positions[v], m.positions[0]); },
        10 * std::sqrt(r.time_step));
    EXPECT_LT(e.mean_relative, 0.03);
    EXPECT_LT(e.max_relative, 0.15);
}

TEST(ReferenceHeatGeodesic, BadInputIsRefused)
{
    const TriangleSoup m = gen::grid(4, 4);
    EXPECT_THROW(ref::heat_geodesic(m.positions, m.faces, {}), std::invalid_argument);
    EXPECT_THROW(ref::heat_geodesic(m.positions, m.faces, {std::uint32_t(m.positions.size())}),
                 std::invalid_argument);
    for (double t : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()})
        EXPECT_THROW(ref::heat_geodesic(m.positions, m.faces, {0}, t), std::invalid_argument) << t;
    // no edge at all
    EXPECT_THROW(ref::heat_geodesic({{0, 0, 0}}, {}, {0}), std::invalid_argument);
}

}  // namespace
