// EF and FF of a staged patch. An oriented-manifold patch fills two face
// slots per edge (no counting, no scan) and hands rows of at most three
// entries over in registers; any other patch (non-manifold edges,
// inconsistent orientation) takes the CSR transpose of M_FE (multisplit).
#pragma once

#include <cstdint>

#include "rxmesh/query/block_transpose.cuh"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/op.h"
#include "rxmesh/query/row_emit.cuh"
#include "rxmesh/query/smem_plan.h"

namespace rxmesh::detail {

//! FF of owned face f: faces on its three edges (EF rows), without f and
//! without repeats. With out == nullptr only counts.
__device__ inline std::uint32_t face_neighbours(std::uint32_t f, const std::uint16_t* fe,
                                                const std::uint32_t* ef_off,
                                                const std::uint16_t* ef_val,
                                                std::uint16_t*       out)
{
    std::uint32_t n = 0;
    for (int k = 0; k < 3; ++k) {
        const std::uint32_t e = fe[3 * f + k] >> 1;
        for (std::uint32_t j = ef_off[e]; j < ef_off[e + 1]; ++j) {
            const std::uint16_t g = ef_val[j];
            if (g == f)
                continue;
            bool seen = false;
            // repeats can only come from an earlier edge of f
            for (int kk = 0; kk < k && !seen; ++kk) {
                const std::uint32_t e2 = fe[3 * f + kk] >> 1;
                for (std::uint32_t jj = ef_off[e2]; jj < ef_off[e2 + 1] && !seen; ++jj)
                    seen = ef_val[jj] == g;
            }
            if (!seen) {
                if (out)
                    out[n] = g;
                ++n;
            }
        }
    }
    return n;
}

//! EF row of edge e from its two slots: [face walking e forward, face
//! walking it backward], either may be absent.
__device__ __forceinline__ std::uint32_t two_slot_ef_row(const std::uint16_t* slot,
                                                         std::uint32_t e, std::uint16_t (&raw)[3])
{
    const std::uint32_t w  = reinterpret_cast<const std::uint32_t*>(slot)[e];
    const auto          lo = static_cast<std::uint16_t>(w & 0xFFFFu),
               hi          = static_cast<std::uint16_t>(w >> 16);
    // fixed indices only: raw[] stays in registers
    raw[0] = lo != 0xFFFFu ? lo : hi;
    raw[1] = hi;
    return std::uint32_t(lo != 0xFFFFu) + std::uint32_t(hi != 0xFFFFu);
}

//! FF row of face f from the slots: the face across each edge is in the
//! edge's other slot; two faces may share two edges (repeated vertices):
//! listed once.
__device__ __forceinline__ std::uint32_t two_slot_ff_row(const std::uint16_t* slot,
                                                         const std::uint16_t* m_fe,
                                                         std::uint32_t f, std::uint16_t (&raw)[3])
{
    std::uint32_t n = 0;
#pragma unroll
    for (int k = 0; k < 3; ++k) {
        const std::uint16_t g    = slot[m_fe[3 * f + k] ^ 1u];
        const bool          seen = (n > 0 && raw[0] == g) || (n > 1 && raw[1] == g);
        if (g != 0xFFFFu && g != f && !seen) {
            // fixed indices only: raw[] stays in registers
            if (n == 0)
                raw[0] = g;
            else if (n == 1)
                raw[1] = g;
            else
                raw[2] = g;
            ++n;
        }
    }
    return n;
}

//! EF / FF of an oriented-manifold patch: one face per thread writes itself
//! into the slots of its three edges, then the rows go to the lambdas.
template <Op op, int BlockThreads, typename Lambda, typename Active>
__device__ __forceinline__ void two_slot_rows(const QueryArrays& a, std::uint32_t nF,
                                              const LocalToGlobal& src, const LocalToGlobal& out,
                                              Lambda& user, Active& active)
{
    using Source = typename OpTraits<op>::Source;
    using Output = typename OpTraits<op>::Output;
    for (std::uint32_t f = threadIdx.x; f < nF; f += BlockThreads) {
        const std::uint16_t* fe = a.m_fe + 3 * f;
        const std::uint16_t  e0 = fe[0], e1 = fe[1], e2 = fe[2];
        a.e_val[e0] = a.e_val[e1] = a.e_val[e2] = static_cast<std::uint16_t>(f);
    }
    __syncthreads();
    const std::uint16_t*  slot = a.e_val;
    const SharedRibbonMap map{out};
    if constexpr (op == Op::EF) {
        auto row = [&](std::uint32_t e, std::uint16_t (&raw)[3]) { return two_slot_ef_row(slot, e, raw); };
        emit_short_rows<Source, Output, BlockThreads, kElementsInFlight, 0, 2>(src, map, 0, row,
                                                                               user, active);
    } else {
        auto row = [&](std::uint32_t f, std::uint16_t (&raw)[3]) {
            return two_slot_ff_row(slot, a.m_fe, f, raw);
        };
        emit_short_rows<Source, Output, BlockThreads, kElementsInFlight, 0, 3>(src, map, 0, row,
                                                                               user, active);
    }
}

//! EF / FF of any patch as CSR rows in the block's arrays: the transpose of
//! M_FE (EF), then each owned face's neighbours through it (FF). Returns the
//! rows' offsets and values.
template <Op op, int BlockThreads>
__device__ __forceinline__ void general_edge_face_rows(
    const QueryArrays& a, const PatchInfo& pi,
    typename BlockArrayScan<BlockThreads>::TempStorage& scan_tmp, const std::uint32_t*& row_off,
    const std::uint16_t*& row_val)
{
    block_transpose<BlockThreads>(a.m_fe, pi.nF, 3, 1, pi.nE, a.e_off, a.e_val, scan_tmp);
    if constexpr (op == Op::EF) {
        row_off = a.e_off;
        row_val = a.e_val;
    } else {
        const std::uint32_t owned = pi.fmap.num_owned;
        for (std::uint32_t f = threadIdx.x; f < owned; f += BlockThreads)
            a.f_off[f] = face_neighbours(f, a.m_fe, a.e_off, a.e_val, nullptr);
        if (threadIdx.x == 0)
            a.f_off[owned] = 0;
        __syncthreads();
        BlockArrayScan<BlockThreads>::exclusive(a.f_off, owned + 1, scan_tmp);
        for (std::uint32_t f = threadIdx.x; f < owned; f += BlockThreads)
            face_neighbours(f, a.m_fe, a.e_off, a.e_val, a.f_val + a.f_off[f]);
        __syncthreads();
        row_off = a.f_off;
        row_val = a.f_val;
    }
}

}  // namespace rxmesh::detail
