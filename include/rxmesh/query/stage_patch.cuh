// Staging of one patch for the staged queries (VV, VE, VF, EF, FF): the
// patch's M_EV and/or M_FE and the output kind's ribbon map are copied into
// the block's arrays (dynamic shared memory, or the block's slice of the
// global scratch), carved as smem_plan.h lays them out.
#pragma once

#include <cstdint>

#include "rxmesh/query/copy_window.cuh"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/op.h"
#include "rxmesh/query/smem_plan.h"

namespace rxmesh::detail {

//! The map of a staged query's source elements (owned, contiguous ids).
template <Op op>
__device__ __forceinline__ const LocalToGlobal& source_map(const PatchInfo& pi)
{
    if constexpr (op == Op::VV || op == Op::VE || op == Op::VF)
        return pi.vmap;
    else if constexpr (op == Op::EF)
        return pi.emap;
    else
        return pi.fmap;
}

//! The map of a staged query's output elements (its ribbon part is staged).
template <Op op>
__device__ __forceinline__ LocalToGlobal output_map(const PatchInfo& pi)
{
    return op == Op::VV ? pi.vmap : (op == Op::VE ? pi.emap : pi.fmap);
}

//! Whether EF / FF of patch p can use two face slots per edge: the patch is
//! oriented-manifold (flagged at build), so edge e's faces go to slots 2e
//! (the face walking e from its first M_EV vertex) and 2e + 1 (the other
//! way), and a face's M_FE entry (e << 1 | flip) is its own slot's index.
template <Op op>
__device__ __forceinline__ bool uses_two_slots(const DeviceMesh& mesh, std::uint32_t p)
{
    return (op == Op::EF || op == Op::FF) && mesh.store.oriented_manifold &&
           mesh.store.oriented_manifold[p];
}

//! Empties the two face slots of every edge (0xFFFF: never a local id), 16
//! bytes (four edges) per store; e_val is 16-byte aligned.
template <int BlockThreads>
__device__ __forceinline__ void clear_two_slots(std::uint16_t* e_val, std::uint32_t nE)
{
    const std::uint32_t nquads = nE / 4;
    uint4*              quads  = reinterpret_cast<uint4*>(e_val);
    for (std::uint32_t q = threadIdx.x; q < nquads; q += BlockThreads)
        quads[q] = make_uint4(~0u, ~0u, ~0u, ~0u);
    std::uint32_t* words = reinterpret_cast<std::uint32_t*>(e_val);
    for (std::uint32_t e = 4 * nquads + threadIdx.x; e < nE; e += BlockThreads)
        words[e] = 0xFFFFFFFFu;
}

//! Carves patch p's arrays and copies its inputs into them (asynchronous
//! copies into shared memory when kShared, plain copies into the scratch
//! otherwise); `out` gets the staged ribbon map. Ends with a barrier.
template <Op op, int BlockThreads, bool kShared>
__device__ __forceinline__ QueryArrays stage_patch(const DeviceMesh& mesh, const PatchInfo& pi,
                                                   bool orient, bool two_slots,
                                                   LocalToGlobal& out)
{
    extern __shared__ __align__(16) unsigned char rxmesh_query_smem[];
    const PatchStoreView& st = mesh.store;
    QuerySizes            sizes;
    sizes.nV          = pi.nV;
    sizes.nE          = pi.nE;
    sizes.nF          = pi.nF;
    sizes.owned_faces = pi.fmap.num_owned;
    sizes.ff_entries  = mesh.limits.ff_entries;
    sizes.out_ribbon  = (op == Op::VV ? pi.nV : (op == Op::VE ? pi.nE : pi.nF)) - out.num_owned;
    sizes.general_ef  = !two_slots;
    SmemCarver  carver(kShared ? rxmesh_query_smem : mesh.scratch + blockIdx.x * mesh.scratch_stride);
    QueryArrays a = carve_query_arrays(carver, op, orient, sizes);
    const std::uint32_t* ribbon_end = op == Op::VV   ? st.ribbon_v + st.num_ribbon_v
                                      : op == Op::VE ? st.ribbon_e + st.num_ribbon_e
                                                     : st.ribbon_f + st.num_ribbon_f;
    if (stages_ev(op, orient))
        a.m_ev = copy_to_window<kShared>(a.m_ev, pi.m_ev, 2 * pi.nE, st.m_ev + st.m_ev_size);
    if (stages_fe(op, orient))
        a.m_fe = copy_to_window<kShared>(a.m_fe, pi.m_fe, 3 * pi.nF, st.m_fe + st.m_fe_size);
    a.out_ribbon = copy_to_window<kShared>(a.out_ribbon, out.ribbon, sizes.out_ribbon, ribbon_end);
    out.ribbon   = a.out_ribbon;
    if (two_slots)  // while the loads land
        clear_two_slots<BlockThreads>(a.e_val, pi.nE);
    if constexpr (kShared)
        finish_copies();
    __syncthreads();
    return a;
}

}  // namespace rxmesh::detail
