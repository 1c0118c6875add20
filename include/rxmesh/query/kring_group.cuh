// The patch kernel's growth: G lanes of a warp grow one vertex's rings
// together, one frontier row per round, each lane taking one entry of the
// row. Per-thread growth (kring_grow.cuh) diverges at every entry (owned or
// not, new or not, rows of different lengths) and ran with a third of its
// lanes active; here a round's lanes take the same path but for the
// membership test, and the new vertices of a round are appended with one
// ballot. Membership of the patch's owned vertices is one atomicOr on the
// group's bitmap (it also settles two lanes finding the same vertex);
// others are looked up in rings d - 1 .. d + 1 of the list (a row holds no
// vertex twice, so lanes of one round never race on them).
#pragma once

#include <cstdint>

#include "rxmesh/core/ids.h"
#include "rxmesh/core/macros.h"
#include "rxmesh/query/kring_grow.cuh"

namespace rxmesh::detail {

//! G consecutive lanes of a warp.
template <int G>
struct LaneGroup
{
    static_assert(G >= 1 && G <= 32 && (32 % G) == 0, "a group divides the warp");
    std::uint32_t lane;  // 0 .. G - 1
    std::uint32_t mask;  // the group's lanes in the warp

    RXMESH_DEVICE static LaneGroup of_thread(std::uint32_t thread)
    {
        const std::uint32_t first = (thread % 32) / G * G;
        return {thread % G, (G == 32 ? ~0u : ((1u << G) - 1u)) << first};
    }
    //! Ballot over the group, as G low bits.
    RXMESH_DEVICE std::uint32_t ballot(bool b) const
    {
        return __ballot_sync(mask, b) >> (__ffs(mask) - 1);
    }
    RXMESH_DEVICE void sync() const { __syncwarp(mask); }
};

//! A group's bitmap over the owned vertices [first, first + count).
struct GroupBits
{
    std::uint32_t* words;
    std::uint32_t  first, count;

    RXMESH_DEVICE bool covers(std::uint32_t v) const { return v - first < count; }
    //! Sets v's bit atomically; whether it was set before. \pre covers(v)
    RXMESH_DEVICE bool test_and_set(std::uint32_t v) const
    {
        const std::uint32_t l = v - first, bit = 1u << (l & 31u);
        return atomicOr(words + (l >> 5), bit) & bit;
    }
};

//! grow_rings for a group of G lanes, with the same result and order;
//! every lane returns the same GrowResult. list: shared memory;
//! ring_end: written by lane 0.
template <int G, typename Accept>
RXMESH_DEVICE GrowResult grow_rings_group(const LaneGroup<G>& g, const KRingRowsView& rows,
                                          std::uint32_t v, int max_rings, const Accept& accept,
                                          std::uint32_t* list, std::uint32_t capacity,
                                          const GroupBits& bits, const LocalToGlobal& bits_map,
                                          std::uint32_t* ring_end)
{
    for (std::uint32_t w = g.lane; w < (bits.count + 31) / 32; w += G)
        bits.words[w] = 0;
    g.sync();
    if (g.lane == 0) {
        list[0] = v, ring_end[0] = 1;
        if (bits.covers(v))
            bits.test_and_set(v);
    }
    g.sync();
    GrowResult    r{1, 1, false};
    std::uint32_t prev_begin = 0, begin = 0;
    for (int d = 0; d < max_rings; ++d) {
        const std::uint32_t end = r.size;
        for (std::uint32_t i = begin; i < end; ++i) {
            const std::uint32_t x   = list[i];
            const LocalToGlobal map =
                bits.covers(x) ? bits_map : rows.local_to_global(rows.owner(x));
            const std::uint32_t e1 = rows.row_offsets[x + 1];
            for (std::uint32_t e = rows.row_offsets[x] + g.lane; e - g.lane < e1; e += G) {
                bool          fresh = false;
                std::uint32_t y     = 0;
                if (e < e1) {
                    y     = map(rows.entries[e]);
                    fresh = bits.covers(y) ? !bits.test_and_set(y)
                                           : !RingList{list, 1, 0}.holds(prev_begin, r.size, y);
                    fresh = fresh && accept(VertexId(v), VertexId(y));
                }
                const std::uint32_t found = g.ballot(fresh);
                if (r.size + __popc(found) > capacity)
                    return {r.size, r.num_rings, true};
                if (fresh)
                    list[r.size + __popc(found & ((1u << g.lane) - 1u))] = y;
                r.size += __popc(found);
                g.sync();
            }
        }
        if (r.size == end)
            break;
        if (g.lane == 0)
            ring_end[r.num_rings] = r.size;
        ++r.num_rings;
        prev_begin = begin, begin = end;
    }
    return r;
}

}  // namespace rxmesh::detail
