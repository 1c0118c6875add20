// DeviceMesh: the patch store as query blocks see it (raw pointers, passed by
// value to kernels), and PatchInfo, one patch's sizes and maps.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rxmesh/core/macros.h"
#include "rxmesh/patch/patch_limits.h"
#include "rxmesh/patch/patch_store.h"
#include "rxmesh/query/row_view.h"
#include "rxmesh/query/vertex_sources.h"

namespace rxmesh {

//! One patch's sizes and local-to-global maps.
struct PatchInfo
{
    std::uint32_t nV, nE, nF;  // local counts (owned + ribbon)
    LocalToGlobal vmap, emap, fmap;
    const std::uint16_t* m_ev;  // global memory
    const std::uint16_t* m_fe;
};

//! A subset of the patches chosen on the device, for for_each: its blocks take
//! the patches patches[range[0]], ..., patches[range[1] - 1], with `range`
//! (two values in device memory) read when the kernel runs, so that a loop of
//! launches can narrow or move the subset without the host (an active set
//! that moves, as in front propagation). `capacity`: the most entries the
//! range can span; it sizes the grid (the blocks loop over the entries).
struct PatchSchedule
{
    const std::uint32_t* patches  = nullptr;
    const std::uint32_t* range    = nullptr;
    std::uint32_t        capacity = 0;
};

struct DeviceMesh
{
    PatchStoreView store;
    PatchLimits    limits;
    //! Null pointers: every patch, in order.
    PatchSchedule  schedule;
    //! When a patch's query does not fit shared memory, for_each runs fewer
    //! blocks, each looping over patches with its arrays in this global
    //! scratch (scratch_stride bytes per block) instead.
    unsigned char* scratch        = nullptr;
    std::size_t    scratch_stride = 0;
    //! accumulate's per-vertex lists of local faces (FV) and edges (EV),
    //! when the mesh keeps them (query/vertex_sources.h); else null.
    VertexSourcesView face_sources, edge_sources;

    //! The block's work items: [first_item(), end_item()), each naming the
    //! patch scheduled_patch(i).
    RXMESH_DEVICE std::uint32_t first_item() const
    {
        return schedule.range ? schedule.range[0] : 0;
    }
    RXMESH_DEVICE std::uint32_t end_item() const
    {
        return schedule.range ? schedule.range[1] : store.num_patches;
    }
    RXMESH_DEVICE std::uint32_t scheduled_patch(std::uint32_t i) const
    {
        return schedule.patches ? schedule.patches[i] : i;
    }

    RXMESH_DEVICE PatchInfo patch(std::uint32_t p) const
    {
        PatchInfo           pi;
        const auto&         s  = store;
        const std::uint32_t rv = s.ribbon_v_offsets[p], re = s.ribbon_e_offsets[p],
                            rf = s.ribbon_f_offsets[p];
        pi.vmap = {s.vertex_offsets[p], s.vertex_offsets[p + 1] - s.vertex_offsets[p],
                   s.ribbon_v + rv};
        pi.emap = {s.edge_offsets[p], s.edge_offsets[p + 1] - s.edge_offsets[p], s.ribbon_e + re};
        pi.fmap = {s.face_offsets[p], s.face_offsets[p + 1] - s.face_offsets[p], s.ribbon_f + rf};
        pi.nV   = pi.vmap.num_owned + (s.ribbon_v_offsets[p + 1] - rv);
        pi.nE   = pi.emap.num_owned + (s.ribbon_e_offsets[p + 1] - re);
        pi.nF   = pi.fmap.num_owned + (s.ribbon_f_offsets[p + 1] - rf);
        pi.m_ev = s.m_ev + 2 * std::uint64_t(s.edge_offsets[p] + re);
        pi.m_fe = s.m_fe + 3 * std::uint64_t(s.face_offsets[p] + rf);
        return pi;
    }
};

}  // namespace rxmesh
