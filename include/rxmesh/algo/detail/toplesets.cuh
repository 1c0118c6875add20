// Topological level sets ("toplesets"): the hop distance of every vertex from
// a set of sources along the mesh's edges, by a level-synchronous
// breadth-first search on the GPU, with the host out of the loop.
//
// Step k sweeps the edges of only the patches that own a vertex of level k
// (RXMesh::for_each_patch_scheduled_loop): every local edge of such a patch,
// ribbon edges too (a patch holds the whole one-ring of each vertex it owns),
// whose end is an owned vertex of level k gives its other end, if still
// without a level, the level k + 1 (atomicCAS: one winner), and the winner
// appends that vertex's owner patch, once per level, to the work list of
// step k + 1. The loop's step (one thread) then moves the schedule to that
// list; the search ends when it is empty. All steps run in one cooperative
// launch where the device allows, else in host-enqueued chunks. The lists of
// all steps, kept one after the other, bound their total length by the
// number of vertices (each entry names a patch that owns a vertex of that
// level).
//
// The sweep reads each edge's row from the store and the levels of its
// ends, with no staging: a VV query per step (stage the patch, build every
// row by block transposes) did the same for many more instructions, while
// a level's frontier often holds a few vertices of a patch.
//
// Besides the levels, it returns what a propagation over the levels needs to
// schedule patches: the patches in the order in which they were first reached
// (so, by their lowest level) with the offset of each level in that order,
// and each patch's highest level.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/search.cuh"
#include "rxmesh/query/direct_rows.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

inline constexpr std::uint32_t kNoLevel = ~0u;

struct Toplesets
{
    DeviceBuffer<std::uint32_t> level;        // per vertex; kNoLevel when unreachable
    std::uint32_t               num_levels = 0;  // L: the largest level + 1
    std::uint32_t               reached    = 0;  // patches with a reached vertex
    //! The reached patches by lowest level; level k's patches are
    //! by_lowest_level[level_offsets[k] .. level_offsets[k + 1]).
    DeviceBuffer<std::uint32_t> by_lowest_level, level_offsets;  // reached, L + 1
    DeviceBuffer<std::uint32_t> highest_level;  // per patch; 0 for unreached patches
    std::uint32_t               widest_patch = 0;  // max over patches of highest - lowest level
};

namespace detail {

//! The patch that owns global vertex v (vertex_offsets: P + 1 values).
__device__ inline std::uint32_t owner_patch(const std::uint32_t* vertex_offsets,
                                            std::uint32_t num_patches, std::uint32_t v)
{
    return detail::segment_of(vertex_offsets, num_patches, v);
}

struct BfsState
{
    std::uint32_t level = kNoLevel;  // the frontier's level (kNoLevel: the seed step, "-1")
    std::uint32_t range[2]{};       // the step's entries of the work list
    std::uint32_t tail = 0;         // work list length
    std::uint32_t first_tail = 0;   // patches reached so far
    std::uint32_t done = 0;
};

//! What step k's lambdas write to.
struct BfsArrays
{
    std::uint32_t*       level;
    std::uint32_t*       last_queued;  // per patch: the last level it was queued for
    std::uint32_t*       work;         // the work lists, one after the other
    std::uint32_t*       by_lowest_level;
    BfsState*            state;
    const std::uint32_t* vertex_offsets;
    std::uint32_t        num_patches;

    //! Queues patch p for level k (once per level); the first time p is
    //! queued at all, it also joins by_lowest_level.
    __device__ void queue(std::uint32_t p, std::uint32_t k) const
    {
        const std::uint32_t before = atomicExch(last_queued + p, k);
        if (before == k)
            return;
        work[atomicAdd(&state->tail, 1u)] = p;
        if (before == kNoLevel)
            by_lowest_level[atomicAdd(&state->first_tail, 1u)] = p;
    }
};

static __global__ void bfs_seed_kernel(BfsArrays a, const std::uint32_t* sources, std::uint32_t count)
{
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += gridDim.x * blockDim.x) {
        a.level[sources[i]] = 0;
        a.queue(owner_patch(a.vertex_offsets, a.num_patches, sources[i]), 0);
    }
}

//! Step k's work on one scheduled patch: each local edge with an owned end
//! of level k offers its other end the level k + 1.
struct BfsEdgeSweep
{
    BfsArrays a;

    __device__ void offer(const PatchInfo& pi, std::uint16_t from, std::uint16_t to,
                          std::uint32_t k) const
    {
        if (from >= pi.vmap.num_owned || a.level[pi.vmap.owned_offset + from] != k)
            return;
        const std::uint32_t u = pi.vmap(to);
        if (a.level[u] == kNoLevel && atomicCAS(a.level + u, kNoLevel, k + 1) == kNoLevel)
            a.queue(owner_patch(a.vertex_offsets, a.num_patches, u), k + 1);
    }

    __device__ void operator()(const PatchInfo& pi, std::uint32_t) const
    {
        const std::uint32_t k = a.state->level;
        for (std::uint32_t e = threadIdx.x; e < pi.nE; e += blockDim.x) {
            std::uint16_t ends[3];
            direct_row<Op::EV>(pi, e, ends);  // ribbon edges too: local rows
            offer(pi, ends[0], ends[1], k);
            offer(pi, ends[1], ends[0], k);
        }
    }
};

//! After step k: the next step's work list is what step k appended (the
//! patches first reached at level k + 1 end the lowest-level order there).
__device__ inline void bfs_advance(BfsState* s, std::uint32_t* level_offsets)
{
    if (s->done)
        return;
    level_offsets[s->level + 2] = s->first_tail;  // the seed step ("-1") writes [1]
    if (s->tail == s->range[1]) {
        s->done = 1;
        return;
    }
    s->range[0] = s->range[1];
    s->range[1] = s->tail;
    s->level += 1;
}

static __global__ void bfs_advance_kernel(BfsState* s, std::uint32_t* level_offsets)
{
    bfs_advance(s, level_offsets);
}

//! bfs_advance as the step of RXMesh::for_each_patch_scheduled_loop.
struct BfsStep
{
    BfsState*       s;
    std::uint32_t*  level_offsets;
    __device__ bool operator()() const
    {
        bfs_advance(s, level_offsets);
        return s->done != 0;
    }
};

//! Each patch's highest level (atomicMax over its vertices) and lowest.
static __global__ void patch_level_span_kernel(const std::uint32_t* level, std::uint32_t num_vertices,
                                        const std::uint32_t* vertex_offsets,
                                        std::uint32_t num_patches, std::uint32_t* highest,
                                        std::uint32_t* lowest)
{
    for (std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < num_vertices;
         v += gridDim.x * blockDim.x) {
        if (level[v] == kNoLevel)
            continue;
        const std::uint32_t p = owner_patch(vertex_offsets, num_patches, v);
        atomicMax(highest + p, level[v]);
        atomicMin(lowest + p, level[v]);
    }
}

static __global__ void widest_patch_kernel(const std::uint32_t* highest, const std::uint32_t* lowest,
                                    std::uint32_t num_patches, std::uint32_t* widest)
{
    for (std::uint32_t p = blockIdx.x * blockDim.x + threadIdx.x; p < num_patches;
         p += gridDim.x * blockDim.x)
        if (lowest[p] != kNoLevel)
            atomicMax(widest, highest[p] - lowest[p]);
}

inline void check_sources(const RXMesh& mesh, const std::vector<std::uint32_t>& sources)
{
    if (sources.empty())
        throw InvalidInputError("geodesic: no source vertex given");
    for (std::uint32_t s : sources)
        if (s >= mesh.num_vertices())
            throw InvalidInputError("geodesic: source vertex " + std::to_string(s) +
                                    " is out of range (the mesh has " +
                                    std::to_string(mesh.num_vertices()) + " vertices)");
}

//! Per patch: highest level and (through `widest`) the widest level span.
inline void patch_level_spans(const RXMesh& mesh, Toplesets& t, cudaStream_t stream)
{
    const std::uint32_t         P = mesh.num_patches(), V = mesh.num_vertices();
    DeviceBuffer<std::uint32_t> lowest(P, stream), widest(1, stream);
    t.highest_level.memset(0);
    lowest.memset(0xFF);
    widest.memset(0);
    const std::uint32_t* offsets = mesh.store().vertex_offsets.data();
    patch_level_span_kernel<<<std::max(1u, std::min((V + 255) / 256, 4096u)), 256, 0, stream>>>(
        t.level.data(), V, offsets, P, t.highest_level.data(), lowest.data());
    widest_patch_kernel<<<std::max(1u, std::min((P + 255) / 256, 1024u)), 256, 0, stream>>>(
        t.highest_level.data(), lowest.data(), P, widest.data());
    RXMESH_CHECK_LAUNCH();
    t.widest_patch = read_back(widest.data(), stream);
}

}  // namespace detail

//! The toplesets of `sources` (global vertex ids); `loop`: how the steps run
//! (RXMesh::for_each_patch_scheduled_loop: one cooperative launch by default).
//! \throw InvalidInputError for no source or a source out of range.
inline Toplesets toplesets(const RXMesh& mesh, const std::vector<std::uint32_t>& sources,
                           cudaStream_t stream = 0, const DeviceLoopOptions& loop = {})
{
    detail::check_sources(mesh, sources);
    const std::uint32_t V = mesh.num_vertices(), P = mesh.num_patches();
    Toplesets t{DeviceBuffer<std::uint32_t>(V, stream), 0, 0, DeviceBuffer<std::uint32_t>(P, stream),
                DeviceBuffer<std::uint32_t>(std::size_t(V) + 2, stream),
                DeviceBuffer<std::uint32_t>(P, stream), 0};
    DeviceBuffer<std::uint32_t>    last_queued(P, stream), work(V, stream);
    DeviceBuffer<detail::BfsState> state(1, stream);
    const auto                     src = DeviceBuffer<std::uint32_t>::from_host(sources, stream);
    t.level.memset(0xFF);
    last_queued.memset(0xFF);
    t.level_offsets.memset(0);
    const detail::BfsState init{};
    state.upload(&init, 1);
    const detail::BfsArrays a{t.level.data(), last_queued.data(), work.data(),
                              t.by_lowest_level.data(), state.data(),
                              mesh.store().vertex_offsets.data(), P};
    detail::bfs_seed_kernel<<<1, 256, 0, stream>>>(a, src.data(), std::uint32_t(src.size()));
    detail::bfs_advance_kernel<<<1, 1, 0, stream>>>(state.data(), t.level_offsets.data());
    RXMESH_CHECK_LAUNCH();
    // the seed step queued level 0's patches: step 0's work list
    const PatchSchedule schedule{work.data(), state.data()->range, P};
    // a step per level: at most V + 1 (the last finds no new vertex)
    mesh.for_each_patch_scheduled_loop(schedule, detail::BfsEdgeSweep{a},
                                       detail::BfsStep{state.data(), t.level_offsets.data()},
                                       long(V) + 2, loop, stream);
    const detail::BfsState last = read_back(state.data(), stream);
    t.num_levels = last.level + 1;
    t.reached    = last.first_tail;
    detail::patch_level_spans(mesh, t, stream);
    return t;
}

}  // namespace rxmesh
