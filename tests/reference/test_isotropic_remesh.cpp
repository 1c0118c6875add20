// The serial remeshing and simplification references and their geometry,
// each rule alone on hand-built cases, then whole runs checked for validity,
// topology and quality.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "../common/shape_meshes.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/boundary_check.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/reference/isotropic_remesh.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/reference/qem_simplify.h"
#include "rxmesh/reference/surface_distance.h"

using namespace rxmesh;
using namespace rxmesh::reference;

namespace {

void expect_near3(const Point3& a, const Point3& b)
{
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(a[d], b[d], 1e-12) << "coordinate " << d;
}

TriangleSoup octahedron()
{
    TriangleSoup s;
    s.positions = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    s.faces = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
    return s;
}

}  // namespace

TEST(ReferenceSurfaceDistance, ClosestPointOnATriangleInEachRegion)
{
    const Point3 a = {0, 0, 0}, b = {1, 0, 0}, c = {0, 1, 0};
    expect_near3(closest_point_on_triangle({0.2, 0.2, 5}, a, b, c), {0.2, 0.2, 0});   // face
    expect_near3(closest_point_on_triangle({-1, -1, 3}, a, b, c), {0, 0, 0});         // vertex
    expect_near3(closest_point_on_triangle({0.5, -2, 1}, a, b, c), {0.5, 0, 0});      // edge
    expect_near3(closest_point_on_triangle({1, 1, 0}, a, b, c), {0.5, 0.5, 0});       // hypotenuse
    expect_near3(closest_point_on_triangle({0.5, 1, 0}, a, b, {2, 0, 0}), {0.5, 0, 0});  // flat
}

TEST(ReferenceSurfaceDistance, HausdorffOfAShiftedCopy)
{
    const TriangleSoup grid    = generate::grid(4, 3);
    TriangleSoup       shifted = grid;
    for (auto& p : shifted.positions) p[2] += 0.25f;
    EXPECT_NEAR(hausdorff(grid, grid).symmetric(), 0.0, 1e-12);  // rounding of the samples
    const HausdorffDistance h = hausdorff(grid, shifted);
    EXPECT_NEAR(h.from_a, 0.25, 1e-6);
    EXPECT_NEAR(h.from_b, 0.25, 1e-6);
    EXPECT_THROW(closest_point_on_mesh({0, 0, 0}, TriangleSoup{}), InvalidInputError);
}

TEST(ReferenceRemesh, SplitLongEdgesUntilNoneIsLong)
{
    TriangleSoup t;
    t.positions = {{0, 0, 0}, {4, 0, 0}, {0, 1, 0}};
    t.faces     = {{0, 1, 2}};
    EditableMesh m(t.positions, t.faces);
    EXPECT_GT(split_long_edges(m, 1.0), 0u);
    const TriangleSoup out = m.compact();
    for (const auto& [a, b] : m.edges()) {
        const Vec3f &p = m.position(a), &q = m.position(b);
        EXPECT_LE(std::hypot(p[0] - q[0], p[1] - q[1]), 4.0 / 3.0 + 1e-6);
    }
    double area = 0;  // the split triangles tile the input one
    for (const Triangle& f : out.faces) {
        const auto &p = out.positions[f[0]], &q = out.positions[f[1]], &r = out.positions[f[2]];
        area += 0.5 * ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
    }
    EXPECT_NEAR(area, 2.0, 1e-5);
    EXPECT_TRUE(m.validate());
}

TEST(ReferenceRemesh, CollapseRefusedByTheEdgeLengthRule)
{
    // octahedron with vertex 0 moved next to vertex 4: edge (0, 4) is short;
    // collapsing it to its midpoint puts vertex 5 about 1.975 away
    TriangleSoup s = octahedron();
    s.positions[0] = {0.05f, 0.f, 0.95f};
    EditableMesh refused(s.positions, s.faces);
    EXPECT_EQ(collapse_short_edges(refused, 1.4), 0u);  // 4/3 L = 1.87 < 1.975
    EXPECT_EQ(refused.num_vertices(), 6u);
    EditableMesh accepted(s.positions, s.faces);
    EXPECT_EQ(collapse_short_edges(accepted, 1.5), 1u);  // 4/3 L = 2.0
    EXPECT_EQ(accepted.num_vertices(), 5u);
    EXPECT_TRUE(accepted.validate());
    EXPECT_EQ(accepted.euler_characteristic(), 2);
}

TEST(ReferenceRemesh, FlipBackAnEdgeThatSpoiledTheValences)
{
    const TriangleSoup g = generate::grid(8, 8);
    EditableMesh       m(g.positions, g.faces);
    // an interior edge whose four vertices are interior with valence 6
    std::uint32_t a = 0, b = 0, c = 0, d = 0;
    for (const auto& [x, y] : m.edges()) {
        const auto fs = m.edge_faces(x, y);
        if (fs.size() != 2) continue;
        std::uint32_t cd[2] = {0, 0};
        for (int i = 0; i < 2; ++i)
            for (std::uint32_t v : m.face(fs[i]))
                if (v != x && v != y) cd[i] = v;
        bool ok = true;
        for (std::uint32_t v : {x, y, cd[0], cd[1]})
            ok = ok && !m.is_boundary_vertex(v) && m.neighbors(v).size() == 6;
        if (ok) {
            a = x, b = y, c = cd[0], d = cd[1];
            break;
        }
    }
    ASSERT_NE(a, b);
    ASSERT_TRUE(m.flip(a, b));  // a, b: valence 5; c, d: 7
    EXPECT_GE(equalize_valences(m), 1u);
    EXPECT_FALSE(m.edge_faces(a, b).empty());
    EXPECT_TRUE(m.edge_faces(c, d).empty());
    EXPECT_TRUE(m.validate());
}

TEST(ReferenceRemesh, TangentialSmoothingAndProjection)
{
    const TriangleSoup g = generate::grid(4, 4);
    EditableMesh       m(g.positions, g.faces);
    std::uint32_t      v = 0;
    while (m.is_boundary_vertex(v)) ++v;
    const Vec3f start = m.position(v);
    m.move(v, {start[0] + 0.1f, start[1] - 0.08f, 0.f});  // within its ring: no face folds
    tangential_smoothing(m);  // the flat grid's centroids are the grid points again
    EXPECT_NEAR(m.position(v)[0], start[0], 1e-6);
    EXPECT_NEAR(m.position(v)[1], start[1], 1e-6);
    EXPECT_EQ(m.position(v)[2], 0.f);
    m.move(v, {start[0], start[1], 0.5f});
    project_to_surface(m, g);
    EXPECT_NEAR(m.position(v)[2], 0.f, 1e-7);
    EXPECT_EQ(m.position(0), g.positions[0]);  // a boundary vertex never moves
}

TEST(ReferenceRemesh, SphereGetsEvenEdgesAndKeepsItsTopology)
{
    const TriangleSoup in = generate::noisy(generate::icosphere(2), 0.25f, 3);
    const double       L  = 0.7 * mean_edge_length(in.positions, in.faces);
    RemeshReport       r;
    const TriangleSoup out = isotropic_remesh(in, {L, 3}, &r);
    EditableMesh       m(out.positions, out.faces);
    EXPECT_TRUE(m.validate());
    EXPECT_TRUE(m.is_manifold());
    EXPECT_EQ(m.euler_characteristic(), 2);
    EXPECT_GT(r.splits, 0u);
    EXPECT_GT(r.flips, 0u);
    const MeshQuality before = mesh_quality(in, L), after = mesh_quality(out, L);
    EXPECT_GT(after.share_in_band, before.share_in_band);
    EXPECT_GT(after.share_in_band, 0.7);
    EXPECT_GT(after.min_angle_degrees, before.min_angle_degrees);
    EXPECT_LT(hausdorff(in, out).symmetric(), 0.5 * L);
}

// project = false is the four steps one by one with no surface to project
// onto (what rxmesh-remesh --no-project --device cpu runs), bit for bit; the
// noisy torus drifts without projection, so a run that projected anyway
// would differ.
TEST(ReferenceRemesh, WithoutProjectionIsTheStepsOneByOne)
{
    const TriangleSoup in = generate::noisy(generate::torus(16, 8), 0.3f, 2);
    RemeshOptions      o;
    o.target_length = 0.8 * mean_edge_length(in.positions, in.faces);
    o.iterations    = 2;
    o.project       = false;
    RemeshReport       r;
    const TriangleSoup out = isotropic_remesh(in, o, &r);

    EditableMesh m(in.positions, in.faces);
    RemeshReport steps;
    for (int i = 0; i < o.iterations; ++i) {
        steps.splits += split_long_edges(m, o.target_length);
        steps.collapses += collapse_short_edges(m, o.target_length, o.min_angle_degrees);
        steps.flips += equalize_valences(m, o.min_angle_degrees);
        tangential_smoothing(m, nullptr, o.min_angle_degrees);
    }
    const TriangleSoup expected = m.compact();
    EXPECT_EQ(r.target_length, o.target_length);
    EXPECT_EQ(r.splits, steps.splits);
    EXPECT_EQ(r.collapses, steps.collapses);
    EXPECT_EQ(r.flips, steps.flips);
    EXPECT_EQ(out.faces, expected.faces);
    EXPECT_EQ(out.positions, expected.positions);  // float for float

    o.project = true;
    EXPECT_NE(isotropic_remesh(in, o).positions, out.positions);
}

TEST(ReferenceRemesh, OpenGridKeepsItsBoundary)
{
    const TriangleSoup in  = generate::noisy(generate::grid(6, 5), 0.2f, 2);
    const double       L   = 0.6 * mean_edge_length(in.positions, in.faces);
    const TriangleSoup out = isotropic_remesh(in, {L, 2});
    EditableMesh       after(out.positions, out.faces);
    EXPECT_TRUE(after.validate());
    EXPECT_EQ(after.euler_characteristic(), 1);
    const BoundaryCheck b = check_boundary(in, out, 0.5 * L);
    EXPECT_TRUE(b.ok()) << b.first;
    EXPECT_EQ(b.output_loops, 1u);
    EXPECT_THROW(isotropic_remesh(in, {-1.0, 1}), InvalidInputError);
    EXPECT_THROW(isotropic_remesh(in, {NAN, 1}), InvalidInputError);
}

//! The boundary rules of a collapse on grid(8, 8) with every edge short: a
//! boundary edge into an end that stays (never removing the square's
//! corner), an edge with one boundary end into that end, a chord never.
TEST(ReferenceRemesh, BoundaryCollapseRules)
{
    const int          n = 8;
    const TriangleSoup g = generate::grid(n, n);
    const EditableMesh m(g.positions, g.faces);
    auto id = [&](int i, int j) { return std::uint32_t(j * (n + 1) + i); };
    // along a straight side: either end may stay, where it was
    const auto side = short_edge_collapse(m, id(3, 0), id(4, 0), 1.0, 0);
    ASSERT_TRUE(side.has_value());
    EXPECT_TRUE(*side == g.positions[id(3, 0)] || *side == g.positions[id(4, 0)]);
    // at the corner: the corner stays
    const auto corner = short_edge_collapse(m, id(0, 0), id(1, 0), 1.0, 0);
    ASSERT_TRUE(corner.has_value());
    EXPECT_EQ(*corner, g.positions[id(0, 0)]);
    // one end on the boundary: that end stays
    const auto in_to_side = short_edge_collapse(m, id(4, 0), id(4, 1), 1.0, 0);
    ASSERT_TRUE(in_to_side.has_value());
    EXPECT_EQ(*in_to_side, g.positions[id(4, 0)]);
    // an interior edge between two boundary vertices (grid(2, 1)'s middle)
    const TriangleSoup two = generate::grid(2, 1);
    const EditableMesh t(two.positions, two.faces);
    EXPECT_FALSE(short_edge_collapse(t, 1, 4, 10.0, 0).has_value());
}

//! A fine flat square remeshed at 2.5 times its spacing: the boundary loses
//! vertices, yet every boundary vertex stays on the square's sides (bit for
//! bit: survivors keep their positions, splits put midpoints on the side)
//! and the four corners stay.
TEST(ReferenceRemesh, CoarserSquareKeepsItsSidesAndCorners)
{
    const int          n   = 24;
    const TriangleSoup in  = generate::grid(n, n);
    const double       L   = 2.5 / n;
    const TriangleSoup out = isotropic_remesh(in, {L, 3});
    EditableMesh       m(out.positions, out.faces);
    ASSERT_TRUE(m.validate());
    EXPECT_EQ(m.euler_characteristic(), 1);
    const BoundaryCheck b = check_boundary(in, out, 0.5 * L);
    EXPECT_TRUE(b.ok()) << b.first;
    EXPECT_LT(b.output_boundary_vertices, b.input_boundary_vertices / 2);
    std::set<Vec3f> corners;
    for (std::uint32_t v = 0; v < out.positions.size(); ++v) {
        if (!m.vertex_alive(v) || !m.is_boundary_vertex(v)) continue;
        const Vec3f& p = out.positions[v];
        EXPECT_TRUE(p[0] == 0.f || p[0] == 1.f || p[1] == 0.f || p[1] == 1.f)
            << "boundary vertex " << v << " at (" << p[0] << ", " << p[1] << ") is off the sides";
        if ((p[0] == 0.f || p[0] == 1.f) && (p[1] == 0.f || p[1] == 1.f)) corners.insert(p);
    }
    EXPECT_EQ(corners.size(), 4u);
}

TEST(ReferenceSimplify, QuadricOfHandMadePlanes)
{
    Quadric q = Quadric::plane({1, 0, 0}, -1, 1);  // x = 1
    q += Quadric::plane({0, 1, 0}, -2, 1);         // y = 2
    EXPECT_EQ(q.evaluate({1, 2, 7}), 0.0);
    std::array<double, 3> p;
    EXPECT_FALSE(q.optimum(&p));  // two planes: a line of minima
    q += Quadric::plane({0, 0, 1}, -3, 2);  // z = 3, weight 2
    EXPECT_EQ(q.evaluate({0, 0, 0}), 1.0 + 4.0 + 2 * 9.0);
    ASSERT_TRUE(q.optimum(&p));
    expect_near3(p, {1, 2, 3});
}

TEST(ReferenceSimplify, SphereToATarget)
{
    const TriangleSoup in = generate::icosphere(3);  // 1280 faces
    SimplifyReport     r;
    const TriangleSoup out = qem_simplify(in, {300, 1000}, &r);
    EXPECT_TRUE(r.reached_target);
    EXPECT_LE(out.faces.size(), 300u);
    EXPECT_GE(out.faces.size(), 298u);
    EXPECT_EQ(r.faces, out.faces.size());
    EditableMesh m(out.positions, out.faces);
    EXPECT_TRUE(m.validate());
    EXPECT_TRUE(m.is_manifold());
    EXPECT_EQ(m.euler_characteristic(), 2);
    EXPECT_LT(hausdorff(in, out).symmetric(), 0.1);
}

TEST(ReferenceSimplify, FlatGridKeepsItsShapeAndATetrahedronStops)
{
    const TriangleSoup in  = generate::grid(8, 8);
    SimplifyReport     r;
    const TriangleSoup out = qem_simplify(in, {20, 1000}, &r);
    EXPECT_TRUE(r.reached_target);
    EXPECT_LT(hausdorff(in, out).symmetric(), 1e-4);
    EXPECT_EQ(EditableMesh(out.positions, out.faces).euler_characteristic(), 1);
    TriangleSoup tet;
    tet.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    tet.faces     = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
    const TriangleSoup same = qem_simplify(tet, {1, 1000}, &r);
    EXPECT_FALSE(r.reached_target);
    EXPECT_EQ(r.stop_reason(), "no valid collapse left");
    EXPECT_EQ(same.faces.size(), 4u);
}

TEST(ReferenceSurfaceDistance, TreeAnswersExactlyAsTheBruteForce)
{
    for (const auto& mesh : {generate::noisy(generate::icosphere(3), 0.3f, 5),
                             generate::grid(9, 7), generate::components(5, 1),
                             generate::fin(6)}) {
        const ClosestPointTree tree(mesh);
        std::uint32_t          seed = 12345;
        auto                   next = [&] {
            seed = seed * 1664525u + 1013904223u;
            return double(seed >> 8) / double(1u << 24) * 6.0 - 3.0;
        };
        for (int i = 0; i < 400; ++i) {
            const Point3       p = {next(), next(), next()};
            const ClosestPoint fast = tree.closest(p), slow = closest_point_on_mesh(p, mesh);
            ASSERT_EQ(fast.distance, slow.distance) << i;
            ASSERT_EQ(fast.face, slow.face) << i;
        }
        for (const Point3& p : hausdorff_samples(mesh)) ASSERT_EQ(tree.closest(p).distance,
                                                                  closest_point_on_mesh(p, mesh).distance);
    }
    const TriangleSoup a = generate::noisy(generate::icosphere(2), 0.2f, 1), b = generate::icosphere(2);
    const HausdorffDistance slow = hausdorff(a, b), fast = hausdorff_fast(a, b);
    EXPECT_EQ(slow.from_a, fast.from_a);
    EXPECT_EQ(slow.from_b, fast.from_b);
    EXPECT_GT(slow.symmetric(), 0.0);
}

namespace {

double smallest_angle(const TriangleSoup& m) { return mesh_quality(m, 1.0).min_angle_degrees; }

}  // namespace

//! The guard's postcondition for the collapse and flip steps: every face
//! made has an angle of at least min(threshold, the smallest angle of the
//! faces it replaced), so no face of the result is below min(threshold,
//! the input's smallest angle).
TEST(ReferenceRemesh, GuardedStepsMakeNoFaceBelowTheThreshold)
{
    for (const double threshold : {20.0, 30.0}) {
        for (const test::GuardCase& c : test::guard_cases()) {
            SCOPED_TRACE(std::string(c.name) + " at " + std::to_string(threshold));
            const double L     = c.scale * mean_edge_length(c.soup.positions, c.soup.faces);
            const double floor = std::min(threshold, smallest_angle(c.soup)) - 1e-9;
            EditableMesh collapsed(c.soup.positions, c.soup.faces);
            collapse_short_edges(collapsed, L, threshold);
            EXPECT_TRUE(collapsed.validate());
            EXPECT_GE(smallest_angle(collapsed.compact()), floor);
            EditableMesh flipped(c.soup.positions, c.soup.faces);
            equalize_valences(flipped, threshold);
            EXPECT_TRUE(flipped.validate());
            EXPECT_GE(smallest_angle(flipped.compact()), floor);
        }
    }
}

//! Without the guard the same steps do make worse faces (the test can tell).
TEST(ReferenceRemesh, UnguardedStepsMakeWorseFaces)
{
    int worse = 0;
    for (const test::GuardCase& c : test::guard_cases()) {
        const double L     = c.scale * mean_edge_length(c.soup.positions, c.soup.faces);
        const double floor = std::min(20.0, smallest_angle(c.soup));
        EditableMesh collapsed(c.soup.positions, c.soup.faces), flipped = collapsed;
        collapse_short_edges(collapsed, L, 0);
        equalize_valences(flipped, 0);
        worse += smallest_angle(collapsed.compact()) < floor - 1e-9;
        worse += smallest_angle(flipped.compact()) < floor - 1e-9;
    }
    EXPECT_GT(worse, 0);
}

TEST(ReferenceRemesh, SharpTipStaysWhereItIs)
{
    const TriangleSoup     c = test::cone(11);
    EditableMesh           m(c.positions, c.faces);
    const ClosestPointTree surface(c);
    tangential_smoothing(m, &surface, 0);  // the cone's own faces are slivers: shape alone
    EXPECT_EQ(m.position(0), c.positions[0]);  // the apex: sharp, only projected (onto itself)
    EXPECT_NE(m.position(1), c.positions[1]);  // an inner vertex moves (the ring is uneven)
    // the same cone made flat: the apex is no longer sharp and moves too
    TriangleSoup flat = c;
    for (Vec3f& p : flat.positions) p[2] *= 0.02f;
    EditableMesh f(flat.positions, flat.faces);
    tangential_smoothing(f, nullptr, 0);
    EXPECT_NE(f.position(0), flat.positions[0]);
    // a short edge from the apex to the inner ring collapses into the apex
    EditableMesh s(c.positions, c.faces);
    const auto   p = short_edge_collapse(s, 0, 1, 10.0, 0);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(*p, c.positions[0]);
    const auto q = short_edge_collapse(s, 1, 0, 10.0, 0);  // either way round
    ASSERT_TRUE(q.has_value());
    EXPECT_EQ(*q, c.positions[0]);
}

//! QEM on a flat grid: every collapse costs 0, so without the shape
//! tie-break nothing prefers a good triangle.
TEST(ReferenceSimplify, FlatGridGetsNoNeedles)
{
    const TriangleSoup in = generate::grid(60, 60);  // 7,200 faces
    SimplifyReport     r;
    const TriangleSoup out = qem_simplify(in, {720, 1000, 5}, &r);
    EXPECT_TRUE(r.reached_target);
    EXPECT_GE(smallest_angle(out), 5.0);
    EXPECT_EQ(mesh_quality(out, 1.0).share_below_5_degrees, 0.0);
    EXPECT_LT(hausdorff_fast(in, out).symmetric(), 1e-4);
    EXPECT_THROW(qem_simplify(in, {720, 1000, 60}), InvalidInputError);
    EXPECT_THROW(qem_simplify(in, {720, 1000, -1}), InvalidInputError);
}

//! Every collapse keeps the guard: no face of the result below min(5
//! degrees, the input's smallest angle); without it the noisy open grid
//! gets faces below 5 degrees that the guarded run does not (the test can
//! tell).
TEST(ReferenceSimplify, GuardHoldsOnEveryShape)
{
    for (const test::GuardCase& c : test::guard_cases()) {
        SCOPED_TRACE(c.name);
        const auto     target = std::uint32_t(c.soup.faces.size() / 5);
        SimplifyReport r;
        const TriangleSoup out = qem_simplify(c.soup, {target, 1000, 5}, &r);
        EXPECT_TRUE(r.reached_target);
        EXPECT_GE(smallest_angle(out), std::min(5.0, smallest_angle(c.soup)) - 1e-9);
        if (std::string(c.name) == "noisy open grid") {
            const TriangleSoup unguarded = qem_simplify(c.soup, {target, 1000, 0});
            EXPECT_GT(mesh_quality(unguarded, 1.0).share_below_5_degrees,
                      mesh_quality(out, 1.0).share_below_5_degrees);
        }
    }
}
