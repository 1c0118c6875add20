// RXMesh::accumulate_scheduled (query/accumulate.cuh) with Min against a CPU
// minimum over each vertex's faces, with exact integers: a vertex takes part
// exactly when its owner patch is in the schedule's device-side range, the
// active set's patch test passes and its vertex test passes; such a vertex is
// finalized once with the least contribution of its faces (staged input
// included), any other is never finalized. Generated meshes of every kind, two
// capacities, an empty range and the whole-mesh schedule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/rxmesh.cuh"

namespace accumulate_scheduled_test {

using namespace rxmesh;
using u64 = unsigned long long;

constexpr u64 kPoison = 0x5A5A5A5A5A5A5A5Aull;

//! A face's proposal for its corner vertex v, plus the staged value of the
//! next corner: distinct per (face, corner), so a missed or extra face, or a
//! wrong corner, changes some minimum.
__host__ __device__ inline u64 proposal(std::uint32_t f, std::uint32_t v, std::uint32_t next)
{
    const u64 mix = (u64(f) + 1) * 0x9E3779B97F4A7C15ull ^ (u64(v) + 1) * 0xC2B2AE3D27D4EB4Full;
    return (mix >> 16) + 3 * u64(next) + 1;
}

struct StageThreeVPlusOne
{
    __device__ u64 operator()(VertexId v, int) const { return 3 * u64(v.id()) + 1; }
};

struct Propose
{
    __device__ void operator()(FaceId f, const RowView<VertexId>& fv, const StagedRow<u64, 1>& x,
                               const VertexReduction<u64, 1, Min>& least) const
    {
        for (int k = 0; k < 3; ++k) {
            const int next = (k + 1) % 3;
            // x(next, 0) - 1 is 3 * next's id: the staged input of that corner
            const u64 value[1] = {proposal(f.id(), fv[k].id(), std::uint32_t((x(next, 0) - 1) / 3))};
            least.add(k, value);
        }
    }
};

struct Record
{
    u64*           out;
    std::uint32_t* calls;
    __device__ void operator()(VertexId v, const u64 (&least)[1]) const
    {
        atomicAdd(calls + v.id(), 1u);
        out[v.id()] = least[0];
    }
};

//! Vertices whose id is not a multiple of 3, in patches p with p % 4 != 1.
struct SomeVertices
{
    __device__ bool operator()(VertexId v) const { return v.id() % 3 != 0; }
    __device__ bool patch(std::uint32_t p) const { return p % 4 != 1; }
};

struct Result
{
    std::vector<u64>           least;
    std::vector<std::uint32_t> calls;
};

template <typename Active>
Result run_gpu(const RXMesh& mesh, const PatchSchedule& schedule, Active active)
{
    const std::uint32_t         V = mesh.num_vertices();
    DeviceBuffer<u64>           out(V);
    DeviceBuffer<std::uint32_t> calls(V);
    out.memset(0x5A);
    calls.memset(0);
    mesh.accumulate_scheduled<Op::FV, u64, 1, Min>(schedule,
                                                   computed_vertex_input<u64, 1>(StageThreeVPlusOne{}),
                                                   Propose{}, Record{out.data(), calls.data()}, active);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    return {out.to_host(), calls.to_host()};
}

//! The least proposal of each vertex's faces (max for a vertex with none).
std::vector<u64> cpu_least(const std::vector<Triangle>& faces, std::uint32_t V)
{
    std::vector<u64> least(V, std::numeric_limits<u64>::max());
    for (std::uint32_t f = 0; f < faces.size(); ++f)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t v = faces[f][k];
            least[v]              = std::min(least[v], proposal(f, v, faces[f][(k + 1) % 3]));
        }
    return least;
}

void expect_result(const Result& r, const std::vector<u64>& least, const std::vector<bool>& takes_part)
{
    for (std::size_t v = 0; v < least.size(); ++v) {
        if (!takes_part[v]) {
            ASSERT_EQ(r.calls[v], 0u) << "vertex " << v << " is outside the schedule or the active set";
            ASSERT_EQ(r.least[v], kPoison) << "vertex " << v;
            continue;
        }
        ASSERT_EQ(r.calls[v], 1u) << "vertex " << v << " must be finalized once";
        ASSERT_EQ(r.least[v], least[v]) << "vertex " << v;
    }
}

test::NamedMeshes meshes()
{
    namespace g = rxmesh::generate;
    return {{"icosphere", g::icosphere(3)},       {"grid", g::grid(30, 17)},
            {"fin600", g::fin(600)},              {"isolated", g::isolated_faces(300)},
            {"fan2000", g::fan(2000)},            {"degenerate", g::with_degenerate_faces()},
            {"components", g::components(5, 2)},  {"bowtie", g::bowtie()}};
}

}  // namespace accumulate_scheduled_test

using namespace accumulate_scheduled_test;

TEST(GpuAccumulateScheduled, MinOverScheduledActiveVertices)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    test::for_each_built_mesh(meshes(), {64, 512}, [](const RXMesh& mesh) {
        const std::uint32_t P = mesh.num_patches();
        // the patches in reverse order; the range leaves out the first
        // entry (the last patch) when there are several
        std::vector<std::uint32_t> list(P);
        for (std::uint32_t i = 0; i < P; ++i)
            list[i] = P - 1 - i;
        const std::uint32_t begin = P > 1 ? 1 : 0;
        const auto          patches = DeviceBuffer<std::uint32_t>::from_host(list);
        const auto          range   = DeviceBuffer<std::uint32_t>::from_host({begin, P});
        const auto          owner = test::owner_of_vertices(mesh);
        std::vector<bool>   takes_part(mesh.num_vertices());
        for (std::uint32_t v = 0; v < takes_part.size(); ++v) {
            const std::uint32_t p = owner[v];
            takes_part[v] = !(P > 1 && p == P - 1) && p % 4 != 1 && v % 3 != 0;
        }
        const auto least = cpu_least(test::faces_of(mesh), mesh.num_vertices());
        // the per-block transpose, then the mesh's kept lists
        for (const bool kept : {false, true}) {
            SCOPED_TRACE(kept ? "kept source lists" : "transpose per block");
            if (kept)
                mesh.vertex_sources(Op::FV);
            expect_result(run_gpu(mesh, PatchSchedule{patches.data(), range.data(), P},
                                  SomeVertices{}),
                          least, takes_part);
        }
    });
}

TEST(GpuAccumulateScheduled, WholeMeshAndEmptyRange)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    BuildOptions opt;
    opt.patcher.capacity = 128;
    const RXMesh mesh(generate::noisy(generate::torus(40, 16), 0.1f, 4), opt);
    const auto   least = cpu_least(test::faces_of(mesh), mesh.num_vertices());
    // PatchSchedule{}: every patch; AllActive: every vertex
    expect_result(run_gpu(mesh, PatchSchedule{}, AllActive{}), least,
                  std::vector<bool>(mesh.num_vertices(), true));
    const std::vector<std::uint32_t> list = {0, 1, 2};
    const auto patches = DeviceBuffer<std::uint32_t>::from_host(list);
    const auto range   = DeviceBuffer<std::uint32_t>::from_host({2, 2});
    expect_result(run_gpu(mesh, PatchSchedule{patches.data(), range.data(), 3}, AllActive{}), least,
                  std::vector<bool>(mesh.num_vertices(), false));
}
