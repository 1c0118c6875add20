// VV, VE and VF of a staged patch: the transpose of M_EV (VE; VV takes each
// edge's other vertex) and of FV = M_FE x M_EV (VF), as multisplits; the
// oriented forms walk each vertex's fan.
#pragma once

#include <cstdint>

#include "rxmesh/query/block_transpose.cuh"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/op.h"
#include "rxmesh/query/smem_plan.h"

namespace rxmesh::detail {

//! FV in place: each M_FE entry (edge << 1 | flip) becomes the face's vertex
//! where that edge starts (the edge's second vertex when the face walks it
//! flipped), so row f is the face's vertices in winding order.
__device__ inline void fe_to_fv(std::uint16_t* fe, const std::uint16_t* ev, std::uint32_t nF)
{
    for (std::uint32_t j = threadIdx.x; j < 3 * nF; j += blockDim.x) {
        const std::uint32_t e = fe[j];
        fe[j]                 = ev[2 * (e >> 1) + (e & 1)];
    }
}

__device__ inline void swap_u16(std::uint16_t& a, std::uint16_t& b)
{
    const std::uint16_t t = a;
    a                     = b;
    b                     = t;
}

//! Puts the one-ring of local vertex v in counter-clockwise order, starting
//! at the boundary edge when v is on a boundary: faces (vf row) as the fan
//! is walked, and edges (ve row) in the same order. Left as is (any order)
//! when v is non-manifold: its faces do not form one fan.
__device__ inline void orient_one_ring(std::uint16_t v, const std::uint16_t* fv,
                                       const std::uint16_t* ev, std::uint16_t* vf,
                                       std::uint32_t d, std::uint16_t* ve, std::uint32_t de)
{
    if (d == 0)
        return;
    // face f = (v, a, b) in winding order: the fan steps from a to b
    auto a_of = [&](std::uint16_t f) {
        const std::uint16_t* t = fv + 3 * std::uint32_t(f);
        return t[0] == v ? t[1] : (t[1] == v ? t[2] : t[0]);
    };
    auto b_of = [&](std::uint16_t f) {
        const std::uint16_t* t = fv + 3 * std::uint32_t(f);
        return t[0] == v ? t[2] : (t[1] == v ? t[0] : t[1]);
    };
    // a boundary vertex starts at the face whose 'a' no face reaches; an
    // interior one at its smallest local face, so every query agrees
    std::uint32_t start = 0;
    for (std::uint32_t i = 1; i < d; ++i)
        if (vf[i] < vf[start])
            start = i;
    for (std::uint32_t i = 0; i < d; ++i) {
        bool reached = false;
        for (std::uint32_t j = 0; j < d && !reached; ++j)
            reached = b_of(vf[j]) == a_of(vf[i]);
        if (!reached) {
            start = i;
            break;
        }
    }
    swap_u16(vf[0], vf[start]);
    for (std::uint32_t i = 1; i < d; ++i) {
        const std::uint16_t want = b_of(vf[i - 1]);
        std::uint32_t       k    = i;
        while (k < d && a_of(vf[k]) != want)
            ++k;
        if (k == d)
            return;  // the fan ends early: several fans (non-manifold)
        swap_u16(vf[i], vf[k]);
    }
    const bool closed = b_of(vf[d - 1]) == a_of(vf[0]);
    if (de != (closed ? d : d + 1))
        return;  // edges do not match one fan: leave them
    for (std::uint32_t i = 0; i < de; ++i) {
        const std::uint16_t want = i < d ? a_of(vf[i]) : b_of(vf[d - 1]);
        std::uint32_t       k    = i;
        while (k < de && ev[2 * ve[k]] != want && ev[2 * ve[k] + 1] != want)
            ++k;
        if (k == de)
            return;
        swap_u16(ve[i], ve[k]);
    }
}

//! Oriented VV: each owned vertex's ring of edges becomes the ring of the
//! edges' other vertices, in place.
__device__ inline void edges_to_other_vertices(const std::uint16_t* ev, const std::uint32_t* off,
                                               std::uint16_t* val, std::uint32_t num_owned,
                                               std::uint32_t stride)
{
    for (std::uint32_t v = threadIdx.x; v < num_owned; v += stride)
        for (std::uint32_t j = off[v]; j < off[v + 1]; ++j) {
            const std::uint32_t e = val[j];
            val[j]                = ev[2 * e] == v ? ev[2 * e + 1] : ev[2 * e];
        }
}

//! VV / VE / VF rows of a staged patch in the block's arrays (oriented when
//! `orient`); returns the rows' offsets and values. Each thread rewrites only
//! the rows of its own vertices after the last transpose: no barrier needed.
template <Op op, int BlockThreads>
__device__ __forceinline__ void vertex_rows(const QueryArrays& a, const PatchInfo& pi, bool orient,
                                            typename BlockArrayScan<BlockThreads>::TempStorage& scan_tmp,
                                            const std::uint32_t*& row_off,
                                            const std::uint16_t*& row_val)
{
    if (orient || op == Op::VF) {
        fe_to_fv(a.m_fe, a.m_ev, pi.nF);
        __syncthreads();
        block_transpose<BlockThreads>(a.m_fe, pi.nF, 3, 0, pi.nV, a.v2_off, a.v2_val, scan_tmp);
    }
    // VV (unoriented) takes each edge's other vertex right away; oriented
    // VV needs the edges to order the ring first
    if (op == Op::VV && !orient)
        block_transpose<BlockThreads, true>(a.m_ev, pi.nE, 2, 0, pi.nV, a.v_off, a.v_val,
                                            scan_tmp);
    else if (orient || op != Op::VF)
        block_transpose<BlockThreads>(a.m_ev, pi.nE, 2, 0, pi.nV, a.v_off, a.v_val, scan_tmp);
    if (orient)
        for (std::uint32_t v = threadIdx.x; v < pi.vmap.num_owned; v += BlockThreads)
            orient_one_ring(static_cast<std::uint16_t>(v), a.m_fe, a.m_ev, a.v2_val + a.v2_off[v],
                            a.v2_off[v + 1] - a.v2_off[v], a.v_val + a.v_off[v],
                            a.v_off[v + 1] - a.v_off[v]);
    if (op == Op::VV && orient)
        edges_to_other_vertices(a.m_ev, a.v_off, a.v_val, pi.vmap.num_owned, BlockThreads);
    row_off = op == Op::VF ? a.v2_off : a.v_off;
    row_val = op == Op::VF ? a.v2_val : a.v_val;
}

}  // namespace rxmesh::detail
