// Tests of the reference patch store builder (reference::build_patch_store,
// reference::bfs_patches) and of the contract validator (rxmesh::validate).
//
// The builder is checked three independent ways: a tiny store written by
// hand from the rules, an independent brute-force construction (std::set,
// quadratic scans) compared array by array on small meshes, and validate().
// The validator is checked by targeted corruptions, one per contract, and by
// single-entry random corruptions that must all be detected without crashing.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/patch/validate.h"
#include "rxmesh/reference/patch_store.h"
#include "rxmesh/reference/topology.h"

namespace {

namespace gen = rxmesh::generate;
using rxmesh::Contract;
using rxmesh::HostPatchStore;
using rxmesh::InvalidInputError;
using rxmesh::Triangle;
using rxmesh::TriangleSoup;
using rxmesh::ValidationReport;
using rxmesh::reference::bfs_patches;
using rxmesh::reference::build_patch_store;
using rxmesh::reference::build_topology;
using rxmesh::reference::PatchedMesh;
using rxmesh::reference::Topology;
using u32  = std::uint32_t;
using U32s = std::vector<u32>;
using U16s = std::vector<std::uint16_t>;

constexpr u32         kNone = ~0u;
constexpr std::size_t kAll  = 1000000;  // max_reports: keep every violation

// ---- helpers -------------------------------------------------------------

u32 nverts(const TriangleSoup& m) { return static_cast<u32>(m.positions.size()); }

u32 owner_of(const U32s& offsets, u32 x)
{
    return static_cast<u32>(std::upper_bound(offsets.begin(), offsets.end(), x) -
                            offsets.begin()) - 1;
}

ValidationReport check(const PatchedMesh& pm, std::size_t max_reports = kAll)
{
    return rxmesh::validate(pm.store, pm.faces,
                            static_cast<u32>(pm.vertex_new_to_old.size()), max_reports);
}

//! `msg` names "<word> <id>" with id not followed by another digit.
bool mentions(const std::string& msg, const std::string& word, std::uint64_t id)
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
bool reported(const ValidationReport& r, Contract c, u32 p, const std::string& word = "",
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

std::size_t count(const ValidationReport& r, Contract c)
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

Built build(const TriangleSoup& mesh, u32 capacity)
{
    Built b;
    b.mesh       = mesh;
    b.face_patch = bfs_patches(nverts(mesh), mesh.faces, capacity, b.num_patches);
    b.pm = build_patch_store(nverts(mesh), mesh.faces, b.face_patch, b.num_patches, capacity);
    return b;
}

bool is_permutation_of_iota(U32s v)
{
    std::sort(v.begin(), v.end());
    for (u32 i = 0; i < v.size(); ++i)
        if (v[i] != i)
            return false;
    return true;
}

U32s inverse(const U32s& p)
{
    U32s inv(p.size());
    for (u32 i = 0; i < p.size(); ++i)
        inv[p[i]] = i;
    return inv;
}

//! The renumbering rules, checked from the input mesh and assignment only.
void expect_renumbering(const Built& b)
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
HostPatchStore brute_force_store(const Built& b)
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
        U32s local_v, local_e;
        for (u32 v = s.vertex_offsets[p]; v < s.vertex_offsets[p + 1]; ++v)
            local_v.push_back(v);
        for (u32 v : vs)
            if (v < s.vertex_offsets[p] || v >= s.vertex_offsets[p + 1]) {
                local_v.push_back(v);
                s.ribbon_v.push_back(v);
            }
        for (u32 e = s.edge_offsets[p]; e < s.edge_offsets[p + 1]; ++e)
            local_e.push_back(e);
        for (u32 e : es)
            if (e < s.edge_offsets[p] || e >= s.edge_offsets[p + 1]) {
                local_e.push_back(e);
                s.ribbon_e.push_back(e);
            }
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

void expect_same_store(const HostPatchStore& a, const HostPatchStore& b)
{
    EXPECT_EQ(a.num_patches, b.num_patches);
    EXPECT_EQ(a.capacity, b.capacity);
    EXPECT_EQ(a.vertex_offsets, b.vertex_offsets);
    EXPECT_EQ(a.edge_offsets, b.edge_offsets);
    EXPECT_EQ(a.face_offsets, b.face_offsets);
    EXPECT_EQ(a.ribbon_v_offsets, b.ribbon_v_offsets);
    EXPECT_EQ(a.ribbon_e_offsets, b.ribbon_e_offsets);
    EXPECT_EQ(a.ribbon_f_offsets, b.ribbon_f_offsets);
    EXPECT_EQ(a.ribbon_v, b.ribbon_v);
    EXPECT_EQ(a.ribbon_e, b.ribbon_e);
    EXPECT_EQ(a.ribbon_f, b.ribbon_f);
    EXPECT_EQ(a.m_ev, b.m_ev);
    EXPECT_EQ(a.m_fe, b.m_fe);
}

//! Everything a correct build must satisfy.
void expect_good(const Built& b, bool brute_force)
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
void expect_bfs_patches(const TriangleSoup& m, u32 capacity)
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

TriangleSoup welded(const TriangleSoup& m)
{
    const auto   r = rxmesh::reference::reindex(m.positions, m.faces, true);
    TriangleSoup out;
    out.positions = r.positions;
    out.faces     = r.faces;
    return out;
}

std::vector<std::pair<std::string, TriangleSoup>> test_meshes()
{
    return {
        {"icosphere(3)", gen::icosphere(3)},
        {"torus(16,10)", gen::torus(16, 10)},
        {"grid(12,7)", gen::grid(12, 7)},
        {"cylinder(10,6)", gen::cylinder(10, 6)},
        {"components(3,1)", gen::components(3, 1)},
        {"bowtie", gen::bowtie()},
        {"fin(3)", gen::fin(3)},
        {"fin(4)", gen::fin(4)},
        {"isolated_faces(7)", gen::isolated_faces(7)},
        {"welded duplicated_quad_grid(6)", welded(gen::duplicated_quad_grid(6))},
        {"duplicated_quad_grid(4) with unreferenced vertices", gen::duplicated_quad_grid(4)},
        {"refine(icosphere(1))", gen::refine(gen::icosphere(1))},
        {"refine(grid(4,3))", gen::refine(gen::grid(4, 3))},
        {"fan(40)", gen::fan(40)},
    };
}

// ---- building ----------------------------------------------------------------

TEST(PatchStoreBuild, GeneratedMeshesAllCapacities)
{
    for (const auto& [name, mesh] : test_meshes())
        for (u32 cap : {1u, 16u, 64u, 512u}) {
            SCOPED_TRACE(name + " capacity " + std::to_string(cap));
            expect_bfs_patches(mesh, cap);
            expect_good(build(mesh, cap), mesh.faces.size() <= 1500);
        }
}

TEST(PatchStoreBuild, HandCheckedTwoTriangles)
{
    // Old faces f0 = (0,1,2) in patch 1, f1 = (1,3,2) in patch 0.
    // Owners: v0 -> 1; v1, v2, v3 -> 0. Old canonical edges:
    // e0=(0,1) e1=(0,2) e2=(1,2) e3=(1,3) e4=(2,3); owners e0,e1 -> 1, others -> 0.
    // New vertices: 1,2,3 | 0; new edges: e2,e3,e4 | e0,e1; new faces: f1 | f0.
    // New faces: (1,3,2) -> (0,2,1); (0,1,2) -> (3,0,1).
    // New edges: 0=(0,1) 1=(0,2) 2=(1,2) | 3=(0,3) 4=(1,3).
    const std::vector<Triangle> faces = {{0, 1, 2}, {1, 3, 2}};
    const PatchedMesh pm = build_patch_store(4, faces, {1, 0}, 2, 8);
    const auto&       s  = pm.store;
    EXPECT_EQ(pm.vertex_new_to_old, (U32s{1, 2, 3, 0}));
    EXPECT_EQ(pm.edge_new_to_old, (U32s{2, 3, 4, 0, 1}));
    EXPECT_EQ(pm.face_new_to_old, (U32s{1, 0}));
    EXPECT_EQ(pm.faces, (std::vector<Triangle>{{0, 2, 1}, {3, 0, 1}}));
    EXPECT_EQ(s.num_patches, 2u);
    EXPECT_EQ(s.capacity, 8u);
    EXPECT_EQ(s.vertex_offsets, (U32s{0, 3, 4}));
    EXPECT_EQ(s.edge_offsets, (U32s{0, 3, 5}));
    EXPECT_EQ(s.face_offsets, (U32s{0, 1, 2}));
    // patch 0: ribbon face 1, edges 3,4, vertex 3; patch 1: face 0, edges 0,1,2, vertices 0,1,2
    EXPECT_EQ(s.ribbon_f_offsets, (U32s{0, 1, 2}));
    EXPECT_EQ(s.ribbon_f, (U32s{1, 0}));
    EXPECT_EQ(s.ribbon_e_offsets, (U32s{0, 2, 5}));
    EXPECT_EQ(s.ribbon_e, (U32s{3, 4, 0, 1, 2}));
    EXPECT_EQ(s.ribbon_v_offsets, (U32s{0, 1, 4}));
    EXPECT_EQ(s.ribbon_v, (U32s{3, 0, 1, 2}));
    // patch 0: local = global for edges and vertices.
    // patch 1: local vertices g3 g0 g1 g2; local edges g3 g4 g0 g1 g2.
    EXPECT_EQ(s.m_ev, (U16s{0, 1, 0, 2, 1, 2, 0, 3, 1, 3,     // patch 0
                            1, 0, 2, 0, 1, 2, 1, 3, 2, 3}));  // patch 1
    // patch 0: face 0 (0,2,1): (0,2)=e1 f0, (2,1)=e2 f1, (1,0)=e0 f1
    //          face 1 (3,0,1): (3,0)=e3 f1, (0,1)=e0 f0, (1,3)=e4 f0
    // patch 1: face 1: g3->l0 f1, g0->l2 f0, g4->l1 f0
    //          face 0: g1->l3 f0, g2->l4 f1, g0->l2 f1
    EXPECT_EQ(s.m_fe, (U16s{2, 5, 1, 7, 0, 8,  // patch 0
                            1, 4, 2, 6, 9, 5}));  // patch 1
    EXPECT_TRUE(check(pm).ok()) << check(pm).summary();
}

TEST(PatchStoreBuild, FanCentreOneRingInOwnersRibbon)
{
    const TriangleSoup m = gen::fan(2000);
    for (u32 cap : {64u, 256u, 512u}) {
        SCOPED_TRACE("capacity " + std::to_string(cap));
        const Built b = build(m, cap);
        ASSERT_GT(b.num_patches, 2000 / cap);
        expect_good(b, cap == 256);
        const auto& s      = b.pm.store;
        const u32   centre = inverse(b.pm.vertex_new_to_old)[0];
        const u32   p      = owner_of(s.vertex_offsets, centre);
        EXPECT_EQ(p, 0u);  // the smallest patch among its faces
        // every face touches the centre: all 2000 are local faces of every patch
        for (u32 q = 0; q < b.num_patches; ++q) {
            const u32 local = s.face_offsets[q + 1] - s.face_offsets[q] +
                              s.ribbon_f_offsets[q + 1] - s.ribbon_f_offsets[q];
            EXPECT_EQ(local, 2000u) << "patch " << q;
        }
    }
}

TEST(PatchStoreBuild, UnreferencedVerticesGoToPatchZero)
{
    const TriangleSoup m = gen::duplicated_quad_grid(5);  // centre 5q+4 unused
    const Built        b = build(m, 8);
    expect_good(b, true);
    const U32s o2n = inverse(b.pm.vertex_new_to_old);
    for (u32 q = 0; q < 25; ++q) {
        const u32 n = o2n[5 * q + 4];
        EXPECT_LT(n, b.pm.store.vertex_offsets[1]) << "centre of quad " << q;
    }
}

TEST(PatchStoreBuild, AnyAssignmentIsAccepted)
{
    // reversed, scattered patch ids: patches need not be connected or small
    const TriangleSoup m = gen::icosphere(2);
    const u32          F = static_cast<u32>(m.faces.size());
    Built              b;
    b.mesh = m;
    b.num_patches = 7;
    for (u32 f = 0; f < F; ++f)
        b.face_patch.push_back((F - f) * 5 % 7);
    b.pm = build_patch_store(nverts(m), m.faces, b.face_patch, 7, F);
    expect_renumbering(b);
    expect_same_store(b.pm.store, brute_force_store(b));
    const ValidationReport r = check(b.pm);
    EXPECT_TRUE(r.has(Contract::Connected));
    EXPECT_EQ(r.total, count(r, Contract::Connected)) << r.summary();
}

TEST(PatchStoreBuild, EmptyMesh)
{
    const PatchedMesh pm = build_patch_store(0, {}, {}, 0, 16);
    EXPECT_EQ(pm.store.vertex_offsets, U32s{0});
    EXPECT_EQ(pm.store.ribbon_f_offsets, U32s{0});
    EXPECT_TRUE(pm.store.m_fe.empty());
    EXPECT_TRUE(check(pm).ok());
}

TEST(PatchStoreBuild, LargeMesh)
{
    const Built b = build(gen::icosphere(7), 512);  // 327680 faces
    expect_renumbering(b);
    const ValidationReport r = check(b.pm, 20);
    EXPECT_TRUE(r.ok()) << r.summary();
}

TEST(PatchStoreBuild, LocalEdgeLimit)
{
    // fan(n) in one patch has 2n local edges; (edge << 1) | flip holds 32767
    const TriangleSoup ok = gen::fan(16383);  // 32766 edges
    const U32s         one(ok.faces.size(), 0);
    EXPECT_NO_THROW(build_patch_store(nverts(ok), ok.faces, one, 1, 16383));
    const TriangleSoup big = gen::fan(16384);  // 32768 edges
    EXPECT_THROW(build_patch_store(nverts(big), big.faces, U32s(big.faces.size(), 0), 1, 16384),
                 InvalidInputError);
}

TEST(PatchStoreThrows, BadInput)
{
    const TriangleSoup m = gen::grid(2, 2);  // 8 faces, 9 vertices
    const U32s         fp{0, 0, 0, 0, 1, 1, 1, 1};
    EXPECT_NO_THROW(build_patch_store(9, m.faces, fp, 2, 8));
    // face_patch out of range
    U32s out = fp;
    out[3]   = 2;
    EXPECT_THROW(build_patch_store(9, m.faces, out, 2, 8), InvalidInputError);
    // empty patch 1 of 3
    U32s gap = fp;
    for (u32& p : gap)
        p = p == 1 ? 2 : 0;
    EXPECT_THROW(build_patch_store(9, m.faces, gap, 3, 8), InvalidInputError);
    // vertex out of range
    auto bad_faces = m.faces;
    bad_faces[5][1] = 9;
    EXPECT_THROW(build_patch_store(9, bad_faces, fp, 2, 8), InvalidInputError);
    // repeated vertex
    bad_faces       = m.faces;
    bad_faces[2][2] = bad_faces[2][0];
    EXPECT_THROW(build_patch_store(9, bad_faces, fp, 2, 8), InvalidInputError);
    // size mismatch
    EXPECT_THROW(build_patch_store(9, m.faces, U32s{0, 0}, 1, 8), InvalidInputError);
    // bfs with capacity 0
    u32 P = 0;
    EXPECT_THROW(bfs_patches(9, m.faces, 0, P), InvalidInputError);
}

// ---- validate: one targeted corruption per contract ----------------------------

//! The store every corruption test starts from: several patches.
Built base() { return build(gen::icosphere(2), 24); }  // 320 faces -> >= 14 patches

//! Removes ribbon face `idx` (index inside patch p's ribbon list), keeping
//! every size consistent.
u32 erase_ribbon_face(HostPatchStore& s, u32 p, u32 idx)
{
    const u32 own_f = s.face_offsets[p + 1] - s.face_offsets[p];
    const std::uint64_t at = 3 * (std::uint64_t(s.face_offsets[p]) + s.ribbon_f_offsets[p] + own_f + idx);
    s.m_fe.erase(s.m_fe.begin() + at, s.m_fe.begin() + at + 3);
    const u32 g = s.ribbon_f[s.ribbon_f_offsets[p] + idx];
    s.ribbon_f.erase(s.ribbon_f.begin() + s.ribbon_f_offsets[p] + idx);
    for (u32 q = p + 1; q <= s.num_patches; ++q)
        --s.ribbon_f_offsets[q];
    return g;
}

//! Inserts face g into p's ribbon at its sorted place, with M_FE `fe`.
void insert_ribbon_face(HostPatchStore& s, u32 p, u32 g, std::array<std::uint16_t, 3> fe)
{
    const auto b   = s.ribbon_f.begin() + s.ribbon_f_offsets[p];
    const auto e   = s.ribbon_f.begin() + s.ribbon_f_offsets[p + 1];
    const u32  idx = static_cast<u32>(std::lower_bound(b, e, g) - b);
    const u32  own_f = s.face_offsets[p + 1] - s.face_offsets[p];
    const std::uint64_t at = 3 * (std::uint64_t(s.face_offsets[p]) + s.ribbon_f_offsets[p] + own_f + idx);
    s.m_fe.insert(s.m_fe.begin() + at, fe.begin(), fe.end());
    s.ribbon_f.insert(s.ribbon_f.begin() + s.ribbon_f_offsets[p] + idx, g);
    for (u32 q = p + 1; q <= s.num_patches; ++q)
        ++s.ribbon_f_offsets[q];
}

//! Inserts vertex v into p's ribbon list after the entries <= v.
void insert_ribbon_vertex(HostPatchStore& s, u32 p, u32 v)
{
    const auto b = s.ribbon_v.begin() + s.ribbon_v_offsets[p];
    const auto e = s.ribbon_v.begin() + s.ribbon_v_offsets[p + 1];
    s.ribbon_v.insert(std::upper_bound(b, e, v), v);
    for (u32 q = p + 1; q <= s.num_patches; ++q)
        ++s.ribbon_v_offsets[q];
}

std::uint64_t fe_base(const HostPatchStore& s, u32 p)
{
    return 3 * (std::uint64_t(s.face_offsets[p]) + s.ribbon_f_offsets[p]);
}
std::uint64_t ev_base(const HostPatchStore& s, u32 p)
{
    return 2 * (std::uint64_t(s.edge_offsets[p]) + s.ribbon_e_offsets[p]);
}

TEST(ValidateBase, BaseStoreIsValid)
{
    const Built b = base();
    ASSERT_GE(b.num_patches, 14u);
    expect_good(b, true);
}

TEST(ValidateOffsets, NonMonotoneFaceOffsets)
{
    Built b = base();
    auto& s = b.pm.store;
    s.face_offsets[1] = s.face_offsets[2] + 1;
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::Offsets, 1, "", 0)) << r.summary();
    EXPECT_TRUE(r.violations[0].message.find("face_offsets[2]") != std::string::npos)
        << r.summary();
}

TEST(ValidateOffsets, WrongTotals)
{
    {
        Built b = base();
        ++b.pm.store.vertex_offsets.back();
        const auto r = check(b.pm);
        ASSERT_TRUE(r.has(Contract::Offsets)) << r.summary();
        EXPECT_NE(r.violations[0].message.find("vertex_offsets"), std::string::npos);
    }
    {
        Built b = base();
        b.pm.store.ribbon_e.push_back(0);  // ribbon_e_offsets and m_ev no longer match
        const auto r = check(b.pm);
        EXPECT_TRUE(r.has(Contract::Offsets));
        EXPECT_EQ(r.total, 2u) << r.summary();
    }
    {
        Built b = base();
        b.pm.store.m_fe.pop_back();
        const auto r = check(b.pm);
        EXPECT_TRUE(r.has(Contract::Offsets));
        EXPECT_EQ(r.total, 1u) << r.summary();
        EXPECT_NE(r.violations[0].message.find("m_fe"), std::string::npos);
    }
}

TEST(ValidateOffsets, WrongSizesAndStart)
{
    {
        Built b = base();
        b.pm.store.edge_offsets.pop_back();
        const auto r = check(b.pm);
        EXPECT_TRUE(r.has(Contract::Offsets)) << r.summary();
    }
    {
        Built b = base();
        b.pm.store.num_patches += 1;  // every offset array is now one short
        const auto r = check(b.pm);
        EXPECT_EQ(count(r, Contract::Offsets), 6u) << r.summary();
    }
    {
        Built b = base();
        b.pm.store.ribbon_v_offsets[0] = 1;
        const auto r = check(b.pm);
        EXPECT_TRUE(r.has(Contract::Offsets)) << r.summary();
    }
}

TEST(ValidateCapacity, BelowLargestPatch)
{
    Built       b = base();
    auto&       s = b.pm.store;
    u32         largest = 0;
    std::size_t at_max  = 0;
    for (u32 p = 0; p < s.num_patches; ++p)
        largest = std::max(largest, s.face_offsets[p + 1] - s.face_offsets[p]);
    for (u32 p = 0; p < s.num_patches; ++p)
        at_max += (s.face_offsets[p + 1] - s.face_offsets[p] == largest);
    s.capacity = largest;
    EXPECT_TRUE(check(b.pm).ok());
    s.capacity     = largest - 1;
    const auto r   = check(b.pm);
    EXPECT_EQ(r.total, at_max) << r.summary();
    EXPECT_EQ(count(r, Contract::Capacity), at_max);
    for (u32 p = 0; p < s.num_patches; ++p)
        if (s.face_offsets[p + 1] - s.face_offsets[p] == largest) {
            EXPECT_TRUE(reported(r, Contract::Capacity, p)) << "patch " << p;
        }
}

TEST(ValidateConnected, TwoFarApartFaces)
{
    const TriangleSoup m = gen::grid(10, 10);  // 200 faces; 0 and 199 are far apart
    U32s               fp(m.faces.size(), 1);
    fp[0] = fp[199] = 0;
    const PatchedMesh pm = build_patch_store(nverts(m), m.faces, fp, 2, 200);
    const auto        r  = check(pm);
    EXPECT_EQ(r.total, 1u) << r.summary();
    ASSERT_TRUE(reported(r, Contract::Connected, 0)) << r.summary();
    // patch 0 owns new faces 0 (old 0) and 1 (old 199): face 1 is unreachable
    EXPECT_TRUE(reported(r, Contract::Connected, 0, "face", 1)) << r.summary();
}

TEST(ValidateLocalIds, MevSentinel)
{
    Built b = base();
    auto& s = b.pm.store;
    s.m_ev[ev_base(s, 3) + 2 * 1 + 1] = 0xFFFF;  // patch 3, local edge 1
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::LocalIds, 3, "edge", s.edge_offsets[3] + 1)) << r.summary();
    EXPECT_EQ(count(r, Contract::LocalIds), 1u);
}

TEST(ValidateLocalIds, MfePastLocalEdges)
{
    Built     b  = base();
    auto&     s  = b.pm.store;
    const u32 ne = s.edge_offsets[2] - s.edge_offsets[1] + s.ribbon_e_offsets[2] -
                   s.ribbon_e_offsets[1];
    s.m_fe[fe_base(s, 1) + 3 * 2 + 0] = static_cast<std::uint16_t>(ne << 1);  // local face 2
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::LocalIds, 1, "face", s.face_offsets[1] + 2)) << r.summary();
    EXPECT_EQ(r.total, 1u) << r.summary();
}

TEST(ValidateFaceGeometry, FlipBit)
{
    Built b = base();
    auto& s = b.pm.store;
    s.m_fe[fe_base(s, 2) + 1] ^= 1;  // patch 2, local face 0, side 1
    const auto r = check(b.pm);
    EXPECT_EQ(r.total, 1u) << r.summary();
    EXPECT_TRUE(reported(r, Contract::FaceGeometry, 2, "face", s.face_offsets[2])) << r.summary();
}

TEST(ValidateFaceGeometry, SwappedSides)
{
    Built b = base();
    auto& s = b.pm.store;
    std::swap(s.m_fe[fe_base(s, 2)], s.m_fe[fe_base(s, 2) + 1]);
    const auto r = check(b.pm);
    EXPECT_EQ(r.total, 2u) << r.summary();
    EXPECT_EQ(count(r, Contract::FaceGeometry), 2u);
    EXPECT_TRUE(reported(r, Contract::FaceGeometry, 2, "face", s.face_offsets[2])) << r.summary();
}

TEST(ValidateFaceGeometry, RibbonFaceSide)
{
    Built     b     = base();
    auto&     s     = b.pm.store;
    const u32 p     = 4;
    const u32 own_f = s.face_offsets[p + 1] - s.face_offsets[p];
    ASSERT_GT(s.ribbon_f_offsets[p + 1], s.ribbon_f_offsets[p]);
    const u32 g = s.ribbon_f[s.ribbon_f_offsets[p]];
    // side 2 names the edge of side 0 instead
    s.m_fe[fe_base(s, p) + 3 * own_f + 2] = s.m_fe[fe_base(s, p) + 3 * own_f];
    const auto r = check(b.pm);
    EXPECT_EQ(r.total, 1u) << r.summary();
    EXPECT_TRUE(reported(r, Contract::FaceGeometry, p, "face", g)) << r.summary();
}

TEST(ValidateEdgeOwnership, OwnedEdgeNotAMeshEdge)
{
    Built          b    = base();
    auto&          s    = b.pm.store;
    const Topology topo = build_topology(nverts(b.mesh), b.pm.faces);
    const u32      p    = 5;
    const u32      own_v = s.vertex_offsets[p + 1] - s.vertex_offsets[p];
    const u32      nv = own_v + s.ribbon_v_offsets[p + 1] - s.ribbon_v_offsets[p];
    auto lv2g = [&](u32 l) {
        return l < own_v ? s.vertex_offsets[p] + l : s.ribbon_v[s.ribbon_v_offsets[p] + l - own_v];
    };
    const std::uint64_t at = ev_base(s, p);  // owned local edge 0
    const u32           a  = lv2g(s.m_ev[at]);
    u32                 w  = kNone;
    for (u32 l = 0; l < nv && w == kNone; ++l) {
        const u32 c  = lv2g(l);
        const auto nb = topo.vv.indices.begin();
        if (c != a && !std::binary_search(nb + topo.vv.offsets[a], nb + topo.vv.offsets[a + 1], c))
            w = l;
    }
    ASSERT_NE(w, kNone);
    s.m_ev[at + 1] = static_cast<std::uint16_t>(w);
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::EdgeOwnership, p, "edge", s.edge_offsets[p])) << r.summary();
    // the true edge is no longer owned
    EXPECT_GE(count(r, Contract::EdgeOwnership), 2u) << r.summary();
}

TEST(ValidateEdgeOwnership, DuplicatedEdge)
{
    Built               b  = base();
    auto&               s  = b.pm.store;
    const u32           p  = 6;
    const std::uint64_t at = ev_base(s, p);
    ASSERT_GE(s.edge_offsets[p + 1] - s.edge_offsets[p], 2u);
    s.m_ev[at]     = s.m_ev[at + 2];  // owned local edge 0 := owned local edge 1
    s.m_ev[at + 1] = s.m_ev[at + 3];
    const auto r = check(b.pm);
    bool twice = false;
    for (const auto& v : r.violations)
        twice = twice || (v.contract == Contract::EdgeOwnership &&
                          mentions(v.message, "edge", s.edge_offsets[p]) &&
                          mentions(v.message, "edge", s.edge_offsets[p] + 1) &&
                          v.message.find("owned twice") != std::string::npos);
    EXPECT_TRUE(twice) << r.summary();
}

TEST(ValidateEdgeOwnership, RibbonCopyDisagrees)
{
    Built     b     = base();
    auto&     s     = b.pm.store;
    const u32 p     = 7;
    const u32 own_e = s.edge_offsets[p + 1] - s.edge_offsets[p];
    ASSERT_GT(s.ribbon_e_offsets[p + 1], s.ribbon_e_offsets[p]);
    const std::uint64_t at = ev_base(s, p) + 2 * own_e;  // first ribbon edge
    std::swap(s.m_ev[at], s.m_ev[at + 1]);  // larger id first
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::EdgeOwnership, p, "edge", s.ribbon_e[s.ribbon_e_offsets[p]]))
        << r.summary();
}

TEST(ValidateVertexOwnership, VertexMovedToLowerPatch)
{
    // vertex offsets[p] is owned by p, so no face of p - 1 touches it
    Built b = base();
    auto& s = b.pm.store;
    u32   p = 1;
    while (p < s.num_patches && s.vertex_offsets[p] == s.vertex_offsets[p + 1])
        ++p;
    ASSERT_LT(p, s.num_patches);
    const u32 v = s.vertex_offsets[p]++;
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::VertexOwnership, p - 1, "vertex", v)) << r.summary();
    EXPECT_FALSE(r.has(Contract::Offsets));
}

TEST(ValidateVertexOwnership, VertexMovedToHigherPatch)
{
    // move the last vertex of p - 1 into p where it touches no face of p
    Built          b    = base();
    auto&          s    = b.pm.store;
    const Topology topo = build_topology(nverts(b.mesh), b.pm.faces);
    u32            p    = 1;
    for (; p < s.num_patches; ++p) {
        if (s.vertex_offsets[p] == s.vertex_offsets[p - 1])
            continue;
        const u32 v     = s.vertex_offsets[p] - 1;
        bool      touch = false;
        for (u32 i = topo.vf.offsets[v]; i < topo.vf.offsets[v + 1]; ++i)
            touch = touch || owner_of(s.face_offsets, topo.vf.indices[i]) == p;
        if (!touch)
            break;
    }
    ASSERT_LT(p, s.num_patches);
    const u32 v = --s.vertex_offsets[p];
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::VertexOwnership, p, "vertex", v)) << r.summary();
}

TEST(ValidateVertexOwnership, UnreferencedVertexOutsidePatchZero)
{
    // an unused vertex appended to the last patch's range
    const TriangleSoup m = gen::grid(6, 6);
    Built              b = build(m, 16);
    b.pm.vertex_new_to_old.push_back(nverts(m));
    auto& s = b.pm.store;
    ++s.vertex_offsets.back();
    const u32 p = s.num_patches - 1;
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::VertexOwnership, p, "vertex", nverts(m))) << r.summary();
}

TEST(ValidateRibbonFaces, MissingRibbonFace)
{
    Built b = base();
    auto& s = b.pm.store;
    const u32 p = 1;
    const u32 g = erase_ribbon_face(s, p, 0);
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::RibbonFaces, p, "face", g)) << r.summary();
    EXPECT_EQ(count(r, Contract::RibbonFaces), 1u);
}

TEST(ValidateRibbonFaces, FaceSharingNoVertex)
{
    Built          b = base();
    auto&          s = b.pm.store;
    const u32      p = 1;
    std::set<u32> near;  // vertices of p's owned faces
    for (u32 g = s.face_offsets[p]; g < s.face_offsets[p + 1]; ++g)
        near.insert(b.pm.faces[g].begin(), b.pm.faces[g].end());
    u32 far = kNone;
    for (u32 g = 0; g < b.pm.faces.size() && far == kNone; ++g) {
        bool touches = false;
        for (u32 v : b.pm.faces[g])
            touches = touches || near.count(v);
        if (!touches)
            far = g;
    }
    ASSERT_NE(far, kNone);
    insert_ribbon_face(s, p, far, {0, 0, 0});  // in-range local edges
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::RibbonFaces, p, "face", far)) << r.summary();
    EXPECT_EQ(count(r, Contract::RibbonFaces), 1u);
}

TEST(ValidateRibbonLists, DuplicateRibbonVertex)
{
    Built     b = base();
    auto&     s = b.pm.store;
    const u32 p = 2;
    ASSERT_GT(s.ribbon_v_offsets[p + 1], s.ribbon_v_offsets[p]);
    const u32 v = s.ribbon_v[s.ribbon_v_offsets[p]];
    insert_ribbon_vertex(s, p, v);
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::RibbonLists, p, "vertex", v)) << r.summary();
}

TEST(ValidateRibbonLists, OwnedVertexInRibbon)
{
    Built     b = base();
    auto&     s = b.pm.store;
    const u32 p = 3;
    ASSERT_LT(s.vertex_offsets[p], s.vertex_offsets[p + 1]);
    const u32 v = s.vertex_offsets[p];
    insert_ribbon_vertex(s, p, v);
    const auto r = check(b.pm);
    bool found = false;
    for (const auto& x : r.violations)
        found = found || (x.contract == Contract::RibbonLists && mentions(x.message, "vertex", v) &&
                          x.message.find("owned by the patch itself") != std::string::npos);
    EXPECT_TRUE(found) << r.summary();
}

TEST(ValidateRibbonLists, UnsortedRibbonEdges)
{
    Built     b = base();
    auto&     s = b.pm.store;
    const u32 p = 4;
    const u32 i = s.ribbon_e_offsets[p];
    ASSERT_GE(s.ribbon_e_offsets[p + 1] - i, 2u);
    std::swap(s.ribbon_e[i], s.ribbon_e[i + 1]);
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::RibbonLists, p, "edge", s.ribbon_e[i + 1])) << r.summary();
}

TEST(ValidateRibbonLists, RibbonVertexOfNoLocalFace)
{
    // replace a ribbon vertex by a far, larger one owned elsewhere
    Built          b    = base();
    auto&          s    = b.pm.store;
    const u32      p    = 0;
    const u32      last = s.ribbon_v_offsets[p + 1] - 1;
    ASSERT_GE(last, s.ribbon_v_offsets[p]);
    const u32 far = nverts(b.mesh) - 1;  // owned by the last patch
    ASSERT_GT(far, s.ribbon_v[last]);
    s.ribbon_v[last] = far;
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::RibbonLists, p, "vertex", far)) << r.summary();
}

TEST(ValidateOneRing, RemovedRibbonFaceNextToOwnedVertex)
{
    Built b = base();
    auto& s = b.pm.store;
    for (u32 p = 0; p < s.num_patches; ++p)
        for (u32 i = s.ribbon_f_offsets[p]; i < s.ribbon_f_offsets[p + 1]; ++i) {
            const u32 g = s.ribbon_f[i];
            for (u32 v : b.pm.faces[g])
                if (v >= s.vertex_offsets[p] && v < s.vertex_offsets[p + 1]) {
                    erase_ribbon_face(s, p, i - s.ribbon_f_offsets[p]);
                    const auto r = check(b.pm);
                    EXPECT_TRUE(reported(r, Contract::OneRing, p, "face", g)) << r.summary();
                    EXPECT_TRUE(reported(r, Contract::OneRing, p, "vertex", v)) << r.summary();
                    return;
                }
        }
    FAIL() << "no ribbon face touches an owned vertex";
}

// ---- validate: reporting and robustness --------------------------------------

TEST(ValidateReport, MaxReportsAndSummary)
{
    Built b = base();
    auto& s = b.pm.store;
    for (std::uint64_t i = 0; i < 30; ++i)
        s.m_fe[3 * i] ^= 1;  // 30 wrong sides
    const auto r = check(b.pm, 5);
    EXPECT_EQ(r.total, 30u);
    ASSERT_EQ(r.violations.size(), 5u);
    const std::string sum = r.summary();
    EXPECT_EQ(std::count(sum.begin(), sum.end(), '\n'), 6);
    EXPECT_EQ(sum.rfind("[FaceGeometry] patch 0:", 0), 0u) << sum;
    EXPECT_NE(sum.find("25 more"), std::string::npos) << sum;
    EXPECT_EQ(check(b.pm, 0).violations.size(), 0u);
    EXPECT_EQ(check(b.pm, 0).total, 30u);
}

TEST(ValidateReport, ContractNames)
{
    const Contract all[] = {Contract::Offsets,       Contract::Capacity,
                            Contract::Connected,     Contract::LocalIds,
                            Contract::FaceGeometry,  Contract::EdgeOwnership,
                            Contract::VertexOwnership, Contract::RibbonFaces,
                            Contract::RibbonLists,   Contract::OneRing};
    const char* names[] = {"Offsets",       "Capacity",        "Connected",   "LocalIds",
                           "FaceGeometry",  "EdgeOwnership",   "VertexOwnership",
                           "RibbonFaces",   "RibbonLists",     "OneRing"};
    for (int i = 0; i < 10; ++i)
        EXPECT_STREQ(rxmesh::to_string(all[i]), names[i]);
}

TEST(ValidateRobustness, EverySingleEntryChangeIsReported)
{
    // Any change of one entry of a valid store must be reported, and no
    // corruption may crash validate (run under ASan/UBSan to be sure).
    const Built    b = build(gen::torus(8, 6), 12);
    std::mt19937   rng(12345);
    const u32      values[] = {0u, 1u, 2u, 0xFFFFu, 0x10000u, 0x7FFFFFFFu, 0xFFFFFFFFu};
    for (int iter = 0; iter < 3000; ++iter) {
        PatchedMesh pm = b.pm;
        auto&       s  = pm.store;
        std::vector<U32s*> u32s = {&s.vertex_offsets,   &s.edge_offsets,     &s.face_offsets,
                                   &s.ribbon_v_offsets, &s.ribbon_e_offsets, &s.ribbon_f_offsets,
                                   &s.ribbon_v,         &s.ribbon_e,         &s.ribbon_f};
        const int which = static_cast<int>(rng() % 11);
        auto pick = [&](std::uint64_t old) -> std::uint64_t {
            const int how = static_cast<int>(rng() % 4);
            if (how == 0)
                return old + 1;
            if (how == 1)
                return old - 1;
            if (how == 2)
                return rng();
            return values[rng() % 7];
        };
        std::string what;
        bool        changed = false;
        if (which < 9) {
            U32s& a = *u32s[which];
            if (a.empty())
                continue;
            const std::size_t i   = rng() % a.size();
            const u32         old = a[i];
            a[i]                  = static_cast<u32>(pick(old));
            changed               = a[i] != old;
            what = "array " + std::to_string(which) + " [" + std::to_string(i) + "] " +
                   std::to_string(old) + " -> " + std::to_string(a[i]);
        } else {
            U16s& a = which == 9 ? s.m_ev : s.m_fe;
            const std::size_t   i   = rng() % a.size();
            const std::uint16_t old = a[i];
            a[i]                    = static_cast<std::uint16_t>(pick(old));
            changed                 = a[i] != old;
            what = std::string(which == 9 ? "m_ev" : "m_fe") + " [" + std::to_string(i) + "] " +
                   std::to_string(old) + " -> " + std::to_string(a[i]);
        }
        if (!changed)
            continue;
        const ValidationReport r = check(pm, 3);
        ASSERT_FALSE(r.ok()) << what;
    }
}

TEST(ValidateRobustness, ManyCorruptionsNeverCrash)
{
    const Built  b = build(gen::fin(4), 1);  // tiny store: collisions are likely
    const Built  c = build(gen::grid(4, 4), 5);
    std::mt19937 rng(777);
    for (int iter = 0; iter < 2000; ++iter) {
        PatchedMesh pm = (iter & 1) ? b.pm : c.pm;
        auto&       s  = pm.store;
        std::vector<U32s*> u32s = {&s.vertex_offsets,   &s.edge_offsets,     &s.face_offsets,
                                   &s.ribbon_v_offsets, &s.ribbon_e_offsets, &s.ribbon_f_offsets,
                                   &s.ribbon_v,         &s.ribbon_e,         &s.ribbon_f};
        const int changes = 1 + static_cast<int>(rng() % 6);
        for (int k = 0; k < changes; ++k) {
            const int which = static_cast<int>(rng() % 11);
            const u32 value = (rng() & 1) ? static_cast<u32>(rng() % 40) : static_cast<u32>(rng());
            if (which < 9) {
                U32s& a = *u32s[which];
                if (!a.empty())
                    a[rng() % a.size()] = value;
            } else {
                U16s& a = which == 9 ? s.m_ev : s.m_fe;
                if (!a.empty())
                    a[rng() % a.size()] = static_cast<std::uint16_t>(value);
            }
        }
        if (rng() % 8 == 0)
            s.num_patches = static_cast<u32>(rng() % 8);
        if (rng() % 8 == 0)
            s.capacity = static_cast<u32>(rng() % 8);
        EXPECT_NO_THROW(check(pm, 4)) << "iteration " << iter;
    }
}

TEST(ValidateRobustness, ResizedArraysAreReported)
{
    const Built b = build(gen::grid(5, 5), 10);
    for (int which = 0; which < 11; ++which)
        for (int grow = 0; grow < 2; ++grow) {
            PatchedMesh pm = b.pm;
            auto&       s  = pm.store;
            std::vector<U32s*> u32s = {&s.vertex_offsets,   &s.edge_offsets,
                                       &s.face_offsets,     &s.ribbon_v_offsets,
                                       &s.ribbon_e_offsets, &s.ribbon_f_offsets,
                                       &s.ribbon_v,         &s.ribbon_e,
                                       &s.ribbon_f};
            if (which < 9) {
                if (grow)
                    u32s[which]->push_back(0);
                else
                    u32s[which]->pop_back();
            } else {
                U16s& a = which == 9 ? s.m_ev : s.m_fe;
                if (grow)
                    a.push_back(0);
                else
                    a.pop_back();
            }
            const auto r = check(pm);
            EXPECT_TRUE(r.has(Contract::Offsets)) << which << " " << grow << "\n" << r.summary();
        }
}

TEST(ValidateRobustness, FacesMustMatchTheStore)
{
    const Built b     = base();
    auto        faces = b.pm.faces;
    faces.pop_back();
    const auto r = rxmesh::validate(b.pm.store, faces,
                                    static_cast<u32>(b.pm.vertex_new_to_old.size()));
    EXPECT_TRUE(r.has(Contract::Offsets)) << r.summary();
}

}  // namespace
