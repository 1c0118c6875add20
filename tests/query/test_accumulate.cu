// RXMesh::accumulate<Op::FV / Op::EV> (query/accumulate.cuh) against a CPU
// sum over the mesh's faces / edges, with exact integer sums: every vertex
// must receive every incident face (edge) exactly once and be finalized
// exactly once, on generated meshes of every kind, at several capacities,
// through the global-scratch fallback (an input too large for shared memory),
// with a staged vertex input, and with the mesh's kept source lists
// (RXMesh::vertex_sources) in place of the per-block transpose.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace accumulate_test {

using namespace rxmesh;
using u64 = unsigned long long;

//! What every face adds to its k-th vertex, value d (a function of the face
//! only, as accumulate requires): distinct enough that a face added twice,
//! missed, or added to the wrong corner changes some sum.
__host__ __device__ inline u64 face_value(std::uint32_t f, int k, int d)
{
    return d == 0 ? 1ull : (u64(f) + 1) * (u64(k) + 1) * u64(d);
}

//! Sums of the faces incident to each vertex: N values per vertex, on the GPU.
template <int N, AccumulateForm Form = AccumulateForm::Patches>
std::vector<u64> gpu_face_sums(const RXMesh& mesh, std::vector<std::uint32_t>& finalized)
{
    const std::uint32_t V = mesh.num_vertices();
    DeviceBuffer<u64>   out(std::size_t(N) * V);
    DeviceBuffer<std::uint32_t> calls(V);
    out.memset(0xFF);  // poison: every vertex must be written
    calls.memset(0);
    u64*           o = out.data();
    std::uint32_t* c = calls.data();
    mesh.accumulate<Op::FV, u64, N, Plus, AccumulatePolicy<128, 1, Form>>(
        [=] __device__(FaceId f, const RowView<VertexId>& fv, const VertexSums<u64, N>& sums) {
            for (int k = 0; k < int(fv.size()); ++k) {
                u64 v[N];
                for (int d = 0; d < N; ++d)
                    v[d] = face_value(f.id(), k, d);
                sums.add(k, v);
            }
        },
        [=] __device__(VertexId v, const u64(&sum)[N]) {
            atomicAdd(c + v.id(), 1u);
            for (int d = 0; d < N; ++d)
                o[std::size_t(N) * v.id() + d] = sum[d];
        });
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    finalized = calls.to_host();
    return out.to_host();
}

template <int N>
std::vector<u64> cpu_face_sums(const std::vector<Triangle>& faces, std::uint32_t V)
{
    std::vector<u64> sums(std::size_t(N) * V, 0);
    for (std::uint32_t f = 0; f < faces.size(); ++f)
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < N; ++d)
                sums[std::size_t(N) * faces[f][k] + d] += face_value(f, k, d);
    return sums;
}

//! Edge sums: each edge adds (1, e + 1, vertex of the other end + 1) into
//! both of its vertices; the reference takes edges from the faces.
template <AccumulateForm Form = AccumulateForm::Patches>
std::vector<u64> gpu_edge_sums(const RXMesh& mesh)
{
    const std::uint32_t V = mesh.num_vertices();
    DeviceBuffer<u64>   out(3 * std::size_t(V));
    out.memset(0xFF);
    u64* o = out.data();
    mesh.accumulate<Op::EV, u64, 3, Plus, AccumulatePolicy<128, 1, Form>>(
        [=] __device__(EdgeId, const RowView<VertexId>& ev, const VertexSums<u64, 3>& sums) {
            for (int k = 0; k < 2; ++k) {
                const u64 v[3] = {1ull, 0ull, u64(ev[1 - k].id()) + 1};
                sums.add(k, v);
            }
        },
        [=] __device__(VertexId v, const u64(&sum)[3]) {
            for (int d = 0; d < 3; ++d)
                o[3 * std::size_t(v.id()) + d] = sum[d];
        });
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    return out.to_host();
}

std::vector<u64> cpu_edge_sums(const std::vector<Triangle>& faces, std::uint32_t V)
{
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k)
            edges.insert({std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])});
    std::vector<u64> sums(3 * std::size_t(V), 0);
    for (const auto& [a, b] : edges) {
        sums[3 * std::size_t(a)] += 1;
        sums[3 * std::size_t(b)] += 1;
        sums[3 * std::size_t(a) + 2] += u64(b) + 1;
        sums[3 * std::size_t(b) + 2] += u64(a) + 1;
    }
    return sums;
}

template <int N, AccumulateForm Form = AccumulateForm::Patches>
void expect_face_sums(const RXMesh& mesh, const std::string& what)
{
    SCOPED_TRACE(what + " N=" + std::to_string(N));
    const auto                 faces = test::faces_of(mesh);
    std::vector<std::uint32_t> calls;
    const auto                 gpu = gpu_face_sums<N, Form>(mesh, calls);
    const auto                 ref = cpu_face_sums<N>(faces, mesh.num_vertices());
    for (std::uint32_t v = 0; v < mesh.num_vertices(); ++v) {
        ASSERT_EQ(calls[v], 1u) << "finalize calls of vertex " << v;
        for (int d = 0; d < N; ++d)
            ASSERT_EQ(gpu[std::size_t(N) * v + d], ref[std::size_t(N) * v + d])
                << "vertex " << v << " value " << d;
    }
}

//! Staged input: each vertex's value g * 3 + 1 (u64); every face adds, to
//! each corner, the values of its two other corners read through the
//! StagedRow, and 1 into a second sum.
template <AccumulateForm Form = AccumulateForm::Patches>
std::vector<u64> gpu_staged_sums(const RXMesh& mesh)
{
    const std::uint32_t V = mesh.num_vertices();
    std::vector<u64>    values(V);
    for (std::uint32_t g = 0; g < V; ++g)
        values[g] = u64(g) * 3 + 1;
    auto              input = DeviceBuffer<u64>::from_host(values);
    DeviceBuffer<u64> out(2 * std::size_t(V));
    out.memset(0xFF);
    u64* o = out.data();
    mesh.accumulate<Op::FV, u64, 2, Plus, AccumulatePolicy<128, 1, Form>>(
        VertexInput<u64, 1>{input.data()},
        [] __device__(FaceId, const RowView<VertexId>&, const StagedRow<u64, 1>& x,
                      const VertexSums<u64, 2>& sums) {
            for (int k = 0; k < 3; ++k) {
                const u64 v[2] = {x((k + 1) % 3, 0) + x((k + 2) % 3, 0), 1ull};
                sums.add(k, v);
            }
        },
        [=] __device__(VertexId v, const u64(&sum)[2]) {
            o[2 * std::size_t(v.id())]     = sum[0];
            o[2 * std::size_t(v.id()) + 1] = sum[1];
        });
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    return out.to_host();
}

//! M values per vertex staged; each corner adds the last value of the next
//! corner and the first of the one after.
template <int M, AccumulateForm Form = AccumulateForm::Patches>
std::vector<u64> gpu_wide_input_sums(const RXMesh& mesh, const std::vector<u64>& values)
{
    auto              input = DeviceBuffer<u64>::from_host(values);
    DeviceBuffer<u64> out(mesh.num_vertices());
    out.memset(0xFF);
    u64* o = out.data();
    mesh.accumulate<Op::FV, u64, 1, Plus, AccumulatePolicy<128, 1, Form>>(
        VertexInput<u64, M>{input.data()},
        [] __device__(FaceId, const RowView<VertexId>&, const StagedRow<u64, M>& x,
                      const VertexSums<u64, 1>& sums) {
            for (int k = 0; k < 3; ++k) {
                const u64 v[1] = {x((k + 1) % 3, M - 1) + x((k + 2) % 3, 0)};
                sums.add(k, v);
            }
        },
        [=] __device__(VertexId v, const u64(&sum)[1]) { o[v.id()] = sum[0]; });
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    return out.to_host();
}

template <AccumulateForm Form = AccumulateForm::Patches>
void expect_edge_sums(const RXMesh& mesh)
{
    const auto gpu = gpu_edge_sums<Form>(mesh);
    const auto ref = cpu_edge_sums(test::faces_of(mesh), mesh.num_vertices());
    for (std::size_t i = 0; i < ref.size(); i += 3) {
        ASSERT_EQ(gpu[i], ref[i]) << "degree of vertex " << i / 3;
        ASSERT_EQ(gpu[i + 2], ref[i + 2]) << "neighbour sum of vertex " << i / 3;
    }
}

template <AccumulateForm Form = AccumulateForm::Patches>
void expect_staged_sums(const RXMesh& mesh)
{
    std::vector<u64> ref(2 * std::size_t(mesh.num_vertices()), 0);
    for (const Triangle& t : test::faces_of(mesh))
        for (int k = 0; k < 3; ++k) {
            ref[2 * std::size_t(t[k])] +=
                (u64(t[(k + 1) % 3]) * 3 + 1) + (u64(t[(k + 2) % 3]) * 3 + 1);
            ref[2 * std::size_t(t[k]) + 1] += 1;
        }
    const auto gpu = gpu_staged_sums<Form>(mesh);
    for (std::size_t i = 0; i < ref.size(); ++i)
        ASSERT_EQ(gpu[i], ref[i]) << "vertex " << i / 2 << " value " << i % 2;
}

//! The mesh's kept source lists (RXMesh::vertex_sources) against the
//! faces' and edges' CPU incidence: each vertex's count of faces (edges),
//! kept once, counted by memory().
void expect_kept_source_lists(const RXMesh& mesh)
{
    const std::uint32_t        V = mesh.num_vertices();
    std::vector<std::uint32_t> face_degree(V, 0), edge_degree(V, 0);
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    const auto faces = test::faces_of(mesh);
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k) {
            ++face_degree[t[k]];
            edges.insert(std::minmax(t[k], t[(k + 1) % 3]));
        }
    for (const auto& [a, b] : edges)
        ++edge_degree[a], ++edge_degree[b];
    EXPECT_EQ(mesh.memory().vertex_sources, 0u) << "built before it was asked for";
    for (const auto& [op, degree] : {std::pair{Op::FV, face_degree}, std::pair{Op::EV, edge_degree}}) {
        const VertexSources& kept    = mesh.vertex_sources(op);
        const auto           offsets = kept.offsets.to_host();
        ASSERT_EQ(offsets.size(), std::size_t(V) + 1);
        ASSERT_EQ(offsets[0], 0u);
        for (std::uint32_t v = 0; v < V; ++v)
            ASSERT_EQ(offsets[v + 1] - offsets[v], degree[v]) << "sources of vertex " << v;
        EXPECT_EQ(kept.sources.size(), offsets[V]);
        EXPECT_EQ(&mesh.vertex_sources(op), &kept) << "built again";
    }
    const std::size_t pairs = 3 * faces.size() + 2 * edges.size();
    EXPECT_EQ(mesh.memory().vertex_sources, 2 * 4 * (std::size_t(V) + 1) + 2 * pairs);
    EXPECT_THROW(mesh.vertex_sources(Op::VV), InvalidInputError);
}

test::NamedMeshes meshes()
{
    namespace g = rxmesh::generate;
    return {
        {"icosphere", g::icosphere(3)},  {"torus", g::torus(24, 9)},
        {"grid", g::grid(20, 13)},       {"fin5", g::fin(5)},
        {"fin600", g::fin(600)},         {"isolated", g::isolated_faces(300)},
        {"fan2000", g::fan(2000)},       {"quad_grid", g::duplicated_quad_grid(40)},
        {"degenerate", g::with_degenerate_faces()},
        {"components", g::components(5, 2)},  {"bowtie", g::bowtie()},
    };
}

}  // namespace accumulate_test

using namespace accumulate_test;

TEST(GpuAccumulate, FaceSumsOnGeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    test::for_each_built_mesh(meshes(), {64, 256, 1024}, [](const RXMesh& mesh) {
        expect_face_sums<3>(mesh, "generated");
    });
}

TEST(GpuAccumulate, EdgeSumsOnGeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    test::for_each_built_mesh(meshes(), {128}, [](const RXMesh& mesh) { expect_edge_sums(mesh); });
}

TEST(GpuAccumulate, StagedVertexInput)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    test::for_each_built_mesh(meshes(), {256},
                              [](const RXMesh& mesh) { expect_staged_sums(mesh); });
}

//! A computed input (value d of vertex g: 3 g + d + 1, made while staged)
//! and accumulate_sum: each edge adds its other end's value 0 into each
//! end; finalize returns the vertex's sum plus its id, so the grand total
//! is the sum over edges of both ends' values plus the sum of ids, exact in
//! double. Returns the GPU's per-vertex sums and total.
template <AccumulateForm Form = AccumulateForm::Patches>
std::pair<std::vector<u64>, double> gpu_computed_input_sums(const RXMesh& mesh)
{
    DeviceBuffer<u64>    out(mesh.num_vertices());
    DeviceBuffer<double> total(1);
    out.memset(0xFF);
    total.memset(0);
    u64*       o     = out.data();
    const auto input = computed_vertex_input<u64, 3>(
        [] __device__(VertexId v, int d) { return u64(v.id()) * 3 + d + 1; });
    mesh.accumulate_sum<Op::EV, u64, 1, Plus, AccumulatePolicy<128, 1, Form>>(
        input,
        [] __device__(EdgeId, const RowView<VertexId>&, const StagedRow<u64, 3>& x,
                      const VertexSums<u64, 1>& sums) {
            for (int k = 0; k < 2; ++k) {
                const u64 other[1] = {x(1 - k, 0)};
                sums.add(k, other);
            }
        },
        [=] __device__(VertexId v, const u64(&sum)[1]) {
            o[v.id()] = sum[0];
            return double(sum[0]) + v.id();
        },
        total.data());
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    return {out.to_host(), total.to_host()[0]};
}

TEST(GpuAccumulate, ComputedInputAndSum)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    test::for_each_built_mesh(meshes(), {64, 512}, [](const RXMesh& mesh) {
        const std::uint32_t V = mesh.num_vertices();
        std::vector<u64>    ref(V, 0);
        std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
        for (const Triangle& t : rxmesh::test::faces_of(mesh))
            for (int k = 0; k < 3; ++k)
                edges.insert(std::minmax(t[k], t[(k + 1) % 3]));
        double want = 0;
        for (std::uint32_t v = 0; v < V; ++v)
            want += v;
        for (const auto& [a, b] : edges) {
            ref[a] += u64(b) * 3 + 1;
            ref[b] += u64(a) * 3 + 1;
            want += double(a) * 3 + 1 + double(b) * 3 + 1;
        }
        const auto expect = [&](const auto& result, const char* form) {
            const auto& [gpu, total] = result;
            for (std::uint32_t v = 0; v < V; ++v)
                ASSERT_EQ(gpu[v], ref[v]) << "vertex " << v << ", " << form;
            EXPECT_EQ(total, want) << form;
        };
        expect(gpu_computed_input_sums(mesh), "transpose per block");
        mesh.vertex_sources(Op::EV);  // then with the kept lists, in both forms
        expect(gpu_computed_input_sums<AccumulateForm::Patches>(mesh), "kept lists, patches");
        expect(gpu_computed_input_sums<AccumulateForm::Flat>(mesh), "kept lists, flat");
    });
}

TEST(GpuAccumulate, InputTooLargeForSharedMemoryUsesGlobalScratch)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // 64 u64 per vertex staged: 512 bytes per local vertex, so a patch of a
    // few hundred vertices exceeds any GPU's shared memory per block
    constexpr int M = 64;
    BuildOptions  opt;
    opt.patcher.capacity = 2048;  // patches of well over 512 vertices, whatever the patcher
    const RXMesh mesh(rxmesh::generate::torus(64, 32), opt);
    ASSERT_GT(std::size_t(mesh.store().limits.vertices) * M * sizeof(u64), 256u * 1024)
        << "the test needs an input larger than shared memory";
    const std::uint32_t V = mesh.num_vertices();
    std::vector<u64>    values(std::size_t(M) * V);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = i + 1;  // value d of vertex g: g * M + d + 1
    std::vector<u64> ref(V, 0);
    for (const Triangle& t : rxmesh::test::faces_of(mesh))
        for (int k = 0; k < 3; ++k)
            ref[t[k]] += values[std::size_t(M) * t[(k + 1) % 3] + M - 1] +
                         values[std::size_t(M) * t[(k + 2) % 3]];
    // the per-block transpose in the scratch, then the mesh's kept lists
    // (the scratch again, and the flat form, which stages nothing)
    const auto expect = [&](const std::vector<u64>& gpu, const char* form) {
        for (std::uint32_t v = 0; v < V; ++v)
            ASSERT_EQ(gpu[v], ref[v]) << "vertex " << v << ", " << form;
    };
    expect(gpu_wide_input_sums<M>(mesh, values), "transpose per block");
    mesh.vertex_sources(Op::FV);
    expect(gpu_wide_input_sums<M, AccumulateForm::Patches>(mesh, values), "kept lists, scratch");
    expect(gpu_wide_input_sums<M, AccumulateForm::Flat>(mesh, values), "kept lists, flat");
}

TEST(GpuAccumulate, ManySumsPerVertex)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // 40 sums per vertex: the gathered sum is larger than registers hold
    BuildOptions opt;
    opt.patcher.capacity = 512;
    const RXMesh mesh(rxmesh::generate::torus(40, 20), opt);
    expect_face_sums<40>(mesh, "torus 40x20");
}

//! Every sum above once more after the mesh keeps its source lists
//! (RXMesh::vertex_sources), which accumulate then reads in place of its
//! per-block transpose: in a block per patch and in a thread per vertex.
template <AccumulateForm Form>
void expect_kept_list_sums(const RXMesh& mesh)
{
    expect_face_sums<3, Form>(mesh, "kept source lists");
    expect_face_sums<40, Form>(mesh, "kept source lists");
    expect_edge_sums<Form>(mesh);
    expect_staged_sums<Form>(mesh);
}

TEST(GpuAccumulate, KeptSourceListsGiveTheSameSums)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    test::for_each_built_mesh(meshes(), {64, 1024}, [](const RXMesh& mesh) {
        expect_kept_source_lists(mesh);
        {
            SCOPED_TRACE("a block per patch");
            expect_kept_list_sums<AccumulateForm::Patches>(mesh);
        }
        {
            SCOPED_TRACE("a thread per vertex");
            expect_kept_list_sums<AccumulateForm::Flat>(mesh);
        }
    });
}

TEST(GpuAccumulate, RealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const auto files = rxmesh::test::cgal_mesh_files({".off", ".obj", ".ply"});
    if (files.empty())
        GTEST_SKIP() << "libcgal-demo meshes not found";
    const int done = rxmesh::test::for_each_mesh_file(
        files, {300000}, [](const std::string& file, const TriangleSoup& soup) {
            expect_face_sums<3>(rxmesh::test::welded_mesh(soup), file);
        });
    EXPECT_GT(done, 5);
}
