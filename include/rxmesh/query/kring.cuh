// The k-ring queries behind RXMesh::for_each_kring and for_each_kring_while:
// f(v, KRingView) once per owned, active vertex v, with v's rings grown by
// grow_rings (query/kring_grow.cuh).
//
// Two kernels:
// - the patch kernel: one block per patch, in rounds of one owned vertex
//   per thread: first groups of kKRingGroup lanes grow the round's rings
//   together into lists in shared memory (kring_group.cuh), then each
//   thread calls f with its own vertex's list;
// - the overflow kernel: vertices whose rings did not fit the list (high
//   valence, large k) grow again, one thread each, with lists four times
//   longer in global memory, and again until every vertex fits (a list
//   never needs more entries than the mesh has vertices).
// The launcher reads how many vertices overflowed: one stream
// synchronisation per query.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/kring_grow.cuh"
#include "rxmesh/query/kring_group.cuh"
#include "rxmesh/query/op.h"

namespace rxmesh {

namespace detail {

//! Vertices whose rings overflowed their list, to be grown again.
struct OverflowQueue
{
    std::uint32_t* vertices;
    std::uint32_t* count;

    RXMESH_DEVICE void push(std::uint32_t v) const { vertices[atomicAdd(count, 1u)] = v; }
};

//! Grows v's rings, then calls f, or queues v when its list is too short.
template <typename F, typename Accept>
RXMESH_DEVICE void grow_and_call(const KRingRowsView& rows, std::uint32_t v, int max_rings,
                                 const Accept& accept, const RingList& list,
                                 const OwnedBits& bits, const LocalToGlobal& bits_map, const F& f,
                                 const OverflowQueue& overflow)
{
    std::uint32_t ring_end[kMaxKRingRings + 1];
    bits.clear();
    const GrowResult r = grow_rings(rows, v, max_rings, accept, list, bits, bits_map, ring_end);
    if (r.overflow)
        overflow.push(v);
    else
        f(VertexId(v), KRingView(list.base, list.stride, r.size, ring_end, r.num_rings));
}

//! Lanes per vertex in the patch kernel: a one-ring's row fills most of them.
inline constexpr int kKRingGroup = 8;

//! The patch kernel's shared memory: per vertex slot (one per thread) a
//! list of `capacity` entries (stride capacity + 1, odd: the threads of
//! phase 2 read their lists free of bank conflicts), its ring ends and its
//! outcome; per group of lanes a bitmap over the patch's owned vertices.
struct KRingSmem
{
    std::uint32_t *lists, *ring_ends, *sizes, *rings, *bitmaps;
    std::uint32_t  list_stride, ends_stride, words;

    RXMESH_DEVICE static KRingSmem carve(std::uint32_t* smem, std::uint32_t slots,
                                         std::uint32_t capacity, int max_rings,
                                         std::uint32_t words)
    {
        KRingSmem k;
        k.list_stride = capacity | 1u, k.ends_stride = std::uint32_t(max_rings) + 1, k.words = words;
        k.lists       = smem;
        k.ring_ends   = k.lists + std::size_t(slots) * k.list_stride;
        k.sizes       = k.ring_ends + std::size_t(slots) * k.ends_stride;
        k.rings       = k.sizes + slots;
        k.bitmaps     = k.rings + slots;
        return k;
    }
    static std::size_t bytes(std::uint32_t slots, std::uint32_t capacity, int max_rings,
                             std::uint32_t words)
    {
        const std::size_t per_slot = (capacity | 1u) + std::size_t(max_rings) + 1 + 2;
        return 4 * (slots * per_slot + std::size_t(slots / kKRingGroup) * words);
    }
};

//! Phase 1 of a round: group g grows the rings of slots g*G .. g*G + G - 1
//! (vertices first + base + slot), one after the other; sizes[slot] = 0
//! marks an inactive slot, ~0u an overflowed one.
template <int BlockThreads, typename Accept, typename Active>
RXMESH_DEVICE void grow_round(const KRingSmem& k, const KRingRowsView& rows, std::uint32_t first,
                              std::uint32_t owned, std::uint32_t base, int max_rings,
                              std::uint32_t capacity, const LocalToGlobal& map,
                              const Accept& accept, const Active& active)
{
    constexpr int G   = kKRingGroup;
    const auto    g   = LaneGroup<G>::of_thread(threadIdx.x);
    const auto    grp = threadIdx.x / G;
    const GroupBits bits{k.bitmaps + std::size_t(grp) * k.words, first, owned};
    for (std::uint32_t j = 0; j < G; ++j) {
        const std::uint32_t slot = grp * G + j, l = base + slot;
        std::uint32_t       size = 0, rings = 0;
        if (l < owned && active(VertexId(first + l))) {
            const GrowResult r = grow_rings_group(
                g, rows, first + l, max_rings, accept, k.lists + std::size_t(slot) * k.list_stride,
                capacity, bits, map, k.ring_ends + std::size_t(slot) * k.ends_stride);
            size = r.overflow ? ~0u : r.size, rings = r.num_rings;
        }
        if (g.lane == 0)
            k.sizes[slot] = size, k.rings[slot] = rings;
    }
}

template <int BlockThreads, typename F, typename Accept, typename Active>
__global__ void __launch_bounds__(BlockThreads)
    kring_patch_kernel(DeviceMesh mesh, KRingRowsView rows, int max_rings, std::uint32_t capacity,
                       std::uint32_t words, F f, Accept accept, Active active,
                       OverflowQueue overflow)
{
    extern __shared__ std::uint32_t kring_smem[];
    const KRingSmem k = KRingSmem::carve(kring_smem, BlockThreads, capacity, max_rings, words);
    for (std::uint32_t p = blockIdx.x; p < mesh.store.num_patches; p += gridDim.x) {
        if (!patch_may_be_active(active, p))
            continue;
        const std::uint32_t first = mesh.store.vertex_offsets[p];
        const std::uint32_t owned = mesh.store.vertex_offsets[p + 1] - first;
        const LocalToGlobal map   = rows.local_to_global(p);
        for (std::uint32_t base = 0; base < owned; base += BlockThreads) {
            grow_round<BlockThreads>(k, rows, first, owned, base, max_rings, capacity, map, accept,
                                     active);
            __syncthreads();
            // phase 2: each thread hands its slot's rings to f
            const std::uint32_t slot = threadIdx.x, size = k.sizes[slot];
            const std::uint32_t v    = first + base + slot;
            if (size == ~0u)
                overflow.push(v);
            else if (size != 0)
                f(VertexId(v), KRingView(k.lists + std::size_t(slot) * k.list_stride, 1, size,
                                         k.ring_ends + std::size_t(slot) * k.ends_stride,
                                         k.rings[slot]));
            __syncthreads();
        }
    }
}

//! One thread per queued vertex (all vertices when `queued` is null), each
//! with `capacity` entries of `scratch`; no bitmap.
template <typename F, typename Accept, typename Active>
__global__ void kring_overflow_kernel(KRingRowsView rows, const std::uint32_t* queued,
                                      const std::uint32_t* queued_count, std::uint32_t all,
                                      int max_rings, std::uint32_t capacity,
                                      std::uint32_t* scratch, F f, Accept accept, Active active,
                                      OverflowQueue overflow)
{
    const std::uint32_t n      = queued ? *queued_count : all;
    const std::uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
    const RingList      list{scratch + std::uint64_t(thread) * capacity, 1, capacity};
    const OwnedBits     none{nullptr, 0, 0, 0};
    for (std::uint32_t i = thread; i < n; i += gridDim.x * blockDim.x) {
        const std::uint32_t v = queued ? queued[i] : i;
        if (!queued && !(patch_may_be_active(active, rows.owner(v)) && active(VertexId(v))))
            continue;
        grow_and_call(rows, v, max_rings, accept, list, none, LocalToGlobal{}, f, overflow);
    }
}

//! List entries per thread when the user leaves it to us: the rings of a
//! regular mesh's vertex (1 + 3k(k + 1) vertices) with half as much again
//! for irregular valences, a multiple of 8, within [16, 320].
inline std::uint32_t default_kring_capacity(int k)
{
    const std::uint32_t regular = 1u + 3u * std::uint32_t(k) * std::uint32_t(k + 1);
    const std::uint32_t c       = (regular * 3 / 2 + 8 + 7) / 8 * 8;
    return std::clamp<std::uint32_t>(c, 16, 320);
}

//! Vertices waiting for a longer list, in device memory.
struct KRingQueue
{
    DeviceBuffer<std::uint32_t> vertices, count;
    KRingQueue(std::size_t n, cudaStream_t stream) : vertices(n, stream), count(1, stream)
    {
        count.memset(0);
    }
    OverflowQueue sink() { return {vertices.data(), count.data()}; }
    std::uint32_t read_count(cudaStream_t stream) const
    {
        std::uint32_t n = 0;
        RXMESH_CHECK_CUDA(
            cudaMemcpyAsync(&n, count.data(), sizeof n, cudaMemcpyDeviceToHost, stream));
        RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
        return n;
    }
};

//! Grows the queued vertices (every vertex when `all`) again with lists 4x
//! longer, until none is left.
template <typename F, typename Accept, typename Active>
void grow_overflowed(const KRingRowsView& rows, std::uint32_t num_vertices, KRingQueue& queue,
                     std::uint32_t queued, bool all, int max_rings, std::uint32_t capacity, F f,
                     Accept accept, Active active, cudaStream_t stream)
{
    KRingQueue next(num_vertices, stream);
    while (queued > 0) {
        capacity = std::uint32_t(std::min<std::uint64_t>(std::uint64_t(capacity) * 4, num_vertices));
        // threads x capacity entries of scratch, at most 256 MiB
        const std::uint32_t threads = std::uint32_t(std::clamp<std::uint64_t>(
            (std::uint64_t(64) << 20) / capacity, 32, std::min<std::uint32_t>(queued, 1u << 15)));
        DeviceBuffer<std::uint32_t> scratch(std::uint64_t(threads) * capacity, stream);
        next.count.memset(0);
        const unsigned block = 128, grid = (threads + block - 1) / block;
        kring_overflow_kernel<<<grid, block, 0, stream>>>(
            rows, all ? nullptr : queue.vertices.data(), queue.count.data(), queued, max_rings,
            capacity, scratch.data(), f, accept, active, next.sink());
        RXMESH_CHECK_LAUNCH();
        const std::uint32_t left = next.read_count(stream);
        if (left > 0 && capacity >= num_vertices)
            throw Error("k-ring query: a vertex's rings exceed the vertex count (corrupt rows)");
        std::swap(queue, next);
        queued = left, all = false;
    }
}

//! The patch kernel; false (nothing launched) when its shared memory
//! exceeds the device's.
template <int BlockThreads, typename F, typename Accept, typename Active>
bool launch_patch_kernel(const DeviceMesh& mesh, const KRingRowsView& rows,
                         std::uint32_t max_owned, int max_rings, std::uint32_t capacity, F f,
                         Accept accept, Active active, OverflowQueue sink, cudaStream_t stream)
{
    static_assert(BlockThreads % 32 == 0, "k-ring blocks are whole warps");
    const std::uint32_t words = (max_owned + 31) / 32;
    const std::size_t   smem  = KRingSmem::bytes(BlockThreads, capacity, max_rings, words);
    auto kernel = kring_patch_kernel<BlockThreads, F, Accept, Active>;
    int  dev = 0, max_smem = 0;
    RXMESH_CHECK_CUDA(cudaGetDevice(&dev));
    RXMESH_CHECK_CUDA(cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (smem > std::size_t(max_smem))
        return false;
    if (smem > 48 * 1024)
        RXMESH_CHECK_CUDA(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    kernel<<<mesh.store.num_patches, BlockThreads, smem, stream>>>(
        mesh, rows, max_rings, capacity, words, f, accept, active, sink);
    RXMESH_CHECK_LAUNCH();
    return true;
}

//! Runs f(v, rings) for every owned vertex v that `active` accepts, rings
//! grown by accept up to max_rings: the patch kernel, then the overflow
//! rounds. Synchronises the stream once (more when vertices overflowed).
template <int BlockThreads, typename F, typename Accept, typename Active>
void launch_kring(const DeviceMesh& mesh, const KRingRowsView& rows, std::uint32_t num_vertices,
                  std::uint32_t max_owned, int max_rings, std::uint32_t capacity, F f,
                  Accept accept, Active active, cudaStream_t stream)
{
    if (max_rings < 0 || max_rings > kMaxKRingRings)
        throw Error("k-ring query: k (rings) must be in [0, " + std::to_string(kMaxKRingRings) +
                    "], got " + std::to_string(max_rings));
    if (num_vertices == 0 || capacity == 0)
        return;
    KRingQueue queue(num_vertices, stream);
    if (!launch_patch_kernel<BlockThreads>(mesh, rows, max_owned, max_rings, capacity, f, accept,
                                           active, queue.sink(), stream)) {
        // the bitmaps do not fit shared memory: the overflow path takes every vertex
        grow_overflowed(rows, num_vertices, queue, num_vertices, true, max_rings, 16, f, accept,
                        active, stream);
        return;
    }
    const std::uint32_t queued = queue.read_count(stream);
    if (queued > 0)  // rings longer than the shared-memory lists
        grow_overflowed(rows, num_vertices, queue, queued, false, max_rings, capacity, f, accept,
                        active, stream);
}

}  // namespace detail

}  // namespace rxmesh
