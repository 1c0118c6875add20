// The eight queries of an RXMesh against the CPU reference topology, for
// every owned source element (shared by the query tests and the tests of
// meshes changed by the dynamic engine).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "each_op.h"
#include "gpu_test.h"
#include "mesh_faces.h"
#include "mesh_families.h"
#include "rxmesh/query_rows.cuh"
#include "rxmesh/reference/topology.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace query_test {

using namespace rxmesh;

//! A query's output for every source element, in global ids, as CSR.
struct Rows
{
    std::vector<std::uint32_t> offsets, values, calls;
    std::vector<std::uint8_t>  flips;  // FE only
    std::vector<std::uint32_t> row(std::uint32_t i) const
    {
        return {values.begin() + offsets[i], values.begin() + offsets[i + 1]};
    }
};

struct ActiveMask
{
    const std::uint8_t* mask;  // null: all active
    template <typename Id>
    __device__ bool operator()(Id id) const
    {
        return mask == nullptr || mask[id.id()] != 0;
    }
};

//! Runs `op` twice: counts (and calls per element), then the values.
template <Op op>
Rows run(const RXMesh& m, bool oriented, const std::vector<std::uint8_t>& mask = {})
{
    using S               = typename OpTraits<op>::Source;
    using O               = typename OpTraits<op>::Output;
    const std::uint32_t n = num_sources<op>(m);
    DeviceBuffer<std::uint32_t> count(n), calls(n);
    count.memset(0);
    calls.memset(0);
    DeviceBuffer<std::uint8_t> d_mask;
    if (!mask.empty())
        d_mask = DeviceBuffer<std::uint8_t>::from_host(mask);
    const ActiveMask active{mask.empty() ? nullptr : d_mask.data()};
    std::uint32_t*   c  = count.data();
    std::uint32_t*   cl = calls.data();
    m.for_each<op>(
        [=] __device__(S s, const RowView<O>& it) {
            c[s.id()] = it.size();
            atomicAdd(cl + s.id(), 1u);
        },
        active, oriented);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    Rows r;
    r.calls                 = calls.to_host();
    const auto counts       = count.to_host();
    r.offsets.assign(n + 1, 0);
    for (std::uint32_t i = 0; i < n; ++i)
        r.offsets[i + 1] = r.offsets[i] + counts[i];
    auto                        d_off = DeviceBuffer<std::uint32_t>::from_host(r.offsets);
    DeviceBuffer<std::uint32_t> values(std::max<std::uint32_t>(1, r.offsets[n]));
    DeviceBuffer<std::uint8_t>  flips(std::max<std::uint32_t>(1, r.offsets[n]));
    std::uint32_t*              off = d_off.data();
    std::uint32_t*              val = values.data();
    std::uint8_t*               fl  = flips.data();
    m.for_each<op>(
        [=] __device__(S s, const RowView<O>& it) {
            for (std::uint32_t i = 0; i < it.size(); ++i) {
                val[off[s.id()] + i] = it[i].id();
                fl[off[s.id()] + i]  = it.flipped(i) ? 1 : 0;
            }
        },
        active, oriented);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    r.values = values.to_host();
    r.values.resize(r.offsets[n]);
    r.flips = flips.to_host();
    r.flips.resize(r.offsets[n]);
    return r;
}

inline std::vector<std::uint32_t> sorted(std::vector<std::uint32_t> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

inline std::vector<std::uint32_t> ref_row(const reference::Csr& c, std::uint32_t i)
{
    return {c.indices.begin() + c.offsets[i], c.indices.begin() + c.offsets[i + 1]};
}

//! Serial check of one vertex's fan: true when its faces, walked from a to b
//! around it, form a single chain or cycle and no incident edge has more
//! than two faces (a manifold vertex).
inline bool manifold_vertex(std::uint32_t v, const reference::Topology& t,
                     const std::vector<Triangle>& faces)
{
    for (std::uint32_t e : ref_row(t.ve, v))
        if (t.ef.row_size(e) > 2)
            return false;
    const auto fs = ref_row(t.vf, v);
    if (fs.empty())
        return false;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ab;
    for (std::uint32_t f : fs) {
        const Triangle& tr = faces[f];
        const int       i  = tr[0] == v ? 0 : (tr[1] == v ? 1 : 2);
        ab.push_back({tr[(i + 1) % 3], tr[(i + 2) % 3]});
    }
    std::size_t start = 0;
    for (std::size_t i = 0; i < ab.size(); ++i)
        if (std::none_of(ab.begin(), ab.end(), [&](auto& p) { return p.second == ab[i].first; }))
            start = i;
    std::vector<bool> used(ab.size(), false);
    std::uint32_t     cur   = ab[start].second;
    used[start]             = true;
    std::size_t       count = 1;
    while (count < ab.size()) {
        auto it = std::find_if(ab.begin(), ab.end(), [&](auto& p) { return p.first == cur; });
        if (it == ab.end() || used[it - ab.begin()])
            break;
        used[it - ab.begin()] = true;
        cur                   = it->second;
        ++count;
    }
    return count == ab.size();
}

inline void check_mesh(const RXMesh& m, const std::string& name)
{
    SCOPED_TRACE(name);
    const std::vector<Triangle> faces = rxmesh::test::faces_of(m);
    const auto                  t     = reference::build_topology(m.num_vertices(), faces);
    ASSERT_EQ(t.ev.size(), m.num_edges());
    const std::uint32_t V = m.num_vertices(), E = m.num_edges(), F = m.num_faces();

    // EV first: it gives the map from RXMesh edge ids to canonical ones
    const Rows ev = run<Op::EV>(m, false);
    std::vector<std::uint32_t> canon(E);
    std::vector<std::uint32_t> hits(E, 0);
    for (std::uint32_t e = 0; e < E; ++e) {
        ASSERT_EQ(ev.calls[e], 1u) << "EV lambda calls for edge " << e;
        const auto r = ev.row(e);
        ASSERT_EQ(r.size(), 2u);
        ASSERT_LT(r[0], r[1]) << "EV must list the smaller vertex first";
        const std::array<std::uint32_t, 2> key{r[0], r[1]};
        const auto it = std::lower_bound(t.ev.begin(), t.ev.end(), key);
        ASSERT_TRUE(it != t.ev.end() && *it == key) << "edge " << e << " is not a mesh edge";
        canon[e] = static_cast<std::uint32_t>(it - t.ev.begin());
        ++hits[canon[e]];
    }
    for (std::uint32_t c = 0; c < E; ++c)
        ASSERT_EQ(hits[c], 1u) << "mesh edge " << c << " reported " << hits[c] << " times";
    auto to_canon = [&](std::vector<std::uint32_t> v) {
        for (auto& e : v)
            e = canon[e];
        return v;
    };

    const Rows fv = run<Op::FV>(m, false), fe = run<Op::FE>(m, false), ff = run<Op::FF>(m, false);
    for (std::uint32_t f = 0; f < F; ++f) {
        ASSERT_EQ(fv.calls[f], 1u);
        ASSERT_EQ(fv.row(f), std::vector<std::uint32_t>(faces[f].begin(), faces[f].end()))
            << "FV of face " << f;
        ASSERT_EQ(fe.calls[f], 1u);
        const auto edges = to_canon(fe.row(f));
        for (int k = 0; k < 3; ++k) {
            ASSERT_EQ(edges[k], t.fe[f][k] >> 1) << "FE of face " << f << " edge " << k;
            ASSERT_EQ(fe.flips[fe.offsets[f] + k], t.fe[f][k] & 1u) << "FE flip " << f;
        }
        ASSERT_EQ(ff.calls[f], 1u);
        ASSERT_EQ(sorted(ff.row(f)), ref_row(t.ff, f)) << "FF of face " << f;
    }
    const Rows ef = run<Op::EF>(m, false);
    for (std::uint32_t e = 0; e < E; ++e) {
        ASSERT_EQ(ef.calls[e], 1u);
        ASSERT_EQ(sorted(ef.row(e)), ref_row(t.ef, canon[e])) << "EF of edge " << e;
    }
    for (bool oriented : {false, true}) {
        SCOPED_TRACE(oriented ? "oriented" : "unordered");
        const Rows vv = run<Op::VV>(m, oriented), ve = run<Op::VE>(m, oriented),
                   vf = run<Op::VF>(m, oriented);
        for (std::uint32_t v = 0; v < V; ++v) {
            ASSERT_EQ(vv.calls[v], 1u);
            ASSERT_EQ(sorted(vv.row(v)), ref_row(t.vv, v)) << "VV of vertex " << v;
            ASSERT_EQ(sorted(to_canon(ve.row(v))), sorted(ref_row(t.ve, v))) << "VE " << v;
            ASSERT_EQ(sorted(vf.row(v)), ref_row(t.vf, v)) << "VF of vertex " << v;
            if (!oriented || !manifold_vertex(v, t, faces))
                continue;
            // faces walk the fan: face i = (v, a_i, b_i) and a_{i+1} = b_i
            const auto fs = vf.row(v), ns = vv.row(v), es = ve.row(v);
            auto a_b = [&](std::uint32_t f) {
                const Triangle& tr = faces[f];
                const int       i  = tr[0] == v ? 0 : (tr[1] == v ? 1 : 2);
                return std::make_pair(tr[(i + 1) % 3], tr[(i + 2) % 3]);
            };
            const bool boundary = ns.size() == fs.size() + 1;
            ASSERT_TRUE(boundary || ns.size() == fs.size()) << "vertex " << v;
            for (std::size_t i = 0; i < fs.size(); ++i) {
                ASSERT_EQ(ns[i], a_b(fs[i]).first) << "oriented VV/VF of vertex " << v;
                if (i + 1 < fs.size())
                    ASSERT_EQ(a_b(fs[i]).second, a_b(fs[i + 1]).first) << "vertex " << v;
            }
            if (boundary) {
                ASSERT_EQ(ns.back(), a_b(fs.back()).second);
                const std::array<std::uint32_t, 2> first{std::min(v, ns[0]), std::max(v, ns[0])};
                const auto e0 = std::lower_bound(t.ev.begin(), t.ev.end(), first) - t.ev.begin();
                ASSERT_EQ(t.ef.row_size(static_cast<std::uint32_t>(e0)), 1u)
                    << "boundary vertex " << v << " must start at its boundary edge";
            } else {
                ASSERT_EQ(a_b(fs.back()).second, a_b(fs.front()).first) << "vertex " << v;
            }
            for (std::size_t i = 0; i < es.size(); ++i) {
                const auto& p = t.ev[canon[es[i]]];
                ASSERT_TRUE(p[0] == ns[i] || p[1] == ns[i]) << "oriented VE of vertex " << v;
            }
        }
    }
}

//! `soup` with the winding of every k-th face reversed: still manifold, but
//! not consistently oriented, so the patches holding a flipped face take
//! the general EF / FF transpose.
inline TriangleSoup with_flipped_faces(TriangleSoup soup, std::size_t every)
{
    for (std::size_t f = 0; f < soup.faces.size(); f += every)
        std::swap(soup.faces[f][1], soup.faces[f][2]);
    return soup;
}

inline rxmesh::test::NamedMeshes generated()
{
    namespace g = rxmesh::generate;
    using namespace rxmesh::test;
    // fin600: FF too large for shared memory, the global fallback
    return joined({{{"torus_flipped", with_flipped_faces(g::torus(64, 40), 97)}},
                   manifold_families(4, {64, 40}, {70, 45}, {48, 20}, 200),
                   irregular_families({3, 5, 600}, 300, 2000), repair_families(40),
                   {{"refined", g::refine(g::refine(g::torus(16, 7)))}}});
}

template <typename Query>
__global__ void valence_kernel(Query q, std::uint32_t* valence)
{
    q.run([=](VertexId v, const RowView<VertexId>& vv) { valence[v.id()] = vv.size(); });
}

//! Every row of `op` written by a user kernel launched with `grid` blocks
//! (fewer than patches: each block loops over patches), laid out as the
//! rows of for_each. The rows are visited with RowView::for_each (the
//! reference test indexes them), so both ways of reading a row are checked.
template <Op op>
__global__ void rows_kernel(PatchQuery<op> q, const std::uint32_t* off, std::uint32_t* val,
                            std::uint32_t* calls)
{
    using S = typename OpTraits<op>::Source;
    using O = typename OpTraits<op>::Output;
    q.run([=](S s, const RowView<O>& it) {
        atomicAdd(calls + s.id(), 1u);
        std::uint32_t visits = 0;
        it.for_each([&](std::uint32_t i, O out) {
            val[off[s.id()] + i] = out.id();
            visits += i == visits;  // in order, once each
        });
        if (visits != it.size())
            atomicAdd(calls + s.id(), 100u);  // fails the call-count check
    });
}

template <Op op>
void expect_same_rows_with_small_grid(const RXMesh& m, unsigned grid)
{
    SCOPED_TRACE(std::string(to_string(op)) + " grid " + std::to_string(grid));
    const Rows                  like = run<op>(m, false);
    const std::uint32_t         n    = num_sources<op>(m);
    auto                        off  = DeviceBuffer<std::uint32_t>::from_host(like.offsets);
    DeviceBuffer<std::uint32_t> val(std::max<std::uint32_t>(1, like.offsets[n])), calls(n);
    val.memset(0xFF);
    calls.memset(0);
    const auto q = m.query<op>();
    ASSERT_LT(grid, q.grid()) << "the mesh must have more patches than blocks";
    RXMESH_CHECK_CUDA(cudaFuncSetAttribute(rows_kernel<op>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           int(q.smem_bytes())));
    rows_kernel<op><<<grid, q.block(), q.smem_bytes()>>>(q, off.data(), val.data(), calls.data());
    RXMESH_CHECK_LAUNCH();
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto v = val.to_host(), c = calls.to_host();
    for (std::uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(c[i], 1u) << "lambda calls of element " << i;
        std::vector<std::uint32_t> row(v.begin() + like.offsets[i], v.begin() + like.offsets[i + 1]);
        ASSERT_EQ(sorted(row), sorted(like.row(i))) << "element " << i;
    }
}

}  // namespace query_test
