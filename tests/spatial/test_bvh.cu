// The GPU bounding-volume hierarchy against the serial oracle
// (reference/closest_point_tree.h, exact and equal to the brute force): for
// random points around generated and real meshes, the distance agrees to
// float precision, and the returned point lies on the returned face.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/spatial/bvh.h"
#include "test_data.h"

namespace {

using namespace rxmesh;

void expect_matches_oracle(const TriangleSoup& mesh, const std::string& name, int count)
{
    SCOPED_TRACE(name);
    const double diag = std::max(bounding_box_diagonal(mesh.positions), 1e-6);
    std::vector<Vec3f> queries;
    std::uint32_t      seed = 2024;
    auto               next = [&] {
        seed = seed * 1664525u + 1013904223u;
        return float(double(seed >> 8) / double(1u << 24) * 1.6 - 0.3);  // around the box
    };
    float lo[3], hi[3];
    bounding_box(mesh.positions.front().data(), mesh.positions.size(), lo, hi);
    for (int i = 0; i < count; ++i)
        queries.push_back({float(lo[0] + next() * diag), float(lo[1] + next() * diag),
                           float(lo[2] + next() * diag)});
    for (std::size_t v = 0; v < mesh.positions.size() && v < 200; ++v)
        queries.push_back(mesh.positions[v]);  // on the mesh: distance 0
    const auto                         hits = closest_points_on_mesh(mesh, queries);
    const reference::ClosestPointTree  oracle(mesh);
    ASSERT_EQ(hits.size(), queries.size());
    for (std::size_t i = 0; i < queries.size(); ++i) {
        const reference::Point3 q = {queries[i][0], queries[i][1], queries[i][2]};
        const auto              expected = oracle.closest(q);
        ASSERT_NEAR(hits[i].distance, expected.distance, 2e-6 * diag) << "query " << i;
        ASSERT_LT(hits[i].face, mesh.faces.size());
        const Triangle&         t = mesh.faces[hits[i].face];
        const reference::Point3 on = reference::closest_point_on_triangle(
            {hits[i].point.x, hits[i].point.y, hits[i].point.z},
            {mesh.positions[t[0]][0], mesh.positions[t[0]][1], mesh.positions[t[0]][2]},
            {mesh.positions[t[1]][0], mesh.positions[t[1]][1], mesh.positions[t[1]][2]},
            {mesh.positions[t[2]][0], mesh.positions[t[2]][1], mesh.positions[t[2]][2]});
        const double off = std::sqrt((on[0] - hits[i].point.x) * (on[0] - hits[i].point.x) +
                                     (on[1] - hits[i].point.y) * (on[1] - hits[i].point.y) +
                                     (on[2] - hits[i].point.z) * (on[2] - hits[i].point.z));
        ASSERT_LT(off, 2e-6 * diag) << "query " << i << ": the point is not on its face";
    }
}

}  // namespace

TEST(GpuBvh, ClosestPointsMatchTheOracleOnGeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    TriangleSoup one;
    one.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    one.faces     = {{0, 1, 2}};
    expect_matches_oracle(one, "one triangle", 200);
    expect_matches_oracle(generate::noisy(generate::icosphere(4), 0.3f, 3), "sphere", 2000);
    expect_matches_oracle(generate::grid(40, 30), "flat grid (equal Morton codes)", 2000);
    expect_matches_oracle(generate::components(20, 1), "components", 2000);
    expect_matches_oracle(generate::fin(8), "fin", 500);
    expect_matches_oracle(generate::isolated_faces(300), "isolated faces", 1000);
    TriangleSoup same_place = generate::isolated_faces(50);  // every centroid equal
    for (auto& p : same_place.positions) p = {0.f, 1.f, p[2]};  // degenerate, on one line
    expect_matches_oracle(same_place, "degenerate faces on a line", 300);
    expect_matches_oracle(generate::grid(3, 3), "tiny grid", 300);
}

TEST(GpuBvh, RealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const int checked = rxmesh::test::for_each_mesh_file(
        rxmesh::test::real_mesh_files(), {100'000, false, 20},
        [&](const std::string& file, const TriangleSoup& soup) {
            expect_matches_oracle(soup, file, 300);
            return !HasFatalFailure();
        });
    if (HasFatalFailure()) return;
    if (checked == 0) GTEST_SKIP() << "no real mesh installed";
}

TEST(GpuBvh, NoFaceIsAnError)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    EXPECT_THROW(closest_points_on_mesh(TriangleSoup{}, {{0, 0, 0}}), InvalidInputError);
}
