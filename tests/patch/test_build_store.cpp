// Tests of the reference patch store builder (reference::build_patch_store,
// reference::bfs_patches).
//
// The builder is checked three independent ways: a tiny store written by
// hand from the rules, an independent brute-force construction (std::set,
// quadratic scans) compared array by array on small meshes, and validate().
#include "patch_store_test_util.h"

namespace {

using namespace patch_store_test;

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

}  // namespace
