// Tests of the CPU reference (rxmesh::reference): hand-written tiny cases,
// invariants that every topology must satisfy, and the re-indexing baseline.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/topology.h"
#include "mesh_families.h"
#include "mesh_stats_check.h"

namespace {

using namespace rxmesh;
using namespace rxmesh::reference;
using U32s = std::vector<std::uint32_t>;

constexpr std::uint32_t kNone = ~0u;

std::vector<U32s> rows_of(const Csr& csr)
{
    std::vector<U32s> rows;
    for (std::uint32_t r = 0; r < csr.rows(); ++r)
        rows.emplace_back(csr.indices.begin() + csr.offsets[r],
                          csr.indices.begin() + csr.offsets[r + 1]);
    return rows;
}

//! Well-formed CSR of `rows` rows, each sorted ascending without repeats.
void expect_csr_well_formed(const Csr& csr, std::uint32_t rows, const char* name)
{
    SCOPED_TRACE(name);
    ASSERT_EQ(csr.offsets.size(), std::size_t(rows) + 1);
    EXPECT_EQ(csr.offsets.front(), 0u);
    EXPECT_EQ(csr.offsets.back(), csr.indices.size());
    for (std::uint32_t r = 0; r < rows; ++r) {
        ASSERT_LE(csr.offsets[r], csr.offsets[r + 1]) << "row " << r;
        for (std::uint32_t i = csr.offsets[r] + 1; i < csr.offsets[r + 1]; ++i)
            ASSERT_LT(csr.indices[i - 1], csr.indices[i]) << "row " << r;
    }
}

std::size_t total(const Csr& csr) { return csr.indices.size(); }

//! Checks every relation of `t` against the faces, independently of how
//! build_topology computed it.
void expect_consistent(const Topology& t, const std::vector<Triangle>& faces)
{
    const auto F = static_cast<std::uint32_t>(faces.size());
    const auto E = static_cast<std::uint32_t>(t.ev.size());
    const auto V = t.num_vertices;

    // ev: strictly increasing (a < b) pairs
    for (std::uint32_t e = 0; e < E; ++e) {
        ASSERT_LT(t.ev[e][0], t.ev[e][1]) << "edge " << e;
        ASSERT_LT(t.ev[e][1], V) << "edge " << e;
        if (e > 0) {
            ASSERT_LT(t.ev[e - 1], t.ev[e]) << "edge " << e;
        }
    }

    expect_csr_well_formed(t.ef, E, "ef");
    expect_csr_well_formed(t.ff, F, "ff");
    expect_csr_well_formed(t.vv, V, "vv");
    expect_csr_well_formed(t.ve, V, "ve");
    expect_csr_well_formed(t.vf, V, "vf");
    EXPECT_EQ(total(t.vf), std::size_t(3) * F);
    EXPECT_EQ(total(t.ef), std::size_t(3) * F);
    EXPECT_EQ(total(t.ve), std::size_t(2) * E);
    EXPECT_EQ(total(t.vv), std::size_t(2) * E);

    const auto ef = rows_of(t.ef), ff = rows_of(t.ff), vv = rows_of(t.vv),
               ve = rows_of(t.ve), vf = rows_of(t.vf);

    // fe: each entry's edge has the face's endpoints and the right flip;
    // the edge's ef row contains the face
    ASSERT_EQ(t.fe.size(), faces.size());
    std::vector<std::set<std::uint32_t>> ef_expected(E), vf_expected(V);
    for (std::uint32_t f = 0; f < F; ++f)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t from = faces[f][k], to = faces[f][(k + 1) % 3];
            const std::uint32_t e = t.fe[f][k] >> 1, flip = t.fe[f][k] & 1u;
            ASSERT_LT(e, E) << "face " << f;
            EXPECT_EQ(t.ev[e][0], std::min(from, to)) << "face " << f << " k " << k;
            EXPECT_EQ(t.ev[e][1], std::max(from, to)) << "face " << f << " k " << k;
            EXPECT_EQ(flip, from > to ? 1u : 0u) << "face " << f << " k " << k;
            EXPECT_TRUE(std::binary_search(ef[e].begin(), ef[e].end(), f));
            ef_expected[e].insert(f);
            vf_expected[faces[f][k]].insert(f);
        }
    for (std::uint32_t e = 0; e < E; ++e)
        EXPECT_EQ(ef[e], U32s(ef_expected[e].begin(), ef_expected[e].end()))
            << "edge " << e;
    for (std::uint32_t v = 0; v < V; ++v)
        EXPECT_EQ(vf[v], U32s(vf_expected[v].begin(), vf_expected[v].end()))
            << "vertex " << v;

    // ff: union of the face's ef rows minus itself; symmetric
    for (std::uint32_t f = 0; f < F; ++f) {
        std::set<std::uint32_t> expected;
        for (int k = 0; k < 3; ++k)
            for (std::uint32_t g : ef[t.fe[f][k] >> 1])
                if (g != f)
                    expected.insert(g);
        EXPECT_EQ(ff[f], U32s(expected.begin(), expected.end())) << "face " << f;
        for (std::uint32_t g : ff[f])
            EXPECT_TRUE(std::binary_search(ff[g].begin(), ff[g].end(), f))
                << "ff not symmetric: " << f << ", " << g;
    }

    // vv and ve agree with ev
    std::vector<std::set<std::uint32_t>> vv_expected(V), ve_expected(V);
    for (std::uint32_t e = 0; e < E; ++e) {
        vv_expected[t.ev[e][0]].insert(t.ev[e][1]);
        vv_expected[t.ev[e][1]].insert(t.ev[e][0]);
        ve_expected[t.ev[e][0]].insert(e);
        ve_expected[t.ev[e][1]].insert(e);
    }
    for (std::uint32_t v = 0; v < V; ++v) {
        EXPECT_EQ(vv[v], U32s(vv_expected[v].begin(), vv_expected[v].end()))
            << "vertex " << v;
        EXPECT_EQ(ve[v], U32s(ve_expected[v].begin(), ve_expected[v].end()))
            << "vertex " << v;
        EXPECT_EQ(t.vv.row_size(v), t.ve.row_size(v)) << "vertex " << v;
    }
}

using rxmesh::test::topology_of;

using rxmesh::test::expect_stats;
using rxmesh::test::make_stats;

//! The topology of `faces` over `num_vertices` vertices: consistent, with
//! the stats `want`.
Topology expect_topology(std::uint32_t num_vertices, const std::vector<Triangle>& faces,
                         const MeshStats& want)
{
    Topology t = build_topology(num_vertices, faces);
    expect_consistent(t, faces);
    expect_stats(compute_stats(t, faces), want);
    return t;
}

// ---------------------------------------------------------------------------
// Hand-checked tiny cases
// ---------------------------------------------------------------------------

TEST(ReferenceTopology, SingleTriangle)
{
    const std::vector<Triangle> faces = {{0, 1, 2}};
    const Topology t = build_topology(3, faces);

    // edges (0,1)=0, (0,2)=1, (1,2)=2
    using Edge = std::array<std::uint32_t, 2>;
    EXPECT_EQ(t.ev, (std::vector<Edge>{{0, 1}, {0, 2}, {1, 2}}));
    // (0,1): edge 0, forward -> 0; (1,2): edge 2, forward -> 4;
    // (2,0): edge 1, backward -> 3
    ASSERT_EQ(t.fe.size(), 1u);
    EXPECT_EQ(t.fe[0], (std::array<std::uint32_t, 3>{0, 4, 3}));
    EXPECT_EQ(t.ef.offsets, (U32s{0, 1, 2, 3}));
    EXPECT_EQ(t.ef.indices, (U32s{0, 0, 0}));
    EXPECT_EQ(t.ff.offsets, (U32s{0, 0}));
    EXPECT_TRUE(t.ff.indices.empty());
    EXPECT_EQ(t.vv.offsets, (U32s{0, 2, 4, 6}));
    EXPECT_EQ(t.vv.indices, (U32s{1, 2, 0, 2, 0, 1}));
    EXPECT_EQ(t.ve.offsets, (U32s{0, 2, 4, 6}));
    EXPECT_EQ(t.ve.indices, (U32s{0, 1, 0, 2, 1, 2}));
    EXPECT_EQ(t.vf.offsets, (U32s{0, 1, 2, 3}));
    EXPECT_EQ(t.vf.indices, (U32s{0, 0, 0}));

    expect_consistent(t, faces);
    expect_stats(compute_stats(t, faces), make_stats(3, 1, 3, 3, 0, 0, 1));
}

TEST(ReferenceTopology, TwoTrianglesSharingAnEdge)
{
    // f0 walks 1->2, f1 walks 2->1: consistently oriented
    const std::vector<Triangle> faces = {{0, 1, 2}, {2, 1, 3}};
    const Topology t = build_topology(4, faces);

    // edges: (0,1)=0 (0,2)=1 (1,2)=2 (1,3)=3 (2,3)=4
    using Edge = std::array<std::uint32_t, 2>;
    EXPECT_EQ(t.ev, (std::vector<Edge>{{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}}));
    ASSERT_EQ(t.fe.size(), 2u);
    // f0: 0->1 e0 fwd = 0; 1->2 e2 fwd = 4; 2->0 e1 back = 3
    EXPECT_EQ(t.fe[0], (std::array<std::uint32_t, 3>{0, 4, 3}));
    // f1: 2->1 e2 back = 5; 1->3 e3 fwd = 6; 3->2 e4 back = 9
    EXPECT_EQ(t.fe[1], (std::array<std::uint32_t, 3>{5, 6, 9}));
    EXPECT_EQ(t.ef.offsets, (U32s{0, 1, 2, 4, 5, 6}));
    EXPECT_EQ(t.ef.indices, (U32s{0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(t.ff.offsets, (U32s{0, 1, 2}));
    EXPECT_EQ(t.ff.indices, (U32s{1, 0}));
    // vv: 0:{1,2} 1:{0,2,3} 2:{0,1,3} 3:{1,2}
    EXPECT_EQ(t.vv.offsets, (U32s{0, 2, 5, 8, 10}));
    EXPECT_EQ(t.vv.indices, (U32s{1, 2, 0, 2, 3, 0, 1, 3, 1, 2}));
    // ve: 0:{e0,e1} 1:{e0,e2,e3} 2:{e1,e2,e4} 3:{e3,e4}
    EXPECT_EQ(t.ve.offsets, (U32s{0, 2, 5, 8, 10}));
    EXPECT_EQ(t.ve.indices, (U32s{0, 1, 0, 2, 3, 1, 2, 4, 3, 4}));
    // vf: 0:{0} 1:{0,1} 2:{0,1} 3:{1}
    EXPECT_EQ(t.vf.offsets, (U32s{0, 1, 3, 5, 6}));
    EXPECT_EQ(t.vf.indices, (U32s{0, 0, 1, 0, 1, 1}));

    expect_consistent(t, faces);
    expect_stats(compute_stats(t, faces), make_stats(4, 2, 5, 4, 0, 0, 1));
}

TEST(ReferenceTopology, UnusedVerticesHaveEmptyRows)
{
    const std::vector<Triangle> faces = {{5, 3, 1}};
    const Topology t = build_topology(7, faces);
    expect_consistent(t, faces);
    for (std::uint32_t v : {0u, 2u, 4u, 6u}) {
        EXPECT_EQ(t.vv.row_size(v), 0u) << v;
        EXPECT_EQ(t.ve.row_size(v), 0u) << v;
        EXPECT_EQ(t.vf.row_size(v), 0u) << v;
    }
    // edges (1,3)=0 (1,5)=1 (3,5)=2; 5->3 e2 back = 5; 3->1 e0 back = 1;
    // 1->5 e1 fwd = 2
    EXPECT_EQ(t.fe[0], (std::array<std::uint32_t, 3>{5, 1, 2}));
    expect_stats(compute_stats(t, faces), make_stats(3, 1, 3, 3, 0, 0, 1));
}

TEST(ReferenceTopology, EmptyMesh)
{
    const std::vector<Triangle> faces;
    expect_topology(4, faces, make_stats(0, 0, 0, 0, 0, 0, 0));
}

TEST(ReferenceTopology, ThrowsOnOutOfRangeIndex)
{
    const std::vector<Triangle> faces = {{0, 1, 2}, {1, 2, 3}};
    EXPECT_NO_THROW(build_topology(4, faces));
    try {
        build_topology(3, faces);
        FAIL() << "expected InvalidInputError";
    } catch (const InvalidInputError& e) {
        EXPECT_NE(std::string(e.what()).find("face 1"), std::string::npos) << e.what();
    }
}

TEST(ReferenceTopology, ThrowsOnRepeatedVertex)
{
    for (const Triangle bad : {Triangle{4, 4, 5}, Triangle{4, 5, 5}, Triangle{5, 4, 5}}) {
        const std::vector<Triangle> faces = {{0, 1, 2}, {1, 2, 3}, bad};
        try {
            build_topology(6, faces);
            FAIL() << "expected InvalidInputError";
        } catch (const InvalidInputError& e) {
            EXPECT_NE(std::string(e.what()).find("face 2"), std::string::npos)
                << e.what();
        }
    }
}

TEST(ReferenceTopology, StatsRejectMismatchedFaces)
{
    const std::vector<Triangle> faces = {{0, 1, 2}};
    const Topology t = build_topology(3, faces);
    EXPECT_THROW(compute_stats(t, {}), InvalidInputError);
}

// ---------------------------------------------------------------------------
// Non-manifold vertices (definition in reference/topology.cpp)
// ---------------------------------------------------------------------------

TEST(ReferenceNonManifold, BowtieCentre)
{
    const std::vector<Triangle> faces = {{0, 1, 2}, {0, 3, 4}};
    // one component through the shared vertex
    expect_topology(5, faces, make_stats(5, 2, 6, 6, 0, 1, 1));
}

TEST(ReferenceNonManifold, DoubleConeApex)
{
    // two closed-rim cones sharing apex 0: two fans, no non-manifold edge
    const std::vector<Triangle> faces = {{0, 1, 2}, {0, 2, 3}, {0, 3, 1},
                                         {0, 4, 5}, {0, 5, 6}, {0, 6, 4}};
    // edges: 6 spokes + 6 rim edges; the rims are the boundary
    expect_topology(7, faces, make_stats(7, 6, 12, 6, 0, 1, 1));
}

TEST(ReferenceNonManifold, FinEdgeEndpoints)
{
    // three triangles on edge (0,1): both endpoints non-manifold, tips not
    const std::vector<Triangle> faces = {{0, 1, 2}, {1, 0, 3}, {0, 1, 4}};
    const Topology t = expect_topology(5, faces, make_stats(5, 3, 7, 6, 1, 2, 1));
    EXPECT_EQ(t.ef.row_size(0), 3u);  // edge (0,1) is edge 0
}

TEST(ReferenceNonManifold, OpenStripIsManifold)
{
    // a strip of 3 triangles: every vertex has one open fan
    const std::vector<Triangle> faces = {{0, 1, 2}, {2, 1, 3}, {2, 3, 4}};
    expect_topology(5, faces, make_stats(5, 3, 7, 5, 0, 0, 1));
}

TEST(ReferenceNonManifold, ClosedTetrahedron)
{
    const std::vector<Triangle> faces = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}};
    const Topology t = expect_topology(4, faces, make_stats(4, 4, 6, 0, 0, 0, 1));
    for (std::uint32_t f = 0; f < 4; ++f)
        EXPECT_EQ(t.ff.row_size(f), 3u);
}

TEST(ReferenceNonManifold, DuplicateFaceMakesNoNonManifoldEdge)
{
    // the same triangle twice: each edge has exactly 2 faces (a closed
    // "pillow"), one fan per vertex
    const std::vector<Triangle> faces = {{0, 1, 2}, {0, 2, 1}};
    expect_topology(3, faces, make_stats(3, 2, 3, 0, 0, 0, 1));
}

TEST(ReferenceStats, ComponentsIgnoreUnreferencedVertices)
{
    // two triangles and unreferenced ids 3, 7, 8
    const std::vector<Triangle> faces = {{0, 1, 2}, {4, 5, 6}};
    expect_topology(9, faces, make_stats(6, 2, 6, 6, 0, 0, 2));
}

// ---------------------------------------------------------------------------
// Consistency on generated meshes
// ---------------------------------------------------------------------------

TEST(ReferenceConsistency, GeneratedMeshes)
{
    namespace g = rxmesh::generate;
    using namespace rxmesh::test;
    const NamedMeshes meshes =
        joined({{{"icosphere0", g::icosphere(0)}},
                manifold_families(2, {8, 5}, {4, 3}, {6, 3}, 3), irregular_families({4}, 5, 50),
                {{"refine(fin(3))", g::refine(g::fin(3))},
                 {"duplicated_quad_grid(3)", g::duplicated_quad_grid(3)}}});
    for (const auto& [name, mesh] : meshes) {
        SCOPED_TRACE(name);
        const Topology t = topology_of(mesh);
        EXPECT_EQ(t.num_vertices, mesh.positions.size());
        expect_consistent(t, mesh.faces);
    }
    // and after re-indexing (welded and not)
    const TriangleSoup dq = g::duplicated_quad_grid(4);
    for (bool weld : {false, true}) {
        SCOPED_TRACE(weld ? "welded" : "not welded");
        const auto r = reindex(dq.positions, dq.faces, weld);
        expect_consistent(
            build_topology(static_cast<std::uint32_t>(r.positions.size()), r.faces),
            r.faces);
    }
}

TEST(ReferenceConsistency, ClosedManifoldEdgesHaveOppositeFlips)
{
    // an oriented closed surface walks every edge once in each direction
    const TriangleSoup m = rxmesh::generate::icosphere(3);
    const Topology t = topology_of(m);
    std::vector<int> forward(t.ev.size(), 0), backward(t.ev.size(), 0);
    for (const auto& fe : t.fe)
        for (std::uint32_t h : fe)
            ((h & 1u) ? backward : forward)[h >> 1]++;
    for (std::size_t e = 0; e < t.ev.size(); ++e) {
        EXPECT_EQ(forward[e], 1) << e;
        EXPECT_EQ(backward[e], 1) << e;
    }
}

TEST(ReferenceConsistency, MillionsOfFaces)
{
    // 2 million faces: the reference must stay usable at this size
    const TriangleSoup m = rxmesh::generate::torus(1000, 1000);
    const Topology t = topology_of(m);
    const MeshStats s = compute_stats(t, m.faces);
    expect_stats(s, make_stats(1000000, 2000000, 3000000, 0, 0, 0, 1));
    EXPECT_EQ(total(t.ff), std::size_t(6000000));
}

// ---------------------------------------------------------------------------
// Re-indexing
// ---------------------------------------------------------------------------

std::uint32_t bits(float x)
{
    std::uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

bool same_bits(const Vec3f& a, const Vec3f& b)
{
    return bits(a[0]) == bits(b[0]) && bits(a[1]) == bits(b[1]) &&
           bits(a[2]) == bits(b[2]);
}

TEST(ReferenceReindex, WaldPaperExample)
{
    // vtx {A, B, C', X, D', C'', E, F, Y, D''}: C' == C'', D' == D'',
    // X and Y unused
    const Vec3f A{0, 0, 0}, B{1, 0, 0}, C{1, 1, 0}, D{0, 1, 0}, E{2, 0, 0},
        F{2, 1, 0}, X{9, 9, 9}, Y{8, 8, 8};
    const std::vector<Vec3f>    pos   = {A, B, C, X, D, C, E, F, Y, D};
    const std::vector<Triangle> faces = {{0, 1, 2}, {0, 2, 4}, {5, 6, 7}, {5, 7, 9}};

    const auto r = reindex(pos, faces, true);
    // first use: A->0 B->1 C'->2 D'->3 (C''->2) E->4 F->5 (D''->3)
    ASSERT_EQ(r.positions.size(), 6u);
    EXPECT_EQ(r.dropped_faces, 0u);
    EXPECT_EQ(r.faces, (std::vector<Triangle>{{0, 1, 2}, {0, 2, 3}, {2, 4, 5}, {2, 5, 3}}));
    EXPECT_EQ(r.old_to_new, (U32s{0, 1, 2, kNone, 3, 2, 4, 5, kNone, 3}));
    // the same triangles by position
    ASSERT_EQ(r.faces.size(), faces.size());
    for (std::size_t f = 0; f < faces.size(); ++f)
        for (int k = 0; k < 3; ++k)
            EXPECT_TRUE(same_bits(r.positions[r.faces[f][k]], pos[faces[f][k]]))
                << "face " << f << " corner " << k;
    // welded: no two output positions are bit-identical
    for (std::size_t i = 0; i < r.positions.size(); ++i)
        for (std::size_t j = i + 1; j < r.positions.size(); ++j)
            EXPECT_FALSE(same_bits(r.positions[i], r.positions[j])) << i << ", " << j;

    const auto n = reindex(pos, faces, false);
    // first use: A B C' D' C'' E F D'' -> 8 vertices, X and Y dropped
    ASSERT_EQ(n.positions.size(), 8u);
    EXPECT_EQ(n.faces, (std::vector<Triangle>{{0, 1, 2}, {0, 2, 3}, {4, 5, 6}, {4, 6, 7}}));
    EXPECT_EQ(n.old_to_new, (U32s{0, 1, 2, kNone, 3, 4, 5, 6, kNone, 7}));
}

TEST(ReferenceReindex, SignedZerosStayApart)
{
    const std::vector<Vec3f> pos = {
        {0.f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {0.f, 1.f, 0.f}, {-0.f, 0.f, 0.f}};
    const std::vector<Triangle> faces = {{0, 1, 2}, {3, 2, 1}};
    const auto r = reindex(pos, faces, true);
    EXPECT_EQ(r.positions.size(), 4u);
    EXPECT_EQ(r.faces.size(), 2u);
    EXPECT_EQ(r.dropped_faces, 0u);
}

TEST(ReferenceReindex, FacesDegenerateAfterWeldingAreDropped)
{
    // vertices 1 and 2 coincide: face 0 collapses when welding
    const std::vector<Vec3f> pos = {
        {0.f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {0.f, 1.f, 0.f}};
    const std::vector<Triangle> faces = {{0, 1, 2}, {0, 1, 3}};

    const auto w = reindex(pos, faces, true);
    EXPECT_EQ(w.dropped_faces, 1u);
    EXPECT_EQ(w.faces, (std::vector<Triangle>{{0, 1, 2}}));
    EXPECT_EQ(w.positions.size(), 3u);
    EXPECT_EQ(w.old_to_new, (U32s{0, 1, 1, 2}));

    const auto n = reindex(pos, faces, false);
    EXPECT_EQ(n.dropped_faces, 0u);
    EXPECT_EQ(n.faces, (std::vector<Triangle>{{0, 1, 2}, {0, 1, 3}}));
    EXPECT_EQ(n.positions.size(), 4u);
}

TEST(ReferenceReindex, InputDegenerateFacesAreDroppedEvenWithoutWelding)
{
    const TriangleSoup m = rxmesh::generate::with_degenerate_faces();
    for (bool weld : {false, true}) {
        const auto r = reindex(m.positions, m.faces, weld);
        EXPECT_EQ(r.dropped_faces, std::uint64_t(rxmesh::generate::kDegenerateFaceCount));
        EXPECT_EQ(r.faces.size(), m.faces.size() - rxmesh::generate::kDegenerateFaceCount);
    }
}

TEST(ReferenceReindex, VertexOnlyOnDroppedFaceIsStillUsed)
{
    // "used" means referenced by any input face, dropped ones included (as
    // the GPU pipeline marks them before dropping degenerate faces)
    const std::vector<Vec3f> pos = {
        {0.f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {0.f, 1.f, 0.f}, {5.f, 5.f, 5.f}};
    const std::vector<Triangle> faces = {{0, 1, 2}, {3, 3, 0}};
    for (bool weld : {false, true}) {
        const auto r = reindex(pos, faces, weld);
        EXPECT_EQ(r.dropped_faces, 1u);
        EXPECT_EQ(r.faces, (std::vector<Triangle>{{0, 1, 2}}));
        EXPECT_EQ(r.old_to_new, (U32s{0, 1, 2, 3}));
        EXPECT_EQ(r.positions.size(), 4u);
    }
}

TEST(ReferenceReindex, DuplicatedQuadGrid)
{
    for (int n : {1, 2, 5, 16}) {
        SCOPED_TRACE(n);
        const TriangleSoup m = rxmesh::generate::duplicated_quad_grid(n);
        const auto w = reindex(m.positions, m.faces, true);
        EXPECT_EQ(w.positions.size(), std::size_t(n + 1) * (n + 1));
        EXPECT_EQ(w.faces.size(), std::size_t(2) * n * n);
        EXPECT_EQ(w.dropped_faces, 0u);
        // welded, it is a grid: one component, euler 1, 4n boundary edges
        const Topology t =
            build_topology(static_cast<std::uint32_t>(w.positions.size()), w.faces);
        expect_stats(compute_stats(t, w.faces),
                     make_stats((n + 1) * (n + 1), 2 * n * n,
                                2 * n * (n + 1) + n * n, 4 * n, 0, 0, 1));

        const auto u = reindex(m.positions, m.faces, false);
        EXPECT_EQ(u.positions.size(), std::size_t(4) * n * n);
        EXPECT_EQ(u.faces.size(), std::size_t(2) * n * n);
        // centres (every 5th vertex) are unused
        for (std::size_t v = 4; v < m.positions.size(); v += 5) {
            EXPECT_EQ(u.old_to_new[v], kNone);
            EXPECT_EQ(w.old_to_new[v], kNone);
        }
    }
}

TEST(ReferenceReindex, ThrowsOnBadInput)
{
    const std::vector<Vec3f> pos = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    EXPECT_THROW(reindex(pos, {{0, 1, 3}}, true), InvalidInputError);
    EXPECT_THROW(reindex(pos, {{0, 1, 3}}, false), InvalidInputError);

    std::vector<Vec3f> nan_pos = pos;
    nan_pos.push_back({std::numeric_limits<float>::quiet_NaN(), 0.f, 0.f});
    // an unused non-finite vertex is dropped, not an error
    EXPECT_NO_THROW(reindex(nan_pos, {{0, 1, 2}}, true));
    EXPECT_THROW(reindex(nan_pos, {{0, 1, 3}}, true), InvalidInputError);
    nan_pos[3] = {0.f, std::numeric_limits<float>::infinity(), 0.f};
    EXPECT_THROW(reindex(nan_pos, {{3, 1, 2}}, false), InvalidInputError);
}

}  // namespace
