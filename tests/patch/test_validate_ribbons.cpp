// Tests of the contract validator (rxmesh::validate) on the ribbon
// contracts: RibbonFaces, RibbonLists and OneRing, by targeted corruptions
// of one patch's ribbon.
#include "patch_store_test_util.h"

namespace {

using namespace patch_store_test;
// every test starts from base() and corrupts one patch's ribbon
using ValidateRibbonFaces = CorruptionTest;
using ValidateRibbonLists = CorruptionTest;
using ValidateOneRing     = CorruptionTest;

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
TEST_F(ValidateRibbonFaces, MissingRibbonFace)
{
    const u32 p = 1;
    const u32 g = erase_ribbon_face(s, p, 0);
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::RibbonFaces, p, "face", g)) << r.summary();
    EXPECT_EQ(count(r, Contract::RibbonFaces), 1u);
}

TEST_F(ValidateRibbonFaces, FaceSharingNoVertex)
{
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

TEST_F(ValidateRibbonLists, DuplicateRibbonVertex)
{
    const u32 p = 2;
    ASSERT_GT(s.ribbon_v_offsets[p + 1], s.ribbon_v_offsets[p]);
    const u32 v = s.ribbon_v[s.ribbon_v_offsets[p]];
    insert_ribbon_vertex(s, p, v);
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::RibbonLists, p, "vertex", v)) << r.summary();
}

TEST_F(ValidateRibbonLists, OwnedVertexInRibbon)
{
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

TEST_F(ValidateRibbonLists, UnsortedRibbonEdges)
{
    const u32 p = 4;
    const u32 i = s.ribbon_e_offsets[p];
    ASSERT_GE(s.ribbon_e_offsets[p + 1] - i, 2u);
    std::swap(s.ribbon_e[i], s.ribbon_e[i + 1]);
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::RibbonLists, p, "edge", s.ribbon_e[i + 1])) << r.summary();
}

TEST_F(ValidateRibbonLists, RibbonVertexOfNoLocalFace)
{
    // replace a ribbon vertex by a far, larger one owned elsewhere
    const u32      p    = 0;
    const u32      last = s.ribbon_v_offsets[p + 1] - 1;
    ASSERT_GE(last, s.ribbon_v_offsets[p]);
    const u32 far = nverts(b.mesh) - 1;  // owned by the last patch
    ASSERT_GT(far, s.ribbon_v[last]);
    s.ribbon_v[last] = far;
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::RibbonLists, p, "vertex", far)) << r.summary();
}

TEST_F(ValidateOneRing, RemovedRibbonFaceNextToOwnedVertex)
{
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

}  // namespace
