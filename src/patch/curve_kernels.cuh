// Internal: the kernels and functors of the curve patcher (curve_patcher.cu;
// the algorithm is described in rxmesh/patch/patcher.h). Everything runs in
// curve order: position i is the i-th face along the Hilbert curve.
#pragma once

#include <cstdint>

#include "curve_relax.cuh"
#include "core/union_find.cuh"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/patch/curve_key.h"

namespace rxmesh::detail::curve {

struct Box
{
    float lo[3], hi[3];
};

struct PointBox
{
    const float*            positions;
    __host__ __device__ Box operator()(std::uint32_t v) const
    {
        const float* p = positions + 3 * std::uint64_t(v);
        return Box{{p[0], p[1], p[2]}, {p[0], p[1], p[2]}};
    }
};

struct MergeBoxes
{
    __host__ __device__ Box operator()(const Box& a, const Box& b) const
    {
        Box r;
        for (int d = 0; d < 3; ++d) {
            r.lo[d] = a.lo[d] < b.lo[d] ? a.lo[d] : b.lo[d];
            r.hi[d] = a.hi[d] > b.hi[d] ? a.hi[d] : b.hi[d];
        }
        return r;
    }
};

__global__ void curve_keys(const std::uint32_t* faces, const float* positions,
                           std::uint32_t num_faces, CurveFrame frame, std::uint64_t* keys)
{
    RXMESH_FOR_EACH_ITEM(f, num_faces)
    {
        const std::uint32_t* c = faces + 3 * f;
        keys[f] =
            face_curve_key(positions + 3 * std::uint64_t(c[0]), positions + 3 * std::uint64_t(c[1]),
                           positions + 3 * std::uint64_t(c[2]), frame);
    }
}

__global__ void invert_order(const std::uint32_t* order, std::uint32_t n, std::uint32_t* rank)
{
    RXMESH_FOR_EACH_ITEM(i, n) { rank[order[i]] = static_cast<std::uint32_t>(i); }
}

//! Length of row order[i] of the face graph; 0 at i = n (the scan's total).
struct CurveRowLength
{
    const std::uint32_t* order;
    const std::uint32_t* ff_offsets;
    std::uint32_t        n;
    __host__ __device__ std::uint32_t operator()(std::uint32_t i) const
    {
        return i < n ? ff_offsets[order[i] + 1] - ff_offsets[order[i]] : 0;
    }
};

__global__ void renumber_rows(const std::uint32_t* order, const std::uint32_t* rank,
                              const std::uint32_t* ff_offsets, const std::uint32_t* ff_faces,
                              std::uint32_t n, const std::uint32_t* offsets, std::uint32_t* nbrs)
{
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        const std::uint32_t f = order[i];
        std::uint32_t       o = offsets[i];
        for (std::uint32_t j = ff_offsets[f]; j < ff_offsets[f + 1]; ++j)
            nbrs[o++] = rank[ff_faces[j]];
    }
}

//! Chunk c of `chunks` equal runs of the curve seeds its middle position,
//! and marks its component as seeded.
__global__ void seed_chunks(std::uint32_t n, std::uint32_t chunks, const std::uint32_t* root,
                            std::uint8_t* is_seed, std::uint8_t* seeded)
{
    RXMESH_FOR_EACH_ITEM(c, chunks)
    {
        const std::uint64_t a = c * n / chunks, b = (c + 1) * n / chunks;
        const std::uint64_t i = (a + b) / 2;
        is_seed[i]            = 1;
        seeded[root[i]]       = 1;
    }
}

//! The root (first position) of every component without a chunk seed.
__global__ void seed_unseeded_components(const std::uint32_t* root, std::uint32_t n,
                                         const std::uint8_t* seeded, std::uint8_t* is_seed)
{
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        if (root[i] == i && !seeded[i]) is_seed[i] = 1;
    }
}

//! Seed j (a curve position) gets distance 0 and id first_id + j; its chunk
//! is marked for the relaxation's first sweep.
__global__ void plant(const std::uint32_t* seeds, std::uint32_t count, std::uint32_t first_id,
                      std::uint64_t* value, std::uint32_t* dirty)
{
    RXMESH_FOR_EACH_ITEM(j, count)
    {
        value[seeds[j]]               = first_id + j;
        dirty[seeds[j] / kChunkFaces] = 1;
    }
}

__global__ void labels_of(const std::uint64_t* value, std::uint32_t n, std::uint32_t* cell)
{
    RXMESH_FOR_EACH_ITEM(i, n) { cell[i] = static_cast<std::uint32_t>(value[i]); }
}

//! Distance 0 on a patch boundary (a neighbour in another patch, or fewer
//! than three neighbours), infinity inside.
__global__ void boundary_start(CurveGraph g, const std::uint32_t* cell, std::uint64_t* value)
{
    RXMESH_FOR_EACH_ITEM(i, g.n)
    {
        bool boundary = g.offsets[i + 1] - g.offsets[i] < 3;
        for (std::uint32_t j = g.offsets[i]; j < g.offsets[i + 1]; ++j)
            boundary = boundary || cell[g.nbrs[j]] != cell[i];
        value[i] = boundary ? 0 : kInfinity;
    }
}

//! Per patch, max of (distance << 32 | ~position): its most central face,
//! the first on the curve among equals.
__global__ void most_central(const std::uint64_t* distance, const std::uint32_t* cell,
                             std::uint32_t n, unsigned long long* best)
{
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        const std::uint64_t key = (distance[i] >> 32 << 32) | (~std::uint32_t(i));
        atomicMax(best + cell[i], static_cast<unsigned long long>(key));
    }
}

__global__ void positions_of_best(const unsigned long long* best, std::uint32_t k,
                                  std::uint32_t* seeds)
{
    RXMESH_FOR_EACH_ITEM(c, k) { seeds[c] = ~static_cast<std::uint32_t>(best[c]); }
}

__global__ void count_members(const std::uint32_t* cell, std::uint32_t n, std::uint32_t* sizes)
{
    RXMESH_FOR_EACH_ITEM(i, n) { atomicAdd(sizes + cell[i], 1u); }
}

//! Seeds a patch gets when it is split: none when it fits.
struct SplitSeeds
{
    const std::uint32_t* sizes;
    std::uint32_t        capacity, spacing, k;
    __host__ __device__ std::uint32_t operator()(std::uint32_t c) const
    {
        if (c >= k || sizes[c] <= capacity) return 0;
        const std::uint32_t m = (sizes[c] + spacing - 1) / spacing;
        return m < 2 ? 2 : m;
    }
};

//! Members of a patch that is split: its size, else 0.
struct SplitMembers
{
    SplitSeeds          seeds;
    __host__ __device__ std::uint32_t operator()(std::uint32_t c) const
    {
        return seeds(c) ? seeds.sizes[c] : 0;
    }
};

struct InSplitPatch
{
    const std::uint32_t*     cell;
    SplitSeeds               seeds;
    __host__ __device__ bool operator()(std::uint32_t i) const { return seeds(cell[i]) != 0; }
};

__global__ void gather_cells(const std::uint32_t* positions, std::uint32_t n,
                             const std::uint32_t* cell, std::uint32_t* out)
{
    RXMESH_FOR_EACH_ITEM(i, n) { out[i] = cell[positions[i]]; }
}

//! m seeds of split patch c at members (2j + 1) * size / (2m), j < m, of its
//! members in curve order.
__global__ void spread_split_seeds(SplitSeeds split, const std::uint32_t* seed_offsets,
                                   const std::uint32_t* member_offsets,
                                   const std::uint32_t* members, std::uint32_t* seeds)
{
    RXMESH_FOR_EACH_ITEM(c, split.k)
    {
        const std::uint32_t m = split(static_cast<std::uint32_t>(c));
        const std::uint64_t s = split.sizes[c];
        for (std::uint32_t j = 0; j < m; ++j)
            seeds[seed_offsets[c] + j] = members[member_offsets[c] + (2 * j + 1) * s / (2 * m)];
    }
}

__global__ void clear_split_patches(const std::uint32_t* cell, std::uint32_t n, SplitSeeds split,
                                    std::uint64_t* value, std::uint32_t* dirty)
{
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        if (split(cell[i])) {
            value[i]               = kInfinity;
            dirty[i / kChunkFaces] = 1;
        }
    }
}

__global__ void first_positions(const std::uint32_t* cell, std::uint32_t n, std::uint32_t* first)
{
    RXMESH_FOR_EACH_ITEM(i, n) { atomicMin(first + cell[i], static_cast<std::uint32_t>(i)); }
}

__global__ void number_patches(const std::uint32_t* cell_by_first, std::uint32_t count,
                               std::uint32_t* id)
{
    RXMESH_FOR_EACH_ITEM(r, count) { id[cell_by_first[r]] = static_cast<std::uint32_t>(r); }
}

__global__ void scatter_patches(const std::uint32_t* order, const std::uint32_t* cell,
                                const std::uint32_t* id, std::uint32_t n, std::uint32_t* face_patch)
{
    RXMESH_FOR_EACH_ITEM(i, n) { face_patch[order[i]] = id[cell[i]]; }
}

}  // namespace rxmesh::detail::curve
