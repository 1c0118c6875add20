// The fixed-boundary UV map on the GPU (algo/parameterization.h) against
// the serial double reference (reference/parameterization.h) on generated
// disks (flat, irregular, curved) and on the real meshes that are disks,
// with both weightings: the same UVs within float rounding, no flipped face
// under uniform weights, the same flips under cotangent ones; bad input.
#include <gtest/gtest.h>

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

TEST(GpuParameterization, MatchesReferenceOnGeneratedDisks)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const test::NamedMeshes disks = {
        {"grid", generate::grid(30, 20)},
        {"noisy grid", generate::noisy(generate::grid(40, 30), 0.2f, 5)},
        {"spherical cap", generate::sphere_cap(4, 0.3f)},
        {"one triangle", generate::isolated_faces(1)}};
    for (const auto& [name, soup] : disks) {
        BuildOptions small;
        small.patcher.capacity = 64;  // many patches
        const RXMesh mesh(soup, small);
        for (ParamWeighting w : {ParamWeighting::uniform, ParamWeighting::cotangent})
            expect_matches_reference(mesh, w, name);
    }
}

TEST(GpuParameterization, MatchesReferenceOnRealDisks)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    int       disks = 0;
    const int visited =
        test::for_each_real_mesh(30000, [&](const std::string& file, const TriangleSoup& soup) {
            const RXMesh mesh(soup);
            try {
                reference::disk_boundary(test::positions_of(mesh), test::faces_of(mesh));
            } catch (const std::invalid_argument&) {
                return true;  // not a disk
            }
            ++disks;
            expect_matches_reference(mesh, ParamWeighting::uniform, file);
            return !::testing::Test::HasFailure();
        });
    if (visited == 0) GTEST_SKIP() << "no real meshes installed (libcgal-demo, assimp-testmodels)";
    std::printf("%d of %d real meshes are disks\n", disks, visited);
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
}

}  // namespace parameterization_test
