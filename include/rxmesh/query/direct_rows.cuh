// The direct queries EV, FE, FV: an owned element's row is its own row of
// M_EV / M_FE (FV reads M_EV through it), so each thread reads what it needs
// from global memory: the patch's rows are contiguous, the reads coalesce,
// ribbon rows are never touched, and no shared memory or barrier is needed.
#pragma once

#include <cstdint>

#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/op.h"
#include "rxmesh/query/row_emit.cuh"

namespace rxmesh::detail {

//! Row i of an owned edge or face of patch `pi`, in local ids: EV's two
//! vertices, FE's three (edge << 1 | flip) entries, FV's three vertices in
//! winding order (each edge's start as the face walks it).
template <Op op>
__device__ __forceinline__ std::uint32_t direct_row(const PatchInfo& pi, std::uint32_t i,
                                                    std::uint16_t (&raw)[3])
{
    if constexpr (op == Op::EV) {
        // a row of M_EV is 4-byte aligned: one load
        const std::uint32_t w = __ldg(reinterpret_cast<const unsigned int*>(pi.m_ev + 2 * i));
        raw[0]                = static_cast<std::uint16_t>(w & 0xFFFFu);
        raw[1]                = static_cast<std::uint16_t>(w >> 16);
        return 2;
    } else {
#pragma unroll
        for (int k = 0; k < 3; ++k)
            raw[k] = __ldg(pi.m_fe + 3 * i + k);
        if constexpr (op == Op::FV)
#pragma unroll
            for (int k = 0; k < 3; ++k)
                raw[k] = __ldg(pi.m_ev + 2 * (raw[k] >> 1) + (raw[k] & 1));
        return 3;
    }
}

//! EV, FE, FV for the block's patches (blockIdx.x, blockIdx.x + gridDim.x,
//! ... of the schedule, device_mesh.h): each
//! thread loads and maps the rows of kElementsInFlight elements (independent
//! loads, in flight together), then runs the lambdas.
template <Op op, int BlockThreads, typename Lambda, typename Active>
__device__ __forceinline__ void direct_query(const DeviceMesh& mesh, Lambda& user, Active& active)
{
    using Source            = typename OpTraits<op>::Source;
    using Output            = typename OpTraits<op>::Output;
    constexpr std::uint32_t K   = OpTraits<op>::row_length;
    const std::uint32_t end = mesh.end_item();
    for (std::uint32_t i = mesh.first_item() + blockIdx.x; i < end; i += gridDim.x) {
        const std::uint32_t p = mesh.scheduled_patch(i);
        if (!patch_may_be_active(active, p))
            continue;
        const PatchInfo      pi  = mesh.patch(p);
        const LocalToGlobal& src = op == Op::EV ? pi.emap : pi.fmap;
        const LocalToGlobal& out = op == Op::FE ? pi.emap : pi.vmap;
        auto row = [&](std::uint32_t i, std::uint16_t (&raw)[3]) { return direct_row<op>(pi, i, raw); };
        emit_short_rows<Source, Output, BlockThreads, kElementsInFlight, K, K>(
            src, out, op == Op::FE ? 1 : 0, row, user, active);
    }
}

}  // namespace rxmesh::detail
