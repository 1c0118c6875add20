// Tests of the contract validator (rxmesh::validate) by single-entry random
// corruptions that must all be detected without crashing, and by resized
// arrays.
#include <random>

#include "patch_store_test_util.h"

namespace {

using namespace patch_store_test;

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
