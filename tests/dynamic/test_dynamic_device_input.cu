// DynamicMesh from a mesh already in device memory (the constructor Python
// and other device-array callers use): the same mesh as from the host soup
// on every family, and bad arrays refused on the device with the first bad
// vertex or face named.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "mesh_families.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/dynamic/dynamic_mesh.h"

namespace device_input_test {

using namespace rxmesh;

namespace {

//! A soup's arrays in device memory.
struct DeviceSoup
{
    DeviceBuffer<float>         positions;
    DeviceBuffer<std::uint32_t> faces;
    std::uint32_t               num_vertices = 0, num_faces = 0;

    explicit DeviceSoup(const TriangleSoup& soup)
        : num_vertices(std::uint32_t(soup.positions.size())),
          num_faces(std::uint32_t(soup.faces.size()))
    {
        std::vector<float>         p;
        std::vector<std::uint32_t> f;
        for (const auto& v : soup.positions) p.insert(p.end(), v.begin(), v.end());
        for (const auto& t : soup.faces) f.insert(f.end(), t.begin(), t.end());
        positions = DeviceBuffer<float>::from_host(p);
        faces     = DeviceBuffer<std::uint32_t>::from_host(f);
    }
    DynamicMesh mesh() const
    {
        return DynamicMesh(VertexView<const float, 3>(positions.data(), num_vertices),
                           FaceView<const std::uint32_t, 3>(faces.data(), num_faces));
    }
};

//! The InvalidInputError's message of building from `soup`'s device arrays.
std::string refusal(const TriangleSoup& soup)
{
    const DeviceSoup d(soup);
    try {
        (void)d.mesh();
    } catch (const InvalidInputError& e) {
        return e.what();
    }
    return "";
}

TEST(DynamicDeviceInput, SameMeshAsFromTheSoupOnEveryFamily)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    TriangleSoup lonely = generate::grid(3, 2);
    lonely.positions.push_back({5, 5, 5});  // an isolated vertex: a slot of its own
    const test::NamedMeshes meshes = test::joined(
        {test::manifold_families(2, {8, 6}, {6, 5}, {6, 4}, 3),
         test::irregular_families({3, 5}, 4, 60), {{"grid with an unused vertex", lonely}}});
    for (const auto& [name, soup] : meshes) {
        SCOPED_TRACE(name);
        DynamicMesh from_soup(soup), from_device = DeviceSoup(soup).mesh();
        EXPECT_EQ(from_device.num_vertices(), soup.positions.size());
        EXPECT_EQ(from_device.num_faces(), soup.faces.size());
        EXPECT_EQ(from_device.num_input_vertices(), soup.positions.size());
        const DynamicValidation v = from_device.validate();
        EXPECT_TRUE(v.ok()) << v.first;
        std::vector<std::uint32_t> a, b;
        const TriangleSoup         want = from_soup.to_host(&a), got = from_device.to_host(&b);
        EXPECT_EQ(got.positions, soup.positions);
        EXPECT_EQ(got.faces, want.faces);
        EXPECT_EQ(b, a);
        EXPECT_EQ(from_device.num_edges(), from_soup.num_edges());
        EXPECT_EQ(from_device.is_manifold(), from_soup.is_manifold());
    }
}

TEST(DynamicDeviceInput, EmptyArraysGiveAnEmptyMesh)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    DynamicMesh empty(VertexView<const float, 3>(nullptr, 0),
                      FaceView<const std::uint32_t, 3>(nullptr, 0));
    EXPECT_EQ(empty.num_vertices(), 0u);
    EXPECT_EQ(empty.num_faces(), 0u);
}

TEST(DynamicDeviceInput, BadArraysAreRefusedNamingTheFirstBadElement)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup good = generate::grid(4, 3);  // 20 vertices, 24 faces
    TriangleSoup       s    = good;
    s.positions[9][1]       = std::nanf("");
    s.positions[4][2]       = INFINITY;
    EXPECT_EQ(refusal(s), "DynamicMesh: vertex 4 has a non-finite coordinate");

    s          = good;
    s.faces[17] = {0, 1, 20};
    s.faces[6]  = {3, 99, 2};
    EXPECT_EQ(refusal(s), "DynamicMesh: face 6 names a vertex >= 20 or repeats a vertex");

    s          = good;
    s.faces[11] = {5, 6, 5};
    EXPECT_EQ(refusal(s), "DynamicMesh: face 11 names a vertex >= 20 or repeats a vertex");

    EXPECT_EQ(refusal(good), "");
}

}  // namespace
}  // namespace device_input_test
