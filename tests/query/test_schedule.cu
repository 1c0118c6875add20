// RXMesh::for_each_scheduled: the blocks take exactly the patches of the
// device-side range of a PatchSchedule, read when the kernel runs; an active
// set's patch test skips whole patches; an empty range does nothing. Checked
// by counting visits per vertex against the owner patches computed on the
// host from the store's vertex offsets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/rxmesh.cuh"

namespace schedule_test {

using namespace rxmesh;

struct CountVisits
{
    std::uint32_t* visits;
    template <typename Row>
    __device__ void operator()(VertexId v, const Row&) const
    {
        atomicAdd(visits + v.id(), 1u);
    }
};

//! Skips odd patches as a whole; every vertex of the others is active.
struct EvenPatches
{
    __device__ bool operator()(VertexId) const { return true; }
    __device__ bool patch(std::uint32_t p) const { return p % 2 == 0; }
};

template <Op op, typename Active = AllActive>
std::vector<std::uint32_t> visits_of(const RXMesh& mesh, const std::vector<std::uint32_t>& patches,
                                     std::uint32_t begin, std::uint32_t end, Active active = {})
{
    const auto                  list  = DeviceBuffer<std::uint32_t>::from_host(patches);
    const auto                  range = DeviceBuffer<std::uint32_t>::from_host({begin, end});
    DeviceBuffer<std::uint32_t> visits(mesh.num_vertices());
    visits.memset(0);
    mesh.for_each_scheduled<op>(PatchSchedule{list.data(), range.data(), std::uint32_t(patches.size())},
                                CountVisits{visits.data()}, active);
    return visits.to_host();
}

TEST(GpuSchedule, VisitsExactlyTheScheduledPatches)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    BuildOptions o;
    o.patcher.capacity = 64;
    const RXMesh mesh(generate::icosphere(4), o);
    ASSERT_GT(mesh.num_patches(), 8u);
    const auto owner = test::owner_of_vertices(mesh);
    // a list in any order; the range picks entries 1 .. 4 of it
    const std::vector<std::uint32_t> list = {0, 5, 2, 7, 3, 1};
    const std::vector<std::uint32_t> picked = {5, 2, 7, 3};
    const auto visits = visits_of<Op::VV>(mesh, list, 1, 5);
    for (std::uint32_t v = 0; v < mesh.num_vertices(); ++v) {
        const bool scheduled = std::find(picked.begin(), picked.end(), owner[v]) != picked.end();
        ASSERT_EQ(visits[v], scheduled ? 1u : 0u) << "vertex " << v << " of patch " << owner[v];
    }
}

TEST(GpuSchedule, PatchTestSkipsWholePatches)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    BuildOptions o;
    o.patcher.capacity = 64;
    const RXMesh mesh(generate::torus(40, 20), o);
    const auto   owner = test::owner_of_vertices(mesh);
    std::vector<std::uint32_t> all(mesh.num_patches());
    for (std::uint32_t p = 0; p < all.size(); ++p)
        all[p] = p;
    const auto visits = visits_of<Op::VF>(mesh, all, 0, mesh.num_patches(), EvenPatches{});
    for (std::uint32_t v = 0; v < mesh.num_vertices(); ++v)
        ASSERT_EQ(visits[v], owner[v] % 2 == 0 ? 1u : 0u) << "vertex " << v;
    // the unscheduled for_each honours the patch test as well
    DeviceBuffer<std::uint32_t> count(mesh.num_vertices());
    count.memset(0);
    mesh.for_each<Op::VV>(CountVisits{count.data()}, EvenPatches{});
    const auto c = count.to_host();
    for (std::uint32_t v = 0; v < mesh.num_vertices(); ++v)
        ASSERT_EQ(c[v], owner[v] % 2 == 0 ? 1u : 0u) << "vertex " << v;
}

struct CountEdgeVisits
{
    std::uint32_t* visits;
    __device__ void operator()(EdgeId e, const RowView<VertexId>&) const { atomicAdd(visits + e.id(), 1u); }
};

//! The direct queries (EV, FE, FV) read the schedule too.
TEST(GpuSchedule, DirectQueryFollowsTheSchedule)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    BuildOptions o;
    o.patcher.capacity = 64;
    const RXMesh mesh(generate::icosphere(4), o);
    const auto   offsets = mesh.store().edge_offsets.to_host();
    const auto   list    = DeviceBuffer<std::uint32_t>::from_host({3, 1});
    const auto   range   = DeviceBuffer<std::uint32_t>::from_host({0, 2});
    DeviceBuffer<std::uint32_t> visits(mesh.num_edges());
    visits.memset(0);
    mesh.for_each_scheduled<Op::EV>(PatchSchedule{list.data(), range.data(), 2},
                                    CountEdgeVisits{visits.data()});
    const auto v = visits.to_host();
    for (std::uint32_t p = 0; p + 1 < offsets.size(); ++p)
        for (std::uint32_t e = offsets[p]; e < offsets[p + 1]; ++e)
            ASSERT_EQ(v[e], (p == 3 || p == 1) ? 1u : 0u) << "edge " << e << " of patch " << p;
}

TEST(GpuSchedule, EmptyRangeDoesNothing)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh mesh(generate::icosphere(3));
    const auto   visits = visits_of<Op::VV>(mesh, {0}, 1, 1);
    for (std::uint32_t x : visits)
        ASSERT_EQ(x, 0u);
}

}  // namespace schedule_test
