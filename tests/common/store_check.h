// Two patch stores compared array by array, so that a failure names the
// array that differs: the GPU build against the reference build, and the
// reference build against a brute-force one.
#pragma once

#include <gtest/gtest.h>

#include "rxmesh/patch/patch_store.h"

namespace rxmesh::test {

//! The patch count, the owned ranges, the ribbons and M_EV / M_FE of `got`
//! equal those of `want` (the capacity they were built for is not compared).
inline void expect_same_store_contents(const HostPatchStore& got, const HostPatchStore& want)
{
    EXPECT_EQ(got.num_patches, want.num_patches);
    EXPECT_EQ(got.vertex_offsets, want.vertex_offsets);
    EXPECT_EQ(got.edge_offsets, want.edge_offsets);
    EXPECT_EQ(got.face_offsets, want.face_offsets);
    EXPECT_EQ(got.ribbon_v_offsets, want.ribbon_v_offsets);
    EXPECT_EQ(got.ribbon_e_offsets, want.ribbon_e_offsets);
    EXPECT_EQ(got.ribbon_f_offsets, want.ribbon_f_offsets);
    EXPECT_EQ(got.ribbon_v, want.ribbon_v);
    EXPECT_EQ(got.ribbon_e, want.ribbon_e);
    EXPECT_EQ(got.ribbon_f, want.ribbon_f);
    EXPECT_EQ(got.m_ev, want.m_ev);
    EXPECT_EQ(got.m_fe, want.m_fe);
}

}  // namespace rxmesh::test
