// The GPU quadric simplifier (algo/simplify.h) and the engine features it
// stands on (PassLimits, AttributeRule::Sum, for_each_vertex) against the
// serial oracle (reference/qem_simplify.h) and exact expectations: a flat
// grid stays flat with its rectangle, counts reach the target, the result is
// valid, manifold and of the same topology, the same at every block size.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../common/shape_meshes.h"
#include "../common/test_data.h"
#include "dynamic_checks.h"
#include "gpu_test.h"
#include "rxmesh/algo/simplify.h"
#include "rxmesh/dynamic/dynamic_attribute.cuh"
#include "rxmesh/dynamic/dynamic_pass.cuh"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/reference/isotropic_remesh.h"
#include "rxmesh/reference/qem_simplify.h"

namespace {

using namespace rxmesh;

SimplifyOptions to_faces(std::uint32_t faces)
{
    SimplifyOptions o;
    o.target_faces = faces;
    return o;
}

TEST(GpuSimplify, FlatGridStaysFlatAndKeepsItsRectangle)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup   grid = generate::grid(30, 20);
    DynamicMesh          mesh(grid);
    const SimplifyReport r = qem_simplify(mesh, to_faces(40));
    EXPECT_TRUE(r.reached_target) << r.to_json();
    EXPECT_LE(r.faces, 40u);
    EXPECT_GE(r.faces, 39u);
    ASSERT_TRUE(mesh.validate().ok());
    EXPECT_TRUE(mesh.is_manifold());
    const TriangleSoup out = mesh.to_host();
    float              z   = grid.positions[0][2];
    for (const Vec3f& p : out.positions) EXPECT_NEAR(p[2], z, 1e-5f);  // every quadric is the plane's
    // the rectangle: every input corner is still there, and the outline covers the input
    const reference::HausdorffDistance h = reference::hausdorff_fast(out, grid);
    EXPECT_LT(h.symmetric(), 1e-4 * bounding_box_diagonal(grid.positions));
}

//! A flat grid (every collapse costs 0) to a tenth: the shape tie-break and
//! the guard leave no needle, as the serial simplifier's.
TEST(GpuSimplify, FlatGridGetsNoNeedles)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup grid = generate::grid(60, 60);  // 7,200 faces
    auto smallest = [&](double min_angle) {
        DynamicMesh     mesh(grid);
        SimplifyOptions o = to_faces(720);
        o.min_angle_degrees  = min_angle;
        const SimplifyReport r = qem_simplify(mesh, o);
        EXPECT_TRUE(r.reached_target) << r.to_json();
        EXPECT_TRUE(mesh.validate().ok());
        const TriangleSoup out = mesh.to_host();
        EXPECT_LT(reference::hausdorff_fast(out, grid).symmetric(), 1e-4);
        return reference::mesh_quality(out, 1.0);
    };
    const reference::MeshQuality guarded = smallest(5);
    EXPECT_GE(guarded.min_angle_degrees, 5.0 - 0.01);
    EXPECT_EQ(guarded.share_below_5_degrees, 0.0);
    RecordProperty("unguarded_min_angle", std::to_string(smallest(0).min_angle_degrees));
    DynamicMesh     mesh(grid);
    SimplifyOptions bad = to_faces(720);
    bad.min_angle_degrees = 60;
    EXPECT_THROW(qem_simplify(mesh, bad), InvalidInputError);
}

//! Every collapse of the GPU simplifier keeps the guard: no face of the
//! result below min(5 degrees, the input's smallest angle).
TEST(GpuSimplify, GuardHoldsOnEveryShape)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const test::GuardCase& c : test::guard_cases()) {
        SCOPED_TRACE(c.name);
        DynamicMesh          mesh(c.soup);
        const double         floor = std::min(5.0, reference::mesh_quality(c.soup, 1.0).min_angle_degrees);
        const SimplifyReport r = qem_simplify(mesh, to_faces(std::uint32_t(c.soup.faces.size() / 5)));
        EXPECT_FALSE(r.hit_pass_bound);
        ASSERT_TRUE(mesh.validate().ok());
        EXPECT_GE(reference::mesh_quality(mesh.to_host(), 1.0).min_angle_degrees, floor - 0.01);
    }
}

TEST(GpuSimplify, ReachesTheTargetOnClosedMeshesAndKeepsTopology)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& soup : {generate::noisy(generate::icosphere(4), 0.2f, 3),
                             generate::torus(64, 32), generate::components(20, 2)}) {
        DynamicMesh        mesh(soup);
        const std::int64_t euler  = mesh.euler_characteristic();
        const auto         target = std::uint32_t(soup.faces.size() / 10);
        const SimplifyReport r    = qem_simplify(mesh, to_faces(target));
        EXPECT_TRUE(r.reached_target) << r.to_json();
        EXPECT_LE(r.faces, target);
        EXPECT_GE(r.faces + 2, target);  // no collapse removes more than two faces
        EXPECT_EQ(r.faces, mesh.num_faces());
        EXPECT_EQ(r.vertices, mesh.num_vertices());
        EXPECT_FALSE(r.hit_pass_bound);
        ASSERT_TRUE(mesh.validate().ok());
        EXPECT_TRUE(mesh.is_manifold());
        EXPECT_EQ(mesh.euler_characteristic(), euler);
        EXPECT_EQ(r.collapses, (soup.faces.size() - r.faces) / 2);  // closed: two faces each
    }
}

//! Against the serial greedy simplifier at the same target: the GPU's
//! cheapest-first batches may do a little worse, never much.
TEST(GpuSimplify, HausdorffCloseToTheSerialSimplifier)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& soup : {generate::noisy(generate::icosphere(3), 0.15f, 4),
                             generate::noisy(generate::grid(30, 24), 0.2f, 5),
                             generate::torus(48, 24)}) {
        const auto                target = std::uint32_t(soup.faces.size() / 8);
        reference::SimplifyOptions ro;
        ro.target_faces = target;
        reference::SimplifyReport ref_report;
        const TriangleSoup        ref = reference::qem_simplify(soup, ro, &ref_report);
        DynamicMesh               mesh(soup);
        const SimplifyReport      r = qem_simplify(mesh, to_faces(target));
        EXPECT_EQ(r.reached_target, ref_report.reached_target);
        ASSERT_TRUE(mesh.validate().ok());
        const TriangleSoup out   = mesh.to_host();
        const double       h_gpu = reference::hausdorff_fast(out, soup).symmetric();
        const double       h_ref = reference::hausdorff_fast(ref, soup).symmetric();
        EXPECT_LE(h_gpu, 2.0 * h_ref + 1e-5 * bounding_box_diagonal(soup.positions))
            << "GPU " << h_gpu << ", serial " << h_ref;
    }
}

TEST(GpuSimplify, StopsWhenNoCollapseIsLeft)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    DynamicMesh          mesh(rxmesh::test::tetrahedron());
    const SimplifyReport r = qem_simplify(mesh, to_faces(1));
    EXPECT_FALSE(r.reached_target);
    EXPECT_EQ(r.stop_reason(), "no valid collapse left");
    EXPECT_EQ(r.faces, 4u);
    EXPECT_EQ(r.passes, 1u);
    // non-manifold parts stay; the rest simplifies; the loop ends
    for (const auto& soup : {generate::fin(6), generate::bowtie(), generate::isolated_faces(30)}) {
        DynamicMesh          m(soup);
        const SimplifyReport s = qem_simplify(m, to_faces(1));
        EXPECT_FALSE(s.hit_pass_bound);
        EXPECT_TRUE(m.validate().ok());
    }
}

TEST(GpuSimplify, DeterministicAtEveryBlockSize)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::icosphere(4), 0.2f, 9);
    const std::uint32_t target = std::uint32_t(soup.faces.size() / 20);
    rxmesh::test::expect_same_at_every_block_size(
        soup, {128, 256, 512, 256}, [&](DynamicMesh& mesh) { qem_simplify(mesh, to_faces(target)); });
}

TEST(GpuSimplify, BadOptionsAreRefused)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    DynamicMesh     mesh(generate::icosphere(1));
    SimplifyOptions o = to_faces(10);
    o.batch_share     = 0;
    EXPECT_THROW(qem_simplify(mesh, o), InvalidInputError);
    o.batch_share     = 0.1;
    o.boundary_weight = -1;
    EXPECT_THROW(qem_simplify(mesh, o), InvalidInputError);
}

struct LengthPriority
{
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        const Vec3 p = e.position(e.a), q = e.position(e.b);
        return EdgeDecision{true, (p + q) * 0.5f, squared_norm(q - p)};
    }
};

//! PassLimits: at most max_applied go, all among the cheapest candidates.
TEST(GpuSimplify, PassLimitsKeepTheCheapestCandidates)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::icosphere(3), 0.3f, 2);
    for (std::uint32_t limit : {1u, 5u, 40u}) {
        DynamicMesh      mesh(soup);
        const PassReport r = mesh.collapse_pass(LengthPriority{}, PassLimits{limit});
        EXPECT_GE(r.applied, 1u);
        EXPECT_LE(r.applied, limit);
        EXPECT_EQ(r.asked, r.edges);
        EXPECT_EQ(r.applied + r.conflicted + r.refused, r.asked);
        const auto statuses = mesh.last_statuses();
        const auto edges    = mesh.last_edges();
        std::vector<std::pair<double, std::uint32_t>> candidates;  // (length^2, edge)
        for (std::uint32_t e = 0; e < edges.size(); ++e) {
            if (statuses[e] == EdgeOpStatus::Refused) continue;
            const Vec3f &p = soup.positions[edges[e][0]], &q = soup.positions[edges[e][1]];
            const float  dx = q[0] - p[0], dy = q[1] - p[1], dz = q[2] - p[2];
            candidates.push_back({dx * dx + dy * dy + dz * dz, e});
        }
        std::sort(candidates.begin(), candidates.end());
        const double cutoff = candidates[limit - 1].first;
        for (std::uint32_t e = 0; e < edges.size(); ++e) {
            if (statuses[e] != EdgeOpStatus::Applied) continue;
            const Vec3f &p = soup.positions[edges[e][0]], &q = soup.positions[edges[e][1]];
            const float  dx = q[0] - p[0], dy = q[1] - p[1], dz = q[2] - p[2];
            EXPECT_LE(dx * dx + dy * dy + dz * dz, cutoff * (1 + 1e-5)) << "edge " << e;  // device rounding
        }
        ASSERT_TRUE(mesh.validate().ok());
    }
}

struct CountOne
{
    AttributeView<float, 1, VertexId> mass;
    __device__ void operator()(const VertexContext& v) const { mass(v.vertex) = 1.f; }
};

struct WriteValence
{
    AttributeView<std::uint32_t, 1, VertexId> valence;
    __device__ void operator()(const VertexContext& v) const
    {
        std::uint32_t n = 0;
        v.for_each_neighbor([&](VertexId) { ++n; });
        valence(v.vertex) = n == v.valence() ? n : 0xFFFFFFFFu;
    }
};

//! AttributeRule::Sum keeps the total through collapses (every vertex
//! starts with mass 1; the survivors' masses sum to the input's count), and
//! for_each_vertex reaches every vertex with its one-ring.
TEST(GpuSimplify, SumRuleKeepsTotalsAndForEachVertexSeesOneRings)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::grid(20, 15), 0.2f, 3);
    DynamicMesh        mesh(soup);
    auto valence = mesh.add_vertex_attribute<std::uint32_t, 1>("valence", AttributeRule::Copy);
    mesh.for_each_vertex(WriteValence{valence->view()});
    std::map<std::uint32_t, std::set<std::uint32_t>> ring;
    for (const Triangle& t : soup.faces)
        for (int k = 0; k < 3; ++k) ring[t[k]].insert({t[(k + 1) % 3], t[(k + 2) % 3]});
    const auto got = valence->to_host();
    for (std::uint32_t v = 0; v < soup.positions.size(); ++v)
        EXPECT_EQ(got[v], ring[v].size()) << "vertex " << v;
    mesh.remove_attribute(*valence);
    auto mass = mesh.add_vertex_attribute<float, 1>("mass", AttributeRule::Sum);
    mesh.for_each_vertex(CountOne{mass->view()});
    qem_simplify(mesh, to_faces(std::uint32_t(soup.faces.size() / 5)));
    const auto          values = mass->to_host();
    const auto          alive  = mesh.compact().vertex_slot.to_host();
    double              total  = 0;
    for (std::uint32_t slot : alive) total += values[slot];
    EXPECT_EQ(total, double(soup.positions.size()));
}

TEST(GpuSimplify, EveryRealMeshFinishesValid)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
    const int simplified = rxmesh::test::for_each_real_mesh(
        300'000, [&](const std::string&, const TriangleSoup& soup) {
            DynamicMesh                      mesh(soup);
            const rxmesh::test::KeptTopology in(mesh);
            const SimplifyReport             r =
                qem_simplify(mesh, to_faces(std::uint32_t(soup.faces.size() / 10)));
            EXPECT_FALSE(r.hit_pass_bound) << r.to_json();
            EXPECT_TRUE(r.reached_target || r.stop_reason() == "no valid collapse left");
            in.expect_kept(mesh);
            return !HasFailure();
        });
    EXPECT_GT(simplified, 100);
}

}  // namespace
