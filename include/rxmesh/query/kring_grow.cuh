// The breadth-first growth behind the k-ring queries: one thread grows one
// vertex's rings into a list, ring by ring, each ring in the order found.
//
// - grow_in_halo (the fast path): inside the patch's halo (kring_halo.h),
//   in ext ids: rows of the patch only, membership a bit of the thread's
//   bitmap over the ext ids. It stops (`left_halo`) when a ring must grow
//   from a vertex with no row in the halo.
// - grow_global (the rest): in global ids, any vertex's row read from its
//   owner's halo; membership by a search of rings d - 1, d and d + 1 only,
//   which is enough in breadth-first order (a neighbour of a ring-d vertex
//   lies in one of them).
// Both stop with `overflow` when the list is full; the launcher then grows
// that vertex again on the global path with a longer list (query/kring.cuh).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "rxmesh/core/ids.h"
#include "rxmesh/core/macros.h"
#include "rxmesh/query/kring_halo.h"

namespace rxmesh {

//! The most rings a k-ring query grows (k <= kMaxKRingRings).
inline constexpr int kMaxKRingRings = 32;

//! A vertex as a staged k-ring query hands it to accept and f: its global
//! id and its N staged values (shared memory on the fast path).
template <typename T, int N>
struct KRingVertex
{
    VertexId id;
    const T* value;
};

//! How a query's list entries become what accept and f see: unstaged,
//! global ids; staged, KRingVertex (ids and values).
struct UnstagedVertices
{
    LocalToGlobal map;
    RXMESH_DEVICE VertexId operator()(std::uint32_t local) const { return VertexId(map(local)); }
    RXMESH_DEVICE VertexId id(std::uint32_t local) const { return VertexId(map(local)); }
};
template <typename T, int N>
struct StagedVertices
{
    LocalToGlobal map;
    const T*      values;  // N per local id
    RXMESH_DEVICE KRingVertex<T, N> operator()(std::uint32_t local) const
    {
        return {VertexId(map(local)), values + std::size_t(N) * local};
    }
    RXMESH_DEVICE VertexId id(std::uint32_t local) const { return VertexId(map(local)); }
};

//! One vertex's rings as the user's lambda sees them: ring 0 is the vertex
//! itself, then every vertex at distance 1, 2, ...: each vertex once, global
//! ids, ring by ring and, inside a ring, in the order found.
//! The list holds 32-bit ids (the global path) or 16-bit ext ids (the patch
//! kernel: half the local-memory traffic); the kernel that makes the view
//! fixes which, so the test below folds away once f is inlined.
template <typename Vertices>
class BasicKRingView
{
   public:
    RXMESH_DEVICE BasicKRingView(const std::uint32_t* list, std::uint32_t size,
                                 const std::uint32_t* ring_end, std::uint32_t num_rings,
                                 const Vertices& vertices)
        : m_list(list), m_size(size), m_ring_end(ring_end), m_rings(num_rings), m_vx(vertices)
    {
    }
    RXMESH_DEVICE BasicKRingView(const std::uint16_t* ext_list, std::uint32_t size,
                                 const std::uint32_t* ring_end, std::uint32_t num_rings,
                                 const Vertices& vertices)
        : m_ext_list(ext_list),
          m_size(size),
          m_ring_end(ring_end),
          m_rings(num_rings),
          m_vx(vertices)
    {
    }
    //! Vertices in all rings, the centre included.
    RXMESH_DEVICE std::uint32_t size() const { return m_size; }
    RXMESH_DEVICE VertexId      operator[](std::uint32_t i) const { return m_vx.id(entry(i)); }
    //! Entry i with its staged values (staged queries: KRingVertex).
    RXMESH_DEVICE auto vertex(std::uint32_t i) const { return m_vx(entry(i)); }
    //! Non-empty rings, ring 0 (the centre) included.
    RXMESH_DEVICE std::uint32_t num_rings() const { return m_rings; }
    //! Entries [ring_begin(d), ring_end(d)) are ring d (d < num_rings()).
    RXMESH_DEVICE std::uint32_t ring_begin(std::uint32_t d) const
    {
        return d == 0 ? 0u : m_ring_end[d - 1];
    }
    RXMESH_DEVICE std::uint32_t ring_end(std::uint32_t d) const { return m_ring_end[d]; }
    //! A staged view is also a plain one (ids only).
    template <typename V = Vertices,
              std::enable_if_t<!std::is_same_v<V, UnstagedVertices>, int> = 0>
    RXMESH_DEVICE operator BasicKRingView<UnstagedVertices>() const
    {
        const UnstagedVertices ids{m_vx.map};
        return m_ext_list ? BasicKRingView<UnstagedVertices>(m_ext_list, m_size, m_ring_end,
                                                             m_rings, ids)
                          : BasicKRingView<UnstagedVertices>(m_list, m_size, m_ring_end,
                                                             m_rings, ids);
    }

   private:
    RXMESH_DEVICE std::uint32_t entry(std::uint32_t i) const
    {
        return m_ext_list ? std::uint32_t(m_ext_list[i]) : m_list[i];
    }

    const std::uint32_t* m_list     = nullptr;
    const std::uint16_t* m_ext_list = nullptr;
    std::uint32_t        m_size;
    const std::uint32_t* m_ring_end;
    std::uint32_t        m_rings;
    Vertices             m_vx;
};

using KRingView = BasicKRingView<UnstagedVertices>;
template <typename T, int N>
using StagedKRingView = BasicKRingView<StagedVertices<T, N>>;

namespace detail {

//! The identity as a LocalToGlobal (lists of global ids).
RXMESH_DEVICE inline LocalToGlobal global_ids()
{
    return {0, ~0u, nullptr};
}

//! A thread's bitmap over ext ids [0, count): words at base[0], base[stride], ...
struct ExtBits
{
    std::uint32_t* base;
    std::uint32_t  stride, count;

    //! Sets bit l; returns whether it was set before.
    RXMESH_DEVICE bool test_and_set(std::uint32_t l) const
    {
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
    bool          overflow = false, left_halo = false;
};

//! Appends y to the rings' list (entries of 32 or 16 bits); false, with
//! r.overflow set, when the list is full.
template <typename Entry>
RXMESH_DEVICE bool append_to_rings(GrowResult& r, Entry* list, std::uint32_t capacity,
                                   std::uint32_t y)
{
    if (r.size == capacity) {
        r.overflow = true;
        return false;
    }
    list[r.size++] = Entry(y);
    return true;
}

//! Closes the ring that the list's entries from `end` on form; false when
//! the ring is empty (the growth is over).
RXMESH_DEVICE inline bool close_ring(GrowResult& r, std::uint32_t end, std::uint32_t* ring_end)
{
    if (r.size == end)
        return false;
    ring_end[r.num_rings++] = r.size;
    return true;
}

//! accept for the exact k-ring: every vertex.
struct AcceptAll
{
    template <typename V>
    RXMESH_DEVICE bool operator()(const V&, const V&) const
    {
        return true;
    }
};

template <typename Accept, typename = void>
struct HasBind : std::false_type
{
};
template <typename Accept>
struct HasBind<Accept, std::void_t<decltype(&Accept::bind)>> : std::true_type
{
};

template <typename Accept, typename V>
struct BoundAccept
{
    const Accept& accept;
    V             centre;
    RXMESH_DEVICE bool operator()(const V& u) const { return accept(centre, u); }
};

//! accept with its centre fixed: accept.bind(centre) where the predicate
//! offers it (what depends on the centre is then loaded once per centre),
//! else a wrapper calling accept(centre, u).
template <typename Accept, typename V>
RXMESH_DEVICE auto bind_centre(const Accept& accept, const V& centre)
{
    if constexpr (HasBind<Accept>::value)
        return accept.bind(centre);
    else
        return BoundAccept<Accept, V>{accept, centre};
}

//! Patch p's halo rows, for grow_in_halo.
struct HaloPatch
{
    const std::uint32_t* row_offsets;  // p's first row's offset, ...
    const std::uint16_t* entries;
    std::uint32_t        num_rows;
};

//! Grows the rings of ext id c (an owned vertex of the patch) while accept
//! admits the vertices found, until a ring adds nothing or max_rings rings
//! past the centre exist. ring_end[d]: the end of ring d in list (16-bit
//! ext ids: halo entries are 16-bit, so every ext id fits).
template <typename Accept, typename Vertices>
RXMESH_DEVICE GrowResult grow_in_halo(const HaloPatch& h, const Vertices& vx, std::uint32_t c,
                                      int max_rings, const Accept& accept, std::uint16_t* list,
                                      std::uint32_t capacity, const ExtBits& bits,
                                      std::uint32_t* ring_end)
{
    GrowResult r;
    bits.clear();
    bits.test_and_set(c);
    const auto admits = bind_centre(accept, vx(c));
    list[0] = std::uint16_t(c), ring_end[0] = 1, r.size = 1, r.num_rings = 1;
    for (int d = 0, begin = 0; d < max_rings; ++d) {
        const std::uint32_t end = r.size;
        for (std::uint32_t i = begin; i < end; ++i) {
            const std::uint32_t x = list[i];
            if (x >= h.num_rows)
                return r.left_halo = true, r;
            for (std::uint32_t e = h.row_offsets[x]; e < h.row_offsets[x + 1]; ++e) {
                const std::uint32_t y = h.entries[e];
                if (bits.test_and_set(y))
                    continue;
                if constexpr (!std::is_same_v<Accept, AcceptAll>)
                    if (!admits(vx(y)))
                        continue;  // y stays marked: accept's answer does not change
                if (!append_to_rings(r, list, capacity, y))
                    return r;
            }
        }
        if (!close_ring(r, end, ring_end))
            break;
        begin = end;
    }
    return r;
}

//! The same in global ids for any vertex v, rows from the owners' halos.
//! vx: in global ids (map the identity).
template <typename Accept, typename Vertices>
RXMESH_DEVICE GrowResult grow_global(const KRingHaloView& h, const Vertices& vx, std::uint32_t v,
                                     int max_rings, const Accept& accept, std::uint32_t* list,
                                     std::uint32_t capacity, std::uint32_t* ring_end)
{
    GrowResult r;
    list[0] = v, ring_end[0] = 1, r.size = 1, r.num_rings = 1;
    const auto admits = bind_centre(accept, vx(v));
    auto holds = [&](std::uint32_t first, std::uint32_t y) {
        for (std::uint32_t i = first; i < r.size; ++i)
            if (list[i] == y)
                return true;
        return false;
    };
    for (std::uint32_t d = 0, prev_begin = 0, begin = 0; d < std::uint32_t(max_rings); ++d) {
        const std::uint32_t end = r.size;
        for (std::uint32_t i = begin; i < end; ++i) {
            const std::uint32_t x = list[i], q = h.owner(x);
            const LocalToGlobal map = h.ext_to_global(q);
            const std::uint32_t row = h.row_first[q] + (x - map.owned_offset);
            for (std::uint32_t e = h.row_offsets[row]; e < h.row_offsets[row + 1]; ++e) {
                const std::uint32_t y = map(h.entries[e]);
                if (holds(prev_begin, y) || !admits(vx(y)))
                    continue;
                if (!append_to_rings(r, list, capacity, y))
                    return r;
            }
        }
        if (!close_ring(r, end, ring_end))
            break;
        prev_begin = begin, begin = end;
    }
    return r;
}

//! A warp's set of global ids in shared memory (the warp form of the
//! global path): open addressing over a power-of-two table, linear probing,
//! never more than half full (the caller sizes it for twice the list and
//! one batch).
struct WarpIdSet
{
    static constexpr std::uint32_t kEmpty = ~0u;  // never a vertex id
    std::uint32_t*                 slots;
    std::uint32_t                  mask;  // slots - 1

    RXMESH_DEVICE void clear(unsigned lane) const
    {
        for (std::uint32_t i = lane; i <= mask; i += 32)
            slots[i] = kEmpty;
        __syncwarp();
    }
    //! Inserts y; true when it was not in the set.
    RXMESH_DEVICE bool insert(std::uint32_t y) const
    {
        for (std::uint32_t i = (y * 0x9E3779B1u) & mask;; i = (i + 1) & mask) {
            const std::uint32_t before = atomicCAS(slots + i, kEmpty, y);
            if (before == kEmpty || before == y)
                return before == kEmpty;
        }
    }
};

//! Where a lane's frontier vertex's row lies, for grow_global_warp.
struct WarpRow
{
    LocalToGlobal map;
    std::uint32_t first = 0, length = 0;
};

RXMESH_DEVICE inline WarpRow row_of(const KRingHaloView& h, std::uint32_t x)
{
    WarpRow             w;
    const std::uint32_t q = h.owner(x);
    w.map                 = h.ext_to_global(q);
    const std::uint32_t row = h.row_first[q] + (x - w.map.owned_offset);
    w.first               = h.row_offsets[row];
    w.length              = h.row_offsets[row + 1] - w.first;
    return w;
}

//! The lane whose row holds entry idx of the rows laid end to end (start:
//! each lane's exclusive prefix; the largest lane whose start <= idx).
RXMESH_DEVICE inline int lane_of_entry(std::uint32_t start, std::uint32_t idx)
{
    int s = 0;
    for (int step = 16; step >= 1; step >>= 1)
        if (__shfl_sync(~0u, start, s + step) <= idx)
            s += step;
    return s;
}

//! grow_global by a whole warp (every lane calls it; the result is the same
//! in every lane): each ring's frontier 32 vertices at a time, their rows
//! laid end to end and 32 entries tested at a time, membership in `set`.
//! The list comes out in grow_global's order (frontier order, then row
//! order; the first of equal entries wins), so the two agree entry for entry.
template <typename Accept, typename Vertices>
RXMESH_DEVICE GrowResult grow_global_warp(const KRingHaloView& h, const Vertices& vx,
                                          std::uint32_t v, int max_rings, const Accept& accept,
                                          std::uint32_t* list, std::uint32_t capacity,
                                          std::uint32_t* ring_end, const WarpIdSet& set,
                                          unsigned lane)
{
    GrowResult r;
    set.clear(lane);
    if (lane == 0) {
        list[0] = v;
        set.insert(v);
    }
    __syncwarp();
    ring_end[0] = 1, r.size = 1, r.num_rings = 1;
    const auto admits = bind_centre(accept, vx(v));
    for (std::uint32_t d = 0, begin = 0; d < std::uint32_t(max_rings); ++d) {
        const std::uint32_t end = r.size;
        for (std::uint32_t c = begin; c < end; c += 32) {
            const WarpRow mine = c + lane < end ? row_of(h, list[c + lane]) : WarpRow{};
            std::uint32_t incl = mine.length;  // inclusive prefix over the lanes
            for (int o = 1; o < 32; o <<= 1) {
                const std::uint32_t t = __shfl_up_sync(~0u, incl, o);
                incl += lane >= unsigned(o) ? t : 0u;
            }
            const std::uint32_t start = incl - mine.length, total = __shfl_sync(~0u, incl, 31);
            for (std::uint32_t t0 = 0; t0 < total; t0 += 32) {
                const std::uint32_t idx = t0 + lane;
                const int           s   = lane_of_entry(start, idx);
                const LocalToGlobal map{__shfl_sync(~0u, mine.map.owned_offset, s),
                                        __shfl_sync(~0u, mine.map.num_owned, s),
                                        reinterpret_cast<const std::uint32_t*>(__shfl_sync(
                                            ~0u, reinterpret_cast<unsigned long long>(mine.map.ribbon), s))};
                const std::uint32_t e = __shfl_sync(~0u, mine.first, s) + idx -
                                        __shfl_sync(~0u, start, s);
                std::uint32_t y    = WarpIdSet::kEmpty;
                bool          keep = false;
                if (idx < total) {
                    y    = map(h.entries[e]);
                    keep = admits(vx(y));
                }
                const unsigned same = __match_any_sync(~0u, keep ? y : WarpIdSet::kEmpty);
                keep = keep && __ffs(same) - 1 == int(lane) && set.insert(y);
                const unsigned      adds = __ballot_sync(~0u, keep);
                const std::uint32_t n    = __popc(adds);
                if (r.size + n > capacity)
                    return r.overflow = true, r;
                if (keep)
                    list[r.size + __popc(adds & ((1u << lane) - 1u))] = y;
                r.size += n;
            }
        }
        __syncwarp();  // the ring's entries, written by every lane, are read next
        if (!close_ring(r, end, ring_end))
            break;
        begin = end;
    }
    return r;
}

}  // namespace detail

}  // namespace rxmesh
