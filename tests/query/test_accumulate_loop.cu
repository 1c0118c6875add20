// RXMesh::accumulate_scheduled_loop (query/scheduled_loop.cuh) against a CPU
// loop of the same iterations, with exact integers: hop counts from sources
// relaxed Jacobi-style over faces (an iteration reads one buffer and writes
// the other, chosen by an iteration counter that only the step moves), over
// a schedule whose range the step grows by one patch per iteration, until an
// iteration changes nothing once every patch is in. Checked: every value,
// the iteration count, a limit on the iterations, and that both forms (one
// cooperative launch, host-enqueued chunks with and without graphs) agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test.h"
#include "loop_forms.h"
#include "mesh_faces.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/rxmesh.cuh"

namespace accumulate_loop_test {

using namespace rxmesh;
using u32 = std::uint32_t;

constexpr u32 kFar = ~0u;  // not reached yet

struct HopState
{
    u32 iteration = 0, changed = 0;
    u32 range[2]  = {0, 1};  // of the schedule: the first range[1] patches
};

struct HopArrays
{
    u32*      hops[2];  // iteration t reads [t & 1], writes the other
    HopState* state;
};

struct StageHops
{
    HopArrays      a;
    __device__ u32 operator()(VertexId v, int) const { return a.hops[a.state->iteration & 1][v.id()]; }
};

//! Each corner of a face proposes one more than the least of the others.
struct ProposeHop
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<u32, 1>& x,
                               const VertexReduction<u32, 1, Min>& least) const
    {
        for (int k = 0; k < 3; ++k)
            for (int j = 0; j < 3; ++j)
                if (j != k && x(j, 0) != kFar) {
                    const u32 value[1] = {x(j, 0) + 1};
                    least.add(k, value);
                }
    }
};

struct WriteHop
{
    HopArrays       a;
    __device__ void operator()(VertexId v, const u32 (&least)[1]) const
    {
        const u32 t = a.state->iteration, cur = a.hops[t & 1][v.id()];
        const u32 next = min(cur, least[0]);
        a.hops[(t + 1) & 1][v.id()] = next;
        if (next != cur)
            a.state->changed = 1;
    }
};

struct GrowAndTest
{
    HopArrays       a;
    u32             num_patches;
    __device__ bool operator()() const
    {
        HopState* s    = a.state;
        const bool stop = !s->changed && s->range[1] == num_patches;
        s->changed      = 0;
        s->iteration += 1;
        s->range[1] = min(num_patches, s->range[1] + 1);
        return stop;
    }
};

struct Outcome
{
    std::vector<u32> hops;
    long             iterations = 0;
    bool             one_launch = false;
};

Outcome run_gpu(const RXMesh& mesh, const std::vector<u32>& sources, long max_iterations,
                const DeviceLoopOptions& options)
{
    const u32        V = mesh.num_vertices(), P = mesh.num_patches();
    std::vector<u32> start(V, kFar), list(P);
    for (u32 s : sources)
        start[s] = 0;
    for (u32 p = 0; p < P; ++p)
        list[p] = p;
    auto       h0 = DeviceBuffer<u32>::from_host(start), h1 = DeviceBuffer<u32>::from_host(start);
    const auto patches = DeviceBuffer<u32>::from_host(list);
    DeviceBuffer<HopState> state(1);
    const HopState         init{};
    state.upload(&init, 1);
    const HopArrays a{{h0.data(), h1.data()}, state.data()};
    const DeviceLoopReport r = mesh.accumulate_scheduled_loop<Op::FV, u32, 1, Min>(
        PatchSchedule{patches.data(), state.data()->range, P},
        computed_vertex_input<u32, 1>(StageHops{a}), ProposeHop{}, WriteHop{a}, AllActive{},
        GrowAndTest{a, P}, max_iterations, options);
    const HopState last = state.to_host()[0];
    EXPECT_EQ(long(last.iteration), r.iterations);
    return {(last.iteration & 1 ? h1 : h0).to_host(), r.iterations, r.one_launch};
}

//! The same iterations on the host.
Outcome run_cpu(const RXMesh& mesh, const std::vector<u32>& sources, long max_iterations)
{
    const u32        V = mesh.num_vertices(), P = mesh.num_patches();
    const auto       faces   = test::faces_of(mesh);
    const auto       offsets = mesh.store().vertex_offsets.to_host();
    std::vector<u32> owner(V);
    for (u32 p = 0; p < P; ++p)
        for (u32 v = offsets[p]; v < offsets[p + 1]; ++v)
            owner[v] = p;
    std::vector<u32> cur(V, kFar);
    for (u32 s : sources)
        cur[s] = 0;
    Outcome out;
    for (u32 range_end = 1; out.iterations < max_iterations;) {
        std::vector<u32> least(V, kFar);
        for (const auto& f : faces)
            for (int k = 0; k < 3; ++k)
                for (int j = 0; j < 3; ++j)
                    if (j != k && cur[f[j]] != kFar)
                        least[f[k]] = std::min(least[f[k]], cur[f[j]] + 1);
        bool changed = false;
        for (u32 v = 0; v < V; ++v)
            if (owner[v] < range_end && least[v] < cur[v])
                cur[v] = least[v], changed = true;
        ++out.iterations;
        const bool stop = !changed && range_end == P;
        range_end       = std::min(P, range_end + 1);
        if (stop)
            break;
    }
    out.hops = cur;
    return out;
}

std::vector<std::pair<std::string, TriangleSoup>> meshes()
{
    namespace g = rxmesh::generate;
    return {{"icosphere", g::icosphere(3)},      {"grid", g::grid(30, 17)},
            {"fin600", g::fin(600)},             {"isolated", g::isolated_faces(300)},
            {"fan2000", g::fan(2000)},           {"components", g::components(5, 2)},
            {"bowtie", g::bowtie()},             {"degenerate", g::with_degenerate_faces()}};
}

std::vector<std::pair<std::string, DeviceLoopOptions>> forms()
{
    return test::loop_forms(7);  // not a divisor of the iteration counts
}

void expect_same(const Outcome& gpu, const Outcome& cpu)
{
    EXPECT_EQ(gpu.iterations, cpu.iterations);
    ASSERT_EQ(gpu.hops.size(), cpu.hops.size());
    for (std::size_t v = 0; v < cpu.hops.size(); ++v)
        ASSERT_EQ(gpu.hops[v], cpu.hops[v]) << "vertex " << v;
}

}  // namespace accumulate_loop_test

using namespace accumulate_loop_test;

TEST(GpuAccumulateLoop, BothFormsMatchTheHostLoop)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& [name, soup] : meshes()) {
        BuildOptions opt;
        opt.patcher.capacity = 64;  // many patches: many schedule moves
        const RXMesh           mesh(soup, opt);
        const std::vector<u32> sources = {0, mesh.num_vertices() / 2};
        const Outcome          cpu     = run_cpu(mesh, sources, 1 << 20);
        ASSERT_GT(cpu.iterations, long(mesh.num_patches()) - 1) << name;
        // the per-block transpose, then the mesh's kept source lists
        for (const bool kept : {false, true}) {
            if (kept)
                mesh.vertex_sources(Op::FV);
            for (const auto& [form, options] : forms()) {
                SCOPED_TRACE(name + ", " + form + (kept ? ", kept source lists" : ""));
                const Outcome gpu = run_gpu(mesh, sources, 1 << 20, options);
                EXPECT_EQ(gpu.one_launch, options.form == DeviceLoopOptions::Form::OneLaunch);
                expect_same(gpu, cpu);
            }
        }
    }
}

TEST(GpuAccumulateLoop, IterationLimitStopsEveryForm)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    BuildOptions opt;
    opt.patcher.capacity = 64;
    const RXMesh mesh(generate::grid(40, 40), opt);
    for (const long limit : {1L, 3L, 10L}) {
        const Outcome cpu = run_cpu(mesh, {0}, limit);
        ASSERT_EQ(cpu.iterations, limit);
        for (const auto& [form, options] : forms()) {
            SCOPED_TRACE(form + ", limit " + std::to_string(limit));
            expect_same(run_gpu(mesh, {0}, limit, options), cpu);
        }
    }
    // no iteration at all: nothing runs, nothing changes
    const Outcome none = run_gpu(mesh, {0}, 0, {});
    EXPECT_EQ(none.iterations, 0);
    EXPECT_EQ(none.hops[0], 0u);
    EXPECT_EQ(std::count(none.hops.begin(), none.hops.end(), kFar), long(none.hops.size()) - 1);
}

//! The default form is one launch wherever the device has cooperative
//! launches (every GPU this project supports does).
TEST(GpuAccumulateLoop, AutoTakesOneLaunch)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    int cooperative = 0;
    RXMESH_CHECK_CUDA(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, 0));
    ASSERT_TRUE(cooperative) << "the test device has no cooperative launches";
    const RXMesh  mesh(generate::icosphere(3));
    const Outcome gpu = run_gpu(mesh, {0}, 1 << 20, {});
    EXPECT_TRUE(gpu.one_launch);
    expect_same(gpu, run_cpu(mesh, {0}, 1 << 20));
}
