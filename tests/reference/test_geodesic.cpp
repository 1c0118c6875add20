// Tests of the PTP geodesic reference (reference/geodesic.h): the planar update
// against exact plane waves, toplesets read off small drawings, distances
// against closed forms on a flat grid and a sphere within bounds derived here,
// and the inequalities that the window rule guarantees on any mesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/geodesic.h"
#include "geodesic_bounds.h"
#include "test_data.h"

namespace {

using namespace rxmesh;
using namespace rxmesh::reference;
using U32s    = std::vector<std::uint32_t>;
using Vec3d   = std::array<double, 3>;
namespace gen = rxmesh::generate;
namespace ref = rxmesh::reference;

constexpr double kInf = std::numeric_limits<double>::infinity();

Vec3d  to_double(const Vec3f& p) { return {p[0], p[1], p[2]}; }
Vec3d  operator+(const Vec3d& a, const Vec3d& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3d  operator-(const Vec3d& a, const Vec3d& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3d  operator*(double s, const Vec3d& a) { return {s * a[0], s * a[1], s * a[2]}; }
double dot(const Vec3d& a, const Vec3d& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double norm(const Vec3d& a) { return std::sqrt(dot(a, a)); }
double length(const Vec3f& a, const Vec3f& b) { return norm(to_double(a) - to_double(b)); }

bool repeats_vertex(const Triangle& t) { return t[0] == t[1] || t[1] == t[2] || t[0] == t[2]; }

// ---- ptp_update -------------------------------------------------------------

//! A triangle (v, a, b) in a random plane of space, rounded to float, and a
//! plane wave of unit speed in that plane that crosses the line ab at
//! q = a + lambda (b - a) and travels on straight to v.
struct PlaneWave
{
    Vec3f  v, a, b;
    double ta, tb;  // arrival times at a and b
    double tv;      // arrival time at v
};

PlaneWave random_plane_wave(std::mt19937& rng, double lambda)
{
    std::uniform_real_distribution<double> u(0.0, 1.0);
    auto                                   random_vector = [&](double scale) {
        return Vec3d{scale * (u(rng) - 0.5), scale * (u(rng) - 0.5), scale * (u(rng) - 0.5)};
    };
    const Vec3d r1 = random_vector(1), r2 = random_vector(1), origin = random_vector(10);
    const Vec3d e1 = (1 / norm(r1)) * r1, n2 = r2 - dot(r2, e1) * e1, e2 = (1 / norm(n2)) * n2;
    auto        place = [&](double x, double y) {
        const Vec3d p = origin + x * e1 + y * e2;
        return Vec3f{float(p[0]), float(p[1]), float(p[2])};
    };
    // in-plane coordinates: a = (-wa, 0), b = (wb, 0), v = (x, y) with y > 0;
    // every side >= 0.2 and the height >= 0.2 keep the triangle far from
    // degenerate (sine of the angle at v >= about 0.08)
    PlaneWave w;
    w.a = place(-0.2 - 0.8 * u(rng), 0);
    w.b = place(0.2 + 0.8 * u(rng), 0);
    w.v = place(2 * u(rng) - 1, 0.2 + 0.8 * u(rng));
    // the wave is built from the rounded corners, so it lies in their plane
    const Vec3d A = to_double(w.a), B = to_double(w.b), V = to_double(w.v);
    const Vec3d q = A + lambda * (B - A);
    const Vec3d n = (1 / norm(V - q)) * (V - q);  // direction of travel
    // t(x) = tv + n . (x - v); tv >= |a - v|, |b - v| keeps ta, tb >= 0
    w.tv = std::max(norm(A - V), norm(B - V)) + 5 * u(rng);
    w.ta = w.tv + dot(n, A - V);
    w.tb = w.tv + dot(n, B - V);
    return w;
}

TEST(ReferencePtpUpdate, HandWorkedFronts)
{
    // front parallel to ab = (-1,0)-(1,0), moving along +y, at ab at time 5:
    // it reaches v = (0, 1) at 6
    EXPECT_NEAR(ref::ptp_update({0, 1, 0}, {-1, 0, 0}, {1, 0, 0}, 5, 5), 6.0, 1e-12);
    // t(x) = n . x with n = (7, 24) / 25: ta = 0 at (0,0), tb = 0.28 at (1,0);
    // the ray back from v = (0.5, 1) meets y = 0 at x = 0.5 - 0.28/0.96,
    // inside ab, so the front crosses the triangle: tv = 0.14 + 0.96
    EXPECT_NEAR(ref::ptp_update({0.5f, 1, 0}, {0, 0, 0}, {1, 0, 0}, 0, 0.28), 1.1, 1e-12);
    // n = (3, 4) / 5 from v = (0, 1) meets y = 0 at x = -0.75, outside ab:
    // the edges give min(0 + 1, 0.6 + sqrt(2)) = 1 (the plane would say 0.8)
    EXPECT_NEAR(ref::ptp_update({0, 1, 0}, {0, 0, 0}, {1, 0, 0}, 0, 0.6), 1.0, 1e-12);
}

TEST(ReferencePtpUpdate, PlaneWaveThroughTheTriangleIsExact)
{
    // A front crossing ab and reaching v is exactly the planar solution; only
    // rounding (eps = 1e-16) in Q and the quadratic is left. An error in det Q
    // scales s, delta and c alike, as a front speed off by eps / sin^2 (angle
    // at v, sin >= 0.08): it moves p by that times |p - t_q| <= 3. The
    // discriminant, ((p2 - p1) / 2)^2 for the roots p1 < p2, is a difference
    // of terms of size tv^2 <= 53; p2 - p1 (v's times under the wave and its
    // mirror image in ab) is >= 2 * 0.2 * 0.089: p moves by eps 53 / 0.018.
    // Both below 1e-12 absolute, so 1e-9 relative (tv >= 0.2) is safe.
    std::mt19937                           rng(20190801);
    std::uniform_real_distribution<double> inside(0.02, 0.98);
    for (int trial = 0; trial < 1000; ++trial) {
        const PlaneWave w = random_plane_wave(rng, inside(rng));
        SCOPED_TRACE("trial " + std::to_string(trial));
        EXPECT_NEAR(ref::ptp_update(w.v, w.a, w.b, w.ta, w.tb), w.tv, 1e-9 * w.tv);
        // the update does not depend on the order of a and b
        EXPECT_NEAR(ref::ptp_update(w.v, w.b, w.a, w.tb, w.ta), w.tv, 1e-9 * w.tv);
    }
}

TEST(ReferencePtpUpdate, FrontMissingTheTriangleComesAlongAnEdge)
{
    // q outside the segment ab: the ray back from v misses the triangle, so
    // the update is the edge value, which for a plane wave is strictly
    // larger than tv (equal only if the wave ran along va or vb)
    std::mt19937                           rng(77);
    std::uniform_real_distribution<double> beyond(1.3, 2.5), u(0.0, 1.0);
    for (int trial = 0; trial < 1000; ++trial) {
        const double    lambda = u(rng) < 0.5 ? beyond(rng) : 1 - beyond(rng);
        const PlaneWave w      = random_plane_wave(rng, lambda);
        SCOPED_TRACE("trial " + std::to_string(trial));
        const double want = std::min(w.ta + length(w.a, w.v), w.tb + length(w.b, w.v));
        ASSERT_GT(want - w.tv, 1e-6 * w.tv) << "the case must tell the two answers apart";
        EXPECT_NEAR(ref::ptp_update(w.v, w.a, w.b, w.ta, w.tb), want, 1e-12 * want);
    }
}

TEST(ReferencePtpUpdate, InfiniteTimesAndDegenerateTrianglesUseEdges)
{
    const Vec3f v = {0, 1, 0}, a = {-1, 0, 0}, b = {1, 0, 0};
    EXPECT_DOUBLE_EQ(ref::ptp_update(v, a, b, kInf, 2), 2 + std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(ref::ptp_update(v, a, b, 3, kInf), 3 + std::sqrt(2.0));
    EXPECT_EQ(ref::ptp_update(v, a, b, kInf, kInf), kInf);
    // collinear corners (det Q = 1 * 4 - 2^2 = 0): min(0.5 + 1, 0.2 + 2)
    EXPECT_DOUBLE_EQ(ref::ptp_update({0, 0, 0}, {1, 0, 0}, {2, 0, 0}, 0.5, 0.2), 1.5);
    // a corner on top of v: min(0.7 + 0, 0.1 + 1)
    EXPECT_DOUBLE_EQ(ref::ptp_update({0, 0, 0}, {0, 0, 0}, {1, 0, 0}, 0.7, 0.1), 0.7);
    // v 5e-8 below ab, a = (-1, 0) to b = (1, 1e-7): the angle at v is
    // pi - 1e-7, det Q = 1e-14 <= 1e-12 * 1 * 1. The planar value would be
    // that 5e-8 (a front parallel to ab, ta = tb = 0, crossing the
    // triangle); the threshold makes it the edge value 1. With b = (1, 1e-5)
    // det Q = 1e-10 is above it and the planar value 5e-6 stands.
    EXPECT_DOUBLE_EQ(ref::ptp_update({0, 0, 0}, {-1, 0, 0}, {1, 1e-7f, 0}, 0, 0), 1.0);
    EXPECT_NEAR(ref::ptp_update({0, 0, 0}, {-1, 0, 0}, {1, 1e-5f, 0}, 0, 0), 5e-6, 1e-9);
}

// ---- toplesets ----------------------------------------------------------------

//! A strip of four triangles, another triangle apart and a lone vertex:
//!
//!   1---3---5
//!   | \ | \ |     7
//!   0---2---4    / \     9
//!               6---8
const std::vector<Triangle> kStrip = {{0, 2, 1}, {2, 3, 1}, {2, 4, 3}, {4, 5, 3}, {6, 8, 7}};
constexpr std::size_t       kStripVertices = 10;
constexpr std::uint32_t     X              = kUnreached;

TEST(ReferenceToplesets, StripOtherComponentAndLoneVertex)
{
    const Toplesets t = ref::toplesets(kStripVertices, kStrip, {0});
    EXPECT_EQ(t.level, (U32s{0, 1, 1, 2, 2, 3, X, X, X, X}));
    EXPECT_EQ(t.num_levels, 4u);
    const Toplesets from5 = ref::toplesets(kStripVertices, kStrip, {5});
    EXPECT_EQ(from5.level, (U32s{3, 2, 2, 1, 1, 0, X, X, X, X}));
    EXPECT_EQ(from5.num_levels, 4u);
}

TEST(ReferenceToplesets, SeveralAndRepeatedSources)
{
    const Toplesets t = ref::toplesets(kStripVertices, kStrip, {0, 5, 0});
    EXPECT_EQ(t.level, (U32s{0, 1, 1, 1, 1, 0, X, X, X, X}));
    EXPECT_EQ(t.num_levels, 2u);
    // no source: nothing is reached and there is no level
    const Toplesets none = ref::toplesets(kStripVertices, kStrip, {});
    EXPECT_EQ(none.level, U32s(kStripVertices, kUnreached));
    EXPECT_EQ(none.num_levels, 0u);
}

TEST(ReferenceToplesets, BowtieCrossesTheSharedVertex)
{
    // faces (0, 1, 2) and (0, 3, 4) meet at vertex 0 only
    const TriangleSoup bowtie = gen::bowtie();
    const Toplesets    t      = ref::toplesets(5, bowtie.faces, {1});
    EXPECT_EQ(t.level, (U32s{1, 0, 1, 2, 2}));
    EXPECT_EQ(t.num_levels, 3u);
}

TEST(ReferenceToplesets, GridLevelsFollowTheDiagonals)
{
    // grid cells are split along (i, j)-(i+1, j+1): a step moves by one in x,
    // in y, or in both with the same sign, so level(i, j) = max(i, j) from
    // the corner (0, 0)
    const int          nx = 5, ny = 3;
    const TriangleSoup g = gen::grid(nx, ny);
    const Toplesets    t = ref::toplesets(g.num_vertices(), g.faces, {0});
    for (int j = 0; j <= ny; ++j)
        for (int i = 0; i <= nx; ++i)
            EXPECT_EQ(t.level[j * (nx + 1) + i], std::uint32_t(std::max(i, j)))
                << "(" << i << ", " << j << ")";
    EXPECT_EQ(t.num_levels, 6u);
}

TEST(ReferenceToplesets, FaceRepeatingAVertexStillJoinsItsCorners)
{
    // (0, 0, 1) joins 0 and 1; (1, 2, 2) joins 1 and 2
    const Toplesets t = ref::toplesets(3, {{0, 0, 1}, {1, 2, 2}}, {0});
    EXPECT_EQ(t.level, (U32s{0, 1, 2}));
    EXPECT_EQ(t.num_levels, 3u);
}

// ---- geodesic_ptp: closed forms -------------------------------------------------

//! With one source s no value falls below the straight line |p_v - p_s|: if
//! ta >= |a - s| and tb >= |b - s|, an accepted update is t at the point q
//! where the front crosses ab (linear between ta and tb, so >= |q - s| by
//! convexity of |x - s|) plus |q - v|, hence >= |v - s|; the edge value
//! likewise; and it holds at the start.
void expect_not_below_straight_line(const TriangleSoup& m, const Geodesic& g, std::uint32_t s)
{
    for (std::size_t v = 0; v < m.num_vertices(); ++v)
        EXPECT_GE(g.distance[v], length(m.positions[v], m.positions[s]) * (1 - 1e-12))
            << "vertex " << v;
}

//! Vertex (i, j) of gen::grid(n, n).
std::uint32_t grid_vertex(int n, int i, int j) { return std::uint32_t(j * (n + 1) + i); }

using rxmesh::test::discretisation_bound;  // derived in geodesic_bounds.h

TEST(ReferenceGeodesic, FlatGridWithinTheDiscretisationBound)
{
    // A shortest path along edges would be off by (sqrt(2) - 1) r along the
    // anti-diagonal, which has no edges: 0.21 at r = 0.5, where the bound is
    // 0.09; so the bound does need the planar update.
    constexpr int       n = 64;
    const double        h = std::sqrt(2.0) / n;  // the diagonals
    const TriangleSoup  m = gen::grid(n, n);
    const std::uint32_t s = grid_vertex(n, n / 2, n / 2);
    const Geodesic      g = ref::geodesic_ptp(m.positions, m.faces, {s}, 1e-9);
    ASSERT_TRUE(g.converged);
    EXPECT_EQ(g.distance[s], 0.0);
    expect_not_below_straight_line(m, g, s);
    for (std::size_t v = 0; v < m.num_vertices(); ++v) {
        const double r = length(m.positions[v], m.positions[s]);
        EXPECT_LE(g.distance[v] - r, discretisation_bound(r, h)) << "vertex " << v;
    }
}

TEST(ReferenceGeodesic, FlatGridExactAlongEdgeLines)
{
    // Along x, y and the (1, 1) diagonal from the source the edges form a
    // straight path whose level grows by one per edge. The upwind inequality
    // (see expect_edge_inequalities) chained along it gives
    // d <= r (1 + tol)^k <= r (1 + 2 k tol) at level k, and d >= r always.
    constexpr int       n   = 32;
    constexpr double    tol = 1e-9;
    const TriangleSoup  m   = gen::grid(n, n);
    const std::uint32_t s   = grid_vertex(n, n / 2, n / 2);
    const Geodesic      g   = ref::geodesic_ptp(m.positions, m.faces, {s}, tol);
    for (int k = -n / 2; k <= n / 2; ++k)
        for (std::uint32_t v : {grid_vertex(n, n / 2 + k, n / 2), grid_vertex(n, n / 2, n / 2 + k),
                                grid_vertex(n, n / 2 + k, n / 2 + k)}) {
            const double r = length(m.positions[v], m.positions[s]);
            EXPECT_NEAR(g.distance[v], r, 2 * std::abs(k) * tol * r + 1e-12) << "vertex " << v;
        }
}

TEST(ReferenceGeodesic, IcosphereWithinTheDiscretisationBound)
{
    // Polyhedral geodesic d_p against the great-circle arc R theta:
    // d_p <= R theta, as the nearest-point projection onto the (convex,
    // inscribed) polyhedron shortens the arc and keeps its end vertices;
    // R theta <= d_p R / rho, as the radial projection from a face (all at
    // distance >= rho from the centre) onto the sphere stretches by <= R / rho.
    // PTP differs from d_p by the discretisation bound, either way: on the
    // sphere the fronts converge again past the equator.
    const rxmesh::test::ScaledIcosphere sphere = rxmesh::test::scaled_icosphere(5, 2);
    const TriangleSoup&                 m      = sphere.mesh;
    const double   R = sphere.radius, rho = sphere.least_plane_distance;
    const Geodesic g = ref::geodesic_ptp(m.positions, m.faces, {0}, 1e-9);
    ASSERT_TRUE(g.converged);
    EXPECT_EQ(g.distance[0], 0.0);
    expect_not_below_straight_line(m, g, 0);
    for (std::uint32_t v = 0; v < m.num_vertices(); ++v) {
        const double arc   = sphere.arc(0, v);
        const double bound = discretisation_bound(arc, sphere.longest_edge);
        EXPECT_LE(g.distance[v], arc + bound) << "vertex " << v;
        EXPECT_GE(g.distance[v], arc * rho / R - bound) << "vertex " << v;
    }
}

// ---- geodesic_ptp: inequalities -------------------------------------------------

//! Sources 0, convergence, finite exactly where reached.
void expect_well_formed(const Geodesic& g, const U32s& sources)
{
    EXPECT_TRUE(g.converged);
    for (std::uint32_t s : sources)
        EXPECT_EQ(g.distance[s], 0.0) << "source " << s;
    for (std::size_t v = 0; v < g.distance.size(); ++v) {
        EXPECT_EQ(std::isfinite(g.distance[v]), g.toplesets.level[v] != kUnreached)
            << "vertex " << v;
        EXPECT_FALSE(g.distance[v] < 0) << "vertex " << v;
    }
}

//! Along both directions (i -> j) of every edge of every proper face.
//! Upwind (level j >= level i): d_j <= d_i (1 + tol) + |p_i - p_j| holds on
//! any mesh. The update of j from a face holding i never exceeds
//! d_i + |p_i - p_j| (the edge value does not, and an accepted root
//! p = t_i - (p_i - p_j) . g with a unit g does not either), and values only
//! fall. When level i leaves the window at iteration t it changed by at most
//! tol d_i at t, so i's value read at t or later is <= d_i (1 + tol); level j
//! is still in the window at t or later, so j's last update read such a value.
//! Downwind (level j < level i) is not implied: a level leaves the window
//! after one unchanged iteration, possibly before it ever read the next
//! level's values (+inf in the array it reads), which freezes values the next
//! level would lower where edge lengths vary (gen::cylinder(32, 12) with two
//! sources, libcgal-demo's rotor.off). On the near-uniform meshes it is
//! checked on hop count follows distance; 10 tol d_i is the stopping rule's.
void expect_edge_inequalities(const TriangleSoup& m, const Geodesic& g, double tol, bool downwind)
{
    const std::vector<double>& d     = g.distance;
    const U32s&                level = g.toplesets.level;
    auto                       check = [&](std::uint32_t i, std::uint32_t j) {
        if (std::isinf(d[i]))
            return;
        const double len = length(m.positions[i], m.positions[j]);
        if (level[j] >= level[i]) {
            EXPECT_LE(d[j], d[i] * (1 + tol) + len + 1e-12 * (d[i] + len))
                << "upwind edge " << i << " -> " << j;
        } else if (downwind) {
            EXPECT_LE(d[j], d[i] + len + 10 * tol * d[i] + 1e-12)
                << "downwind edge " << i << " -> " << j;
        }
    };
    for (const Triangle& t : m.faces) {
        if (repeats_vertex(t))
            continue;  // no triangle, no update across it
        for (int k = 0; k < 3; ++k) {
            check(t[k], t[(k + 1) % 3]);
            check(t[(k + 1) % 3], t[k]);
        }
    }
}

//! Two grids(8, 8) sharing one corner vertex only (the first grid's (1, 1)),
//! the second tilted out of the plane by an isometry.
TriangleSoup grids_sharing_a_corner()
{
    const TriangleSoup  a      = gen::grid(8, 8);
    const TriangleSoup  b      = gen::grid(8, 8);
    const std::uint32_t shared = std::uint32_t(a.num_vertices() - 1);  // at (1, 1, 0)
    TriangleSoup        m      = a;
    auto                id     = [&](std::uint32_t v) {
        return v == 0 ? shared : std::uint32_t(a.num_vertices() + v - 1);
    };
    for (std::size_t v = 1; v < b.num_vertices(); ++v) {
        const Vec3f& p = b.positions[v];
        m.positions.push_back({1 + p[0], 1 + 0.6f * p[1], 0.8f * p[1]});
    }
    for (const Triangle& t : b.faces)
        m.faces.push_back({id(t[0]), id(t[1]), id(t[2])});
    return m;
}

struct NamedMesh
{
    const char*  name;
    TriangleSoup mesh;
};

std::vector<NamedMesh> near_uniform_meshes()
{
    return {{"grid", gen::grid(32, 32)},
            {"icosphere", gen::icosphere(4)},
            {"open noisy grid", gen::noisy(gen::grid(40, 30), 0.3f, 3)},
            {"noisy icosphere", gen::noisy(gen::icosphere(4), 0.3f, 5)},
            {"non-manifold vertex", grids_sharing_a_corner()},
            {"non-manifold edge", gen::fin(4)}};
}

TEST(ReferenceGeodesic, TriangleInequalityAlongEdges)
{
    constexpr double tol = 1e-4;
    for (const NamedMesh& m : near_uniform_meshes()) {
        SCOPED_TRACE(m.name);
        for (const U32s& sources : {U32s{0}, U32s{0, std::uint32_t(m.mesh.num_vertices() / 2)}}) {
            const Geodesic g = ref::geodesic_ptp(m.mesh.positions, m.mesh.faces, sources, tol);
            expect_well_formed(g, sources);
            expect_edge_inequalities(m.mesh, g, tol, true);
        }
    }
}

TEST(ReferenceGeodesic, TwoSourcesAreNoFartherThanEither)
{
    // The update is non-decreasing in ta and tb, so more sources can only
    // lower the fixed point; PTP stops within the stopping rule's allowance
    // of it on these meshes (see expect_edge_inequalities for why not on all)
    constexpr double tol = 1e-4;
    for (const NamedMesh& m : near_uniform_meshes()) {
        SCOPED_TRACE(m.name);
        const auto&         p  = m.mesh.positions;
        const std::uint32_t s1 = 0, s2 = std::uint32_t(m.mesh.num_vertices() / 2);
        const Geodesic      both = ref::geodesic_ptp(p, m.mesh.faces, {s1, s2}, tol);
        for (std::uint32_t s : {s1, s2}) {
            const Geodesic one = ref::geodesic_ptp(p, m.mesh.faces, {s}, tol);
            for (std::size_t v = 0; v < p.size(); ++v) {
                if (std::isfinite(one.distance[v])) {
                    EXPECT_LE(both.distance[v], one.distance[v] * (1 + 10 * tol) + 1e-12)
                        << "source " << s << ", vertex " << v;
                }
            }
        }
    }
}

TEST(ReferenceGeodesic, OtherComponentsStayInfinite)
{
    // three disjoint icosphere(2)s of 162 vertices each; the source in the first
    const TriangleSoup m = gen::components(3, 2);
    const Geodesic     g = ref::geodesic_ptp(m.positions, m.faces, {5}, 1e-4);
    expect_well_formed(g, {5});
    for (std::size_t v = 0; v < m.num_vertices(); ++v)
        EXPECT_EQ(std::isfinite(g.distance[v]), v < 162) << "vertex " << v;
}

// ---- geodesic_ptp: special inputs -------------------------------------------------

TEST(ReferenceGeodesic, NonManifoldPiecesAndIsolatedFaces)
{
    // fin(4): axis 0 = (0,0,0) - 1 = (0,0,1), tips 2..5 at distance 1 from the
    // axis at height 0.5, one wing each. From tip 2: 0 and 1 at sqrt(1.25)
    // along their edges; another tip gets the front crossing the axis
    // squarely (ta = tb), so sqrt(1.25) + 1 (the unfolded straight line, 2,
    // is shorter: the planar update cannot see it). bowtie() shifted to 6..10:
    // from 7 = (1,-0.5), 6 = (0,0) at sqrt(1.25), 8 = (1,0.5) at 1, and 9, 10
    // only through 6: 2 sqrt(1.25). Two isolated faces 11..16 and a lone 17.
    TriangleSoup m = gen::fin(4);
    for (const TriangleSoup& piece : {gen::bowtie(), gen::isolated_faces(2)}) {
        const auto base = std::uint32_t(m.num_vertices());
        m.positions.insert(m.positions.end(), piece.positions.begin(), piece.positions.end());
        for (const Triangle& t : piece.faces)
            m.faces.push_back({t[0] + base, t[1] + base, t[2] + base});
    }
    m.positions.push_back({9, 9, 9});
    const Geodesic g = ref::geodesic_ptp(m.positions, m.faces, {2, 7}, 1e-4);
    expect_well_formed(g, {2, 7});
    EXPECT_LE(g.iterations, 8 * int(g.toplesets.num_levels) + 64);
    const double              e    = std::sqrt(1.25);
    const std::vector<double> want = {e,    e,    0,    e + 1, e + 1, e + 1,  // fin
                                      e,    0,    1,    2 * e, 2 * e,         // bowtie
                                      kInf, kInf, kInf, kInf,  kInf,  kInf,  kInf};
    ASSERT_EQ(g.distance.size(), want.size());
    // float corners: the tips lie at distance 1 from the axis within 1e-7
    for (std::size_t v = 0; v < want.size(); ++v) {
        if (std::isinf(want[v]))
            EXPECT_EQ(g.distance[v], kInf) << "vertex " << v;
        else
            EXPECT_NEAR(g.distance[v], want[v], 1e-6) << "vertex " << v;
    }
}

TEST(ReferenceGeodesic, FaceRepeatingAVertexCarriesNoDistance)
{
    // (2, 2, 3) gives 3 a level through the edge 2-3, but no triangle to
    // update across: 3 stays +inf, and the rest converges
    const std::vector<Vec3f>    p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 2, 0}};
    const std::vector<Triangle> f = {{0, 1, 2}, {2, 2, 3}};
    const Geodesic              g = ref::geodesic_ptp(p, f, {0}, 1e-4);
    EXPECT_TRUE(g.converged);
    EXPECT_EQ(g.toplesets.level, (U32s{0, 1, 1, 2}));
    EXPECT_EQ(g.distance, (std::vector<double>{0, 1, 1, kInf}));
}

TEST(ReferenceGeodesic, IterationLimitStopsEarly)
{
    // at iteration t (from 1) the window ends at level t at most, so after
    // 3 iterations from corner 0 of a grid (level max(i, j)) no vertex of
    // level >= 3 has been written
    const TriangleSoup m = gen::grid(8, 8);
    const Geodesic     g = ref::geodesic_ptp(m.positions, m.faces, {0}, 1e-4, 3);
    EXPECT_FALSE(g.converged);
    EXPECT_EQ(g.iterations, 3);
    for (std::size_t v = 0; v < m.num_vertices(); ++v)
        EXPECT_EQ(std::isinf(g.distance[v]), g.toplesets.level[v] >= 3) << "vertex " << v;
    const Geodesic full = ref::geodesic_ptp(m.positions, m.faces, {0}, 1e-4);
    EXPECT_TRUE(full.converged);
    EXPECT_LE(full.iterations, 8 * 9 + 64);  // L = 9
}

TEST(ReferenceGeodesic, NoValueRisesFromOneIterationToTheNext)
{
    // Every vertex keeps its latest value in the array written last: window
    // levels are written as min(D, updates), the levels that just left the
    // window are copied over, and the rest agree in both arrays. So the
    // result after m + 1 iterations is below or equal to the one after m.
    const TriangleSoup m       = gen::noisy(gen::icosphere(3), 0.3f, 4);
    const U32s         sources = {0, 300};
    const Geodesic     full    = ref::geodesic_ptp(m.positions, m.faces, sources, 1e-3);
    ASSERT_TRUE(full.converged);
    std::vector<double> previous(m.num_vertices(), kInf);
    for (int limit = 1; limit <= full.iterations; ++limit) {
        const Geodesic g = ref::geodesic_ptp(m.positions, m.faces, sources, 1e-3, limit);
        EXPECT_EQ(g.iterations, limit);
        for (std::size_t v = 0; v < m.num_vertices(); ++v)
            ASSERT_LE(g.distance[v], previous[v]) << "vertex " << v << " after " << limit;
        previous = g.distance;
    }
    EXPECT_EQ(previous, full.distance);
}

TEST(ReferenceGeodesic, BadInputThrows)
{
    const TriangleSoup m = gen::icosphere(1);
    const auto&        p = m.positions;
    const auto&        f = m.faces;
    EXPECT_THROW(ref::geodesic_ptp(p, f, {}, 1e-4), std::invalid_argument);
    EXPECT_THROW(ref::geodesic_ptp(p, f, {std::uint32_t(p.size())}, 1e-4), std::invalid_argument);
    EXPECT_THROW(ref::geodesic_ptp(p, f, {0, 1000}, 1e-4), std::invalid_argument);
    EXPECT_THROW(ref::geodesic_ptp(p, f, {0}, 0), std::invalid_argument);
    EXPECT_THROW(ref::geodesic_ptp(p, f, {0}, -1e-4), std::invalid_argument);
    EXPECT_THROW(ref::geodesic_ptp(p, f, {0}, std::nan("")), std::invalid_argument);
    EXPECT_NO_THROW(ref::geodesic_ptp(p, f, {std::uint32_t(p.size() - 1)}, 1e-4));
    EXPECT_THROW(ref::toplesets(kStripVertices, kStrip, {10}), std::invalid_argument);
    EXPECT_THROW(ref::toplesets(0, {}, {0}), std::invalid_argument);
}

// ---- real meshes ----------------------------------------------------------------

TEST(ReferenceGeodesic, RealMeshes)
{
    // What holds on any mesh (rotor_small.off is one where the downwind
    // inequality does not)
    const std::string dir    = rxmesh::test::cgal_data_dir() + "/meshes/";
    int               tested = 0;
    for (const char* name : {"bull.off", "elephant.off", "fandisk.off", "blobby_3cc.off",
                             "mannequin-devil.off", "rotor_small.off"}) {
        if (!std::filesystem::exists(dir + name))
            continue;
        SCOPED_TRACE(name);
        const TriangleSoup m   = rxmesh::io::read(dir + name);
        constexpr double   tol = 1e-4;
        for (const U32s& sources : {U32s{0}, U32s{0, std::uint32_t(m.num_vertices() / 3)}}) {
            const Geodesic g = ref::geodesic_ptp(m.positions, m.faces, sources, tol);
            expect_well_formed(g, sources);
            expect_edge_inequalities(m, g, tol, false);
            if (sources.size() == 1)
                expect_not_below_straight_line(m, g, 0);
        }
        ++tested;
    }
    if (tested == 0)
        GTEST_SKIP() << "no libcgal-demo meshes under '" << dir << "' (install libcgal-demo)";
}

}  // namespace
