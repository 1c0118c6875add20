// Geodesic distance by parallel toplesets propagation (algo/geodesic.cuh)
// against the serial double reference of the same steps
// (reference/geodesic.h): toplesets level by level, distances within 1e-4
// relative, on generated meshes of every kind and on real ones, for one and
// several sources; results that do not depend on the patch capacity nor on
// how many iterations the host enqueues at a time; sources 0, unreachable
// components +inf, the triangle inequality along every edge; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "geodesic_bounds.h"
#include "gpu_test.h"
#include "mesh_faces.h"
#include "mesh_families.h"
#include "rxmesh/algo/geodesic.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/geodesic.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace geodesic_test {

using namespace rxmesh;

test::NamedMeshes generated_meshes()
{
    return test::noisy_families(4, {48, 24}, {40, 30}, {32, 12});
}

BuildOptions with_capacity(std::uint32_t capacity)
{
    BuildOptions o;
    o.patcher.capacity = capacity;
    return o;
}

using test::spread_sources;

std::vector<float> gpu_distances(const RXMesh& mesh, const std::vector<std::uint32_t>& sources,
                                 const GeodesicOptions& o = {}, GeodesicReport* rep = nullptr)
{
    DeviceBuffer<float>     d(mesh.num_vertices());
    const VertexView<float> distance(d.data(), mesh.num_vertices());
    const GeodesicReport    r = geodesic_distance(mesh, mesh.positions(), sources, distance, o);
    if (rep) *rep = r;
    return d.to_host();
}

//! GPU distances against the reference: same +inf set; elsewhere within
//! 1e-4 relative. Why 1e-4: the GPU stores distances in float (each update
//! rounds by 6e-8 relative, and a value is the end of a chain of up to L
//! updates), and a level that the reference sees change by just over the
//! tolerance may look converged in float one iteration early (its vertices
//! then differ by up to about the tolerance, 1e-4).
void expect_matches_reference(const RXMesh& mesh, const std::vector<std::uint32_t>& sources,
                              const std::string& name)
{
    SCOPED_TRACE(name + ", " + std::to_string(sources.size()) + " source(s)");
    const GeodesicOptions o;
    GeodesicReport        rep;
    const auto            g = gpu_distances(mesh, sources, o, &rep);
    const auto ref = reference::geodesic_ptp(test::positions_of(mesh), test::faces_of(mesh),
                                             sources, o.tolerance);
    EXPECT_TRUE(rep.converged);
    EXPECT_TRUE(ref.converged);
    EXPECT_EQ(rep.levels, ref.toplesets.num_levels);
    for (std::size_t v = 0; v < g.size(); ++v) {
        if (std::isinf(ref.distance[v])) {
            ASSERT_TRUE(std::isinf(g[v])) << "vertex " << v << " is unreachable, GPU " << g[v];
            continue;
        }
        ASSERT_NEAR(g[v], ref.distance[v], 1e-4 * ref.distance[v] + 1e-30) << "vertex " << v;
    }
}

//! Both forms of the steps' loop (one cooperative launch, the default, and
//! host-enqueued chunks) against the reference.
TEST(GpuGeodesic, LevelsMatchReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    DeviceLoopOptions chunks;
    chunks.form  = DeviceLoopOptions::Form::Chunks;
    chunks.chunk = 5;
    for (const auto& m : generated_meshes()) {
        SCOPED_TRACE(m.name);
        const RXMesh mesh(m.soup, with_capacity(64));
        for (const auto& [count, loop] :
             {std::pair{1u, DeviceLoopOptions{}}, std::pair{3u, DeviceLoopOptions{}},
              std::pair{3u, chunks}}) {
            SCOPED_TRACE(loop.form == DeviceLoopOptions::Form::Chunks ? "chunks" : "one launch");
            const auto      sources = spread_sources(mesh.num_vertices(), count);
            const Toplesets t       = toplesets(mesh, sources, 0, loop);
            const auto      ref =
                reference::toplesets(mesh.num_vertices(), test::faces_of(mesh), sources);
            EXPECT_EQ(t.num_levels, ref.num_levels);
            const auto level = t.level.to_host();
            for (std::size_t v = 0; v < level.size(); ++v)
                ASSERT_EQ(level[v], ref.level[v]) << "vertex " << v;
            // every reached patch is listed once, by its lowest level
            const auto by_lowest = t.by_lowest_level.to_host();
            const auto offsets   = t.level_offsets.to_host();
            EXPECT_EQ(offsets[t.num_levels], t.reached);
            std::vector<int> seen(mesh.num_patches(), 0);
            for (std::uint32_t i = 0; i < t.reached; ++i)
                EXPECT_EQ(seen[by_lowest[i]]++, 0) << "patch " << by_lowest[i] << " listed twice";
        }
    }
}

TEST(GpuGeodesic, MatchesReferenceOnGeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& m : generated_meshes()) {
        const RXMesh mesh(m.soup, with_capacity(64));
        for (std::uint32_t count : {1u, 4u})
            expect_matches_reference(mesh, spread_sources(mesh.num_vertices(), count), m.name);
    }
}

TEST(GpuGeodesic, MatchesReferenceOnRealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const auto files = test::cgal_mesh_files({".off"});
    if (files.empty()) GTEST_SKIP() << "libcgal-demo meshes not installed";
    // at most 200000 faces: the serial reference stays quick
    const int tested = test::for_each_mesh_file(
        files, {200000}, [](const std::string& file, const TriangleSoup& soup) {
            const RXMesh mesh(soup);
            expect_matches_reference(mesh, spread_sources(mesh.num_vertices(), 1), file);
            expect_matches_reference(mesh, spread_sources(mesh.num_vertices(), 5), file);
        });
    EXPECT_GT(tested, 5);
}

//! The patches change the numbering and the schedule, never the arithmetic
//! of a vertex (the minimum over its triangles does not depend on their
//! order): distances in input order must be bitwise equal.
TEST(GpuGeodesic, IndependentOfPatchCapacityAndChunk)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::icosphere(5), 0.2f, 11);
    std::vector<float> first;
    for (std::uint32_t capacity : {64u, 256u, 512u, 2048u})
        for (int chunk : {1, 7, 32}) {
            SCOPED_TRACE("capacity " + std::to_string(capacity) + ", chunk " +
                         std::to_string(chunk));
            const RXMesh    mesh(soup, with_capacity(capacity));
            const auto      to_global = mesh.input_vertex_to_global().to_host();
            GeodesicOptions o;
            o.chunk              = chunk;
            const auto         g = gpu_distances(mesh, {to_global[0], to_global[100]}, o);
            std::vector<float> in_input_order(soup.positions.size());
            for (std::size_t i = 0; i < in_input_order.size(); ++i)
                in_input_order[i] = g[to_global[i]];
            if (first.empty())
                first = in_input_order;
            else
                for (std::size_t i = 0; i < first.size(); ++i)
                    ASSERT_EQ(in_input_order[i], first[i]) << "input vertex " << i;
        }
}

//! Sources 0; other components +inf; along every edge d_j <= d_i + |p_i - p_j|
//! up to 10 x the stopping rule's relative tolerance: a level stops once its
//! vertices change by at most 1e-4 relative per iteration, so its values may
//! still lie above the fixed point by a few such steps.
TEST(GpuGeodesic, SourcesUnreachableAndTriangleInequality)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& m : generated_meshes()) {
        SCOPED_TRACE(m.name);
        const RXMesh mesh(m.soup, with_capacity(64));
        const auto   sources = spread_sources(mesh.num_vertices(), 2);
        const auto   d       = gpu_distances(mesh, sources);
        const auto   levels  = toplesets(mesh, sources).level.to_host();
        for (std::uint32_t s : sources) EXPECT_EQ(d[s], 0.f);
        for (std::size_t v = 0; v < d.size(); ++v)
            EXPECT_EQ(std::isinf(d[v]), levels[v] == kNoLevel) << "vertex " << v;
        const auto p = test::positions_of(mesh);
        for (const Triangle& f : test::faces_of(mesh))
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t i = f[k], j = f[(k + 1) % 3];
                if (std::isinf(d[i])) continue;
                const double len = std::sqrt(std::pow(double(p[i][0]) - p[j][0], 2) +
                                             std::pow(double(p[i][1]) - p[j][1], 2) +
                                             std::pow(double(p[i][2]) - p[j][2], 2));
                for (auto [a, b] : {std::pair{i, j}, std::pair{j, i}})
                    EXPECT_LE(d[b], (d[a] + len) * (1 + 1e-3) + 1e-6 * len)
                        << "edge " << a << "-" << b;
            }
    }
}

//! Distances in input order for a source given as an input vertex.
std::vector<float> gpu_distances_in_input_order(const TriangleSoup& soup, std::uint32_t source,
                                                double tolerance)
{
    const RXMesh    mesh(soup, with_capacity(256));
    const auto      to_global = mesh.input_vertex_to_global().to_host();
    GeodesicOptions o;
    o.tolerance = tolerance;
    GeodesicReport rep;
    const auto     g = gpu_distances(mesh, {to_global[source]}, o, &rep);
    EXPECT_TRUE(rep.converged);
    std::vector<float> out(soup.positions.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = g[to_global[i]];
    return out;
}

double distance(const Vec3f& a, const Vec3f& b)
{
    return std::sqrt(std::pow(double(a[0]) - b[0], 2) + std::pow(double(a[1]) - b[1], 2) +
                     std::pow(double(a[2]) - b[2], 2));
}

using test::discretisation_bound;  // derived in geodesic_bounds.h

//! Independent of the algorithm: on a plane the geodesic distance is the
//! Euclidean one. The GPU's values never fall below it (every update is a
//! convex combination plus a leg, see the reference test) and exceed it by
//! at most the discretisation bound.
TEST(GpuGeodesic, FlatGridIsEuclideanWithinTheDiscretisationBound)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    constexpr int       n = 96;
    const double        h = std::sqrt(2.0) / n;  // the diagonals
    const TriangleSoup  m = generate::grid(n, n);
    const std::uint32_t s = std::uint32_t((n / 3) * (n + 1) + n / 2);
    const auto          d = gpu_distances_in_input_order(m, s, 1e-6);
    EXPECT_EQ(d[s], 0.f);
    for (std::size_t v = 0; v < d.size(); ++v) {
        const double r = distance(m.positions[v], m.positions[s]);
        EXPECT_GE(d[v], r * (1 - 1e-6)) << "vertex " << v;
        EXPECT_LE(d[v] - r, discretisation_bound(r, h)) << "vertex " << v;
    }
}

//! Independent of the algorithm: on an icosphere of radius R the geodesic
//! distance is the great-circle arc R theta, up to the polyhedron's own
//! distances (between R theta rho / R and R theta, rho the least distance
//! of a face plane from the centre; the reference test explains why) and
//! the discretisation bound.
TEST(GpuGeodesic, IcosphereIsTheGreatCircleArcWithinTheDiscretisationBound)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const test::ScaledIcosphere sphere = test::scaled_icosphere(5, 2);
    const TriangleSoup&         m      = sphere.mesh;
    const double                R = sphere.radius, rho = sphere.least_plane_distance;
    const auto                  d = gpu_distances_in_input_order(m, 0, 1e-6);
    EXPECT_EQ(d[0], 0.f);
    for (std::uint32_t v = 0; v < d.size(); ++v) {
        const double arc   = sphere.arc(0, v);
        const double bound = discretisation_bound(arc, sphere.longest_edge);
        EXPECT_GE(d[v], distance(m.positions[v], m.positions[0]) * (1 - 1e-6)) << "vertex " << v;
        EXPECT_LE(d[v], arc + bound) << "vertex " << v;
        EXPECT_GE(d[v], arc * rho / R - bound) << "vertex " << v;
    }
}

TEST(GpuGeodesic, BadInputThrows)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMesh     mesh(generate::icosphere(2));
    const auto d = mesh.add_vertex_attribute<float>("distance");
    const auto x = mesh.positions();
    EXPECT_THROW(geodesic_distance(mesh, x, {}, d), InvalidInputError);
    EXPECT_THROW(geodesic_distance(mesh, x, {mesh.num_vertices()}, d), InvalidInputError);
    GeodesicOptions o;
    o.tolerance = 0;
    EXPECT_THROW(geodesic_distance(mesh, x, {0}, d, o), InvalidInputError);
    // a distance view of another mesh's size
    DeviceBuffer<float> short_buffer(mesh.num_vertices() - 1);
    EXPECT_THROW(geodesic_distance(mesh, x, {0},
                                   VertexView<float>(short_buffer.data(), mesh.num_vertices() - 1)),
                 Error);
}

//! One run's distances and report.
struct GeodesicRun
{
    std::vector<float> d;
    GeodesicReport     report;
};

//! On every generated mesh (patch capacity 64, `count` spread sources):
//! check(run with the default options, run with change(options) applied).
template <typename Change, typename Check>
void against_default_options(std::uint32_t count, Change change, Check check)
{
    for (const auto& m : generated_meshes()) {
        SCOPED_TRACE(m.name);
        const RXMesh    mesh(m.soup, with_capacity(64));
        const auto      sources = spread_sources(mesh.num_vertices(), count);
        GeodesicOptions o;
        GeodesicRun     by_default, changed;
        by_default.d = gpu_distances(mesh, sources, o, &by_default.report);
        change(o);
        changed.d = gpu_distances(mesh, sources, o, &changed.report);
        check(by_default, changed);
    }
}

//! Without closing sweeps the loop stops where the sweeps would begin: the
//! same window iterations, and every distance at or above the swept one (a
//! sweep only lowers values).
TEST(GpuGeodesic, WithoutClosingSweepsStopsWhereTheSweepsBegin)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    against_default_options(
        2, [](GeodesicOptions& o) { o.closing_sweeps = false; },
        [](const GeodesicRun& swept, const GeodesicRun& plain) {
            EXPECT_TRUE(plain.report.converged);
            EXPECT_EQ(plain.report.sweeps, 0);
            EXPECT_EQ(plain.report.iterations, swept.report.iterations - swept.report.sweeps);
            for (std::size_t v = 0; v < plain.d.size(); ++v)
                ASSERT_GE(plain.d[v], swept.d[v]) << "vertex " << v;
        });
}

//! A limit on the iterations stops the loop early, and says so, in both
//! forms of the loop.
TEST(GpuGeodesic, IterationLimitReportsNotConverged)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh mesh(generate::icosphere(4));
    for (const bool one_launch : {true, false}) {
        GeodesicOptions o;
        o.max_iterations = 5;
        o.one_launch     = one_launch;
        GeodesicReport rep;
        (void)gpu_distances(mesh, {0}, o, &rep);
        EXPECT_FALSE(rep.converged);
        EXPECT_EQ(rep.iterations, 5);
        EXPECT_EQ(rep.one_launch, one_launch);
    }
}

//! The one-launch loop (the default on a device with cooperative launches)
//! and the chunked one run the same iterations: the same distances, bit for
//! bit, and the same counts, on every generated mesh.
TEST(GpuGeodesic, OneLaunchAndChunksAgree)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    against_default_options(
        3, [](GeodesicOptions& o) { o.one_launch = false; },
        [](const GeodesicRun& one, const GeodesicRun& chunks) {
            EXPECT_TRUE(one.report.one_launch);
            EXPECT_FALSE(chunks.report.one_launch);
            EXPECT_EQ(one.report.iterations, chunks.report.iterations);
            EXPECT_EQ(one.report.sweeps, chunks.report.sweeps);
            EXPECT_EQ(one.report.converged, chunks.report.converged);
            ASSERT_EQ(one.d.size(), chunks.d.size());
            for (std::size_t v = 0; v < one.d.size(); ++v)
                ASSERT_EQ(one.d[v], chunks.d[v]) << "vertex " << v;
        });
}

}  // namespace geodesic_test
