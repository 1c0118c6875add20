// RXMesh::for_each_patch_scheduled_loop and for_each_scheduled_loop
// (query/scheduled_loop.cuh): loops whose step grows the schedule's range by
// one patch per iteration. In the patch loop every thread of a scheduled
// patch's block adds one to each owned vertex it takes (so the block's
// threads must share the patch), and thread 0 adds the iteration number to
// the patch's total; in the query loop (VV) each owned vertex adds one and
// its row's size. Checked against the counts the loops must give on the
// host (patch p is scheduled in iterations p, p + 1, ... up to the last;
// valences from the faces), in every form (one cooperative launch,
// host-enqueued chunks with and without graphs), at two block sizes for the
// patch loop, with and without an iteration limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "loop_forms.h"
#include "mesh_faces.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/rxmesh.cuh"

namespace patch_loop_test {

using namespace rxmesh;
using u32 = std::uint32_t;

struct GrowState
{
    u32 iteration = 0;
    u32 range[2]  = {0, 1};  // of the schedule: the first range[1] patches
};

struct CountVisits
{
    u32*             vertex_visits;  // per vertex
    u32*             patch_sum;      // per patch: the sum of its iterations
    const GrowState* state;

    __device__ void operator()(const PatchInfo& pi, u32 p) const
    {
        for (u32 v = threadIdx.x; v < pi.vmap.num_owned; v += blockDim.x)
            vertex_visits[pi.vmap.owned_offset + v] += 1;  // one block per patch at a time
        if (threadIdx.x == 0)
            patch_sum[p] += state->iteration;
    }
};

struct Grow
{
    GrowState*      state;
    u32             num_patches;
    __device__ bool operator()() const
    {
        state->iteration += 1;
        if (state->range[1] == num_patches)
            return true;
        state->range[1] += 1;
        return false;
    }
};

//! The query loop's lambda: each scheduled owned vertex adds one and its
//! VV row's size.
struct CountRows
{
    u32*            vertex_visits;
    u32*            row_sizes;
    __device__ void operator()(VertexId v, const RowView<VertexId>& vv) const
    {
        vertex_visits[v.id()] += 1;
        row_sizes[v.id()] += vv.size();
    }
};

struct Counts
{
    std::vector<u32> vertex_visits, patch_sum;
    long             iterations = 0;
};

//! Every patch in order, scheduled from the first one on; step() grows the
//! range by one patch per iteration.
class GrowingSchedule
{
   public:
    explicit GrowingSchedule(const RXMesh& mesh)
        : m_patches(mesh.num_patches()), m_state(1), m_num_patches(mesh.num_patches())
    {
        std::vector<u32> list(m_num_patches);
        for (u32 p = 0; p < m_num_patches; ++p)
            list[p] = p;
        m_patches.upload(list.data(), list.size());
        const GrowState init{};
        m_state.upload(&init, 1);
    }
    PatchSchedule    schedule() const { return {m_patches.data(), m_state.data()->range, m_num_patches}; }
    Grow             step() { return {m_state.data(), m_num_patches}; }
    const GrowState* state() const { return m_state.data(); }
    //! The iterations the step counted: what the loop's report must say.
    long iterations() const { return long(m_state.to_host()[0].iteration); }

   private:
    DeviceBuffer<u32>       m_patches;
    DeviceBuffer<GrowState> m_state;
    u32                     m_num_patches;
};

DeviceBuffer<u32> zeros(std::size_t n)
{
    DeviceBuffer<u32> b(n);
    b.memset(0);
    return b;
}

//! The loop's report against the schedule's own count, then the counts.
Counts finish(const DeviceLoopReport& r, const DeviceLoopOptions& options,
              const GrowingSchedule& g, const DeviceBuffer<u32>& first,
              const DeviceBuffer<u32>& second)
{
    EXPECT_EQ(r.one_launch, options.form == DeviceLoopOptions::Form::OneLaunch);
    EXPECT_EQ(g.iterations(), r.iterations);
    return {first.to_host(), second.to_host(), r.iterations};
}

template <int BlockThreads>
Counts run_gpu(const RXMesh& mesh, long max_iterations, const DeviceLoopOptions& options)
{
    GrowingSchedule g(mesh);
    auto            visits = zeros(mesh.num_vertices()), sums = zeros(mesh.num_patches());
    const DeviceLoopReport r = mesh.for_each_patch_scheduled_loop<BlockThreads>(
        g.schedule(), CountVisits{visits.data(), sums.data(), g.state()}, g.step(),
        max_iterations, options);
    return finish(r, options, g, visits, sums);
}

//! The same growing schedule through for_each_scheduled_loop<Op::VV>:
//! visits per vertex in vertex_visits, the sums of its row sizes in
//! patch_sum (here per vertex).
Counts run_query_loop(const RXMesh& mesh, long max_iterations, const DeviceLoopOptions& options)
{
    GrowingSchedule g(mesh);
    auto            visits = zeros(mesh.num_vertices()), sizes = zeros(mesh.num_vertices());
    const DeviceLoopReport r = mesh.for_each_scheduled_loop<Op::VV>(
        g.schedule(), CountRows{visits.data(), sizes.data()}, AllActive{}, g.step(),
        max_iterations, options);
    return finish(r, options, g, visits, sizes);
}

//! Each vertex's number of distinct neighbours along the faces' edges.
std::vector<u32> valences(const RXMesh& mesh)
{
    std::vector<std::set<u32>> ring(mesh.num_vertices());
    for (const auto& f : test::faces_of(mesh))
        for (int k = 0; k < 3; ++k) {
            const u32 a = f[k], b = f[(k + 1) % 3];
            if (a != b)
                ring[a].insert(b), ring[b].insert(a);
        }
    std::vector<u32> out(ring.size());
    for (std::size_t v = 0; v < ring.size(); ++v)
        out[v] = u32(ring[v].size());
    return out;
}

//! What the loop must give: iterations min(P, limit); patch p is scheduled
//! in iterations p .. iterations - 1.
Counts expected(const RXMesh& mesh, long max_iterations)
{
    const u32  P       = mesh.num_patches();
    const auto offsets = mesh.store().vertex_offsets.to_host();
    Counts     c;
    c.iterations = std::min<long>(P, max_iterations);
    c.vertex_visits.assign(mesh.num_vertices(), 0);
    c.patch_sum.assign(P, 0);
    for (u32 p = 0; p < P; ++p)
        for (long t = p; t < c.iterations; ++t) {
            c.patch_sum[p] += u32(t);
            for (u32 v = offsets[p]; v < offsets[p + 1]; ++v)
                c.vertex_visits[v] += 1;
        }
    return c;
}

void expect_same(const Counts& gpu, const Counts& want)
{
    EXPECT_EQ(gpu.iterations, want.iterations);
    ASSERT_EQ(gpu.patch_sum, want.patch_sum);
    for (std::size_t v = 0; v < want.vertex_visits.size(); ++v)
        ASSERT_EQ(gpu.vertex_visits[v], want.vertex_visits[v]) << "vertex " << v;
}

std::vector<std::pair<std::string, DeviceLoopOptions>> forms()
{
    return test::loop_forms(5);  // not a divisor of the iteration counts
}

//! f(mesh, limit, options) for each test mesh (many patches), with and
//! without an iteration limit, in every loop form.
template <typename F>
void for_each_case(F&& f)
{
    namespace g = rxmesh::generate;
    const std::vector<std::pair<std::string, TriangleSoup>> meshes = {
        {"grid", g::grid(40, 23)}, {"components", g::components(5, 2)}, {"fan", g::fan(3000)}};
    for (const auto& [name, soup] : meshes) {
        BuildOptions opt;
        opt.patcher.capacity = 64;  // many patches
        const RXMesh mesh(soup, opt);
        ASSERT_GT(mesh.num_patches(), 3u) << name;
        for (const long limit : {1L << 20, 3L})
            for (const auto& [form, options] : forms()) {
                SCOPED_TRACE(name + ", " + form + ", limit " + std::to_string(limit));
                f(mesh, limit, options);
            }
    }
}

}  // namespace patch_loop_test

using namespace patch_loop_test;

TEST(GpuPatchLoop, EveryFormVisitsTheScheduledPatches)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for_each_case([](const RXMesh& mesh, long limit, const DeviceLoopOptions& options) {
        const Counts want = expected(mesh, limit);
        expect_same(run_gpu<256>(mesh, limit, options), want);
        expect_same(run_gpu<64>(mesh, limit, options), want);
    });
}

TEST(GpuPatchLoop, QueryLoopVisitsTheScheduledPatches)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for_each_case([](const RXMesh& mesh, long limit, const DeviceLoopOptions& options) {
        const Counts want    = expected(mesh, limit);
        const auto   valence = valences(mesh);
        const Counts gpu     = run_query_loop(mesh, limit, options);
        EXPECT_EQ(gpu.iterations, want.iterations);
        for (std::size_t v = 0; v < valence.size(); ++v) {
            ASSERT_EQ(gpu.vertex_visits[v], want.vertex_visits[v]) << "vertex " << v;
            ASSERT_EQ(gpu.patch_sum[v], want.vertex_visits[v] * valence[v]) << "vertex " << v;
        }
    });
}
