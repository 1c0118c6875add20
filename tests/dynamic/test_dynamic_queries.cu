// The eight queries answer correctly on meshes the dynamic engine changed:
// after split, collapse and flip passes, the static RXMesh built from the
// compact output (to_rxmesh) passes the same reference comparison as any
// input mesh, at several patch capacities; a DynamicMesh made from an
// RXMesh keeps its vertex numbering.
#include "query_check.cuh"
#include "rxmesh/dynamic/dynamic_pass.cuh"
#include "rxmesh/io/generate.h"

namespace {

using namespace rxmesh;

struct EveryThird
{
    std::uint32_t seed;
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        const std::uint32_t h = (e.a.id() * 0x9E3779B1u) ^ (e.b.id() * 0x85EBCA6Bu) ^ seed;
        return EdgeDecision{(h >> 7) % 3 == 0, (e.position(e.a) + e.position(e.b)) * 0.5f};
    }
};

void change(DynamicMesh& mesh)
{
    for (std::uint32_t pass = 0; pass < 9; ++pass) {
        const EveryThird decide{pass * 2654435761u};
        if (pass % 3 == 0) mesh.split_pass(decide);
        if (pass % 3 == 1) mesh.collapse_pass(decide);
        if (pass % 3 == 2) mesh.flip_pass(decide);
        ASSERT_TRUE(mesh.validate().ok()) << "pass " << pass;
    }
}

//! What the engine changes before the queries and the build are checked:
//! closed, open, many components and a non-manifold edge.
std::vector<std::pair<std::string, TriangleSoup>> meshes_to_change()
{
    return {{"sphere", generate::noisy(generate::icosphere(3), 0.2f, 2)},
            {"open grid", generate::grid(20, 16)},
            {"components", generate::components(12, 1)},
            {"fin", generate::fin(5)}};
}

}  // namespace

TEST(GpuDynamicQueries, ChangedMeshesAllOpsMatchReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& [name, soup] : meshes_to_change()) {
        DynamicMesh mesh(soup);
        change(mesh);
        if (HasFatalFailure()) return;
        for (std::uint32_t capacity : {64u, 512u}) {
            BuildOptions options;
            options.patcher.capacity = capacity;
            query_test::check_mesh(mesh.to_rxmesh(options),
                                   name + " changed, capacity " + std::to_string(capacity));
        }
    }
}

TEST(GpuDynamicQueries, FromAnRXMeshAndBack)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh start(generate::torus(24, 12));
    DynamicMesh  mesh(start);
    EXPECT_EQ(mesh.num_vertices(), start.num_vertices());
    EXPECT_EQ(mesh.num_faces(), start.num_faces());
    EXPECT_EQ(mesh.num_edges(), start.num_edges());
    EXPECT_EQ(mesh.euler_characteristic(), 0);
    std::vector<float> positions(3ull * start.num_vertices());  // RXMesh's global order
    RXMESH_CHECK_CUDA(cudaMemcpy(positions.data(), start.positions().device_data(),
                                 positions.size() * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT_EQ(mesh.slot_positions(), positions);
    change(mesh);
    if (HasFatalFailure()) return;
    EXPECT_EQ(mesh.euler_characteristic(), 0);
    EXPECT_TRUE(mesh.is_manifold());
    query_test::check_mesh(mesh.to_rxmesh(), "torus through DynamicMesh");
}

// to_rxmesh() builds from the compact device arrays in place; it must give
// the mesh that the host path (download, then RXMesh from the soup) gives:
// the same counts, patches, positions, faces and input maps, bit for bit.
TEST(GpuDynamicQueries, ToRxmeshEqualsTheBuildFromAHostCopy)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& [name, soup] : meshes_to_change()) {
        SCOPED_TRACE(name);
        DynamicMesh mesh(soup);
        change(mesh);
        if (HasFatalFailure()) return;
        const RXMesh on_device = mesh.to_rxmesh();
        const RXMesh from_host(mesh.to_host());
        ASSERT_EQ(on_device.num_vertices(), from_host.num_vertices());
        ASSERT_EQ(on_device.num_faces(), from_host.num_faces());
        EXPECT_EQ(on_device.num_edges(), from_host.num_edges());
        EXPECT_EQ(on_device.num_patches(), from_host.num_patches());
        EXPECT_EQ(on_device.faces().to_host(), from_host.faces().to_host());
        EXPECT_EQ(on_device.input_vertex_to_global().to_host(),
                  from_host.input_vertex_to_global().to_host());
        std::vector<float> a(3ull * on_device.num_vertices()), b(a.size());
        RXMESH_CHECK_CUDA(cudaMemcpy(a.data(), on_device.positions().device_data(),
                                     a.size() * sizeof(float), cudaMemcpyDeviceToHost));
        RXMESH_CHECK_CUDA(cudaMemcpy(b.data(), from_host.positions().device_data(),
                                     b.size() * sizeof(float), cudaMemcpyDeviceToHost));
        EXPECT_EQ(a, b);
    }
}
