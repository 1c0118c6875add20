// Tests of the contract validator (rxmesh::validate): one targeted
// corruption per contract of the store's structure and of ownership, and
// the report itself. Ribbon contracts: test_validate_ribbons.cpp.
#include "patch_store_test_util.h"

namespace {

using namespace patch_store_test;
// each suite of one corruption per test starts from base()
using ValidateCapacity      = CorruptionTest;
using ValidateLocalIds      = CorruptionTest;
using ValidateFaceGeometry  = CorruptionTest;
using ValidateEdgeOwnership = CorruptionTest;

// ---- validate: one targeted corruption per contract ----------------------------

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

TEST_F(ValidateCapacity, BelowLargestPatch)
{
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

TEST_F(ValidateLocalIds, MevSentinel)
{
    s.m_ev[ev_base(s, 3) + 2 * 1 + 1] = 0xFFFF;  // patch 3, local edge 1
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::LocalIds, 3, "edge", s.edge_offsets[3] + 1)) << r.summary();
    EXPECT_EQ(count(r, Contract::LocalIds), 1u);
}

TEST_F(ValidateLocalIds, MfePastLocalEdges)
{
    const u32 ne = s.edge_offsets[2] - s.edge_offsets[1] + s.ribbon_e_offsets[2] -
                   s.ribbon_e_offsets[1];
    s.m_fe[fe_base(s, 1) + 3 * 2 + 0] = static_cast<std::uint16_t>(ne << 1);  // local face 2
    const auto r = check(b.pm);
    EXPECT_TRUE(reported(r, Contract::LocalIds, 1, "face", s.face_offsets[1] + 2)) << r.summary();
    EXPECT_EQ(r.total, 1u) << r.summary();
}

TEST_F(ValidateFaceGeometry, FlipBit)
{
    s.m_fe[fe_base(s, 2) + 1] ^= 1;  // patch 2, local face 0, side 1
    const auto r = check(b.pm);
    EXPECT_EQ(r.total, 1u) << r.summary();
    EXPECT_TRUE(reported(r, Contract::FaceGeometry, 2, "face", s.face_offsets[2])) << r.summary();
}

TEST_F(ValidateFaceGeometry, SwappedSides)
{
    std::swap(s.m_fe[fe_base(s, 2)], s.m_fe[fe_base(s, 2) + 1]);
    const auto r = check(b.pm);
    EXPECT_EQ(r.total, 2u) << r.summary();
    EXPECT_EQ(count(r, Contract::FaceGeometry), 2u);
    EXPECT_TRUE(reported(r, Contract::FaceGeometry, 2, "face", s.face_offsets[2])) << r.summary();
}

TEST_F(ValidateFaceGeometry, RibbonFaceSide)
{
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

TEST_F(ValidateEdgeOwnership, OwnedEdgeNotAMeshEdge)
{
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

TEST_F(ValidateEdgeOwnership, DuplicatedEdge)
{
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

TEST_F(ValidateEdgeOwnership, RibbonCopyDisagrees)
{
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

}  // namespace
