// Internal: the min-plus relaxation of the curve patcher, on the face graph
// renumbered along the Hilbert curve.
//
// Every face holds a 64-bit value (distance << 32 | label; kInfinity for
// none) and the relaxation settles
//     value[f] = min(value[f], min over neighbours g in f's group of value[g] + step)
// to its least fixpoint. Breadth-first growth from seeds is step = 1 << 32
// (the fixpoint is the smallest (distance, seed id) over all seeds, exactly
// what level-by-level BFS with ties to the smaller id gives); the distance to
// a patch boundary is the same with label 0 and the group = the patch.
//
// The faces are cut into chunks of 1024 consecutive faces of the curve,
// which are close on the surface. A block takes a chunk, gathers each face's
// neighbours once, relaxes the chunk in shared memory until it settles and
// writes it back; a face that dropped marks the chunks of its neighbours
// outside for the next sweep, so only chunks whose inputs changed are
// visited again. Sweeps run inside one cooperative launch, separated by grid
// barriers, until one changes nothing. Chunks read the values of other chunks
// while those are rewritten (relaxed atomics): any mix of old and new values
// only ever lowers values towards the same fixpoint, which is unique, so the
// result does not depend on the schedule (the number of sweeps may).
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <cuda/atomic>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"

namespace rxmesh::detail {

constexpr std::uint64_t kInfinity       = ~std::uint64_t{0};
constexpr std::uint64_t kDistanceStep   = std::uint64_t{1} << 32;
constexpr int           kChunkFaces     = 1024;
constexpr int           kRelaxThreads   = 256;
constexpr int           kRelaxPerThread = kChunkFaces / kRelaxThreads;
constexpr std::uint16_t kNoLink         = 0xFFFF;

//! The face graph in curve order: row i lists the curve positions of the
//! neighbours of the i-th face along the curve.
struct CurveGraph
{
    const std::uint32_t* offsets = nullptr;
    const std::uint32_t* nbrs    = nullptr;
    std::uint32_t        n       = 0;
};

//! The relaxation's device state: values, the dirty chunks of the current
//! and of the next sweep (by sweep parity), change counters by sweep mod 3.
struct RelaxState
{
    CurveGraph           g;
    const std::uint32_t* group   = nullptr;  // null: one group
    std::uint64_t        step    = kDistanceStep;
    std::uint64_t*       value   = nullptr;
    std::uint32_t*       dirty   = nullptr;  // 2 * chunks
    std::uint32_t*       changes = nullptr;  // 3
    std::uint32_t        chunks  = 0;
};

using AtomicValue = cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>;
using AtomicFlag  = cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>;

__device__ inline std::uint64_t load_value(std::uint64_t* value, std::uint32_t f)
{
    return AtomicValue(value[f]).load(cuda::memory_order_relaxed);
}

//! What one face of a chunk reads in every local round, gathered once per
//! visit: up to three neighbours inside the chunk (their local indices) and
//! the best value offered from outside it. A face with more neighbours
//! inside (a non-manifold edge) takes the general path.
struct FaceLinks
{
    std::uint16_t inside[3] = {kNoLink, kNoLink, kNoLink};
    std::uint64_t outside   = kInfinity;
    bool          general   = false;
};

__device__ inline FaceLinks link_face(const RelaxState& s, std::uint32_t f, std::uint32_t base,
                                      std::uint32_t count)
{
    FaceLinks           links;
    int                 k   = 0;
    const std::uint32_t own = s.group ? s.group[f] : 0;
    for (std::uint32_t j = s.g.offsets[f]; j < s.g.offsets[f + 1]; ++j) {
        const std::uint32_t u = s.g.nbrs[j];
        if (s.group && s.group[u] != own) continue;
        if (u - base < count) {
            if (k < 3)
                links.inside[k++] = static_cast<std::uint16_t>(u - base);
            else
                links.general = true;
            continue;
        }
        const std::uint64_t w = load_value(s.value, u);
        if (w != kInfinity && w + s.step < links.outside) links.outside = w + s.step;
    }
    return links;
}

//! The general path: every neighbour of f read again.
__device__ inline std::uint64_t relax_general(const RelaxState& s, std::uint32_t f,
                                              std::uint32_t base, std::uint32_t count,
                                              const std::uint64_t* local, std::uint64_t v)
{
    const std::uint32_t own = s.group ? s.group[f] : 0;
    for (std::uint32_t j = s.g.offsets[f]; j < s.g.offsets[f + 1]; ++j) {
        const std::uint32_t u = s.g.nbrs[j];
        if (s.group && s.group[u] != own) continue;
        const std::uint64_t w = u - base < count ? local[u - base] : load_value(s.value, u);
        if (w != kInfinity && w + s.step < v) v = w + s.step;
    }
    return v;
}

//! Jacobi rounds over the chunk in shared memory until nothing drops.
__device__ inline void settle_chunk(const RelaxState& s, std::uint32_t base, std::uint32_t count,
                                    const FaceLinks* links, std::uint64_t* local)
{
    while (true) {
        std::uint64_t value[kRelaxPerThread];
        bool          dropped = false;
        for (int k = 0; k < kRelaxPerThread; ++k) {
            const std::uint32_t i = threadIdx.x + k * kRelaxThreads;
            if (i >= count) continue;
            std::uint64_t v = min(local[i], links[k].outside);
            for (int e = 0; e < 3; ++e) {
                const std::uint16_t n = links[k].inside[e];
                if (n != kNoLink && local[n] != kInfinity && local[n] + s.step < v)
                    v = local[n] + s.step;
            }
            if (links[k].general) v = relax_general(s, base + i, base, count, local, v);
            value[k] = v;
            dropped  = dropped || v < local[i];
        }
        __syncthreads();  // every read of `local` done before the writes
        for (int k = 0; k < kRelaxPerThread; ++k) {
            const std::uint32_t i = threadIdx.x + k * kRelaxThreads;
            if (i < count) local[i] = value[k];
        }
        if (!__syncthreads_or(dropped)) return;
    }
}

//! Writes face f's new value and marks the chunks of its outside neighbours
//! (of its group) dirty for the next sweep.
__device__ inline void publish_face(const RelaxState& s, std::uint32_t f, std::uint32_t base,
                                    std::uint32_t count, std::uint64_t v, std::uint32_t* next_dirty)
{
    AtomicValue(s.value[f]).store(v, cuda::memory_order_relaxed);
    const std::uint32_t own = s.group ? s.group[f] : 0;
    for (std::uint32_t j = s.g.offsets[f]; j < s.g.offsets[f + 1]; ++j) {
        const std::uint32_t u = s.g.nbrs[j];
        if (u - base >= count && (!s.group || s.group[u] == own))
            AtomicFlag(next_dirty[u / kChunkFaces]).store(1, cuda::memory_order_relaxed);
    }
}

//! One visit of chunk c: gather, settle, publish what dropped. Returns
//! whether anything dropped.
__device__ inline bool visit_chunk(const RelaxState& s, std::uint32_t c, std::uint64_t* local,
                                   std::uint32_t* next_dirty)
{
    const std::uint32_t base  = c * kChunkFaces;
    const std::uint32_t count = min(std::uint32_t(kChunkFaces), s.g.n - base);
    FaceLinks           links[kRelaxPerThread];
    std::uint64_t       before[kRelaxPerThread];
    __syncthreads();  // the previous chunk's last reads of `local` are done
    for (int k = 0; k < kRelaxPerThread; ++k) {
        const std::uint32_t i = threadIdx.x + k * kRelaxThreads;
        if (i < count) {
            before[k] = local[i] = s.value[base + i];  // only this block writes them
            links[k]             = link_face(s, base + i, base, count);
        }
    }
    __syncthreads();
    settle_chunk(s, base, count, links, local);
    bool dropped = false;
    for (int k = 0; k < kRelaxPerThread; ++k) {
        const std::uint32_t i = threadIdx.x + k * kRelaxThreads;
        if (i < count && local[i] < before[k]) {
            publish_face(s, base + i, base, count, local[i], next_dirty);
            dropped = true;
        }
    }
    return __syncthreads_or(dropped);
}

//! Visits the dirty chunks of sweep `sweep` assigned to this block (chunks
//! c = blockIdx.x + k * gridDim.x); counts a change in changes[sweep % 3].
__device__ inline void sweep_chunks(const RelaxState& s, std::uint32_t sweep, std::uint64_t* local)
{
    __shared__ std::uint32_t visit;
    std::uint32_t*           dirty      = s.dirty + (sweep & 1) * s.chunks;
    std::uint32_t*           next_dirty = s.dirty + ((sweep + 1) & 1) * s.chunks;
    bool                     changed    = false;
    for (std::uint32_t c = blockIdx.x; c < s.chunks; c += gridDim.x) {
        __syncthreads();  // everyone has read the previous `visit`
        if (threadIdx.x == 0) {
            visit    = dirty[c];
            dirty[c] = 0;  // read only by this block in this sweep
        }
        __syncthreads();
        if (visit) changed = visit_chunk(s, c, local, next_dirty) || changed;
    }
    if (threadIdx.x == 0 && changed) atomicAdd(s.changes + sweep % 3, 1u);
    if (threadIdx.x == 0 && blockIdx.x == 0)
        s.changes[(sweep + 1) % 3] = 0;  // last read two sweeps ago
}

//! Every sweep in one cooperative launch; writes the number of sweeps.
__global__ void __launch_bounds__(kRelaxThreads)
    relax_all_sweeps(RelaxState s, std::uint32_t* sweeps)
{
    __shared__ std::uint64_t       local[kChunkFaces];
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    for (std::uint32_t sweep = 0;; ++sweep) {
        sweep_chunks(s, sweep, local);
        grid.sync();
        if (AtomicFlag(s.changes[sweep % 3]).load(cuda::memory_order_relaxed) == 0) {
            if (blockIdx.x == 0 && threadIdx.x == 0) *sweeps = sweep + 1;
            return;
        }
    }
}

//! One sweep per launch: where cooperative launches are not available.
__global__ void __launch_bounds__(kRelaxThreads) relax_one_sweep(RelaxState s, std::uint32_t sweep)
{
    __shared__ std::uint64_t local[kChunkFaces];
    sweep_chunks(s, sweep, local);
}

//! Host side of the relaxation: its buffers, and the launch (cooperative
//! where the device has it, else one launch per sweep).
class Relaxation
{
   public:
    Relaxation(std::uint32_t n, cudaStream_t stream)
        : m_chunks((n + kChunkFaces - 1) / kChunkFaces),
          m_dirty(2 * std::uint64_t(m_chunks), stream),
          m_counters(4, stream),
          m_stream(stream)
    {
        Launcher  launch = launcher<relax_all_sweeps>();  // core/launch.cuh
        const int per_sm = launch.blocks_per_sm(kRelaxThreads, 0);
        m_blocks         = std::max<std::uint32_t>(
            1, std::min<std::uint64_t>(m_chunks, std::uint64_t(per_sm) * launch.device().sms));
        m_cooperative = launch.device().cooperative && per_sm > 0;
        m_dirty.memset(0);
    }

    //! Flags of the first sweep: set dirty[c] for the chunks to visit first
    //! (chunk of curve position i: i / kChunkFaces).
    std::uint32_t* first_dirty() { return m_dirty.data(); }
    void           mark_all()
    {
        RXMESH_CHECK_CUDA(
            cudaMemsetAsync(m_dirty.data(), 1, 4 * std::uint64_t(m_chunks), m_stream));
    }

    //! Relaxes `value` to the fixpoint from the marked chunks; returns the
    //! sweeps. Every flag is clear again on return.
    std::uint32_t run(const CurveGraph& g, const std::uint32_t* group, std::uint64_t step,
                      std::uint64_t* value)
    {
        m_counters.memset(0);
        RelaxState s{g, group, step, value, m_dirty.data(), m_counters.data(), m_chunks};
        if (m_cooperative) {
            std::uint32_t* sweeps = m_counters.data() + 3;
            void*          args[] = {&s, &sweeps};
            RXMESH_CHECK_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(relax_all_sweeps),
                                                          m_blocks, kRelaxThreads, args, 0,
                                                          m_stream));
            return read_back(sweeps, m_stream);
        }
        for (std::uint32_t sweep = 0;; ++sweep) {
            relax_one_sweep<<<m_blocks, kRelaxThreads, 0, m_stream>>>(s, sweep);
            RXMESH_CHECK_LAUNCH();
            if (read_back(m_counters.data() + sweep % 3, m_stream) == 0) return sweep + 1;
        }
    }

   private:
    std::uint32_t               m_chunks = 0, m_blocks = 1;
    bool                        m_cooperative = false;
    DeviceBuffer<std::uint32_t> m_dirty, m_counters;
    cudaStream_t                m_stream;
};

}  // namespace rxmesh::detail
