// The one launch policy (core/launch.cuh: shared-memory fit, opt-in,
// occupancy; query/patch_launch.cuh: the patch kernels' grid and global
// scratch) and the accumulate members whose T and N are read from finalize
// (query/accumulate_args.h), against the CPU:
// - a kernel whose static + dynamic shared memory exceeds 48 KB while its
//   dynamic part alone does not (the case an opt-in test on the dynamic size
//   alone misses), and one at the device's maximum;
// - a user's PatchQuery kernel with static shared memory of its own through
//   rxmesh::launch;
// - accumulate whose arrays need the opt-in (above 48 KB), its input a view;
// - for_each_scheduled through the global-scratch fallback;
// - accumulate, accumulate_sum and accumulate_scheduled with T and N read
//   from named finalize functors, equal to the explicit forms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/rxmesh.cuh"

namespace launch_test {

using namespace rxmesh;
using u64 = unsigned long long;

constexpr std::uint32_t kStaticWords = 2048;  // 8 KB of static shared memory

//! Writes, per block, the sum of its static words (i) and its dynamic ones
//! (i + 1), filled by the whole block.
__global__ void fill_shared(std::uint32_t dynamic_words, u64* out)
{
    __shared__ std::uint32_t        fixed[kStaticWords];
    extern __shared__ std::uint32_t dynamic[];
    for (std::uint32_t i = threadIdx.x; i < kStaticWords; i += blockDim.x)
        fixed[i] = i;
    for (std::uint32_t i = threadIdx.x; i < dynamic_words; i += blockDim.x)
        dynamic[i] = i + 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        u64 sum = 0;
        for (std::uint32_t i = 0; i < kStaticWords; ++i)
            sum += fixed[i];
        for (std::uint32_t i = 0; i < dynamic_words; ++i)
            sum += dynamic[i];
        out[blockIdx.x] = sum;
    }
}

constexpr std::uint32_t kUserStaticWords = 11 * 1024;  // 44 KB

//! Valence through a PatchQuery, in a kernel with 44 KB of static shared
//! memory of its own (kept: indexed by a kernel argument).
template <typename Query>
__global__ void valence_with_static_smem(Query q, std::uint32_t pad_index, std::uint32_t* valence)
{
    __shared__ std::uint32_t pad[kUserStaticWords];
    if (threadIdx.x == 0)
        pad[pad_index] = 0;
    __syncthreads();
    const std::uint32_t zero = pad[pad_index];
    q.run([=](VertexId v, const RowView<VertexId>& vv) { valence[v.id()] = vv.size() + zero; });
}

//! Each corner adds the last value of the next corner and the first of the
//! one after (M values staged per vertex).
template <int M>
struct WideCorners
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<u64, M>& x,
                               const VertexSums<u64, 1>& sums) const
    {
        for (int k = 0; k < 3; ++k) {
            const u64 v[1] = {x((k + 1) % 3, M - 1) + x((k + 2) % 3, 0)};
            sums.add(k, v);
        }
    }
};

//! Finalize functors whose T and N accumulate reads.
struct StoreOne
{
    u64* out;
    __device__ void operator()(VertexId v, const u64 (&sum)[1]) const { out[v.id()] = sum[0]; }
};
struct StoreTwo
{
    u64* out;
    __device__ void operator()(VertexId v, const u64 (&sum)[2]) const
    {
        out[2 * std::size_t(v.id())]     = sum[0];
        out[2 * std::size_t(v.id()) + 1] = sum[1];
    }
};
struct StoreAndCount
{
    u64* out;
    __device__ double operator()(VertexId v, const u64 (&sum)[1]) const
    {
        out[v.id()] = sum[0];
        return double(sum[0]);
    }
};

//! Each corner gets (1, sum of its two other corners' staged values), or,
//! with Min, the least of those.
struct OtherCorners
{
    template <typename Reduction>
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<u64, 1>& x,
                               const Reduction& r) const
    {
        for (int k = 0; k < 3; ++k) {
            const u64 v[2] = {1ull, x((k + 1) % 3, 0) + x((k + 2) % 3, 0)};
            r.add(k, v);
        }
    }
};
struct OtherCornersMin
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<u64, 1>& x,
                               const VertexReduction<u64, 1, Min>& least) const
    {
        for (int k = 0; k < 3; ++k) {
            const u64 v[1] = {x((k + 1) % 3, 0) + x((k + 2) % 3, 0)};
            least.add(k, v);
        }
    }
};
//! (1, the other corners' sum) summed and that sum's least, in one pass.
struct OtherCornersSumAndMin
{
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<u64, 1>& x,
                               const VertexReduction<u64, 3, PerComponent<Plus, 2, Min>>& r) const
    {
        for (int k = 0; k < 3; ++k) {
            const u64 other = x((k + 1) % 3, 0) + x((k + 2) % 3, 0);
            const u64 v[3]  = {1ull, other, other};
            r.add(k, v);
        }
    }
};
struct StoreThree
{
    u64*            out;
    __device__ void operator()(VertexId v, const u64 (&sum)[3]) const
    {
        for (int d = 0; d < 3; ++d)
            out[3 * std::size_t(v.id()) + d] = sum[d];
    }
};
//! Each edge adds the other end's id + 1 to both ends.
struct OtherEnd
{
    __device__ void operator()(EdgeId, const RowView<VertexId>& ev, const VertexSums<u64, 1>& sums) const
    {
        for (int k = 0; k < 2; ++k) {
            const u64 v[1] = {u64(ev[1 - k].id()) + 1};
            sums.add(k, v);
        }
    }
};

struct CountVisits
{
    std::uint32_t* visits;
    template <typename Row>
    __device__ void operator()(FaceId f, const Row&) const
    {
        atomicAdd(visits + f.id(), 1u);
    }
};

//! Staged values of vertex g: g * 3 + 1 (and M of them: g * M + d + 1).
std::vector<u64> vertex_values(std::uint32_t V, int M)
{
    std::vector<u64> values(std::size_t(M) * V);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = M == 1 ? u64(i) * 3 + 1 : u64(i) + 1;
    return values;
}

//! The CPU's (count, sum) or min of the other corners' values, per vertex.
struct CornerSums
{
    std::vector<u64> count, sum, least;
};
CornerSums cpu_corner_sums(const std::vector<Triangle>& faces, const std::vector<u64>& x)
{
    CornerSums r{std::vector<u64>(x.size(), 0), std::vector<u64>(x.size(), 0),
                 std::vector<u64>(x.size(), std::numeric_limits<u64>::max())};
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k) {
            const u64 other = x[t[(k + 1) % 3]] + x[t[(k + 2) % 3]];
            r.count[t[k]] += 1;
            r.sum[t[k]] += other;
            r.least[t[k]] = std::min(r.least[t[k]], other);
        }
    return r;
}

}  // namespace launch_test

using namespace launch_test;

TEST(GpuLaunch, StaticPlusDynamicSharedMemoryAbove48KB)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    detail::Launcher l = detail::launcher<fill_shared>();
    ASSERT_GE(l.static_smem(), kStaticWords * 4u);
    const std::size_t max_dynamic = l.device().max_smem - l.static_smem();
    // 44 KB dynamic: below 48 KB alone, above it with the static 8 KB
    for (const std::size_t bytes : {std::size_t(44 * 1024), std::size_t(64 * 1024), max_dynamic}) {
        SCOPED_TRACE("dynamic bytes " + std::to_string(bytes));
        ASSERT_LE(bytes, max_dynamic) << "the device has too little shared memory for this test";
        ASSERT_TRUE(l.fit_shared_memory(bytes));
        const std::uint32_t words = std::uint32_t(bytes / 4);
        DeviceBuffer<u64>   out(4);
        out.memset(0);
        fill_shared<<<4, 256, bytes>>>(words, out.data());
        RXMESH_CHECK_LAUNCH();
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        const u64 want = u64(kStaticWords) * (kStaticWords - 1) / 2 + u64(words) * (words + 1) / 2;
        for (const u64 got : out.to_host())
            EXPECT_EQ(got, want);
    }
    EXPECT_FALSE(l.fit_shared_memory(max_dynamic + 16)) << "beyond the device: the caller falls back";
}

TEST(GpuLaunch, UserKernelWithStaticSharedMemory)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    BuildOptions options;
    options.patcher.capacity = 512;
    const RXMesh mesh(generate::icosphere(4), options);
    const auto   q      = mesh.query<Op::VV>();
    auto         kernel = valence_with_static_smem<std::decay_t<decltype(q)>>;
    const detail::Launcher l = detail::launcher(kernel);
    ASSERT_GT(l.static_smem() + q.smem_bytes(), detail::kSharedMemoryWithoutOptIn)
        << "the test needs the static and dynamic parts together above 48 KB";
    ASSERT_LE(l.static_smem() + q.smem_bytes(), l.device().max_smem);
    DeviceBuffer<std::uint32_t> valence(mesh.num_vertices());
    valence.memset(0xFF);
    rxmesh::launch(q, kernel, 0, q, 0u, valence.data());
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    rxmesh::test::expect_icosphere_valences(valence.to_host());
}

TEST(GpuLaunch, AccumulateAbove48KBOfSharedMemoryFromAView)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    constexpr int M = 4;  // 32 bytes per local vertex
    BuildOptions  opt;
    opt.patcher.capacity = 2048;
    const RXMesh        mesh(generate::torus(64, 32), opt);
    const std::size_t   need =
        detail::accumulate_smem_bytes<Op::FV, VertexInput<u64, M>>(mesh.device());
    ASSERT_GT(need, detail::kSharedMemoryWithoutOptIn) << "the test needs the opt-in";
    if (need + 4096 > detail::device_limits().max_smem)
        GTEST_SKIP() << "this device's shared memory takes the global fallback instead";
    const std::uint32_t V      = mesh.num_vertices();
    const auto          values = vertex_values(V, M);
    const auto          input  = DeviceBuffer<u64>::from_host(values);
    DeviceBuffer<u64>   out(V);
    out.memset(0xFF);
    mesh.accumulate<Op::FV>(VertexInput<u64, M>{VertexView<const u64, M>(input.data(), V)},
                            WideCorners<M>{}, StoreOne{out.data()});
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto       gpu = out.to_host();
    std::vector<u64> ref(V, 0);
    for (const Triangle& t : test::faces_of(mesh))
        for (int k = 0; k < 3; ++k)
            ref[t[k]] += values[std::size_t(M) * t[(k + 1) % 3] + M - 1] +
                         values[std::size_t(M) * t[(k + 2) % 3]];
    for (std::uint32_t v = 0; v < V; ++v)
        ASSERT_EQ(gpu[v], ref[v]) << "vertex " << v;
}

TEST(GpuLaunch, ScheduledForEachThroughGlobalScratch)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    BuildOptions opt;
    opt.patcher.capacity = 512;
    const RXMesh mesh(generate::fin(600), opt);  // FF: 600 faces around one edge
    ASSERT_GT(query_smem_bytes(Op::FF, false, mesh.store().limits),
              detail::device_limits().max_smem)
        << "the mesh no longer exercises the fallback";
    const std::uint32_t P = mesh.num_patches();
    ASSERT_GE(P, 2u);
    // the patches in reverse order; the range leaves out the first entry
    std::vector<std::uint32_t> list;
    for (std::uint32_t p = P; p-- > 0;)
        list.push_back(p);
    const auto list_d  = DeviceBuffer<std::uint32_t>::from_host(list);
    const auto range_d = DeviceBuffer<std::uint32_t>::from_host({1u, P});
    DeviceBuffer<std::uint32_t> visits(mesh.num_faces());
    visits.memset(0);
    mesh.for_each_scheduled<Op::FF>(
        PatchSchedule{list_d.data(), range_d.data(), std::uint32_t(list.size())},
        CountVisits{visits.data()});
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto                    got     = visits.to_host();
    const auto                    offsets = mesh.store().face_offsets.to_host();
    const std::set<std::uint32_t> picked(list.begin() + 1, list.end());
    for (std::uint32_t p = 0; p < P; ++p)
        for (std::uint32_t f = offsets[p]; f < offsets[p + 1]; ++f)
            ASSERT_EQ(got[f], picked.count(p) ? 1u : 0u) << "face " << f << " of patch " << p;
}

TEST(GpuLaunch, AccumulateReadsTAndNFromFinalize)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    BuildOptions opt;
    opt.patcher.capacity = 128;
    const RXMesh        mesh(generate::torus(24, 9), opt);
    const std::uint32_t V      = mesh.num_vertices();
    const auto          values = vertex_values(V, 1);
    const auto          input  = DeviceBuffer<u64>::from_host(values);
    const auto          faces  = test::faces_of(mesh);
    const CornerSums    ref    = cpu_corner_sums(faces, values);
    const VertexInput<u64, 1> x(input.data(), V);

    DeviceBuffer<u64> deduced(2 * std::size_t(V)), given(2 * std::size_t(V));
    deduced.memset(0xFF);
    given.memset(0xFF);
    mesh.accumulate<Op::FV>(x, OtherCorners{}, StoreTwo{deduced.data()});
    mesh.accumulate<Op::FV, u64, 2>(x, OtherCorners{}, StoreTwo{given.data()});
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto d = deduced.to_host(), g = given.to_host();
    for (std::uint32_t v = 0; v < V; ++v) {
        ASSERT_EQ(d[2 * std::size_t(v)], ref.count[v]) << "vertex " << v;
        ASSERT_EQ(d[2 * std::size_t(v) + 1], ref.sum[v]) << "vertex " << v;
        ASSERT_EQ(g[2 * std::size_t(v)], d[2 * std::size_t(v)]) << "vertex " << v;
        ASSERT_EQ(g[2 * std::size_t(v) + 1], d[2 * std::size_t(v) + 1]) << "vertex " << v;
    }

    // (count, sum) and the least in one pass: PerComponent<Plus, 2, Min>
    DeviceBuffer<u64> mixed(3 * std::size_t(V));
    mixed.memset(0xFF);
    mesh.accumulate<Op::FV, u64, 3, PerComponent<Plus, 2, Min>>(x, OtherCornersSumAndMin{},
                                                                StoreThree{mixed.data()});
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto m = mixed.to_host();
    for (std::uint32_t v = 0; v < V; ++v) {
        ASSERT_EQ(m[3 * std::size_t(v)], ref.count[v]) << "vertex " << v;
        ASSERT_EQ(m[3 * std::size_t(v) + 1], ref.sum[v]) << "vertex " << v;
        ASSERT_EQ(m[3 * std::size_t(v) + 2], ref.least[v]) << "vertex " << v;
    }

    DeviceBuffer<u64> least(V);
    least.memset(0xFF);
    mesh.accumulate_scheduled<Op::FV, Min>(PatchSchedule{}, x, OtherCornersMin{},
                                           StoreOne{least.data()});
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto l = least.to_host();
    for (std::uint32_t v = 0; v < V; ++v)
        ASSERT_EQ(l[v], ref.least[v]) << "vertex " << v;

    // each vertex: the sum over its edges of the other end's id + 1
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k)
            edges.insert({std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])});
    std::vector<u64> ends(V, 0);
    double           want = 0;
    for (const auto& [a, b] : edges) {
        ends[a] += u64(b) + 1;
        ends[b] += u64(a) + 1;
        want += double(a) + double(b) + 2;
    }
    DeviceBuffer<u64>    out(V);
    DeviceBuffer<double> total(1);
    total.memset(0);
    mesh.accumulate_sum<Op::EV>(NoVertexInput{}, OtherEnd{}, StoreAndCount{out.data()},
                                total.data());
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(out.to_host(), ends);
    EXPECT_EQ(total.to_host()[0], want);
}
