// The breadth-first growth behind the k-ring queries: one thread grows one
// vertex's rings into a list (global vertex ids, ring by ring, each ring in
// the order its vertices were found), reading one-rings from KRingRows.
//
// Membership ("was y found already?") has two answers:
// - y owned by the block's patch: a bit in the thread's bitmap over that
//   patch's owned vertices (most of a ring, when the patch is larger than
//   the ring), one shared-memory access;
// - any other y: a scan of rings d - 1, d and d + 1 only, which is enough in
//   breadth-first order (a neighbour of a ring-d vertex lies in one of them).
// A growth that would exceed the list's capacity stops and reports it; the
// launcher then grows that vertex again with a larger list (query/kring.cuh).
#pragma once

#include <cstdint>

#include "rxmesh/core/ids.h"
#include "rxmesh/core/macros.h"
#include "rxmesh/query/kring_rows.h"

namespace rxmesh {

//! The most rings a k-ring query grows (k <= kMaxKRingRings).
inline constexpr int kMaxKRingRings = 32;

//! One vertex's rings as the user's lambda sees them: ring 0 is the vertex
//! itself, then every vertex at distance 1, 2, ...: each vertex once, global
//! ids, ring by ring and, inside a ring, in the order found.
class KRingView
{
   public:
    RXMESH_DEVICE KRingView(const std::uint32_t* list, std::uint32_t stride, std::uint32_t size,
                            const std::uint32_t* ring_end, std::uint32_t num_rings)
        : m_list(list), m_stride(stride), m_size(size), m_ring_end(ring_end), m_rings(num_rings)
    {
    }
    //! Vertices in all rings, the centre included.
    RXMESH_DEVICE std::uint32_t size() const { return m_size; }
    RXMESH_DEVICE VertexId operator[](std::uint32_t i) const
    {
        return VertexId(m_list[std::uint64_t(i) * m_stride]);
    }
    //! Non-empty rings, ring 0 (the centre) included.
    RXMESH_DEVICE std::uint32_t num_rings() const { return m_rings; }
    //! Entries [ring_begin(d), ring_end(d)) are ring d (d < num_rings()).
    RXMESH_DEVICE std::uint32_t ring_begin(std::uint32_t d) const
    {
        return d == 0 ? 0u : m_ring_end[d - 1];
    }
    RXMESH_DEVICE std::uint32_t ring_end(std::uint32_t d) const { return m_ring_end[d]; }

   private:
    const std::uint32_t* m_list;
    std::uint32_t        m_stride, m_size;
    const std::uint32_t* m_ring_end;
    std::uint32_t        m_rings;
};

namespace detail {

//! A thread's list: `capacity` entries at base[0], base[stride], ...
struct RingList
{
    std::uint32_t* base;
    std::uint32_t  stride, capacity;

    RXMESH_DEVICE std::uint32_t& operator[](std::uint32_t i) const
    {
        return base[std::uint64_t(i) * stride];
    }
    //! Whether v is among entries [first, last).
    RXMESH_DEVICE bool holds(std::uint32_t first, std::uint32_t last, std::uint32_t v) const
    {
        for (std::uint32_t i = first; i < last; ++i)
            if ((*this)[i] == v)
                return true;
        return false;
    }
};

//! A thread's bitmap over the owned vertices [first, first + count) of the
//! block's patch (count 0: no bitmap; every vertex goes through the scan).
struct OwnedBits
{
    std::uint32_t* base;
    std::uint32_t  stride, first, count;

    RXMESH_DEVICE bool covers(std::uint32_t v) const { return v - first < count; }
    //! Sets v's bit; returns whether it was set before. \pre covers(v)
    RXMESH_DEVICE bool test_and_set(std::uint32_t v) const
    {
        const std::uint32_t l    = v - first;
        std::uint32_t&      word = base[std::uint64_t(l >> 5) * stride];
        const std::uint32_t bit  = 1u << (l & 31u);
        const bool          was  = word & bit;
        word |= bit;
        return was;
    }
    RXMESH_DEVICE void clear() const
    {
        for (std::uint32_t w = 0; w < (count + 31) / 32; ++w)
            base[std::uint64_t(w) * stride] = 0;
    }
};

struct GrowResult
{
    std::uint32_t size = 0, num_rings = 0;
    bool          overflow = false;
};

//! Grows rings around v: ring d + 1 holds the unfound neighbours u of ring d
//! with accept(v, u), until a ring adds nothing or max_rings rings past the
//! centre exist. ring_end[d] receives the end of ring d in `list`.
//! `bits_map`: the local-to-global map of the patch whose owned vertices
//! `bits` covers (the rows of those vertices are in its local ids).
template <typename Accept>
RXMESH_DEVICE GrowResult grow_rings(const KRingRowsView& rows, std::uint32_t v, int max_rings,
                                    const Accept& accept, const RingList& list,
                                    const OwnedBits& bits, const LocalToGlobal& bits_map,
                                    std::uint32_t* ring_end)
{
    GrowResult r;
    list[0] = v;
    if (bits.covers(v))
        bits.test_and_set(v);
    r.size = 1, r.num_rings = 1, ring_end[0] = 1;
    std::uint32_t prev_begin = 0, begin = 0;
    for (int d = 0; d < max_rings; ++d) {
        const std::uint32_t end = r.size;
        for (std::uint32_t i = begin; i < end; ++i) {
            const std::uint32_t x   = list[i];
            const LocalToGlobal map =
                bits.covers(x) ? bits_map : rows.local_to_global(rows.owner(x));
            const std::uint32_t e1  = rows.row_offsets[x + 1];
            for (std::uint32_t e = rows.row_offsets[x]; e < e1; ++e) {
                const std::uint32_t y = map(rows.entries[e]);
                if (bits.covers(y) ? bits.test_and_set(y) : list.holds(prev_begin, r.size, y))
                    continue;
                if (!accept(VertexId(v), VertexId(y)))
                    continue;
                if (r.size == list.capacity) {
                    r.overflow = true;
                    return r;
                }
                list[r.size++] = y;
            }
        }
        if (r.size == end)
            break;
        ring_end[r.num_rings++] = r.size;
        prev_begin = begin;
        begin      = end;
    }
    return r;
}

//! accept for the exact k-ring: every vertex.
struct AcceptAll
{
    RXMESH_DEVICE bool operator()(VertexId, VertexId) const { return true; }
};

}  // namespace detail

}  // namespace rxmesh
