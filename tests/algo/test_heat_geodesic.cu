// Geodesic distance by the heat method (algo/heat_geodesic.h) against the
// serial double reference of the same steps (reference/heat_geodesic.h) on
// generated meshes of every kind and on real ones, for one and several
// sources; against the Euclidean distance on a plane, independently of
// both; unreachable components and vertices of no face; results that do
// not depend on the patches nor on how often a query runs; a solver that
// outlives its mesh; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "mesh_families.h"
#include "rxmesh/algo/heat_geodesic.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/heat_geodesic.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace heat_geodesic_test {

using namespace rxmesh;

using test::spread_sources;

std::vector<float> gpu_distances(const HeatGeodesic& heat, std::uint32_t n,
                                 const std::vector<std::uint32_t>& sources,
                                 HeatGeodesicReport*               report = nullptr)
{
    DeviceBuffer<float>      d(n);
    const HeatGeodesicReport r = heat.distance(sources, VertexView<float>(d.data(), n));
    if (report) *report = r;
    return d.to_host();
}

//! The GPU's distances against the reference's: the same +inf set, and
//! elsewhere within 1e-6 of the largest distance. Why 1e-6: both solve in
//! double and the solves are componentwise accurate (the reference's
//! distances move by ~1e-14 relative under a renumbering of the vertices,
//! tests/reference/test_heat_geodesic.cpp), so what is left is the GPU's
//! float output (6e-8 relative) and the differing order of its sums.
void expect_matches_reference(const RXMesh& mesh, const std::vector<std::uint32_t>& sources,
                              const std::string& name, const HeatGeodesicOptions& options = {})
{
    SCOPED_TRACE(name + ", " + std::to_string(sources.size()) + " source(s)");
    reference::HeatGeodesic ref;
    try {
        ref = reference::heat_geodesic(test::positions_of(mesh), test::faces_of(mesh), sources,
                                       options.time_factor);
    } catch (const std::invalid_argument& e) {
        // not positive definite (faces of no area): the GPU must refuse too
        EXPECT_THROW(HeatGeodesic(mesh, options), InvalidInputError) << e.what();
        return;
    }
    const HeatGeodesic heat(mesh, options);
    EXPECT_NEAR(heat.setup().mean_edge_length, ref.mean_edge_length, 1e-12 * ref.mean_edge_length);
    const double raised = std::pow(reference::kTimeStepRaise, ref.time_step_raises);
    EXPECT_NEAR(heat.setup().time_step * raised, ref.time_step, 1e-12 * ref.time_step);
    HeatGeodesicReport rep;
    const auto         g = gpu_distances(heat, mesh.num_vertices(), sources, &rep);
    EXPECT_EQ(rep.time_step_raises, ref.time_step_raises);
    EXPECT_EQ(rep.heat_rescales, ref.heat_rescales);
    EXPECT_EQ(rep.low_heat_vertices, ref.low_heat_vertices);
    EXPECT_NEAR(rep.time_step, ref.time_step, 1e-12 * ref.time_step);
    double        largest     = 0;
    std::uint32_t unreachable = 0;
    for (double d : ref.distance)
        if (std::isinf(d))
            ++unreachable;
        else
            largest = std::max(largest, std::abs(d));
    for (std::size_t v = 0; v < g.size(); ++v) {
        if (std::isinf(ref.distance[v])) {
            ASSERT_TRUE(std::isinf(g[v])) << "vertex " << v << " is unreachable, GPU " << g[v];
            continue;
        }
        ASSERT_NEAR(g[v], ref.distance[v], 1e-6 * largest) << "vertex " << v;
    }
    // every vertex of a sourceless component, and here no vertex of no face
    // (the import drops unreferenced vertices), is unreachable
    EXPECT_EQ(rep.unreachable, unreachable);
    EXPECT_GE(rep.total_ms, 0.f);
}

TEST(GpuHeatGeodesic, MatchesReferenceOnGeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const test::NamedMeshes meshes =
        test::joined({test::noisy_families(4, {48, 24}, {40, 30}, {32, 12}),
                      test::irregular_families({3, 5}, 4, 64)});
    for (const auto& m : meshes) {
        BuildOptions small;
        small.patcher.capacity = 64;  // many patches even on the small meshes
        const RXMesh mesh(m.soup, small);
        for (std::uint32_t count : {1u, 4u})
            expect_matches_reference(mesh, spread_sources(mesh.num_vertices(), count), m.name);
    }
}

TEST(GpuHeatGeodesic, MatchesReferenceForOtherTimeSteps)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh mesh(generate::noisy(generate::torus(40, 20), 0.2f, 3));
    for (double t : {0.25, 10.0}) {
        HeatGeodesicOptions o;
        o.time_factor = t;
        expect_matches_reference(mesh, {0, 300}, "time factor " + std::to_string(t), o);
    }
}

TEST(GpuHeatGeodesic, MatchesReferenceOnRealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // at most 30000 faces: the reference's envelope factor stays quick
    const int visited =
        test::for_each_real_mesh(30000, [](const std::string& file, const TriangleSoup& soup) {
            const RXMesh mesh(soup);
            expect_matches_reference(mesh, spread_sources(mesh.num_vertices(), 1), file);
            expect_matches_reference(mesh, spread_sources(mesh.num_vertices(), 3), file);
            return !::testing::Test::HasFailure();
        });
    if (visited == 0) GTEST_SKIP() << "no real meshes installed (libcgal-demo, assimp-testmodels)";
    EXPECT_GT(visited, 5);
}

//! A strip of 1000 x 1 square cells, the source at one end: the heat at the
//! default time step underflows, and a scaled right-hand side recovers it
//! (tests/reference/test_heat_geodesic.cpp). The GPU rescales as the
//! reference does, leaves t alone, and keeps the scale for the next query.
TEST(GpuHeatGeodesic, AnUnderflowingHeatIsRescaledAndKept)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const int    n    = 1000;
    TriangleSoup soup = generate::grid(n, 1);
    for (Vec3f& p : soup.positions) p[1] /= float(n);
    const RXMesh mesh(soup);
    const auto   to_global = mesh.input_vertex_to_global().to_host();
    expect_matches_reference(mesh, {to_global[0]}, "strip of 1000");
    const HeatGeodesic heat(mesh);
    HeatGeodesicReport first, second;
    gpu_distances(heat, mesh.num_vertices(), {to_global[0]}, &first);
    EXPECT_EQ(first.heat_rescales, 1u);
    EXPECT_EQ(first.time_step_raises, 0u);
    EXPECT_EQ(first.low_heat_vertices, 0u);
    EXPECT_EQ(first.time_step, heat.setup().time_step);
    gpu_distances(heat, mesh.num_vertices(), {to_global[1]}, &second);
    EXPECT_EQ(second.heat_rescales, 0u);
    EXPECT_EQ(second.low_heat_vertices, 0u);
    EXPECT_EQ(second.heat_scale, first.heat_scale);
}

//! A strip of 1500 x 1 square cells, the source at one end: the default
//! time step underflows beyond what a rescale recovers (tests/reference/test_heat_geodesic.cpp).
//! The GPU raises it as the reference does, and keeps it for the next query.
TEST(GpuHeatGeodesic, AnUnderflowingTimeStepIsRaisedAndKept)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const int    n    = 1500;
    TriangleSoup soup = generate::grid(n, 1);
    for (Vec3f& p : soup.positions) p[1] /= float(n);
    const RXMesh mesh(soup);
    const auto   to_global = mesh.input_vertex_to_global().to_host();
    expect_matches_reference(mesh, {to_global[0]}, "strip");
    const HeatGeodesic heat(mesh);
    HeatGeodesicReport first, second;
    gpu_distances(heat, mesh.num_vertices(), {to_global[0]}, &first);
    EXPECT_GT(first.time_step_raises, 0u);
    EXPECT_EQ(first.low_heat_vertices, 0u);
    gpu_distances(heat, mesh.num_vertices(), {to_global[1]}, &second);
    EXPECT_EQ(second.time_step_raises, 0u);
    EXPECT_EQ(second.time_step, first.time_step);
}

//! Independent of the reference: on a plane the geodesic distance is the
//! Euclidean one, which the heat method at t = h^2 meets within a few
//! percent on average (Crane et al. report about 1% on their models).
TEST(GpuHeatGeodesic, FlatGridIsEuclidean)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    constexpr int       n    = 96;
    const TriangleSoup  soup = generate::grid(n, n);
    const RXMesh        mesh(soup);
    const auto          to_global = mesh.input_vertex_to_global().to_host();
    const std::uint32_t s         = std::uint32_t((n / 3) * (n + 1) + n / 2);
    const HeatGeodesic  heat(mesh);
    const auto          d = gpu_distances(heat, mesh.num_vertices(), {to_global[s]});
    EXPECT_EQ(d[to_global[s]], 0.f);
    double        mean = 0, worst = 0;
    std::uint32_t counted = 0;
    for (std::size_t v = 0; v < soup.positions.size(); ++v) {
        const Vec3f &a = soup.positions[v], &b = soup.positions[s];
        const double r = std::hypot(double(a[0]) - b[0], double(a[1]) - b[1]);
        if (r < 0.1) continue;  // within ~sqrt(t) of the source the method smooths
        const double e = std::abs(d[to_global[v]] - r) / r;
        mean += e;
        worst = std::max(worst, e);
        ++counted;
    }
    EXPECT_LT(mean / counted, 0.03);
    EXPECT_LT(worst, 0.15);
}

//! The patches change the numbering and so the factor's order, never the
//! distances beyond rounding; nor does running a query again.
TEST(GpuHeatGeodesic, IndependentOfPatchesAndRepeatable)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::icosphere(5), 0.2f, 11);
    std::vector<float> first;
    for (std::uint32_t capacity : {64u, 512u, 2048u}) {
        SCOPED_TRACE("capacity " + std::to_string(capacity));
        BuildOptions o;
        o.patcher.capacity = capacity;
        const RXMesh       mesh(soup, o);
        const auto         to_global = mesh.input_vertex_to_global().to_host();
        const HeatGeodesic heat(mesh);
        const auto g = gpu_distances(heat, mesh.num_vertices(), {to_global[0], to_global[100]});
        // the solves' atomic sums vary in order: the same up to rounding
        const auto again = gpu_distances(heat, mesh.num_vertices(), {to_global[0], to_global[100]});
        const float most = *std::max_element(g.begin(), g.end());
        for (std::size_t v = 0; v < g.size(); ++v) ASSERT_NEAR(again[v], g[v], 1e-6 * most) << v;
        std::vector<float> in_input_order(soup.positions.size());
        for (std::size_t i = 0; i < in_input_order.size(); ++i) in_input_order[i] = g[to_global[i]];
        if (first.empty()) {
            first = in_input_order;
            continue;
        }
        const float largest = *std::max_element(first.begin(), first.end());
        for (std::size_t i = 0; i < first.size(); ++i)
            ASSERT_NEAR(in_input_order[i], first[i], 1e-6 * largest) << "input vertex " << i;
    }
}

//! Three equal spheres with a source on the first: the others are +inf,
//! counted as unreachable, and the components are found.
TEST(GpuHeatGeodesic, ComponentsWithoutASourceAreUnreachable)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::components(3, 3);
    const RXMesh       mesh(soup);
    const auto         to_global = mesh.input_vertex_to_global().to_host();
    const HeatGeodesic heat(mesh);
    EXPECT_EQ(heat.setup().components, 3u);
    HeatGeodesicReport rep;
    const auto         d     = gpu_distances(heat, mesh.num_vertices(), {to_global[5]}, &rep);
    const std::size_t  third = soup.positions.size() / 3;
    EXPECT_EQ(rep.unreachable, 2 * third);
    for (std::size_t v = 0; v < soup.positions.size(); ++v)
        EXPECT_EQ(std::isinf(d[to_global[v]]), v >= third) << "input vertex " << v;
}

//! The positions are copied: a query after the mesh is gone still works
//! and gives what it gave before.
TEST(GpuHeatGeodesic, OutlivesItsMesh)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    std::vector<float>            before;
    std::unique_ptr<HeatGeodesic> heat;
    std::uint32_t                 n = 0;
    {
        const RXMesh mesh(generate::noisy(generate::torus(30, 12), 0.1f, 2));
        n      = mesh.num_vertices();
        heat   = std::make_unique<HeatGeodesic>(mesh);
        before = gpu_distances(*heat, n, {1});
    }
    const auto  after = gpu_distances(*heat, n, {1});
    const float most  = *std::max_element(before.begin(), before.end());
    for (std::size_t v = 0; v < n; ++v) ASSERT_NEAR(after[v], before[v], 1e-6 * most) << v;
}

TEST(GpuHeatGeodesic, BadInputThrows)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh            mesh(generate::icosphere(2));
    const HeatGeodesic      heat(mesh);
    DeviceBuffer<float>     d(mesh.num_vertices());
    const VertexView<float> view(d.data(), mesh.num_vertices());
    EXPECT_THROW(heat.distance({}, view), InvalidInputError);
    EXPECT_THROW(heat.distance({mesh.num_vertices()}, view), InvalidInputError);
    EXPECT_THROW(heat.distance({0}, VertexView<float>(d.data(), mesh.num_vertices() - 1)), Error);
    for (double t : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
        HeatGeodesicOptions o;
        o.time_factor = t;
        EXPECT_THROW(HeatGeodesic(mesh, o), InvalidInputError) << t;
    }
}

}  // namespace heat_geodesic_test
