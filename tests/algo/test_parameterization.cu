// The fixed-boundary UV map on the GPU (algo/parameterization.h) against
// the serial double reference (reference/parameterization.h) on generated
// disks (flat, irregular, curved) and on the real meshes that are disks,
// with both weightings: the same UVs within float rounding, no flipped face
// under uniform weights, the same flips under cotangent ones; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "rxmesh/algo/parameterization.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/parameterization.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace parameterization_test {

using namespace rxmesh;

//! The GPU's UVs against the reference's for `weights`: within 1e-6 (both
//! solve in double, the GPU writes float on the unit disk), the same count
//! of flipped faces.
void expect_matches_reference(const RXMesh& mesh, ParamWeighting weights, const std::string& name)
{
    SCOPED_TRACE(name + (weights == ParamWeighting::uniform ? ", uniform" : ", cotangent"));
    const std::vector<Vec3f>    p    = test::positions_of(mesh);
    const std::vector<Triangle> f    = test::faces_of(mesh);
    const auto                  loop = reference::disk_boundary(p, f);
    const auto                  ref =
        reference::tutte(p, f,
                         weights == ParamWeighting::uniform ? reference::ParamWeights::uniform
                                                            : reference::ParamWeights::cotangent);
    DeviceBuffer<float> uv(2 * std::uint64_t(mesh.num_vertices()));
    ParamOptions        o;
    o.weights = weights;
    const ParamReport r =
        parameterize(mesh, loop, VertexView<float, 2>(uv.data(), mesh.num_vertices()), o);
    EXPECT_EQ(r.boundary_vertices, loop.size());
    const std::vector<float> g = uv.to_host();
    for (std::size_t v = 0; v < ref.size(); ++v) {
        ASSERT_NEAR(g[2 * v], ref[v][0], 1e-6) << "vertex " << v;
        ASSERT_NEAR(g[2 * v + 1], ref[v][1], 1e-6) << "vertex " << v;
    }
    std::uint32_t flipped = 0;
    for (double a : reference::uv_signed_areas(ref, f)) flipped += a > 0 ? 0 : 1;
    EXPECT_EQ(r.flipped_faces, flipped);
    if (weights == ParamWeighting::uniform) EXPECT_EQ(r.flipped_faces, 0u);
}

//! Flat, irregular and curved disks, and a single triangle.
test::NamedMeshes generated_disks()
{
    return {{"grid", generate::grid(30, 20)},
            {"noisy grid", generate::noisy(generate::grid(40, 30), 0.2f, 5)},
            {"spherical cap", generate::sphere_cap(4, 0.3f)},
            {"one triangle", generate::isolated_faces(1)}};
}

//! The generated disks built in many patches (64 faces each).
template <typename Check>
void for_each_generated_disk(Check&& check)
{
    for (const auto& [name, soup] : generated_disks()) {
        BuildOptions small;
        small.patcher.capacity = 64;
        check(RXMesh(soup, small), name);
    }
}

//! `check(mesh, file)` on every real mesh of at most `max_faces` faces that
//! is a disk; skips the test without real meshes. Returns the disks seen.
template <typename Check>
int for_each_real_disk(std::uint64_t max_faces, Check&& check)
{
    int       disks   = 0;
    const int visited = test::for_each_real_mesh(
        max_faces, [&](const std::string& file, const TriangleSoup& soup) {
            const RXMesh mesh(soup);
            try {
                reference::disk_boundary(test::positions_of(mesh), test::faces_of(mesh));
            } catch (const std::invalid_argument&) {
                return true;  // not a disk
            }
            ++disks;
            check(mesh, file);
            return !::testing::Test::HasFailure();
        });
    if (visited > 0) std::printf("%d of %d real meshes are disks\n", disks, visited);
    return visited == 0 ? -1 : disks;
}

TEST(GpuParameterization, MatchesReferenceOnGeneratedDisks)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for_each_generated_disk([](const RXMesh& mesh, const std::string& name) {
        for (ParamWeighting w : {ParamWeighting::uniform, ParamWeighting::cotangent})
            expect_matches_reference(mesh, w, name);
    });
}

TEST(GpuParameterization, MatchesReferenceOnRealDisks)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const int disks = for_each_real_disk(30000, [](const RXMesh& mesh, const std::string& file) {
        expect_matches_reference(mesh, ParamWeighting::uniform, file);
    });
    if (disks < 0) GTEST_SKIP() << "no real meshes installed (libcgal-demo, assimp-testmodels)";
}

//! The GPU's least-squares conformal map against reference::lscm: the same
//! pins (exactly at (0, 0) and (1, 0)), every UV within 1e-5 of the map's
//! extent (both solve in double; the GPU writes float), the same count of
//! flipped faces.
void expect_conformal_matches_reference(const RXMesh& mesh, const std::string& name)
{
    SCOPED_TRACE(name + ", conformal");
    const std::vector<Vec3f>      p    = test::positions_of(mesh);
    const std::vector<Triangle>   f    = test::faces_of(mesh);
    const auto                    loop = reference::disk_boundary(p, f);
    DeviceBuffer<float>           uv(2 * std::uint64_t(mesh.num_vertices()));
    const VertexView<float, 2>    view(uv.data(), mesh.num_vertices());
    std::vector<reference::Vec2d> ref;
    try {
        ref = reference::lscm(p, f);
    } catch (const std::invalid_argument& e) {
        // not positive definite (a vertex of degenerate faces only, as in
        // CGAL's degtri_sliding.off): the GPU must refuse too
        EXPECT_THROW(conformal_map(mesh, loop, view), InvalidInputError) << e.what();
        return;
    }
    const ParamReport r = conformal_map(mesh, loop, view);
    EXPECT_EQ(r.boundary_vertices, loop.size());
    const std::vector<float> g = uv.to_host();
    for (int k = 0; k < 2; ++k) {
        EXPECT_EQ(ref[r.pins[k]][0], k == 0 ? 0.0 : 1.0) << "the reference pins another vertex";
        EXPECT_EQ(ref[r.pins[k]][1], 0.0) << "the reference pins another vertex";
        EXPECT_EQ(g[2 * r.pins[k]], k == 0 ? 0.f : 1.f);
        EXPECT_EQ(g[2 * r.pins[k] + 1], 0.f);
    }
    double extent = 0;
    for (const auto& q : ref) extent = std::max({extent, std::abs(q[0]), std::abs(q[1])});
    for (std::size_t v = 0; v < ref.size(); ++v) {
        ASSERT_NEAR(g[2 * v], ref[v][0], 1e-5 * extent) << "vertex " << v;
        ASSERT_NEAR(g[2 * v + 1], ref[v][1], 1e-5 * extent) << "vertex " << v;
    }
    std::uint32_t flipped = 0;
    for (double a : reference::uv_signed_areas(ref, f)) flipped += a > 0 ? 0 : 1;
    EXPECT_EQ(r.flipped_faces, flipped);
}

TEST(GpuParameterization, ConformalMapMatchesReferenceOnGeneratedDisks)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for_each_generated_disk(expect_conformal_matches_reference);
}

//! A flat disk is its own conformal map: the GPU's UVs are the mesh's plane
//! coordinates up to the similarity the pins fix, to float rounding.
TEST(GpuParameterization, ConformalMapOfAFlatDiskIsASimilarity)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    TriangleSoup soup = generate::grid(24, 17);
    const float  edge = soup.positions[1][0] - soup.positions[0][0];
    for (std::size_t v = 0; v < soup.positions.size(); ++v) {  // in the plane, a tenth of an edge
        soup.positions[v][0] += 0.1f * edge * std::sin(float(7 * v + 1));
        soup.positions[v][1] += 0.1f * edge * std::cos(float(5 * v + 2));
    }
    const RXMesh        mesh(soup);
    const auto          p    = test::positions_of(mesh);
    const auto          loop = reference::disk_boundary(p, test::faces_of(mesh));
    DeviceBuffer<float> uv(2 * std::uint64_t(mesh.num_vertices()));
    const ParamReport   r = conformal_map(mesh, loop, VertexView<float, 2>(uv.data(), mesh.num_vertices()));
    EXPECT_EQ(r.flipped_faces, 0u);
    const std::vector<float> g = uv.to_host();
    // the similarity z -> (z - z_a) / (z_b - z_a) in complex numbers
    const Vec3f  a = p[r.pins[0]], b = p[r.pins[1]];
    const double dx = double(b[0]) - a[0], dy = double(b[1]) - a[1], d2 = dx * dx + dy * dy;
    for (std::size_t v = 0; v < p.size(); ++v) {
        const double x = double(p[v][0]) - a[0], y = double(p[v][1]) - a[1];
        EXPECT_NEAR(g[2 * v], (x * dx + y * dy) / d2, 1e-5) << "vertex " << v;
        EXPECT_NEAR(g[2 * v + 1], (y * dx - x * dy) / d2, 1e-5) << "vertex " << v;
    }
}

TEST(GpuParameterization, ConformalMapMatchesReferenceOnRealDisks)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const int disks = for_each_real_disk(20000, expect_conformal_matches_reference);
    if (disks < 0) GTEST_SKIP() << "no real meshes installed (libcgal-demo, assimp-testmodels)";
    EXPECT_GT(disks, 0);
}

TEST(GpuParameterization, BadInputThrows)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh               mesh(generate::grid(4, 4));
    DeviceBuffer<float>        uv(2 * std::uint64_t(mesh.num_vertices()));
    const VertexView<float, 2> view(uv.data(), mesh.num_vertices());
    const auto loop = reference::disk_boundary(test::positions_of(mesh), test::faces_of(mesh));
    EXPECT_THROW(parameterize(mesh, {0, 1}, view), InvalidInputError);
    EXPECT_THROW(parameterize(mesh, {0, 1, mesh.num_vertices()}, view), InvalidInputError);
    EXPECT_THROW(parameterize(mesh, {0, 1, 1}, view), InvalidInputError);
    EXPECT_THROW(parameterize(mesh, loop, VertexView<float, 2>(uv.data(), mesh.num_vertices() - 1)),
                 Error);
    EXPECT_NO_THROW(parameterize(mesh, loop, view));
    EXPECT_THROW(conformal_map(mesh, {0, 1}, view), InvalidInputError);
    EXPECT_THROW(conformal_map(mesh, {0, 1, 1}, view), InvalidInputError);
    EXPECT_THROW(conformal_map(mesh, loop, VertexView<float, 2>(uv.data(), mesh.num_vertices() - 1)),
                 Error);
    EXPECT_NO_THROW(conformal_map(mesh, loop, view));
}

}  // namespace parameterization_test
