// Tests of the mesh generators: every expected value follows from the
// construction (counts, Euler characteristic, boundary, orientation).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "rxmesh/core/error.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/topology.h"
#include "mesh_stats_check.h"

namespace {

namespace g = rxmesh::generate;
using namespace rxmesh;
using namespace rxmesh::reference;
using test::stats_of;
using test::topology_of;

constexpr double kPi = 3.14159265358979323846;

//! Every index in range, no face repeats a vertex.
void expect_valid(const TriangleSoup& m)
{
    EXPECT_EQ(m.dropped_faces, 0u);
    EXPECT_TRUE(m.colors.empty());
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
        const Triangle& t = m.faces[f];
        for (std::uint32_t v : t)
            ASSERT_LT(v, m.positions.size()) << "face " << f;
        EXPECT_TRUE(t[0] != t[1] && t[1] != t[2] && t[2] != t[0]) << "face " << f;
    }
    for (const Vec3f& p : m.positions)
        for (float x : p)
            ASSERT_TRUE(std::isfinite(x));
}

//! Consistent orientation: no directed edge is walked twice, and every edge
//! with two faces is walked once in each direction.
void expect_oriented(const TriangleSoup& m)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
    for (const Triangle& t : m.faces)
        for (int k = 0; k < 3; ++k)
            ++directed[{t[k], t[(k + 1) % 3]}];
    for (const auto& [edge, count] : directed) {
        EXPECT_EQ(count, 1) << edge.first << "->" << edge.second;
    }
}

//! Six times the signed volume enclosed by a closed mesh (> 0 when the
//! faces are counter-clockwise seen from outside).
double six_volume(const TriangleSoup& m)
{
    double vol = 0;
    for (const Triangle& t : m.faces) {
        const Vec3f &a = m.positions[t[0]], &b = m.positions[t[1]],
                    &c = m.positions[t[2]];
        vol += double(a[0]) * (double(b[1]) * c[2] - double(b[2]) * c[1]) -
               double(a[1]) * (double(b[0]) * c[2] - double(b[2]) * c[0]) +
               double(a[2]) * (double(b[0]) * c[1] - double(b[1]) * c[0]);
    }
    return vol;
}

//! z of the normal of a face (planar meshes: > 0 when CCW seen from +z).
double normal_z(const TriangleSoup& m, const Triangle& t)
{
    const Vec3f &a = m.positions[t[0]], &b = m.positions[t[1]], &c = m.positions[t[2]];
    return (double(b[0]) - a[0]) * (double(c[1]) - a[1]) -
           (double(b[1]) - a[1]) * (double(c[0]) - a[0]);
}

using rxmesh::test::expect_stats;
using rxmesh::test::make_stats;

bool bit_identical(const TriangleSoup& a, const TriangleSoup& b)
{
    return a.faces == b.faces && a.positions.size() == b.positions.size() &&
           std::memcmp(a.positions.data(), b.positions.data(),
                       a.positions.size() * sizeof(Vec3f)) == 0;
}

std::uint64_t pow4(int s) { return std::uint64_t(1) << (2 * s); }

// ---------------------------------------------------------------------------

TEST(GenerateIcosphere, CountsAndTopology)
{
    for (int s = 0; s <= 4; ++s) {
        SCOPED_TRACE(s);
        const TriangleSoup m = g::icosphere(s);
        expect_valid(m);
        const std::uint64_t F = 20 * pow4(s), E = 3 * F / 2, V = 10 * pow4(s) + 2;
        EXPECT_EQ(m.positions.size(), V);
        EXPECT_EQ(m.faces.size(), F);
        // closed genus 0: V - E + F = 2
        expect_stats(stats_of(m), make_stats(V, F, E, 0, 0, 0, 1));
        EXPECT_EQ(std::int64_t(V) - std::int64_t(E) + std::int64_t(F), 2);
        expect_oriented(m);
        EXPECT_GT(six_volume(m), 0.0);  // outward
        for (const Vec3f& p : m.positions)
            EXPECT_NEAR(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), 1.0, 1e-6);
    }
    // icosahedron: 12 vertices, 30 edges, 20 faces, every vertex of valence 5
    const Topology t = topology_of(g::icosphere(0));
    for (std::uint32_t v = 0; v < 12; ++v)
        EXPECT_EQ(t.vv.row_size(v), 5u);
}

TEST(GenerateSphereCap, ADiskBelowItsHeight)
{
    for (const float h : {-0.5f, 0.3f, 0.9f}) {
        SCOPED_TRACE(h);
        const TriangleSoup m = g::sphere_cap(4, h);
        expect_valid(m);
        ASSERT_FALSE(m.faces.empty());
        for (const Vec3f& p : m.positions) EXPECT_LT(p[2], h);
        // every vertex in a face (compact), one component, Euler 1: a disk
        std::vector<bool> used(m.positions.size(), false);
        for (const Triangle& t : m.faces)
            for (std::uint32_t v : t) used[v] = true;
        EXPECT_EQ(std::count(used.begin(), used.end(), false), 0);
        const auto s = stats_of(m);
        EXPECT_EQ(s.euler, 1);
        EXPECT_EQ(s.components, 1u);
        EXPECT_EQ(s.nonmanifold_edges, 0u);
        EXPECT_GT(s.boundary_edges, 0u);
        expect_oriented(m);
    }
    EXPECT_THROW(g::sphere_cap(4, 1.f), InvalidInputError);
    EXPECT_THROW(g::sphere_cap(4, -1.f), InvalidInputError);
}

TEST(GenerateTorus, CountsAndTopology)
{
    for (auto [nu, nv] : {std::pair{3, 3}, std::pair{8, 5}, std::pair{32, 17}}) {
        SCOPED_TRACE(std::to_string(nu) + "x" + std::to_string(nv));
        const TriangleSoup m = g::torus(nu, nv);
        expect_valid(m);
        const std::uint64_t V = nu * nv, E = 3 * nu * nv, F = 2 * nu * nv;
        // closed genus 1: euler 0
        expect_stats(stats_of(m), make_stats(V, F, E, 0, 0, 0, 1));
        expect_oriented(m);
        EXPECT_GT(six_volume(m), 0.0);
    }
    // a fine torus encloses about 2 pi^2 R r^2
    const double vol = six_volume(g::torus(200, 100, 1.f, 0.3f)) / 6.0;
    EXPECT_NEAR(vol, 2.0 * kPi * kPi * 1.0 * 0.09, 0.01);
}

TEST(GenerateGrid, CountsAndTopology)
{
    for (auto [nx, ny] : {std::pair{1, 1}, std::pair{4, 3}, std::pair{17, 9}}) {
        SCOPED_TRACE(std::to_string(nx) + "x" + std::to_string(ny));
        const TriangleSoup m = g::grid(nx, ny);
        expect_valid(m);
        const std::uint64_t V = (nx + 1) * (ny + 1), F = 2 * nx * ny,
                            E = nx * (ny + 1) + ny * (nx + 1) + nx * ny;
        // a disk: euler 1, one boundary loop of 2(nx+ny) edges
        expect_stats(stats_of(m), make_stats(V, F, E, 2 * (nx + ny), 0, 0, 1));
        expect_oriented(m);
        for (const Triangle& t : m.faces)
            EXPECT_GT(normal_z(m, t), 0.0);
    }
}

TEST(GenerateCylinder, CountsAndTopology)
{
    for (auto [nu, nv] : {std::pair{3, 1}, std::pair{6, 3}, std::pair{40, 7}}) {
        SCOPED_TRACE(std::to_string(nu) + "x" + std::to_string(nv));
        const TriangleSoup m = g::cylinder(nu, nv);
        expect_valid(m);
        const std::uint64_t V = nu * (nv + 1), F = 2 * nu * nv,
                            E = nu * (nv + 1) + 2 * nu * nv;
        // an annulus: euler 0, two boundary loops of nu edges
        expect_stats(stats_of(m), make_stats(V, F, E, 2 * nu, 0, 0, 1));
        expect_oriented(m);
        // outward: each face's normal points away from the axis
        for (const Triangle& t : m.faces) {
            const Vec3f &a = m.positions[t[0]], &b = m.positions[t[1]],
                        &c = m.positions[t[2]];
            const double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
            const double wx = c[0] - a[0], wy = c[1] - a[1], wz = c[2] - a[2];
            const double nx = uy * wz - uz * wy, ny = uz * wx - ux * wz;
            const double cx = (a[0] + b[0] + c[0]) / 3, cy = (a[1] + b[1] + c[1]) / 3;
            EXPECT_GT(nx * cx + ny * cy, 0.0);
        }
    }
}

TEST(GenerateComponents, CountsAndTopology)
{
    const TriangleSoup m = g::components(5, 1);
    expect_valid(m);
    // five disjoint icospheres(1): 42 vertices, 120 edges, 80 faces each
    expect_stats(stats_of(m), make_stats(5 * 42, 5 * 80, 5 * 120, 0, 0, 0, 5));
    EXPECT_EQ(stats_of(m).euler, 10);
    expect_oriented(m);
    EXPECT_GT(six_volume(m), 0.0);
    EXPECT_EQ(stats_of(g::components(1, 2)).components, 1u);
    EXPECT_TRUE(g::components(0, 1).faces.empty());
}

TEST(GenerateBowtie, OneNonManifoldVertex)
{
    const TriangleSoup m = g::bowtie();
    expect_valid(m);
    // 2 faces sharing only vertex 0: still one component
    expect_stats(stats_of(m), make_stats(5, 2, 6, 6, 0, 1, 1));
    for (const Triangle& t : m.faces) {
        EXPECT_EQ(t[0], 0u);
        EXPECT_GT(normal_z(m, t), 0.0);
    }
}

TEST(GenerateFin, NonManifoldEdge)
{
    for (int k : {3, 4, 7}) {
        SCOPED_TRACE(k);
        const TriangleSoup m = g::fin(k);
        expect_valid(m);
        // shared edge + 2 edges per wing; both shared endpoints non-manifold
        expect_stats(stats_of(m), make_stats(2 + k, k, 1 + 2 * k, 2 * k, 1, 2, 1));
        const Topology t = topology_of(m);
        EXPECT_EQ(t.ev[0], (std::array<std::uint32_t, 2>{0, 1}));
        EXPECT_EQ(t.ef.row_size(0), std::uint32_t(k));
    }
    // two wings: a manifold, oriented sheet; one wing: a single triangle
    const TriangleSoup two = g::fin(2);
    expect_stats(stats_of(two), make_stats(4, 2, 5, 4, 0, 0, 1));
    expect_oriented(two);
    expect_stats(stats_of(g::fin(1)), make_stats(3, 1, 3, 3, 0, 0, 1));
}

TEST(GenerateIsolatedFaces, Components)
{
    const TriangleSoup m = g::isolated_faces(7);
    expect_valid(m);
    expect_stats(stats_of(m), make_stats(21, 7, 21, 21, 0, 0, 7));
    for (const Triangle& t : m.faces)
        EXPECT_GT(normal_z(m, t), 0.0);
}

TEST(GenerateWithDegenerateFaces, KeepsDegenerateFaces)
{
    const TriangleSoup m = g::with_degenerate_faces();
    const TriangleSoup grid = g::grid(3, 3);
    EXPECT_EQ(m.dropped_faces, 0u);
    ASSERT_EQ(m.faces.size(), grid.faces.size() + g::kDegenerateFaceCount);
    EXPECT_TRUE(std::equal(grid.faces.begin(), grid.faces.end(), m.faces.begin()));
    EXPECT_EQ(m.positions.size(), grid.positions.size());
    int degenerate = 0;
    for (const Triangle& t : m.faces) {
        for (std::uint32_t v : t)
            EXPECT_LT(v, m.positions.size());
        degenerate += (t[0] == t[1] || t[1] == t[2] || t[2] == t[0]);
    }
    EXPECT_EQ(degenerate, g::kDegenerateFaceCount);
    // the reference topology refuses them
    EXPECT_THROW(topology_of(m), rxmesh::InvalidInputError);
}

TEST(GenerateFan, HighValenceCentre)
{
    for (int valence : {3, 7, 2000}) {
        SCOPED_TRACE(valence);
        const TriangleSoup m = g::fan(valence);
        expect_valid(m);
        // a cone: valence spokes + valence rim edges, the rim is the boundary
        expect_stats(stats_of(m), make_stats(valence + 1, valence, 2 * valence,
                                             valence, 0, 0, 1));
        const Topology t = topology_of(m);
        EXPECT_EQ(t.vv.row_size(0), std::uint32_t(valence));
        EXPECT_EQ(t.vf.row_size(0), std::uint32_t(valence));
        EXPECT_EQ(t.ve.row_size(0), std::uint32_t(valence));
        for (std::uint32_t v = 1; v <= std::uint32_t(valence); ++v) {
            EXPECT_EQ(t.vv.row_size(v), 3u);
            EXPECT_EQ(t.vf.row_size(v), 2u);
        }
        expect_oriented(m);
        for (const Triangle& t2 : m.faces)
            EXPECT_GT(normal_z(m, t2), 0.0);
    }
}

TEST(GenerateDuplicatedQuadGrid, Layout)
{
    const int n = 6;
    const TriangleSoup m = g::duplicated_quad_grid(n);
    expect_valid(m);
    ASSERT_EQ(m.positions.size(), std::size_t(5) * n * n);
    ASSERT_EQ(m.faces.size(), std::size_t(2) * n * n);
    // every quad has its own 4 corners and no face uses its centre
    const MeshStats s = stats_of(m);
    expect_stats(s, make_stats(4 * n * n, 2 * n * n, 5 * n * n, 4 * n * n, 0, 0, n * n));
    const Topology t = topology_of(m);
    for (std::size_t q = 0; q < std::size_t(n) * n; ++q) {
        EXPECT_EQ(t.vf.row_size(static_cast<std::uint32_t>(5 * q + 4)), 0u);
        EXPECT_EQ(m.faces[2 * q][0], 5 * q);
    }
    for (const Triangle& f : m.faces)
        EXPECT_GT(normal_z(m, f), 0.0);
    // equal corners are bit-identical: quad (0,0)'s corner (1,0) is quad
    // (1,0)'s corner (0,0), and quad (0,0)'s corner (1,1) is quad (1,1)'s
    // corner (0,0)
    auto same = [&](std::size_t a, std::size_t b) {
        return std::memcmp(&m.positions[a], &m.positions[b], sizeof(Vec3f)) == 0;
    };
    EXPECT_TRUE(same(1, 5));
    EXPECT_TRUE(same(2, 5 * (n + 1)));
    EXPECT_TRUE(same(3, 5 * n));
    // welding is tested in ReferenceReindex.DuplicatedQuadGrid
}

TEST(GenerateRefine, CountsAndOrientation)
{
    const std::vector<std::pair<std::string, TriangleSoup>> meshes = {
        {"icosphere(1)", g::icosphere(1)}, {"torus(5,4)", g::torus(5, 4)},
        {"grid(3,2)", g::grid(3, 2)},      {"cylinder(5,2)", g::cylinder(5, 2)},
        {"fin(3)", g::fin(3)},             {"bowtie", g::bowtie()},
    };
    for (const auto& [name, m] : meshes) {
        SCOPED_TRACE(name);
        const MeshStats before = stats_of(m);
        const TriangleSoup r = g::refine(m);
        expect_valid(r);
        const MeshStats after = stats_of(r);
        // each edge gets a midpoint (V + E), splits in 2 and each face adds
        // 3 inner edges (2E + 3F), each face becomes 4
        EXPECT_EQ(r.faces.size(), 4 * m.faces.size());
        EXPECT_EQ(r.positions.size(), m.positions.size() + before.edges);
        expect_stats(after,
                     make_stats(before.vertices + before.edges, 4 * before.faces,
                                2 * before.edges + 3 * before.faces,
                                2 * before.boundary_edges, 2 * before.nonmanifold_edges,
                                before.nonmanifold_vertices + before.nonmanifold_edges,
                                before.components));
        EXPECT_EQ(after.euler, before.euler);
        // the old vertices keep their ids and positions
        EXPECT_EQ(0, std::memcmp(r.positions.data(), m.positions.data(),
                                 m.positions.size() * sizeof(Vec3f)));
    }
    // winding kept: oriented meshes stay oriented with the same volume sign
    for (const TriangleSoup& m : {g::icosphere(1), g::torus(5, 4)}) {
        const TriangleSoup r = g::refine(m);
        expect_oriented(r);
        EXPECT_GT(six_volume(r), 0.0);
    }
    const TriangleSoup r = g::refine(g::grid(2, 2));
    expect_oriented(r);
    for (const Triangle& t : r.faces)
        EXPECT_GT(normal_z(r, t), 0.0);
}

TEST(GenerateRefine, SingleTriangleLayout)
{
    TriangleSoup m;
    m.positions = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
    m.faces     = {{0, 1, 2}};
    const TriangleSoup r = g::refine(m);
    // midpoints appended in order ab, bc, ca
    ASSERT_EQ(r.positions.size(), 6u);
    EXPECT_EQ(r.positions[3], (Vec3f{1, 0, 0}));
    EXPECT_EQ(r.positions[4], (Vec3f{1, 1, 0}));
    EXPECT_EQ(r.positions[5], (Vec3f{0, 1, 0}));
    EXPECT_EQ(r.faces, (std::vector<Triangle>{{0, 3, 5}, {3, 1, 4}, {5, 4, 2}, {3, 4, 5}}));
}

TEST(GenerateDeterminism, SameOutputTwice)
{
    EXPECT_TRUE(bit_identical(g::icosphere(3), g::icosphere(3)));
    EXPECT_TRUE(bit_identical(g::torus(13, 7), g::torus(13, 7)));
    EXPECT_TRUE(bit_identical(g::cylinder(9, 4), g::cylinder(9, 4)));
    EXPECT_TRUE(bit_identical(g::duplicated_quad_grid(5), g::duplicated_quad_grid(5)));
    EXPECT_TRUE(bit_identical(g::fan(100), g::fan(100)));
}

TEST(GenerateArguments, InvalidArgumentsThrow)
{
    using rxmesh::InvalidInputError;
    EXPECT_THROW(g::icosphere(-1), InvalidInputError);
    EXPECT_THROW(g::torus(2, 5), InvalidInputError);
    EXPECT_THROW(g::torus(5, 2), InvalidInputError);
    EXPECT_THROW(g::grid(0, 3), InvalidInputError);
    EXPECT_THROW(g::cylinder(2, 3), InvalidInputError);
    EXPECT_THROW(g::cylinder(3, 0), InvalidInputError);
    EXPECT_THROW(g::components(-1, 0), InvalidInputError);
    EXPECT_THROW(g::fin(0), InvalidInputError);
    EXPECT_THROW(g::isolated_faces(-1), InvalidInputError);
    EXPECT_THROW(g::fan(2), InvalidInputError);
    EXPECT_THROW(g::duplicated_quad_grid(0), InvalidInputError);
    TriangleSoup bad;
    bad.positions = {{0, 0, 0}};
    bad.faces     = {{0, 1, 2}};
    EXPECT_THROW(g::refine(bad), InvalidInputError);
}

// ---------------------------------------------------------------------------
// normal_noise: offsets checked against normals and edge lengths computed
// here from the faces.

//! Unit sum of cross(b - a, c - a) over each vertex's faces; zero if none.
std::vector<std::array<double, 3>> unit_area_normals(const TriangleSoup& m)
{
    std::vector<std::array<double, 3>> n(m.positions.size(), {0.0, 0.0, 0.0});
    for (const Triangle& t : m.faces) {
        double u[3], v[3];
        for (int d = 0; d < 3; ++d) {
            u[d] = double(m.positions[t[1]][d]) - m.positions[t[0]][d];
            v[d] = double(m.positions[t[2]][d]) - m.positions[t[0]][d];
        }
        for (const std::uint32_t c : t) {
            n[c][0] += u[1] * v[2] - u[2] * v[1];
            n[c][1] += u[2] * v[0] - u[0] * v[2];
            n[c][2] += u[0] * v[1] - u[1] * v[0];
        }
    }
    for (auto& x : n) {
        const double l = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        if (l > 0)
            x = {x[0] / l, x[1] / l, x[2] / l};
    }
    return n;
}

//! Mean of the faces' edge lengths (interior edges counted from both faces).
double mean_face_edge(const TriangleSoup& m)
{
    double sum = 0;
    for (const Triangle& t : m.faces)
        for (int k = 0; k < 3; ++k) {
            double l2 = 0;
            for (int d = 0; d < 3; ++d) {
                const double e = double(m.positions[t[k]][d]) - m.positions[t[(k + 1) % 3]][d];
                l2 += e * e;
            }
            sum += std::sqrt(l2);
        }
    return sum / (3.0 * m.faces.size());
}

TEST(GenerateNormalNoise, MovesAlongTheNormal)
{
    const TriangleSoup in        = g::icosphere(2);
    const float        amplitude = 0.5f;
    const TriangleSoup out       = g::normal_noise(in, amplitude, 3);
    ASSERT_EQ(out.faces, in.faces);
    const auto   n     = unit_area_normals(in);
    const double bound = amplitude * mean_face_edge(in);
    double       lo = 0, hi = 0;
    for (std::size_t v = 0; v < in.positions.size(); ++v) {
        double d[3];
        for (int k = 0; k < 3; ++k)
            d[k] = double(out.positions[v][k]) - in.positions[v][k];
        const double along  = d[0] * n[v][0] + d[1] * n[v][1] + d[2] * n[v][2];
        const double off[3] = {d[1] * n[v][2] - d[2] * n[v][1], d[2] * n[v][0] - d[0] * n[v][2],
                               d[0] * n[v][1] - d[1] * n[v][0]};
        EXPECT_LT(std::sqrt(off[0] * off[0] + off[1] * off[1] + off[2] * off[2]), 1e-6)
            << "vertex " << v;
        EXPECT_LE(std::fabs(along), bound + 1e-6) << "vertex " << v;
        lo = std::min(lo, along);
        hi = std::max(hi, along);
    }
    // uniform in [-bound, bound] over 162 vertices: both ends are reached
    EXPECT_LT(lo, -0.8 * bound);
    EXPECT_GT(hi, 0.8 * bound);
}

TEST(GenerateNormalNoise, PlanarGridMovesInZOnly)
{
    TriangleSoup in = g::grid(5, 4);
    in.positions.push_back({3.f, 3.f, 3.f});  // in no face: zero normal
    const TriangleSoup out   = g::normal_noise(in, 0.4f, 8);
    int                moved = 0;
    for (std::size_t v = 0; v < in.positions.size(); ++v) {
        EXPECT_EQ(out.positions[v][0], in.positions[v][0]);
        EXPECT_EQ(out.positions[v][1], in.positions[v][1]);
        moved += out.positions[v][2] != 0.f;
    }
    EXPECT_EQ(out.positions.back(), in.positions.back());
    EXPECT_GE(moved, 25);  // of 30 grid vertices; a zero draw is rare
}

TEST(GenerateNormalNoise, DeterministicPerSeed)
{
    const TriangleSoup in = g::torus(10, 6);
    EXPECT_TRUE(bit_identical(g::normal_noise(in, 0.3f, 5), g::normal_noise(in, 0.3f, 5)));
    EXPECT_FALSE(bit_identical(g::normal_noise(in, 0.3f, 5), g::normal_noise(in, 0.3f, 6)));
    EXPECT_TRUE(bit_identical(g::normal_noise(in, 0.f, 5), in));
}

TEST(GenerateNormalNoise, InvalidArgumentsThrow)
{
    using rxmesh::InvalidInputError;
    EXPECT_THROW(g::normal_noise(g::grid(2, 2), -0.1f), InvalidInputError);
    EXPECT_THROW(g::normal_noise(g::grid(2, 2), std::numeric_limits<float>::quiet_NaN()),
                 InvalidInputError);
    TriangleSoup bad;
    bad.positions = {{0, 0, 0}};
    bad.faces     = {{0, 1, 2}};
    EXPECT_THROW(g::normal_noise(bad, 0.1f), InvalidInputError);
    EXPECT_THROW(g::noisy(bad, 0.1f), InvalidInputError);
}

}  // namespace
