// The GPU isotropic remesher (algo/remesh.h) and its quality figures
// (algo/mesh_quality.h, spatial/hausdorff.h) against the serial oracles
// (reference/isotropic_remesh.h, reference/closest_point_tree.h): each step
// alone with its postcondition checked by the serial EditableMesh, the
// whole remesher against the serial remesher's quality, and every real mesh
// remeshed, validated and measured.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../common/shape_meshes.h"
#include "../common/test_data.h"
#include "dynamic_checks.h"
#include "gpu_test.h"
#include "rxmesh/algo/mesh_quality.h"
#include "rxmesh/algo/remesh.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/boundary_check.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/reference/editable_mesh.h"
#include "rxmesh/reference/isotropic_remesh.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/spatial/bvh.h"
#include "rxmesh/spatial/hausdorff.h"

namespace {

using namespace rxmesh;

double length(const TriangleSoup& m, std::uint32_t a, std::uint32_t b)
{
    const Vec3f &p = m.positions[a], &q = m.positions[b];
    return std::sqrt(double(p[0] - q[0]) * (p[0] - q[0]) + double(p[1] - q[1]) * (p[1] - q[1]) +
                     double(p[2] - q[2]) * (p[2] - q[2]));
}

std::set<std::pair<std::uint32_t, std::uint32_t>> edge_set(const TriangleSoup& m)
{
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (const Triangle& t : m.faces)
        for (int k = 0; k < 3; ++k)
            edges.insert({std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])});
    return edges;
}

double longest_edge(const TriangleSoup& m)
{
    double longest = 0;
    for (const auto& [a, b] : edge_set(m)) longest = std::max(longest, length(m, a, b));
    return longest;
}

struct Remeshed
{
    TriangleSoup               mesh;
    std::vector<std::uint32_t> input_vertex;
};

Remeshed download(const DynamicMesh& mesh)
{
    Remeshed r;
    r.mesh = mesh.to_host(&r.input_vertex);
    return r;
}

//! The boundary stays within L/2 of the input's, with as many loops
//! (reference::check_boundary: a collapse on the boundary moves it by less
//! than 0.4 L, its edge being below 4/5 L and its turn below 30 degrees).
void expect_boundary_kept(const TriangleSoup& in, const Remeshed& out, double L)
{
    const reference::BoundaryCheck b = reference::check_boundary(in, out.mesh, 0.5 * L);
    EXPECT_TRUE(b.ok()) << b.first << " " << b.to_json();
}

//! A soup's arrays on the device and a TriangleBvh over them: the surface
//! smoothing projects onto, or one side of a Hausdorff distance.
struct DeviceSurface
{
    static std::vector<float> flat_positions(const TriangleSoup& s)
    {
        std::vector<float> out;
        for (const Vec3f& x : s.positions) out.insert(out.end(), x.begin(), x.end());
        return out;
    }
    static std::vector<std::uint32_t> flat_faces(const TriangleSoup& s)
    {
        std::vector<std::uint32_t> out;
        for (const Triangle& t : s.faces) out.insert(out.end(), t.begin(), t.end());
        return out;
    }
    explicit DeviceSurface(const TriangleSoup& s)
        : positions(DeviceBuffer<float>::from_host(flat_positions(s))),
          faces(DeviceBuffer<std::uint32_t>::from_host(flat_faces(s))),
          bvh(positions.data(), std::uint32_t(s.positions.size()), faces.data(),
              std::uint32_t(s.faces.size()))
    {
    }
    DeviceBuffer<float>         positions;
    DeviceBuffer<std::uint32_t> faces;
    TriangleBvh                 bvh;
};

TEST(GpuRemesh, SplitStepSplitsEveryDiagonalOfAGridOnce)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup grid = generate::grid(12, 12);  // square cells: sides s, diagonals s sqrt 2
    const double       side = length(grid, grid.faces[0][0], grid.faces[0][1]);
    DynamicMesh        mesh(grid);
    // L = side: 4/3 L lies between the sides and the diagonals
    const RemeshStep s = split_long_edges(mesh, side);
    std::uint32_t    diagonals = 0;
    for (const auto& [a, b] : edge_set(grid)) diagonals += length(grid, a, b) > 4.0 / 3.0 * side;
    EXPECT_EQ(s.applied, diagonals);
    EXPECT_FALSE(s.hit_bound);
    ASSERT_TRUE(mesh.validate().ok());
    const TriangleSoup out = mesh.to_host();
    EXPECT_LE(longest_edge(out), 4.0 / 3.0 * side);
    EXPECT_EQ(out.faces.size(), grid.faces.size() + 2 * diagonals);
}

TEST(GpuRemesh, SplitStepLeavesNoLongEdgeOnNoisyMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& soup : {generate::noisy(generate::icosphere(3), 0.4f, 3),
                             generate::noisy(generate::grid(20, 14), 0.4f, 5)}) {
        DynamicMesh      mesh(soup);
        const double     L = 0.5 * reference::mean_edge_length(soup.positions, soup.faces);
        const RemeshStep s = split_long_edges(mesh, L);
        EXPECT_GT(s.applied, 0u);
        ASSERT_TRUE(mesh.validate().ok());
        EXPECT_TRUE(mesh.is_manifold());
        EXPECT_LE(longest_edge(mesh.to_host()), 4.0 / 3.0 * L * (1 + 1e-6));
    }
}

//! After the GPU's collapse step, every short interior edge left must be
//! one the serial rules keep (reference::short_edge_collapse: no end keeps
//! the neighbours within 4/3 L, folds nothing and passes the guard), or
//! one the serial mesh refuses. The serial rules are asked with a slightly
//! shorter 4/3 L and a slightly larger guard angle, so that a float
//! decision on the edge of a bound does not count.
TEST(GpuRemesh, CollapseStepLeavesOnlyEdgesTheRulesKeep)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& soup : {generate::noisy(generate::icosphere(3), 0.4f, 7),
                             generate::noisy(generate::grid(16, 12), 0.4f, 8),
                             generate::noisy(generate::torus(24, 12), 0.3f, 9)}) {
        const double L = 1.6 * reference::mean_edge_length(soup.positions, soup.faces);
        DynamicMesh  mesh(soup);
        const double longest_before = longest_edge(soup);
        const RemeshStep s = collapse_short_edges(mesh, L);
        EXPECT_GT(s.applied, 0u);
        ASSERT_TRUE(mesh.validate().ok());
        EXPECT_TRUE(mesh.is_manifold());
        const TriangleSoup out = mesh.to_host();
        // collapses never make an edge longer than 4/3 L (nor than the longest already there)
        EXPECT_LE(longest_edge(out), std::max(4.0 / 3.0 * L, longest_before) * (1 + 1e-5));
        reference::EditableMesh m(out.positions, out.faces);
        std::uint32_t           left = 0;
        for (const auto& [a, b] : m.edges()) {
            if (length(out, a, b) >= 0.8 * L * (1 - 1e-6)) continue;
            const auto p = reference::short_edge_collapse(m, a, b, L * (1 - 1e-5),
                                                          kRemeshMinAngleDegrees + 0.01);
            if (!p) continue;
            reference::EditableMesh trial = m;
            EXPECT_FALSE(trial.collapse(a, b, *p)) << "edge " << a << "-" << b << " of length "
                                                   << length(out, a, b) << " could still go";
            ++left;
        }
        RecordProperty("short_edges_left", int(left));
    }
}

//! Whether flipping (a, b) to (c, d) is clear of the bounds a float
//! decision could fall either side of: the flatness test (the two faces'
//! area vectors' dot product) and the guard's angle.
bool flip_clear_of_bounds(const TriangleSoup& m, std::uint32_t a, std::uint32_t b,
                          std::uint32_t c, std::uint32_t d)
{
    auto p      = [&](std::uint32_t v) { return m.positions[v]; };
    auto normal = [&](std::uint32_t x, std::uint32_t y, std::uint32_t z) {
        const Vec3f &px = p(x), &py = p(y), &pz = p(z);
        const double u[3] = {double(py[0]) - px[0], double(py[1]) - px[1], double(py[2]) - px[2]};
        const double w[3] = {double(pz[0]) - px[0], double(pz[1]) - px[1], double(pz[2]) - px[2]};
        return std::array<double, 3>{u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                                     u[0] * w[1] - u[1] * w[0]};
    };
    auto dot = [](const std::array<double, 3>& x, const std::array<double, 3>& y) {
        return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    };
    const double before = dot(normal(a, b, c), normal(b, a, d));
    const double after  = dot(normal(c, a, d), normal(d, b, c));
    if (std::abs(after - before) <= 1e-4 * (std::abs(after) + std::abs(before))) return false;
    TriangleSoup pair;
    pair.positions = m.positions;
    pair.faces     = {{a, b, c}, {b, a, d}, {c, a, d}, {d, b, c}};
    double angles[4];
    for (int k = 0; k < 4; ++k) {
        TriangleSoup one = pair;
        one.faces        = {pair.faces[k]};
        angles[k]        = reference::mesh_quality(one, 1.0).min_angle_degrees;
    }
    for (double angle : angles)
        if (std::abs(angle - kRemeshMinAngleDegrees) < 0.01) return false;
    return std::abs(std::min(angles[0], angles[1]) - std::min(angles[2], angles[3])) >= 0.01;
}

//! After the GPU's valence step, no flip the serial rules want
//! (reference::flip_wanted) and the serial mesh allows is left, away from
//! the bounds a float decision could fall either side of.
TEST(GpuRemesh, ValenceStepLeavesNoImprovingFlipTheRulesAllow)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& soup : {generate::noisy(generate::icosphere(2), 0.3f, 2),
                             generate::grid(10, 7), generate::fan(12),
                             generate::noisy(generate::grid(12, 9), 0.4f, 3)}) {
        DynamicMesh      mesh(soup);
        const RemeshStep s = equalize_valences(mesh);
        EXPECT_FALSE(s.hit_bound);
        ASSERT_TRUE(mesh.validate().ok());
        EXPECT_EQ(mesh.euler_characteristic(),
                  reference::EditableMesh(soup.positions, soup.faces).euler_characteristic());
        const TriangleSoup      out = mesh.to_host();
        reference::EditableMesh m(out.positions, out.faces);
        for (const auto& [a, b] : m.edges()) {
            const auto fs = m.edge_faces(a, b);
            if (fs.size() != 2) continue;
            std::uint32_t c = 0, d = 0;
            for (std::uint32_t v : m.face(fs[0])) c = (v != a && v != b) ? v : c;
            for (std::uint32_t v : m.face(fs[1])) d = (v != a && v != b) ? v : d;
            if (!reference::flip_wanted(m, a, b, kRemeshMinAngleDegrees)) continue;
            if (!flip_clear_of_bounds(out, a, b, c, d)) continue;
            reference::EditableMesh trial = m;
            EXPECT_FALSE(trial.flip(a, b)) << "flip " << a << "-" << b << " still helps";
        }
    }
    // the noisy sphere has flips to make; the fan of 12 (a cone of height 1
    // over the unit circle) has none: each spoke's flip leaves a thin
    // triangle of the rim, and the dot product of the new faces' area
    // vectors (0.12) is below the old ones' (0.48): the flatness test,
    // CGAL's, refuses it, however it would lower the apex's valence
    DynamicMesh sphere(generate::noisy(generate::icosphere(2), 0.3f, 2));
    EXPECT_GT(equalize_valences(sphere).applied, 0u);
    DynamicMesh fan(generate::fan(12));
    EXPECT_EQ(equalize_valences(fan).applied, 0u);
}

//! Tangential smoothing alone equals the serial step (same neighbours, same
//! normals, float against double); with the surface, every moved vertex
//! lands on it.
TEST(GpuRemesh, SmoothingMatchesTheSerialStep)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::icosphere(3), 0.3f, 4);
    DynamicMesh        mesh(soup);
    smooth_tangentially(mesh, nullptr);
    const TriangleSoup      gpu = mesh.to_host();
    reference::EditableMesh m(soup.positions, soup.faces);
    reference::tangential_smoothing(m, nullptr, kRemeshMinAngleDegrees);
    const double scale = bounding_box_diagonal(soup.positions);
    for (std::uint32_t v = 0; v < soup.positions.size(); ++v)
        for (int d = 0; d < 3; ++d)
            ASSERT_NEAR(gpu.positions[v][d], m.position(v)[d], 2e-5 * scale) << "vertex " << v;
    // projection: onto the input sphere's triangles
    const DeviceSurface surface(soup);
    DynamicMesh         projected(soup);
    smooth_tangentially(projected, &surface.bvh);
    const TriangleSoup out = projected.to_host();
    for (std::uint32_t v = 0; v < out.positions.size(); v += 7) {
        const reference::Point3 p = {out.positions[v][0], out.positions[v][1], out.positions[v][2]};
        EXPECT_LT(reference::closest_point_on_mesh(p, soup).distance, 1e-5 * scale) << v;
    }
}

double smallest_angle(const TriangleSoup& m)
{
    return reference::mesh_quality(m, 1.0).min_angle_degrees;
}

//! The guard's postcondition for the GPU's collapse and flip steps, as the
//! serial one's: no face of the result below min(threshold, the input's
//! smallest angle) (float angles: 0.01 degrees of slack); with the guard
//! off, some step does make a worse face (the test can tell).
TEST(GpuRemesh, GuardedStepsMakeNoFaceBelowTheThreshold)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    int worse_unguarded = 0;
    for (const test::GuardCase& c : test::guard_cases()) {
        for (const double threshold : {0.0, 20.0, 30.0}) {
            SCOPED_TRACE(std::string(c.name) + " at " + std::to_string(threshold));
            const double      L     = c.scale * reference::mean_edge_length(c.soup.positions, c.soup.faces);
            const double      floor = std::min(threshold > 0 ? threshold : 20.0, smallest_angle(c.soup));
            RemeshStepOptions o;
            o.min_angle_degrees = threshold;
            DynamicMesh collapsed(c.soup);
            collapse_short_edges(collapsed, L, o);
            ASSERT_TRUE(collapsed.validate().ok());
            DynamicMesh flipped(c.soup);
            equalize_valences(flipped, o);
            ASSERT_TRUE(flipped.validate().ok());
            const double after[2] = {surface_quality(collapsed, L).min_angle_degrees,
                                     surface_quality(flipped, L).min_angle_degrees};
            for (const double angle : after) {
                if (threshold > 0) EXPECT_GE(angle, floor - 0.01);
                else worse_unguarded += angle < floor - 0.01;
            }
        }
    }
    EXPECT_GT(worse_unguarded, 0);
    DynamicMesh       mesh(generate::icosphere(2));
    RemeshStepOptions bad;
    bad.min_angle_degrees = 60;
    EXPECT_THROW(equalize_valences(mesh, bad), InvalidInputError);
    RemeshOptions whole;
    whole.min_angle_degrees = -1;
    EXPECT_THROW(isotropic_remesh(mesh, whole), InvalidInputError);
}

//! A sharp vertex (a cone's apex) is only projected by smoothing, as the
//! serial step does (which end a collapse keeps is the serial rule's test:
//! here the inner ring's own edges, shorter still, go first and make its
//! vertices sharp too).
TEST(GpuRemesh, SharpTipStaysWhereItIs)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup c = test::cone(11);
    const DeviceSurface surface(c);
    RemeshStepOptions unguarded;  // the cone's own faces are slivers: shape alone
    unguarded.min_angle_degrees = 0;
    DynamicMesh smoothed(c);
    smooth_tangentially(smoothed, &surface.bvh, unguarded);
    const TriangleSoup out = smoothed.to_host();
    EXPECT_EQ(out.positions[0], c.positions[0]);
    EXPECT_NE(out.positions[1], c.positions[1]);  // an inner vertex moves (the ring is uneven)
}

TEST(GpuRemesh, QualityFiguresMatchTheSerialOnes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& soup : {generate::noisy(generate::icosphere(3), 0.4f, 5),
                             generate::noisy(generate::grid(15, 11), 0.3f, 6)}) {
        DynamicMesh                    mesh(soup);
        const double                   L   = reference::mean_edge_length(soup.positions, soup.faces);
        const SurfaceQuality           gpu = surface_quality(mesh, L);
        const reference::MeshQuality   cpu = reference::mesh_quality(soup, L);
        EXPECT_EQ(gpu.faces, cpu.faces);
        EXPECT_NEAR(gpu.mean_edge, cpu.mean_edge, 1e-5 * L);
        EXPECT_NEAR(gpu.mean_edge, mean_edge_length(mesh), 1e-9 * L);
        EXPECT_NEAR(gpu.share_in_band, cpu.share_in_band, 2.0 / gpu.edges);
        EXPECT_NEAR(gpu.min_angle_degrees, cpu.min_angle_degrees, 1e-3);
        EXPECT_NEAR(gpu.share_below_5_degrees, cpu.share_below_5_degrees, 1.0 / gpu.faces);
        std::vector<std::uint32_t> cpu_valences = cpu.interior_valences;
        while (!cpu_valences.empty() && cpu_valences.back() == 0) cpu_valences.pop_back();
        EXPECT_EQ(gpu.interior_valences, cpu_valences);
        std::uint64_t binned = 0;
        for (std::uint32_t n : gpu.length_histogram) binned += n;
        EXPECT_EQ(binned, gpu.edges);
    }
}

TEST(GpuRemesh, HausdorffMatchesTheSerialOne)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup a = generate::noisy(generate::icosphere(3), 0.3f, 1);
    const TriangleSoup b = generate::icosphere(2);
    const DeviceSurface                sa(a), sb(b);
    const SampledHausdorff             gpu = sampled_hausdorff(sa.bvh, sb.bvh);
    const reference::HausdorffDistance cpu = reference::hausdorff_fast(a, b);
    EXPECT_GT(cpu.from_a, 0);
    EXPECT_NEAR(gpu.from_a, cpu.from_a, 1e-4 * cpu.from_a);
    EXPECT_NEAR(gpu.from_b, cpu.from_b, 1e-4 * cpu.from_b);
    EXPECT_LE(gpu.mean_from_a, gpu.from_a);
    EXPECT_GT(gpu.mean_from_a, 0);
}

struct RemeshCase
{
    std::string  name;
    TriangleSoup soup;
    bool         manifold;
    double       target_length = 0;  // 0: the mean edge length
};

//! The whole remesher against the serial one: valid, manifold and topology
//! kept, boundary kept, quality within tolerance of the oracle's.
TEST(GpuRemesh, MatchesTheSerialRemesherOnGeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const std::vector<RemeshCase> cases = {
        {"noisy sphere", generate::noisy(generate::icosphere(3), 0.3f, 3), true},
        {"open grid", generate::noisy(generate::grid(24, 16), 0.3f, 4), true},
        {"torus", generate::noisy(generate::torus(32, 16), 0.3f, 5), true},
        {"cylinder", generate::noisy(generate::cylinder(24, 10), 0.3f, 6), true},
        {"40 components", generate::components(40, 1), true},
        // valence 100 at the apex of a cone; L well below the spokes' length
        // (the mean edge length, 0.7 of the radius, leaves a handful of
        // vertices, where any two remeshers differ wildly)
        {"high valence", generate::fan(100), true, 0.25},
        {"fins (non-manifold edges)", generate::fin(5), false},
        {"bowtie (non-manifold vertex)", generate::bowtie(), false},
        {"isolated faces", generate::isolated_faces(50), true},
    };
    for (const RemeshCase& c : cases) {
        SCOPED_TRACE(c.name);
        reference::RemeshReport  ref_report;
        reference::RemeshOptions ref_options;
        ref_options.target_length = c.target_length;
        const TriangleSoup ref    = reference::isotropic_remesh(c.soup, ref_options, &ref_report);
        DynamicMesh        mesh(c.soup);
        const std::int64_t euler = mesh.euler_characteristic();
        RemeshOptions      options;
        options.target_length = c.target_length;
        const RemeshReport r  = isotropic_remesh(mesh, options);
        EXPECT_FALSE(r.hit_pass_bound) << r.to_json();
        EXPECT_NEAR(r.target_length, ref_report.target_length, 1e-5 * ref_report.target_length);
        const DynamicValidation v = mesh.validate();
        ASSERT_TRUE(v.ok()) << v.first;
        if (c.manifold) EXPECT_TRUE(mesh.is_manifold());
        EXPECT_EQ(mesh.euler_characteristic(), euler);
        const Remeshed out = download(mesh);
        const double               L   = r.target_length;
        expect_boundary_kept(c.soup, out, L);
        const SurfaceQuality       gpu = surface_quality(mesh, L);
        const reference::MeshQuality cpu = reference::mesh_quality(ref, L);
        EXPECT_GE(gpu.share_in_band, cpu.share_in_band - 0.1) << gpu.to_json();
        const double d     = bounding_box_diagonal(c.soup.positions);
        const double h_gpu = reference::hausdorff_fast(out.mesh, c.soup).symmetric();
        const double h_ref = reference::hausdorff_fast(ref, c.soup).symmetric();
        EXPECT_LE(h_gpu, 1.5 * h_ref + 1e-4 * d) << "GPU " << h_gpu << ", serial " << h_ref;
        RecordProperty(c.name + " share_in_band gpu/ref",
                       std::to_string(gpu.share_in_band) + "/" + std::to_string(cpu.share_in_band));
    }
}

//! A grid folded by 60 degrees along x = 1/2: with feature edges at 30
//! degrees, the crease stays, so every face stays within one of the two
//! planes and every vertex on them; without, smoothing cuts the crease.
TEST(GpuRemesh, FeatureEdgesKeepACrease)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    TriangleSoup folded = generate::grid(40, 24);
    const float  slope  = std::sqrt(3.f);
    for (Vec3f& p : folded.positions) p[2] = p[0] > 0.5f ? (p[0] - 0.5f) * slope : 0.f;
    auto crossing_faces = [&](double feature_angle) {
        DynamicMesh   mesh(folded);
        RemeshOptions o;
        o.target_length         = 1.5 / 40;
        o.feature_angle_degrees = feature_angle;
        const RemeshReport r    = isotropic_remesh(mesh, o);
        EXPECT_GT(r.collapses + r.flips, 0u);
        EXPECT_TRUE(mesh.validate().ok());
        const TriangleSoup out      = mesh.to_host();
        std::uint32_t      crossing = 0;
        for (const Triangle& t : out.faces) {
            bool left = false, right = false;
            for (std::uint32_t v : t) {
                left  = left || out.positions[v][0] < 0.5f - 1e-5f;
                right = right || out.positions[v][0] > 0.5f + 1e-5f;
            }
            crossing += left && right;
        }
        if (feature_angle > 0)
            for (const Vec3f& p : out.positions)
                EXPECT_NEAR(p[2], p[0] > 0.5f ? (p[0] - 0.5f) * slope : 0.f, 1e-5f);
        return crossing;
    };
    EXPECT_EQ(crossing_faces(30), 0u);
    EXPECT_GT(crossing_faces(0), 0u);  // the test can tell
    DynamicMesh   mesh(folded);
    RemeshOptions bad;
    bad.feature_angle_degrees = 200;
    EXPECT_THROW(isotropic_remesh(mesh, bad), InvalidInputError);
}

//! Valence 300 at a cone's apex with the default L: every step ends well
//! within its bound (operations around the apex go together, not one per
//! pass) and the mesh stays valid.
TEST(GpuRemesh, HighValenceEndsQuickly)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup fan = generate::fan(300);
    DynamicMesh        mesh(fan);
    const RemeshReport r = isotropic_remesh(mesh);
    EXPECT_FALSE(r.hit_pass_bound) << r.to_json();
    EXPECT_LT(r.split_passes + r.collapse_passes + r.flip_passes, 3u * 60u) << r.to_json();
    ASSERT_TRUE(mesh.validate().ok());
    EXPECT_TRUE(mesh.is_manifold());
    EXPECT_EQ(mesh.euler_characteristic(), 1);
    expect_boundary_kept(fan, download(mesh), r.target_length);
}

//! A fine flat square remeshed at 2.5 times its spacing (the serial
//! CoarserSquareKeepsItsSidesAndCorners on the GPU): the boundary loses
//! vertices, every boundary vertex stays on the square's sides bit for bit,
//! the four corners stay, and as many boundary vertices go as the serial
//! rules remove, within a tenth.
TEST(GpuRemesh, CoarserSquareKeepsItsSidesAndCorners)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const int          n = 24;
    const TriangleSoup in = generate::grid(n, n);
    const double       L  = 2.5 / n;
    DynamicMesh        mesh(in);
    RemeshOptions      o;
    o.target_length      = L;
    const RemeshReport r = isotropic_remesh(mesh, o);
    EXPECT_FALSE(r.hit_pass_bound) << r.to_json();
    ASSERT_TRUE(mesh.validate().ok());
    EXPECT_EQ(mesh.euler_characteristic(), 1);
    const Remeshed out = download(mesh);
    expect_boundary_kept(in, out, L);
    const reference::BoundaryCheck b = reference::check_boundary(in, out.mesh, 0.5 * L);
    const reference::BoundaryCheck serial =
        reference::check_boundary(in, reference::isotropic_remesh(in, {L, 3}), 0.5 * L);
    EXPECT_LT(b.output_boundary_vertices, b.input_boundary_vertices / 2);
    EXPECT_NEAR(double(b.output_boundary_vertices), double(serial.output_boundary_vertices),
                0.1 * double(serial.output_boundary_vertices));
    reference::EditableMesh m(out.mesh.positions, out.mesh.faces);
    std::set<Vec3f>         corners;
    for (std::uint32_t v = 0; v < out.mesh.positions.size(); ++v) {
        if (!m.vertex_alive(v) || !m.is_boundary_vertex(v)) continue;
        const Vec3f& p = out.mesh.positions[v];
        EXPECT_TRUE(p[0] == 0.f || p[0] == 1.f || p[1] == 0.f || p[1] == 1.f)
            << "boundary vertex " << v << " at (" << p[0] << ", " << p[1] << ") is off the sides";
        if ((p[0] == 0.f || p[0] == 1.f) && (p[1] == 0.f || p[1] == 1.f)) corners.insert(p);
    }
    EXPECT_EQ(corners.size(), 4u);
}

TEST(GpuRemesh, SameResultForEveryBlockSize)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    rxmesh::test::expect_same_at_every_block_size(
        generate::noisy(generate::torus(30, 14), 0.3f, 8), {128, 256, 1024},
        [](DynamicMesh& mesh) { isotropic_remesh(mesh); });
}

TEST(GpuRemesh, BadTargetLengthIsRefused)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    DynamicMesh   mesh(generate::icosphere(1));
    RemeshOptions o;
    o.target_length = -1;
    EXPECT_THROW(isotropic_remesh(mesh, o), InvalidInputError);
    o.target_length = std::nan("");
    EXPECT_THROW(isotropic_remesh(mesh, o), InvalidInputError);
    TriangleSoup empty;
    empty.positions = {{0, 0, 0}};
    DynamicMesh nothing(empty);
    EXPECT_THROW(isotropic_remesh(nothing), InvalidInputError);  // no edge: no default length
}

TEST(GpuRemesh, EveryRealMeshFinishesValid)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
    int remeshed = 0;
    rxmesh::test::for_each_real_mesh(300'000, [&](const std::string&, const TriangleSoup& soup) {
        DynamicMesh                      mesh(soup);
        const rxmesh::test::KeptTopology in(mesh);
        RemeshReport                     r;
        try {
            r = isotropic_remesh(mesh);
        } catch (const InvalidInputError&) {
            return true;  // all edges of zero length: no default target
        }
        EXPECT_FALSE(r.hit_pass_bound) << r.to_json();
        in.expect_kept(mesh);
        const SurfaceQuality q = surface_quality(mesh, r.target_length);
        EXPECT_EQ(q.faces, mesh.num_faces());
        EXPECT_GE(q.min_angle_degrees, 0);
        ++remeshed;
        return !HasFailure();
    });
    EXPECT_GT(remeshed, 100);
}

}  // namespace
