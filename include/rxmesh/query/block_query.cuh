// block_query<Op>: the work of one query block (RXMesh paper, section 6.2 and
// appendix B). The block takes the patches blockIdx.x, blockIdx.x +
// gridDim.x, ... (of the mesh's PatchSchedule when it has one), computes the query's rows for each and calls the user's
// lambda once per owned (and active) source element with a RowView.
//
// Two paths:
// - EV, FE, FV (direct_rows.cuh): rows straight from the store in global
//   memory, four elements in flight per thread, no barrier.
// - VV, VE, VF, EF, FF: the patch is staged (stage_patch.cuh), rows are built
//   by block-level transposes (vertex_rows.cuh, edge_face_rows.cuh), then
//   handed to the lambdas, kElementsInFlight per thread per step.
// kShared selects dynamic shared memory (the fast path) or the global scratch
// (patches too large for shared memory): two instantiations, so that the
// shared-memory one compiles to shared-memory instructions, not to generic
// ones that the compiler must order against the user's global stores.
#pragma once

#include <cstdint>
#include <type_traits>

#include "rxmesh/query/block_transpose.cuh"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/direct_rows.cuh"
#include "rxmesh/query/edge_face_rows.cuh"
#include "rxmesh/query/op.h"
#include "rxmesh/query/row_emit.cuh"
#include "rxmesh/query/stage_patch.cuh"
#include "rxmesh/query/vertex_rows.cuh"

namespace rxmesh::detail {

//! Calls user(source, row) for the owned, active source elements whose rows
//! are CSR rows (row_off, row_val) of local output ids.
template <Op op, int BlockThreads, typename Lambda, typename Active>
__device__ __forceinline__ void emit_csr_rows(const LocalToGlobal& src, const LocalToGlobal& out,
                                              const std::uint32_t* row_off,
                                              const std::uint16_t* row_val, Lambda& user,
                                              Active& active)
{
    using Source = typename OpTraits<op>::Source;
    using Output = typename OpTraits<op>::Output;
    for_each_step<BlockThreads, kElementsInFlight>(src.num_owned, [&](std::uint32_t base,
                                                                      auto full) {
#pragma unroll
        for (int j = 0; j < kElementsInFlight; ++j) {
            const std::uint32_t i = base + j * BlockThreads + threadIdx.x;
            if (!full && i >= src.num_owned)
                break;
            const Source s(src.owned_offset + i);
            if (active(s))
                user(s, RowView<Output>(row_val + row_off[i], row_off[i + 1] - row_off[i], 0, out));
        }
    });
}

//! Whether any owned source element of the patch is active (block-wide).
template <Op op, int BlockThreads, typename Active>
__device__ __forceinline__ bool any_active(const LocalToGlobal& src, Active& active)
{
    using Source = typename OpTraits<op>::Source;
    if constexpr (std::is_same_v<std::decay_t<Active>, AllActive>) {
        return true;
    } else {
        bool any = false;
        for (std::uint32_t i = threadIdx.x; i < src.num_owned && !any; i += BlockThreads)
            any = active(Source(src.owned_offset + i));
        return __syncthreads_or(any);
    }
}

template <Op op, int BlockThreads, bool kShared, typename Lambda, typename Active>
__device__ __forceinline__ void staged_query(const DeviceMesh& mesh, Lambda& user, Active& active,
                                             bool oriented)
{
    __shared__ typename BlockArrayScan<BlockThreads>::TempStorage scan_tmp;
    const std::uint32_t end = mesh.end_item();
    for (std::uint32_t i = mesh.first_item() + blockIdx.x; i < end; i += gridDim.x) {
        const std::uint32_t p = mesh.scheduled_patch(i);
        if (!patch_may_be_active(active, p))  // the same answer in every thread
            continue;
        __syncthreads();  // the previous patch's arrays are reused
        const PatchInfo      pi  = mesh.patch(p);
        const LocalToGlobal& src = source_map<op>(pi);
        // patches without an active source element do no query work
        if (!any_active<op, BlockThreads>(src, active))
            continue;
        const bool    orient    = oriented && can_orient(op);
        const bool    two_slots = uses_two_slots<op>(mesh, p);
        LocalToGlobal out       = output_map<op>(pi);
        const QueryArrays a = stage_patch<op, BlockThreads, kShared>(mesh, pi, orient, two_slots, out);
        const std::uint32_t* row_off = nullptr;
        const std::uint16_t* row_val = nullptr;
        if constexpr (op == Op::EF || op == Op::FF) {
            if (two_slots) {
                two_slot_rows<op, BlockThreads>(a, pi.nF, src, out, user, active);
                continue;
            }
            general_edge_face_rows<op, BlockThreads>(a, pi, scan_tmp, row_off, row_val);
        } else {
            vertex_rows<op, BlockThreads>(a, pi, orient, scan_tmp, row_off, row_val);
        }
        emit_csr_rows<op, BlockThreads>(src, out, row_off, row_val, user, active);
    }
}

//! The whole block runs query `op` over its patches; see the top of the file.
template <Op op, int BlockThreads, bool kShared, typename Lambda, typename Active>
__device__ __forceinline__ void block_query(const DeviceMesh& mesh, Lambda& user, Active& active,
                                            bool oriented)
{
    if constexpr (is_direct_query(op))
        direct_query<op, BlockThreads>(mesh, user, active);
    else
        staged_query<op, BlockThreads, kShared>(mesh, user, active, oriented);
}

}  // namespace rxmesh::detail
