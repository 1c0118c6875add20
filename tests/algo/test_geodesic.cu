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

#include "gpu_test.h"
#include "mesh_faces.h"
#include "rxmesh/algo/geodesic.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/geodesic.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace geodesic_test {

using namespace rxmesh;

struct NamedMesh
{
    std::string  name;
    TriangleSoup soup;
};

std::vector<NamedMesh> generated_meshes()
{
    return {{"noisy icosphere", generate::noisy(generate::icosphere(4), 0.2f, 7)},
            {"noisy torus", generate::noisy(generate::torus(48, 24), 0.2f, 3)},
            {"open grid", generate::noisy(generate::grid(40, 30), 0.1f, 5)},
            {"cylinder", generate::cylinder(32, 12)},
            {"components", generate::noisy(generate::components(3, 2), 0.1f, 9)},
            {"fin (non-manifold edge)", generate::fin(4)},
            {"bowtie (non-manifold vertex)", generate::bowtie()},
            {"isolated faces", generate::isolated_faces(5)},
            {"high valence fan", generate::fan(200)}};
}

BuildOptions with_capacity(std::uint32_t capacity)
{
    BuildOptions o;
    o.patcher.capacity = capacity;
    return o;
}

std::vector<Vec3f> host_positions(const RXMesh& mesh)
{
    const auto         p = to_host(mesh.positions().view());
    std::vector<Vec3f> out(mesh.num_vertices());
    std::memcpy(out.data(), p.data(), p.size() * sizeof(float));
    return out;
}

//! Sources spread over the global ids: the first, and count - 1 more.
std::vector<std::uint32_t> spread_sources(std::uint32_t num_vertices, std::uint32_t count)
{
    std::vector<std::uint32_t> s;
    for (std::uint32_t i = 0; i < count; ++i)
        s.push_back(std::uint32_t((std::uint64_t(num_vertices) * i) / count));
    return s;
}

std::vector<float> gpu_distances(const RXMesh& mesh, const std::vector<std::uint32_t>& sources,
                                 const GeodesicOptions& o = {}, GeodesicReport* rep = nullptr)
{
    DeviceBuffer<float>     d(mesh.num_vertices());
    const VertexView<float> distance(d.data(), mesh.num_vertices());
    const GeodesicReport    r = geodesic_distance(mesh, mesh.positions(), sources, distance, o);
    if (rep)
        *rep = r;
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
    const auto            g   = gpu_distances(mesh, sources, o, &rep);
    const auto            ref = reference::geodesic_ptp(host_positions(mesh), test::faces_of(mesh),
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
        for (const auto& [count, loop] : {std::pair{1u, DeviceLoopOptions{}}, std::pair{3u, DeviceLoopOptions{}},
                                          std::pair{3u, chunks}}) {
            SCOPED_TRACE(loop.form == DeviceLoopOptions::Form::Chunks ? "chunks" : "one launch");
            const auto      sources = spread_sources(mesh.num_vertices(), count);
            const Toplesets t       = toplesets(mesh, sources, 0, loop);
            const auto      ref     = reference::toplesets(mesh.num_vertices(), test::faces_of(mesh), sources);
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
    const auto files = test::list_files(test::cgal_data_dir() + "/meshes", {".off"});
    if (files.empty())
        GTEST_SKIP() << "libcgal-demo meshes not installed";
    int tested = 0;
    for (const auto& f : files) {
        TriangleSoup soup;
        try {
            soup = io::read(f);
        } catch (const Error&) {
            continue;  // not every file of the demo data is a valid mesh
        }
        if (soup.faces.empty() || soup.faces.size() > 200000)
            continue;  // the serial reference stays quick
        const RXMesh mesh(soup);
        expect_matches_reference(mesh, spread_sources(mesh.num_vertices(), 1), f);
        expect_matches_reference(mesh, spread_sources(mesh.num_vertices(), 5), f);
        ++tested;
    }
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
            SCOPED_TRACE("capacity " + std::to_string(capacity) + ", chunk " + std::to_string(chunk));
            const RXMesh mesh(soup, with_capacity(capacity));
            const auto   to_global = mesh.input_vertex_to_global().to_host();
            GeodesicOptions o;
            o.chunk = chunk;
            const auto g = gpu_distances(mesh, {to_global[0], to_global[100]}, o);
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
        for (std::uint32_t s : sources)
            EXPECT_EQ(d[s], 0.f);
        for (std::size_t v = 0; v < d.size(); ++v)
            EXPECT_EQ(std::isinf(d[v]), levels[v] == kNoLevel) << "vertex " << v;
        const auto p = host_positions(mesh);
        for (const Triangle& f : test::faces_of(mesh))
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t i = f[k], j = f[(k + 1) % 3];
                if (std::isinf(d[i]))
                    continue;
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
    o.tolerance          = tolerance;
    GeodesicReport rep;
    const auto     g = gpu_distances(mesh, {to_global[source]}, o, &rep);
    EXPECT_TRUE(rep.converged);
    std::vector<float> out(soup.positions.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = g[to_global[i]];
    return out;
}

double distance(const Vec3f& a, const Vec3f& b)
{
    return std::sqrt(std::pow(double(a[0]) - b[0], 2) + std::pow(double(a[1]) - b[1], 2) +
                     std::pow(double(a[2]) - b[2], 2));
}

//! The first-order discretisation bound of a vertex at distance r from the
//! source on a mesh of longest edge h, derived in
//! tests/reference/test_geodesic.cpp (the local curvature error
//! l^2 / (2 r) of a planar update, summed back to the source); float storage
//! adds about 1e-7 r, far below it.
double discretisation_bound(double r, double h) { return h * (1 + std::log(std::max(r, h) / h)); }

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
    const double R = 2;
    TriangleSoup m = generate::icosphere(5);
    for (Vec3f& p : m.positions)
        for (float& x : p)
            x *= float(R);  // a power of two: exact
    double h = 0, rho = R;
    for (const Triangle& t : m.faces) {
        const Vec3f &a = m.positions[t[0]], &b = m.positions[t[1]], &c = m.positions[t[2]];
        const double u[3] = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
        const double w[3] = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
        const double nrm[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        const double len = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
        rho = std::min(rho, std::abs(nrm[0] * a[0] + nrm[1] * a[1] + nrm[2] * a[2]) / len);
        for (int k = 0; k < 3; ++k)
            h = std::max(h, distance(m.positions[t[k]], m.positions[t[(k + 1) % 3]]));
    }
    const auto   d  = gpu_distances_in_input_order(m, 0, 1e-6);
    const Vec3f& s  = m.positions[0];
    EXPECT_EQ(d[0], 0.f);
    for (std::size_t v = 0; v < d.size(); ++v) {
        const Vec3f& p   = m.positions[v];
        const double dot = double(s[0]) * p[0] + double(s[1]) * p[1] + double(s[2]) * p[2];
        const double cx  = double(s[1]) * p[2] - double(s[2]) * p[1];
        const double cy  = double(s[2]) * p[0] - double(s[0]) * p[2];
        const double cz  = double(s[0]) * p[1] - double(s[1]) * p[0];
        const double arc = R * std::atan2(std::sqrt(cx * cx + cy * cy + cz * cz), dot);
        const double bound = discretisation_bound(arc, h);
        EXPECT_GE(d[v], distance(p, s) * (1 - 1e-6)) << "vertex " << v;
        EXPECT_LE(d[v], arc + bound) << "vertex " << v;
        EXPECT_GE(d[v], arc * rho / R - bound) << "vertex " << v;
    }
}

TEST(GpuGeodesic, BadInputThrows)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMesh       mesh(generate::icosphere(2));
    const auto   d = mesh.add_vertex_attribute<float>("distance");
    const auto   x = mesh.positions();
    EXPECT_THROW(geodesic_distance(mesh, x, {}, d), InvalidInputError);
    EXPECT_THROW(geodesic_distance(mesh, x, {mesh.num_vertices()}, d), InvalidInputError);
    GeodesicOptions o;
    o.tolerance = 0;
    EXPECT_THROW(geodesic_distance(mesh, x, {0}, d, o), InvalidInputError);
    // a distance view of another mesh's size
    DeviceBuffer<float> short_buffer(mesh.num_vertices() - 1);
    EXPECT_THROW(geodesic_distance(mesh, x, {0}, VertexView<float>(short_buffer.data(),
                                                                  mesh.num_vertices() - 1)),
                 Error);
}

//! On every generated mesh (patch capacity 64, `count` spread sources):
//! check(distances, report) of the default options against those with
//! change(options) applied.
template <typename Change, typename Check>
void against_default_options(std::uint32_t count, Change change, Check check)
{
    for (const auto& m : generated_meshes()) {
        SCOPED_TRACE(m.name);
        const RXMesh    mesh(m.soup, with_capacity(64));
        const auto      sources = spread_sources(mesh.num_vertices(), count);
        GeodesicOptions o;
        GeodesicReport  by_default, changed;
        const auto      d_default = gpu_distances(mesh, sources, o, &by_default);
        change(o);
        const auto d_changed = gpu_distances(mesh, sources, o, &changed);
        check(d_default, by_default, d_changed, changed);
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
        [](const std::vector<float>& d_swept, const GeodesicReport& swept,
           const std::vector<float>& d_plain, const GeodesicReport& plain) {
            EXPECT_TRUE(plain.converged);
            EXPECT_EQ(plain.sweeps, 0);
            EXPECT_EQ(plain.iterations, swept.iterations - swept.sweeps);
            for (std::size_t v = 0; v < d_plain.size(); ++v)
                ASSERT_GE(d_plain[v], d_swept[v]) << "vertex " << v;
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
        [](const std::vector<float>& d_one, const GeodesicReport& one,
           const std::vector<float>& d_chunks, const GeodesicReport& chunks) {
            EXPECT_TRUE(one.one_launch);
            EXPECT_FALSE(chunks.one_launch);
            EXPECT_EQ(one.iterations, chunks.iterations);
            EXPECT_EQ(one.sweeps, chunks.sweeps);
            EXPECT_EQ(one.converged, chunks.converged);
            ASSERT_EQ(d_one.size(), d_chunks.size());
            for (std::size_t v = 0; v < d_one.size(); ++v)
                ASSERT_EQ(d_one[v], d_chunks[v]) << "vertex " << v;
        });
}

}  // namespace geodesic_test
