// The k-ring queries against a CPU breadth-first search (reference/kring.h):
// for every owned vertex of every generated and real mesh, k = 1..4 (and up
// to 8 on small patches, k larger than a patch's radius), patch capacities
// 256..2048, the rings equal the reference's ring by ring, each vertex once,
// the lambda runs exactly once per active vertex; also the predicate form,
// short lists (the global-memory path) and active subsets.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "mesh_families.h"
#include "rxmesh/reference/kring.h"
#include "rxmesh/reference/topology.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace kring_test {

using namespace rxmesh;

//! Rings of every vertex as the GPU returned them: vertices and their ring
//! index, CSR by vertex, and the number of lambda calls per vertex.
struct Rings
{
    std::vector<std::uint32_t> offsets, values, ring, calls;
    std::vector<std::uint8_t>  bad_bounds;  // ring_begin/ring_end inconsistent
};

struct Mask
{
    const std::uint8_t* mask;  // null: all active
    __device__ bool     operator()(VertexId v) const { return !mask || mask[v.id()]; }
};

//! A predicate both sides evaluate exactly: keeps about four in five vertices.
__host__ __device__ inline bool kept(std::uint32_t u)
{
    return ((u * 2654435761u) >> 7) % 5u != 0u;
}
struct KeepHashed
{
    __device__ bool operator()(VertexId, VertexId u) const { return kept(u.id()); }
};

//! The same predicate on a staged input: value 1 where kept(u).
struct KeepStaged
{
    __device__ bool operator()(const KRingVertex<float, 1>&, const KRingVertex<float, 1>& u) const
    {
        return u.value[0] > 0.5f;
    }
};

//! The staged form's queries: k = staged(max_rings).
constexpr int staged(int max_rings) { return -1000 - max_rings; }

//! f for the staged form: checks each entry's staged value against its id
//! (bad[v] = 2 when one differs), then calls f.
template <typename F>
struct CheckStaged
{
    F              f;
    std::uint8_t*  bad;
    template <typename View>
    __device__ void operator()(VertexId v, const View& r) const
    {
        for (std::uint32_t i = 0; i < r.size(); ++i)
            if (r.vertex(i).id != r[i] || (r.vertex(i).value[0] > 0.5f) != kept(r[i].id()))
                bad[v.id()] = 2;
        f(v, r);
    }
};

//! Calls the query (k >= 0: for_each_kring; k < 0: for_each_kring_while
//! with KeepHashed and max_rings = -k; k = staged(m): the staged form) with f.
template <typename F>
void query(const RXMesh& m, int k, F f, const std::uint8_t* mask, std::uint32_t capacity)
{
    KRingOptions options;
    options.capacity = capacity;
    if (k >= 0) {
        m.for_each_kring(k, f, Mask{mask}, options);
    } else if (k > -1000) {
        m.for_each_kring_while(KeepHashed{}, -k, f, Mask{mask}, options);
    } else {
        std::vector<float> keep(m.num_vertices());
        for (std::uint32_t v = 0; v < keep.size(); ++v)
            keep[v] = kept(v) ? 1.f : 0.f;
        const auto d_keep = DeviceBuffer<float>::from_host(keep);
        DeviceBuffer<std::uint8_t> bad(m.num_vertices());
        bad.memset(0);
        m.for_each_kring_while(VertexInput<float, 1>{d_keep.data()}, KeepStaged{}, -1000 - k,
                               CheckStaged<F>{f, bad.data()}, Mask{mask}, options);
        const auto b = bad.to_host();
        ASSERT_EQ(std::count(b.begin(), b.end(), 2), 0) << "staged values differ from their ids";
    }
}

Rings run(const RXMesh& m, int k, const std::vector<std::uint8_t>& mask = {},
          std::uint32_t capacity = 0)
{
    const std::uint32_t V = m.num_vertices();
    DeviceBuffer<std::uint8_t> dmask = DeviceBuffer<std::uint8_t>::from_host(mask);
    const std::uint8_t*        mk    = mask.empty() ? nullptr : dmask.data();
    DeviceBuffer<std::uint32_t> count(V), calls(V);
    DeviceBuffer<std::uint8_t>  bad(V);
    count.memset(0), calls.memset(0), bad.memset(0);
    std::uint32_t *c = count.data(), *n = calls.data();
    std::uint8_t*  b = bad.data();
    query(m, k, [=] __device__(VertexId v, const KRingView& r) {
        c[v.id()] = r.size();
        atomicAdd(n + v.id(), 1u);
        bool ok = r.num_rings() >= 1 && r.ring_begin(0) == 0 && r.ring_end(0) == 1 &&
                  r.ring_end(r.num_rings() - 1) == r.size() && r[0] == v;
        for (std::uint32_t d = 1; d < r.num_rings(); ++d)
            ok = ok && r.ring_begin(d) == r.ring_end(d - 1) && r.ring_end(d) > r.ring_begin(d);
        b[v.id()] = !ok;
    }, mk, capacity);
    Rings out;
    out.calls      = calls.to_host();
    out.bad_bounds = bad.to_host();
    const auto counts = count.to_host();
    out.offsets.assign(V + 1, 0);
    std::partial_sum(counts.begin(), counts.end(), out.offsets.begin() + 1);
    auto off = DeviceBuffer<std::uint32_t>::from_host(out.offsets);
    DeviceBuffer<std::uint32_t> val(std::max(1u, out.offsets[V])), ring(val.size());
    std::uint32_t *o = off.data(), *pv = val.data(), *pr = ring.data();
    query(m, k, [=] __device__(VertexId v, const KRingView& r) {
        for (std::uint32_t d = 0; d < r.num_rings(); ++d)
            for (std::uint32_t i = r.ring_begin(d); i < r.ring_end(d); ++i) {
                pv[o[v.id()] + i] = r[i].id();
                pr[o[v.id()] + i] = d;
            }
    }, mk, capacity);
    out.values = val.to_host();
    out.ring   = ring.to_host();
    return out;
}

std::vector<std::vector<std::uint32_t>> reference_rings(const reference::Csr& vv, std::uint32_t v,
                                                        int k)
{
    if (k >= 0)
        return reference::kring(vv, v, k);
    return reference::grow(vv, v, [](std::uint32_t u) { return kept(u); }, k > -1000 ? -k : -1000 - k);
}

//! Every active vertex's rings equal the reference's, ring by ring.
void expect_rings(const RXMesh& m, int k, const std::string& name,
                  const std::vector<std::uint8_t>& mask = {}, std::uint32_t capacity = 0)
{
    SCOPED_TRACE(name + (k >= 0 ? " k " + std::to_string(k) : " grow form " + std::to_string(-k)) +
                 " capacity " + std::to_string(capacity));
    const Rings r    = run(m, k, mask, capacity);
    const auto  topo = reference::build_topology(m.num_vertices(), test::faces_of(m));
    for (std::uint32_t v = 0; v < m.num_vertices(); ++v) {
        const bool active = mask.empty() || mask[v];
        ASSERT_EQ(r.calls[v], active ? 1u : 0u) << "lambda calls of vertex " << v;
        if (!active)
            continue;
        ASSERT_EQ(r.bad_bounds[v], 0) << "ring bounds of vertex " << v;
        const auto ref = reference_rings(topo.vv, v, k);
        ASSERT_EQ(r.offsets[v + 1] - r.offsets[v],
                  std::accumulate(ref.begin(), ref.end(), std::size_t(0),
                                  [](std::size_t s, const auto& x) { return s + x.size(); }))
            << "size of vertex " << v;
        std::vector<std::vector<std::uint32_t>> got(ref.size());
        for (std::uint32_t i = r.offsets[v]; i < r.offsets[v + 1]; ++i) {
            ASSERT_LT(r.ring[i], ref.size()) << "vertex " << v;
            if (i > r.offsets[v])
                ASSERT_GE(r.ring[i], r.ring[i - 1]) << "ring order of vertex " << v;
            got[r.ring[i]].push_back(r.values[i]);
        }
        for (std::size_t d = 0; d < ref.size(); ++d) {
            std::sort(got[d].begin(), got[d].end());
            ASSERT_EQ(got[d], ref[d]) << "vertex " << v << " ring " << d;
        }
    }
}

test::NamedMeshes generated()
{
    namespace g = rxmesh::generate;
    using namespace rxmesh::test;
    return joined({manifold_families(4, {64, 40}, {70, 45}, {48, 20}, 120),
                   irregular_families({5}, 300, 2000), repair_families(40),
                   {{"refined", g::refine(g::refine(g::torus(16, 7)))}}});
}

struct NoOp
{
    __device__ void operator()(VertexId, const KRingView&) const {}
};

}  // namespace kring_test

using namespace kring_test;

TEST(GpuKRing, GeneratedMeshesMatchReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& [name, soup] : generated())
        for (std::uint32_t capacity : {256u, 512u, 1024u, 2048u}) {
            const RXMesh mesh = test::welded_mesh(soup, capacity);
            for (int k = 1; k <= 4; ++k)
                expect_rings(mesh, k, name + " patch " + std::to_string(capacity));
            expect_rings(mesh, -4, name + " patch " + std::to_string(capacity));
            expect_rings(mesh, staged(4), name + " patch " + std::to_string(capacity));
        }
}

TEST(GpuKRing, RealMeshesMatchReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
    const int checked = test::for_each_real_mesh(
        {200'000}, [](const std::string& file, const TriangleSoup& soup) {
            const RXMesh mesh = test::welded_mesh(soup, 512);
            for (int k = 1; k <= 3; ++k)
                expect_rings(mesh, k, file);
            expect_rings(mesh, -3, file);
        });
    EXPECT_GT(checked, 100);
}

TEST(GpuKRing, LargeKCrossesManyPatches)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // patches of 64 faces have a radius of a few edges: rings of 5..8 cross several
    for (const auto& soup : {generate::icosphere(3), generate::grid(30, 20)}) {
        const RXMesh mesh = test::welded_mesh(soup, 64);
        ASSERT_GT(mesh.num_patches(), 10u);
        for (int k : {5, 8})
            expect_rings(mesh, k, "small patches");
        expect_rings(mesh, 0, "k 0: the vertex alone");
    }
}

TEST(GpuKRing, ShortListsTakeTheGlobalPath)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // lists of 2 and 5 entries: nearly every vertex overflows, some several times
    const RXMesh mesh = test::welded_mesh(generate::refine(generate::torus(20, 9)), 256);
    for (std::uint32_t capacity : {2u, 5u}) {
        expect_rings(mesh, 3, "short lists", {}, capacity);
        expect_rings(mesh, -5, "short lists", {}, capacity);
        expect_rings(mesh, staged(5), "short lists", {}, capacity);
    }
    // one vertex of valence 5000
    const RXMesh fan = test::welded_mesh(generate::fan(5000), 512);
    expect_rings(fan, 2, "fan 5000");
}

TEST(GpuKRing, ActiveSubsets)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh        mesh = test::welded_mesh(generate::torus(48, 30), 256);
    const std::uint32_t V    = mesh.num_vertices();
    std::mt19937        rng(11);
    std::vector<std::uint8_t> none(V, 0), one(V, 0), half(V);
    one[V / 3] = 1;
    for (auto& b : half)
        b = rng() & 1;
    for (const auto& mask : {none, one, half}) {
        expect_rings(mesh, 2, "active subset", mask);
        expect_rings(mesh, -3, "active subset", mask);
        expect_rings(mesh, staged(3), "active subset", mask);
        expect_rings(mesh, 2, "active subset, short lists", mask, 4);
    }
}

TEST(GpuKRing, KOutOfRangeThrows)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh mesh(generate::icosphere(1));
    EXPECT_THROW(mesh.for_each_kring(kMaxKRingRings + 1, NoOp{}), Error);
    EXPECT_THROW(mesh.for_each_kring(-1, NoOp{}), Error);
}

//! The halo's contract (query/kring_halo.h), checked by a multi-source
//! breadth-first search per patch on the CPU: level d holds the vertices at
//! distance exactly d from the patch's owned vertices, sorted; the rows of
//! owned and lower-level vertices decode to their one-rings.
void expect_halo_contract(const RXMesh& mesh, const std::string& name)
{
    SCOPED_TRACE(name);
    const KRingHalo& halo = mesh.kring_halo();
    const auto topo   = reference::build_topology(mesh.num_vertices(), test::faces_of(mesh));
    const auto vo     = mesh.store().vertex_offsets.to_host();
    const auto hoff   = halo.halo_offsets.to_host(), hv = halo.halo_vertices.to_host();
    const auto rfirst = halo.row_first.to_host(), roff = halo.row_offsets.to_host();
    const auto ent    = halo.entries.to_host();
    std::vector<int> dist(mesh.num_vertices(), -1);
    for (std::uint32_t p = 0; p < mesh.num_patches(); ++p) {
        std::fill(dist.begin(), dist.end(), -1);
        std::vector<std::uint32_t> frontier;
        for (std::uint32_t v = vo[p]; v < vo[p + 1]; ++v)
            dist[v] = 0, frontier.push_back(v);
        std::vector<std::uint32_t> expected;  // ext order: owned, then level by level
        for (std::uint32_t v = vo[p]; v < vo[p + 1]; ++v)
            expected.push_back(v);
        for (int d = 1; d <= halo.depth; ++d) {
            std::vector<std::uint32_t> next;
            for (std::uint32_t x : frontier)
                for (std::uint32_t i = topo.vv.offsets[x]; i < topo.vv.offsets[x + 1]; ++i)
                    if (dist[topo.vv.indices[i]] < 0)
                        dist[topo.vv.indices[i]] = d, next.push_back(topo.vv.indices[i]);
            std::sort(next.begin(), next.end());
            expected.insert(expected.end(), next.begin(), next.end());
            frontier = next;
        }
        const std::vector<std::uint32_t> got_halo(hv.begin() + hoff[p], hv.begin() + hoff[p + 1]);
        ASSERT_EQ(got_halo, std::vector<std::uint32_t>(expected.begin() + (vo[p + 1] - vo[p]),
                                                       expected.end()))
            << "halo of patch " << p;
        const std::uint32_t rows = rfirst[p + 1] - rfirst[p];
        for (std::uint32_t l = 0; l < rows; ++l) {
            ASSERT_LT(dist[expected[l]], halo.depth) << "row of ext " << l << ", patch " << p;
            std::vector<std::uint32_t> row;
            for (std::uint32_t e = roff[rfirst[p] + l]; e < roff[rfirst[p] + l + 1]; ++e)
                row.push_back(expected.at(ent[e]));
            std::sort(row.begin(), row.end());
            ASSERT_EQ(row, std::vector<std::uint32_t>(topo.vv.indices.begin() + topo.vv.offsets[expected[l]],
                                                      topo.vv.indices.begin() + topo.vv.offsets[expected[l] + 1]))
                << "row of ext " << l << ", patch " << p;
        }
        // every vertex closer than the depth has a row
        for (std::uint32_t l = rows; l < expected.size(); ++l)
            ASSERT_EQ(dist[expected[l]], halo.depth) << "ext " << l << " of patch " << p;
    }
    std::size_t bytes = 0;
    for (std::size_t b : {halo.halo_offsets.bytes(), halo.halo_vertices.bytes(), halo.row_first.bytes(),
                          halo.row_offsets.bytes(), halo.entries.bytes(), halo.bucket_patch.bytes()})
        bytes += b;
    EXPECT_EQ(mesh.kring_bytes(), bytes);
}

TEST(GpuKRing, HaloMatchesMultiSourceSearch)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& [name, soup] : generated())
        for (std::uint32_t capacity : {64u, 512u}) {
            const RXMesh mesh = test::welded_mesh(soup, capacity);
            EXPECT_EQ(mesh.kring_bytes(), 0u);
            expect_halo_contract(mesh, name + " patch " + std::to_string(capacity));
        }
}
