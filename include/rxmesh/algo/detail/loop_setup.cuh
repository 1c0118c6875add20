// Level 0 of the GPU Loop subdivision (algo/loop_subdivision.cuh): its
// topology from build_topology, turned into the arrays of algo/detail/loop_level.cuh;
// the counts and bytes of every level, checked before anything is allocated.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "rxmesh/algo/detail/loop_level.cuh"
#include "rxmesh/build/topology.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/search.cuh"

namespace rxmesh::loop {

struct Counts
{
    std::uint64_t V = 0, E = 0, F = 0;
};

//! Counts of levels 0 .. levels: V' = V + E, E' = 2E + 3F, F' = 4F.
inline std::vector<Counts> level_counts(Counts c, int levels)
{
    std::vector<Counts> out{c};
    for (int l = 0; l < levels; ++l) {
        c = {c.V + c.E, 2 * c.E + 3 * c.F, 4 * c.F};
        out.push_back(c);
    }
    return out;
}

//! Bytes of a level with its whole topology (allocate_next).
inline std::size_t full_level_bytes(const Counts& c, bool sharp)
{
    const std::size_t words = 3 * c.V + 3 * c.F + 3 * c.F + 3 * c.F + 2 * c.E + (c.E + 1) + 2 * c.E +
                              (c.V + 1) + 2 * c.E + 2 * c.E;
    return 4 * words + (sharp ? c.E : 0);
}

//! Peak bytes of loop_subdivide after level 0 (which holds `level0_bytes`):
//! each full level with the one before it; then level L - 2 with its links
//! (ef, ve), level L - 1's positions and the result. A single level from
//! level 0 frees level 0's face arrays (fe, frank) between its faces and
//! its positions.
inline std::size_t peak_bytes(const std::vector<Counts>& counts, bool sharp, std::size_t level0_bytes)
{
    const int levels = int(counts.size()) - 1;
    if (levels == 0)
        return level0_bytes;
    const Counts& last = counts[levels];
    if (levels == 1) {
        const std::size_t faces = 12 * last.F, positions = 12 * last.V, freed = 24 * counts[0].F;
        return std::max(level0_bytes + faces, level0_bytes - freed + faces + positions);
    }
    std::size_t prev = level0_bytes, peak = level0_bytes;
    for (int l = 1; l <= levels - 2; ++l) {
        const std::size_t b = full_level_bytes(counts[l], sharp);
        peak = std::max(peak, prev + b);
        prev = b;
    }
    const std::size_t grandparent = prev + 16 * counts[levels - 2].E;
    return std::max(peak, grandparent + 12 * counts[levels - 1].V + 12 * (last.V + last.F));
}

inline std::string mib(std::size_t bytes)
{
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

//! Device memory that allocations can still get: free memory plus what the
//! stream-ordered pool holds unused.
inline std::size_t available_device_bytes()
{
    std::size_t free = 0, total = 0;
    RXMESH_CHECK_CUDA(cudaMemGetInfo(&free, &total));
    int device = 0;
    RXMESH_CHECK_CUDA(cudaGetDevice(&device));
    cudaMemPool_t pool;
    RXMESH_CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t reserved = 0, used = 0;
    RXMESH_CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
    RXMESH_CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    return free + std::size_t(reserved - std::min(reserved, used));
}

//! Refuses results beyond 32-bit ids (edge ids carry a flag bit, rows a
//! crease bit); host only, so that callers can check before using a GPU.
inline void require_32bit_ids(const std::vector<Counts>& counts)
{
    const Counts&       last   = counts.back();
    const int           levels = int(counts.size()) - 1;
    const std::uint64_t coarse_faces = levels > 0 ? counts[levels - 1].F : 0;
    if (last.V >= (1ull << 31) || last.E >= (1ull << 31) || 12 * coarse_faces >= (1ull << 32))
        throw InvalidInputError("loop_subdivide: level " + std::to_string(levels) + " would have " +
                                std::to_string(last.V) + " vertices, " + std::to_string(last.E) +
                                " edges and " + std::to_string(last.F) +
                                " faces; ids are 32-bit (at most 2^31 vertices and edges)");
}

//! Refuses, before any level is allocated, levels beyond `available` bytes
//! (available_device_bytes()), naming the bytes they need.
inline void require_memory(const std::vector<Counts>& counts, bool sharp, std::size_t level0_bytes,
                           std::size_t available)
{
    const int         levels = int(counts.size()) - 1;
    const std::size_t need   = peak_bytes(counts, sharp, level0_bytes) - level0_bytes;
    if (need > available)
        throw DeviceMemoryError(
            "loop_subdivide: " + std::to_string(levels) + " levels need " + mib(need) +
            " of device memory (the result alone " +
            mib(12 * (counts.back().V + counts.back().F)) + "), " +
            mib(available) + " are free");
}

inline void require_fits(const std::vector<Counts>& counts, bool sharp, std::size_t level0_bytes,
                         std::size_t available)
{
    require_32bit_ids(counts);
    require_memory(counts, sharp, level0_bytes, available);
}

//! Rank of each face among the faces of each of its edges (ef rows are
//! sorted ascending).
static __global__ void face_ranks(std::uint32_t F, const std::uint32_t* fe, const std::uint32_t* ef_off,
                           const std::uint32_t* ef, std::uint32_t* frank)
{
    RXMESH_FOR_EACH_ITEM(h, 3 * std::uint64_t(F))
    {
        const std::uint32_t f = std::uint32_t(h / 3), e = fe[h] >> 1;
        const std::uint32_t* row = ef + ef_off[e];
        frank[h] = detail::lower_bound_in(row, 0u, ef_off[e + 1] - ef_off[e], f);
    }
}

//! Third vertices of an edge's faces of rank 0 and 1 (edges of two faces).
static __global__ void edge_opposites(std::uint32_t E, const std::uint32_t* ev, const std::uint32_t* ef_off,
                               const std::uint32_t* ef, const std::uint32_t* fv, std::uint32_t* opp)
{
    RXMESH_FOR_EACH_ITEM(e, E)
    {
        const std::uint32_t begin = ef_off[e], nf = ef_off[e + 1] - begin;
        for (std::uint32_t r = 0; r < 2; ++r) {
            std::uint32_t third = 0;
            if (r < nf) {
                const std::uint64_t f = ef[begin + r];
                for (int j = 0; j < 3; ++j) {
                    const std::uint32_t v = fv[3 * f + j];
                    if (v != ev[2 * e] && v != ev[2 * e + 1])
                        third = v;
                }
            }
            opp[2 * e + r] = third;
        }
    }
}

//! Neighbour rows from the VE rows, with crease bits, and each edge's slot
//! in the rows of its two ends.
static __global__ void vertex_rows(std::uint32_t V, const std::uint32_t* ev, const std::uint32_t* ef_off,
                            const std::uint8_t* sharp, const std::uint32_t* ve_off,
                            const std::uint32_t* ve, std::uint32_t* vv, std::uint32_t* eslot)
{
    RXMESH_FOR_EACH_ITEM(v, V)
    {
        for (std::uint32_t i = ve_off[v]; i < ve_off[v + 1]; ++i) {
            const std::uint32_t e     = ve[i];
            const bool          first = ev[2 * e] == v;
            const bool crease = ef_off[e + 1] - ef_off[e] != 2 || (sharp != nullptr && sharp[e]);
            vv[i] = ev[2 * e + (first ? 1 : 0)] | (crease ? kCreaseBit : 0u);
            eslot[2 * e + (first ? 0 : 1)] = i;
        }
    }
}

//! Sharp flags of level 0's edges from vertex pairs (ev is sorted).
inline DeviceBuffer<std::uint8_t> sharp_flags(const DeviceBuffer<std::uint32_t>& d_ev, std::uint32_t E,
                                              const std::vector<std::array<std::uint32_t, 2>>& pairs,
                                              cudaStream_t s)
{
    if (pairs.empty())
        return {};
    const std::vector<std::uint32_t> ev = d_ev.to_host();
    std::vector<std::uint8_t>        flags(E, 0);
    for (const auto& p : pairs) {
        const std::array<std::uint32_t, 2> key{std::min(p[0], p[1]), std::max(p[0], p[1])};
        std::uint32_t lo = 0, hi = E;
        while (lo < hi) {
            const std::uint32_t mid = (lo + hi) / 2;
            if (std::array<std::uint32_t, 2>{ev[2 * mid], ev[2 * mid + 1]} < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == E || ev[2 * lo] != key[0] || ev[2 * lo + 1] != key[1])
            throw InvalidInputError("loop_subdivide: sharp edge (" + std::to_string(p[0]) + ", " +
                                    std::to_string(p[1]) + ") is not an edge of the mesh");
        flags[lo] = 1;
    }
    return DeviceBuffer<std::uint8_t>::from_host(flags, s);
}

//! Level 0: topology of the input (positions and faces stay the caller's:
//! view0 points at them). A mesh without faces has no edges and keeps its
//! vertices at every level.
inline Level make_level0(std::uint32_t V, const std::uint32_t* d_faces, std::uint32_t F,
                         const std::vector<std::array<std::uint32_t, 2>>& sharp, cudaStream_t s)
{
    Level l;
    l.V = V, l.F = F;
    if (F == 0) {
        if (!sharp.empty())
            throw InvalidInputError("loop_subdivide: sharp edges given for a mesh without faces");
        l.efoff = DeviceBuffer<std::uint32_t>(1, s);
        l.vvoff = DeviceBuffer<std::uint32_t>(std::size_t(V) + 1, s);
        l.efoff.memset(0), l.vvoff.memset(0);
        return l;
    }
    DeviceTopology t = build_topology(d_faces, F, V, {false, true, false}, s);
    l.E     = t.num_edges;
    l.ev    = std::move(t.ev);
    l.fe    = std::move(t.fe);
    l.efoff = std::move(t.ef.offsets);
    l.vvoff = std::move(t.ve.offsets);
    l.sharp = sharp_flags(l.ev, l.E, sharp, s);
    l.frank = DeviceBuffer<std::uint32_t>(3 * std::size_t(F), s);
    l.opp   = DeviceBuffer<std::uint32_t>(2 * std::size_t(l.E), s);
    l.vv    = DeviceBuffer<std::uint32_t>(2 * std::size_t(l.E), s);
    l.eslot = DeviceBuffer<std::uint32_t>(2 * std::size_t(l.E), s);
    constexpr int b = detail::kFlatBlockThreads;
    face_ranks<<<detail::flat_grid(3 * std::size_t(F)), b, 0, s>>>(F, l.fe.data(), l.efoff.data(),
                                                                    t.ef.indices.data(), l.frank.data());
    RXMESH_CHECK_LAUNCH();
    edge_opposites<<<detail::flat_grid(l.E), b, 0, s>>>(l.E, l.ev.data(), l.efoff.data(),
                                                         t.ef.indices.data(), d_faces, l.opp.data());
    RXMESH_CHECK_LAUNCH();
    vertex_rows<<<detail::flat_grid(V), b, 0, s>>>(V, l.ev.data(), l.efoff.data(),
                                                   l.sharp.size() ? l.sharp.data() : nullptr,
                                                   l.vvoff.data(), t.ve.indices.data(), l.vv.data(),
                                                   l.eslot.data());
    RXMESH_CHECK_LAUNCH();
    return l;
}

//! Level 0's view: its positions and faces are the caller's arrays.
inline LevelView view0(const Level& l, const float* d_pos, const std::uint32_t* d_faces)
{
    LevelView v = view(l);
    v.pos = d_pos, v.fv = d_faces;
    return v;
}

template <typename T>
DeviceBuffer<T> copy_of(const T* d, std::size_t n, cudaStream_t s)
{
    DeviceBuffer<T> out(n, s);
    if (n)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(out.data(), d, n * sizeof(T), cudaMemcpyDeviceToDevice, s));
    return out;
}

}  // namespace rxmesh::loop
