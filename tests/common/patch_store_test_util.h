// Shared helpers of the patch store tests (test_patch_store_build.cpp,
// test_validate*.cpp): building a store with the reference builder, the
// renumbering rules, an independent brute-force construction, and queries
// on a ValidationReport.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mesh_families.h"
#include "store_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/patch/validate.h"
#include "rxmesh/reference/patch_store.h"
#include "rxmesh/reference/topology.h"

namespace patch_store_test {

namespace gen = rxmesh::generate;
using namespace rxmesh;
using namespace rxmesh::reference;
using u32  = std::uint32_t;
using U32s = std::vector<u32>;
using U16s = std::vector<std::uint16_t>;

inline constexpr u32         kNone = ~0u;
inline constexpr std::size_t kAll  = 1000000;  // max_reports: keep every violation

// ---- helpers -------------------------------------------------------------

inline u32 nverts(const TriangleSoup& m) { return static_cast<u32>(m.positions.size()); }

inline u32 owner_of(const U32s& offsets, u32 x)
{
    return static_cast<u32>(std::upper_bound(offsets.begin(), offsets.end(), x) -
                            offsets.begin()) - 1;
}

inline ValidationReport check(const PatchedMesh& pm, std::size_t max_reports = kAll)
{
    return rxmesh::validate(pm.store, pm.faces,
                            static_cast<u32>(pm.vertex_new_to_old.size()), max_reports);
}

//! `msg` names "<word> <id>" with id not followed by another digit.
inline bool mentions(const std::string& msg, const std::string& word, std::uint64_t id)
{
    const std::string key = word + " " + std::to_string(id);
    for (std::size_t at = msg.find(key); at != std::string::npos; at = msg.find(key, at + 1)) {
        const std::size_t end = at + key.size();
        if (end == msg.size() || !std::isdigit(static_cast<unsigned char>(msg[end])))
            return true;
    }
    return false;
}

//! Some reported violation of `c` starts with "patch <p>:" (p != kNone) and
//! names "<word> <id>" (word non-empty).
inline bool reported(const ValidationReport& r, Contract c, u32 p, const std::string& word = "",
              std::uint64_t id = 0)
{
    for (const auto& v : r.violations) {
        if (v.contract != c)
            continue;
        if (p != kNone && v.message.rfind("patch " + std::to_string(p) + ":", 0) != 0)
            continue;
        if (!word.empty() && !mentions(v.message, word, id))
            continue;
        return true;
    }
    return false;
}

inline std::size_t count(const ValidationReport& r, Contract c)
{
    return std::count_if(r.violations.begin(), r.violations.end(),
                         [c](const rxmesh::Violation& v) { return v.contract == c; });
}

struct Built
{
    TriangleSoup mesh;
    U32s         face_patch;
    u32          num_patches = 0;
    PatchedMesh  pm;
};

inline Built build(const TriangleSoup& mesh, u32 capacity)
{
    Built b;
    b.mesh       = mesh;
    b.face_patch = bfs_patches(nverts(mesh), mesh.faces, capacity, b.num_patches);
    b.pm = build_patch_store(nverts(mesh), mesh.faces, b.face_patch, b.num_patches, capacity);
    return b;
}

inline bool is_permutation_of_iota(U32s v)
{
    std::sort(v.begin(), v.end());
    for (u32 i = 0; i < v.size(); ++i)
        if (v[i] != i)
            return false;
    return true;
}

inline U32s inverse(const U32s& p)
{
    U32s inv(p.size());
    for (u32 i = 0; i < p.size(); ++i)
        inv[p[i]] = i;
    return inv;
}

//! The renumbering rules, checked from the input mesh and assignment only.
inline void expect_renumbering(const Built& b)
{
    const auto&     faces = b.mesh.faces;
    const u32       V = nverts(b.mesh), F = static_cast<u32>(faces.size());
    const Topology  topo = build_topology(V, faces);
    const u32       E    = static_cast<u32>(topo.ev.size());
    const auto&     pm   = b.pm;
    const auto&     st   = pm.store;
    const u32       P    = b.num_patches;

    ASSERT_EQ(st.num_patches, P);
    ASSERT_EQ(pm.vertex_new_to_old.size(), V);
    ASSERT_EQ(pm.edge_new_to_old.size(), E);
    ASSERT_EQ(pm.face_new_to_old.size(), F);
    ASSERT_EQ(pm.faces.size(), F);
    ASSERT_TRUE(is_permutation_of_iota(pm.vertex_new_to_old));
    ASSERT_TRUE(is_permutation_of_iota(pm.edge_new_to_old));
    ASSERT_TRUE(is_permutation_of_iota(pm.face_new_to_old));
    ASSERT_EQ(st.vertex_offsets.size(), P + 1);
    ASSERT_EQ(st.edge_offsets.size(), P + 1);
    ASSERT_EQ(st.face_offsets.size(), P + 1);

    // expected owners: smallest incident patch; unreferenced vertex -> 0
    U32s vown(V, kNone), eown(E, kNone);
    for (u32 f = 0; f < F; ++f)
        for (int k = 0; k < 3; ++k)
            vown[faces[f][k]] = std::min(vown[faces[f][k]], b.face_patch[f]);
    for (u32& o : vown)
        if (o == kNone)
            o = 0;
    for (u32 e = 0; e < E; ++e)
        for (u32 i = topo.ef.offsets[e]; i < topo.ef.offsets[e + 1]; ++i)
            eown[e] = std::min(eown[e], b.face_patch[topo.ef.indices[i]]);

    // new ids sorted by (owner, old id); owned ranges hold the owner's ids
    auto expect_sorted = [&](const U32s& new_to_old, const U32s& owner, const U32s& offsets,
                             const char* what) {
        SCOPED_TRACE(what);
        EXPECT_EQ(offsets.front(), 0u);
        EXPECT_EQ(offsets.back(), new_to_old.size());
        for (u32 n = 0; n < new_to_old.size(); ++n) {
            const u32 o = new_to_old[n];
            ASSERT_EQ(owner_of(offsets, n), owner[o]) << "new id " << n << " old id " << o;
            if (n > 0) {
                const u32 prev = new_to_old[n - 1];
                ASSERT_LT(std::make_pair(owner[prev], prev), std::make_pair(owner[o], o));
            }
        }
    };
    expect_sorted(pm.vertex_new_to_old, vown, st.vertex_offsets, "vertices");
    expect_sorted(pm.edge_new_to_old, eown, st.edge_offsets, "edges");
    expect_sorted(pm.face_new_to_old, b.face_patch, st.face_offsets, "faces");

    // renumbered faces = old faces through the permutations, corners kept
    const U32s v_o2n = inverse(pm.vertex_new_to_old);
    for (u32 g = 0; g < F; ++g)
        for (int k = 0; k < 3; ++k)
            ASSERT_EQ(pm.faces[g][k], v_o2n[faces[pm.face_new_to_old[g]][k]]) << "face " << g;
}

//! Independent brute-force construction of the whole store from the
//! renumbered faces, offsets and edge permutation (quadratic; small meshes).
inline HostPatchStore brute_force_store(const Built& b)
{
    const auto& pm = b.pm;
    const u32   V  = nverts(b.mesh), F = static_cast<u32>(pm.faces.size());
    const Topology old = build_topology(V, b.mesh.faces);
    const U32s v_o2n = inverse(pm.vertex_new_to_old);
    std::map<std::pair<u32, u32>, u32> edge_id;  // (min, max) new vertex ids -> new edge id
    std::vector<std::pair<u32, u32>>   edge_vs;  // new edge id -> (min, max)
    for (u32 e = 0; e < pm.edge_new_to_old.size(); ++e) {
        const auto& ab = old.ev[pm.edge_new_to_old[e]];
        const u32   a = v_o2n[ab[0]], c = v_o2n[ab[1]];
        edge_id[{std::min(a, c), std::max(a, c)}] = e;
        edge_vs.emplace_back(std::min(a, c), std::max(a, c));
    }
    auto eid = [&](u32 a, u32 c) { return edge_id.at({std::min(a, c), std::max(a, c)}); };

    HostPatchStore s;
    s.num_patches      = pm.store.num_patches;
    s.capacity         = pm.store.capacity;
    s.vertex_offsets   = pm.store.vertex_offsets;
    s.edge_offsets     = pm.store.edge_offsets;
    s.face_offsets     = pm.store.face_offsets;
    s.ribbon_v_offsets = {0};
    s.ribbon_e_offsets = {0};
    s.ribbon_f_offsets = {0};
    for (u32 p = 0; p < s.num_patches; ++p) {
        const u32 f0 = s.face_offsets[p], f1 = s.face_offsets[p + 1];
        auto shares_vertex = [&](u32 g, u32 h) {
            for (u32 i : pm.faces[g])
                for (u32 j : pm.faces[h])
                    if (i == j)
                        return true;
            return false;
        };
        U32s local_f;
        for (u32 g = f0; g < f1; ++g)
            local_f.push_back(g);
        for (u32 g = 0; g < F; ++g) {
            if (g >= f0 && g < f1)
                continue;
            for (u32 h = f0; h < f1; ++h)
                if (shares_vertex(g, h)) {
                    local_f.push_back(g);
                    s.ribbon_f.push_back(g);
                    break;
                }
        }
        std::set<u32> vs, es;
        for (u32 g : local_f)
            for (int k = 0; k < 3; ++k) {
                vs.insert(pm.faces[g][k]);
                es.insert(eid(pm.faces[g][k], pm.faces[g][(k + 1) % 3]));
            }
        // the owned range of p, then the others it touches, which are its ribbon
        auto local_ids = [p](const U32s& offsets, const std::set<u32>& touched, U32s& ribbon) {
            U32s local;
            for (u32 x = offsets[p]; x < offsets[p + 1]; ++x)
                local.push_back(x);
            for (u32 x : touched)
                if (x < offsets[p] || x >= offsets[p + 1]) {
                    local.push_back(x);
                    ribbon.push_back(x);
                }
            return local;
        };
        const U32s local_v = local_ids(s.vertex_offsets, vs, s.ribbon_v);
        const U32s local_e = local_ids(s.edge_offsets, es, s.ribbon_e);
        s.ribbon_v_offsets.push_back(static_cast<u32>(s.ribbon_v.size()));
        s.ribbon_e_offsets.push_back(static_cast<u32>(s.ribbon_e.size()));
        s.ribbon_f_offsets.push_back(static_cast<u32>(s.ribbon_f.size()));
        auto lv = [&](u32 v) {
            return static_cast<std::uint16_t>(
                std::find(local_v.begin(), local_v.end(), v) - local_v.begin());
        };
        auto le = [&](u32 e) {
            return static_cast<u32>(std::find(local_e.begin(), local_e.end(), e) - local_e.begin());
        };
        // new edge -> its vertices
        for (u32 e : local_e) {
            s.m_ev.push_back(lv(edge_vs[e].first));
            s.m_ev.push_back(lv(edge_vs[e].second));
        }
        for (u32 g : local_f)
            for (int k = 0; k < 3; ++k) {
                const u32 a = pm.faces[g][k], c = pm.faces[g][(k + 1) % 3];
                s.m_fe.push_back(static_cast<std::uint16_t>((le(eid(a, c)) << 1) | (a > c ? 1 : 0)));
            }
    }
    return s;
}

inline void expect_same_store(const HostPatchStore& a, const HostPatchStore& b)
{
    EXPECT_EQ(a.capacity, b.capacity);
    rxmesh::test::expect_same_store_contents(a, b);
}

//! Everything a correct build must satisfy.
inline void expect_good(const Built& b, bool brute_force)
{
    expect_renumbering(b);
    if (::testing::Test::HasFatalFailure())
        return;
    const ValidationReport r = check(b.pm, 20);
    EXPECT_TRUE(r.ok()) << r.summary();
    EXPECT_EQ(r.total, 0u);
    if (brute_force)
        expect_same_store(b.pm.store, brute_force_store(b));
}

//! Bounded BFS patches: non-empty, <= capacity, edge-connected.
inline void expect_bfs_patches(const TriangleSoup& m, u32 capacity)
{
    u32        P  = 0;
    const U32s fp = bfs_patches(nverts(m), m.faces, capacity, P);
    ASSERT_EQ(fp.size(), m.faces.size());
    const Topology topo = build_topology(nverts(m), m.faces);
    std::vector<U32s> members(P);
    for (u32 f = 0; f < fp.size(); ++f) {
        ASSERT_LT(fp[f], P);
        members[fp[f]].push_back(f);
    }
    EXPECT_GE(std::uint64_t(P) * capacity, m.faces.size());
    if (!m.faces.empty()) {
        EXPECT_EQ(fp[0], 0u);
    }
    for (u32 p = 0; p < P; ++p) {
        ASSERT_FALSE(members[p].empty()) << "patch " << p;
        EXPECT_LE(members[p].size(), capacity) << "patch " << p;
        std::set<u32> seen{members[p][0]};
        U32s          stack{members[p][0]};
        while (!stack.empty()) {
            const u32 f = stack.back();
            stack.pop_back();
            for (u32 i = topo.ff.offsets[f]; i < topo.ff.offsets[f + 1]; ++i) {
                const u32 n = topo.ff.indices[i];
                if (fp[n] == p && seen.insert(n).second)
                    stack.push_back(n);
            }
        }
        EXPECT_EQ(seen.size(), members[p].size()) << "patch " << p << " not connected";
    }
}

inline TriangleSoup welded(const TriangleSoup& m)
{
    const auto   r = rxmesh::reference::reindex(m.positions, m.faces, true);
    TriangleSoup out;
    out.positions = r.positions;
    out.faces     = r.faces;
    return out;
}

inline rxmesh::test::NamedMeshes test_meshes()
{
    using namespace rxmesh::test;
    return joined(
        {manifold_families(3, {16, 10}, {12, 7}, {10, 6}, 3), irregular_families({3, 4}, 7, 40),
         {{"welded duplicated_quad_grid(6)", welded(gen::duplicated_quad_grid(6))},
          {"duplicated_quad_grid(4) with unreferenced vertices", gen::duplicated_quad_grid(4)},
          {"refine(icosphere(1))", gen::refine(gen::icosphere(1))},
          {"refine(grid(4,3))", gen::refine(gen::grid(4, 3))}}});
}

// ---- validate: the corruption tests' starting point ------------------------

//! The store every corruption test starts from: several patches.
inline Built base() { return build(gen::icosphere(2), 24); }  // 320 faces -> >= 14 patches

//! The fixture of the corruption tests: base(), and its store to corrupt.
class CorruptionTest : public ::testing::Test
{
 protected:
    Built           b = base();
    HostPatchStore& s = b.pm.store;
};

inline std::uint64_t fe_base(const HostPatchStore& s, u32 p)
{
    return 3 * (std::uint64_t(s.face_offsets[p]) + s.ribbon_f_offsets[p]);
}
inline std::uint64_t ev_base(const HostPatchStore& s, u32 p)
{
    return 2 * (std::uint64_t(s.edge_offsets[p]) + s.ribbon_e_offsets[p]);
}

}  // namespace patch_store_test
