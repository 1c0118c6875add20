// The k-ring queries behind RXMesh::for_each_kring and for_each_kring_while:
// f(v, KRingView) once per owned, active vertex v, with v's rings grown by
// grow_rings (query/kring_grow.cuh).
//
// The kernels:
// - the patch kernel: one block per patch, one thread per owned vertex,
//   growing inside the patch's halo (grow_in_halo): rows of the patch only,
//   ext ids, a bitmap for membership;
// - the warp overflow kernel, queued right behind it: the vertices whose
//   rings did not fit the list (high valence, large k, a wide ball) or left
//   the halo grow again in global ids, a warp each (grow_global_warp: 32
//   row entries tested at a time, membership in a shared-memory set), with
//   lists four times longer. It reads the queue's length on the device, so
//   the host does not stand between the two kernels; and since the rings
//   that overflow are the long ones, a warp rather than a thread grows each.
// - the thread overflow kernel: what still overflows grows again
//   (grow_global, one thread each), lists four times longer each round,
//   until every vertex fits (a list never needs more entries than the mesh
//   has vertices).
// The launcher reads how many vertices overflowed the warps: one stream
// synchronisation per query, one more per further round
// (query/patch_launch.cuh lists every launch that synchronises).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/kring_grow.cuh"
#include "rxmesh/query/op.h"
#include "rxmesh/query/patch_launch.cuh"

namespace rxmesh {

namespace detail {

//! Vertices whose rings overflowed their list, to be grown again.
struct OverflowQueue
{
    std::uint32_t* vertices;
    std::uint32_t* count;

    RXMESH_DEVICE void push(std::uint32_t v) const { vertices[atomicAdd(count, 1u)] = v; }
};

//! The k-ring queries without a staged input.
struct NoKRingInput
{
};

//! Shared memory a staged input takes beside the bitmaps, for `cap` ext ids.
template <typename Input>
constexpr std::size_t kring_stage_bytes(std::uint32_t cap)
{
    if constexpr (std::is_same_v<Input, NoKRingInput>)
        return 0;
    else
        return std::size_t(cap) * (4 + Input::components * sizeof(typename Input::value_type));
}

//! Stages the input of patch p's ext ids in shared memory (`smem`, for at
//! most `cap` of them; not when !fits) and returns how the growth and f see
//! the vertices. Called by the whole block.
template <typename Input>
RXMESH_DEVICE auto stage_vertices(const Input& input, std::uint32_t* smem, std::uint32_t cap,
                                  const LocalToGlobal& map, std::uint32_t ext, bool fits)
{
    if constexpr (std::is_same_v<Input, NoKRingInput>) {
        return UnstagedVertices{map};
    } else {
        using T             = typename Input::value_type;
        constexpr int N     = Input::components;
        std::uint32_t* halo = smem;  // global ids of the halo
        T*             values = reinterpret_cast<T*>(smem + cap);
        __syncthreads();  // the previous patch's readers are done
        for (std::uint32_t i = threadIdx.x; fits && i < ext; i += blockDim.x) {
            const std::uint32_t g = map(i);
            if (i >= map.num_owned)
                halo[i - map.num_owned] = g;
            for (int d = 0; d < N; ++d)
                values[std::size_t(N) * i + d] = input.load(g, d);
        }
        __syncthreads();
        return StagedVertices<T, N>{{map.owned_offset, map.num_owned, halo}, values};
    }
}

//! How the global path sees vertices (global ids; values in global memory).
template <typename Input>
RXMESH_DEVICE auto global_vertices(const Input& input)
{
    if constexpr (std::is_same_v<Input, NoKRingInput>)
        return UnstagedVertices{global_ids()};
    else
        return StagedVertices<typename Input::value_type, Input::components>{global_ids(),
                                                                             input.data()};
}

//! Lanes of the patch kernel: per thread, its bitmap (shared memory,
//! interleaved by thread: free of bank conflicts) and list (local memory:
//! unlike shared memory it does not limit the resident threads; 16-bit ext
//! ids, so that more of it stays in L1); per block,
//! the staged input of the patch's ext ids. MinBlocks: the least resident
//! blocks per SM (a register cap); 0, no bound. ptxas treats 1 unlike no
//! bound: it then takes more registers (48 against 40 for the ball).
template <int BlockThreads, int MinBlocks, int Capacity, typename Input, typename F,
          typename Accept, typename Active>
__global__ void __launch_bounds__(BlockThreads, MinBlocks)
    kring_patch_kernel(DeviceMesh mesh, KRingHaloView halo, Input input, int max_rings,
                       std::uint32_t capacity, std::uint32_t words, F f, Accept accept,
                       Active active, OverflowQueue overflow)
{
    extern __shared__ std::uint32_t kring_smem[];
    std::uint16_t list[Capacity];  // ext ids (16 bits, as the halo's rows)
    std::uint32_t ring_end[kMaxKRingRings + 1];
    capacity = capacity < Capacity ? capacity : Capacity;
    for (std::uint32_t p = blockIdx.x; p < mesh.store.num_patches; p += gridDim.x) {
        if (!patch_may_be_active(active, p))
            continue;
        const std::uint32_t row0 = halo.row_first[p], ext = halo.num_ext(p);
        const HaloPatch     h{halo.row_offsets + row0, halo.entries, halo.row_first[p + 1] - row0};
        const ExtBits       bits{kring_smem + threadIdx.x, BlockThreads, ext};
        const bool          fits = ext <= 32 * words;
        const auto vx = stage_vertices(input, kring_smem + std::size_t(words) * BlockThreads,
                                       32 * words, halo.ext_to_global(p), ext, fits);
        const std::uint32_t first = mesh.store.vertex_offsets[p];
        const std::uint32_t owned = mesh.store.vertex_offsets[p + 1] - first;
        for (std::uint32_t l = threadIdx.x; l < owned; l += BlockThreads) {
            if (!active(VertexId(first + l)))
                continue;
            const GrowResult r = fits ? grow_in_halo(h, vx, l, max_rings, accept, list, capacity,
                                                     bits, ring_end)
                                      : GrowResult{0, 0, true, true};
            if (r.overflow || r.left_halo)
                overflow.push(first + l);
            else
                f(VertexId(first + l),
                  BasicKRingView<std::decay_t<decltype(vx)>>(list, r.size, ring_end, r.num_rings, vx));
        }
    }
}

//! One thread per queued vertex (all vertices when `queued` is null), each
//! with `capacity` entries of `scratch`.
template <typename Input, typename F, typename Accept, typename Active>
__global__ void kring_overflow_kernel(KRingHaloView halo, Input input,
                                      const std::uint32_t* queued,
                                      const std::uint32_t* queued_count, std::uint32_t all,
                                      int max_rings, std::uint32_t capacity,
                                      std::uint32_t* scratch, F f, Accept accept, Active active,
                                      OverflowQueue overflow)
{
    const std::uint32_t n      = queued ? *queued_count : all;
    const std::uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
    std::uint32_t*      list   = scratch + std::uint64_t(thread) * capacity;
    std::uint32_t       ring_end[kMaxKRingRings + 1];
    const auto          vx = global_vertices(input);
    for (std::uint32_t i = thread; i < n; i += gridDim.x * blockDim.x) {
        const std::uint32_t v = queued ? queued[i] : i;
        if (!queued && !(patch_may_be_active(active, halo.owner(v)) && active(VertexId(v))))
            continue;
        const GrowResult r = grow_global(halo, vx, v, max_rings, accept, list, capacity, ring_end);
        if (r.overflow)
            overflow.push(v);
        else
            f(VertexId(v), BasicKRingView<std::decay_t<decltype(vx)>>(list, r.size, ring_end, r.num_rings, vx));
    }
}

//! Warps per block of the warp form of the global path.
inline constexpr int kKRingWarpsPerBlock = 4;

//! The global path by warps: a warp per queued vertex (grow_global_warp),
//! lists of `capacity` entries in `scratch`, `set_slots` shared-memory set
//! slots per warp; f runs in the warp's lane 0. The queue's length is read
//! on the device, so this launch follows the patch kernel without the host.
template <typename Input, typename F, typename Accept>
__global__ void __launch_bounds__(32 * kKRingWarpsPerBlock)
    kring_overflow_warp_kernel(KRingHaloView halo, Input input, const std::uint32_t* queued,
                               const std::uint32_t* queued_count, int max_rings,
                               std::uint32_t capacity, std::uint32_t set_slots,
                               std::uint32_t* scratch, F f, Accept accept, OverflowQueue overflow)
{
    extern __shared__ std::uint32_t kring_warp_sets[];
    const unsigned      lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const std::uint32_t n    = *queued_count;
    const WarpIdSet     set{kring_warp_sets + warp * set_slots, set_slots - 1};
    std::uint32_t*      list =
        scratch + (std::uint64_t(blockIdx.x) * kKRingWarpsPerBlock + warp) * capacity;
    std::uint32_t ring_end[kMaxKRingRings + 1];
    const auto    vx = global_vertices(input);
    // consecutive entries go to different blocks, so a short queue spreads
    // over the SMs
    for (std::uint32_t i = warp * gridDim.x + blockIdx.x; i < n;
         i += gridDim.x * kKRingWarpsPerBlock) {
        const std::uint32_t v = queued[i];
        const GrowResult    r =
            grow_global_warp(halo, vx, v, max_rings, accept, list, capacity, ring_end, set, lane);
        if (lane == 0) {
            if (r.overflow)
                overflow.push(v);
            else
                f(VertexId(v), BasicKRingView<std::decay_t<decltype(vx)>>(list, r.size, ring_end,
                                                                         r.num_rings, vx));
        }
        __syncwarp();  // f has read the list before the next vertex overwrites it
    }
}

//! List entries per thread when the user leaves it to us: three times the
//! rings of a regular mesh's vertex (1 + 3k(k + 1) vertices), so that the
//! irregular valences of scanned meshes rarely take the slow global path
//! (the list lives in local memory: entries never written cost nothing).
//! The patch kernel holds at most 256 (one of 32, 64, 128, 256).
inline std::uint32_t default_kring_capacity(int k)
{
    const std::uint32_t regular = 1u + 3u * std::uint32_t(k) * std::uint32_t(k + 1);
    return std::clamp<std::uint32_t>(3 * regular, 32, 256);
}

//! The same for the growth with a predicate (a ball of a few rings).
inline constexpr std::uint32_t kDefaultKRingWhileCapacity = 64;

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
template <typename Input, typename F, typename Accept, typename Active>
void grow_overflowed(const KRingHaloView& halo, const Input& input, std::uint32_t num_vertices,
                     KRingQueue& queue,
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
            halo, input, all ? nullptr : queue.vertices.data(), queue.count.data(), queued, max_rings,
            capacity, scratch.data(), f, accept, active, next.sink());
        RXMESH_CHECK_LAUNCH();
        const std::uint32_t left = next.read_count(stream);
        if (left > 0 && capacity >= num_vertices)
            throw Error("k-ring query: a vertex's rings exceed the vertex count (corrupt rows)");
        std::swap(queue, next);
        queued = left, all = false;
    }
}

//! Queues the warp form of the global path for the vertices `queue` holds
//! (its length read on the device), lists of `capacity` entries, the
//! vertices that overflow those into `next`; false (nothing launched) when
//! its sets do not fit shared memory.
template <typename Input, typename F, typename Accept>
bool launch_overflow_warps(const KRingHaloView& halo, const Input& input,
                           std::uint32_t num_vertices, KRingQueue& queue, KRingQueue& next,
                           int max_rings, std::uint32_t capacity, F f, Accept accept,
                           cudaStream_t stream)
{
    constexpr auto kernel    = kring_overflow_warp_kernel<Input, F, Accept>;
    // at most half full: a batch may insert 32 entries before the list's
    // overflow is seen, so the set holds up to capacity + 32
    std::uint32_t set_slots = 64;
    while (set_slots < 2 * (capacity + 32))
        set_slots *= 2;
    const std::size_t smem = std::size_t(set_slots) * 4 * kKRingWarpsPerBlock;
    Launcher          l    = launcher<kernel>();
    if (!l.fit_shared_memory(smem))
        return false;
    const unsigned grid = l.resident_grid(
        32 * kKRingWarpsPerBlock, smem,
        (std::uint64_t(num_vertices) + kKRingWarpsPerBlock - 1) / kKRingWarpsPerBlock);
    DeviceBuffer<std::uint32_t> scratch(std::uint64_t(grid) * kKRingWarpsPerBlock * capacity,
                                        stream);
    next.count.memset(0);
    kernel<<<grid, 32 * kKRingWarpsPerBlock, smem, stream>>>(
        halo, input, queue.vertices.data(), queue.count.data(), max_rings, capacity, set_slots,
        scratch.data(), f, accept, next.sink());
    RXMESH_CHECK_LAUNCH();
    return true;
}

//! The patch kernel with lists of Capacity entries; false (nothing
//! launched) when its bitmaps exceed the device's shared memory.
template <int BlockThreads, int MinBlocks, int Capacity, typename Input, typename F,
          typename Accept, typename Active>
bool launch_patch_kernel(const DeviceMesh& mesh, const KRingHaloView& halo, const Input& input,
                         std::uint32_t words, int max_rings, std::uint32_t capacity, F f,
                         Accept accept, Active active, OverflowQueue sink, cudaStream_t stream)
{
    const std::size_t smem =
        std::size_t(words) * BlockThreads * 4 + kring_stage_bytes<Input>(32 * words);
    // one block per patch (the mesh has no schedule): query/patch_launch.cuh
    return launch_in_shared_memory<
        kring_patch_kernel<BlockThreads, MinBlocks, Capacity, Input, F, Accept, Active>,
        BlockThreads>(mesh, smem, stream, halo, input, max_rings, capacity, words, f, accept,
                      active, sink);
}

//! The bitmaps' share of a k-ring block's shared memory, at most: a sizing
//! choice (more bitmap words cost resident blocks), not the opt-in limit.
inline constexpr std::uint32_t kKRingBitmapBytesPerBlock = 48 * 1024;

//! Bitmap words per thread: enough for the largest halo, at most
//! kKRingBitmapBytesPerBlock per block (patches with larger halos send their
//! vertices to the global path).
inline std::uint32_t kring_bitmap_words(std::uint32_t max_ext, int block_threads)
{
    return std::min<std::uint32_t>((max_ext + 31) / 32,
                                   kKRingBitmapBytesPerBlock / (4 * block_threads));
}

//! Lists of at least `capacity` entries: one of four compiled lengths.
template <int BlockThreads, int MinBlocks, typename Input, typename F, typename Accept,
          typename Active>
bool launch_patch_kernel(const DeviceMesh& mesh, const KRingHaloView& halo, const Input& input,
                         std::uint32_t max_ext, int max_rings, std::uint32_t capacity, F f,
                         Accept accept, Active active, OverflowQueue sink, cudaStream_t stream)
{
    const std::uint32_t w      = kring_bitmap_words(max_ext, BlockThreads);
    const auto          launch = [&](auto length) {
        return launch_patch_kernel<BlockThreads, MinBlocks, decltype(length)::value>(
            mesh, halo, input, w, max_rings, capacity, f, accept, active, sink, stream);
    };
    if (capacity <= 32)
        return launch(std::integral_constant<int, 32>{});
    if (capacity <= 64)
        return launch(std::integral_constant<int, 64>{});
    if (capacity <= 128)
        return launch(std::integral_constant<int, 128>{});
    return launch(std::integral_constant<int, 256>{});
}

//! Runs f(v, rings) for every owned vertex v that `active` accepts, rings
//! grown by accept up to max_rings: the patch kernel, then the overflow
//! rounds. Synchronises the stream once (more when vertices overflowed).
template <int BlockThreads, int MinBlocks, typename Input, typename F, typename Accept,
          typename Active>
void launch_kring(const DeviceMesh& mesh, const KRingHaloView& halo, const Input& input,
                  std::uint32_t num_vertices,
                  std::uint32_t max_ext, int max_rings, std::uint32_t capacity, F f,
                  Accept accept, Active active, cudaStream_t stream)
{
    if (max_rings < 0 || max_rings > kMaxKRingRings)
        throw InvalidInputError("k-ring query: k must be in [0, " + std::to_string(kMaxKRingRings) +
                    "], got " + std::to_string(max_rings));
    if (num_vertices == 0 || capacity == 0)
        return;
    KRingQueue queue(num_vertices, stream);
    if (!launch_patch_kernel<BlockThreads, MinBlocks>(mesh, halo, input, max_ext, max_rings,
                                                      capacity, f, accept, active, queue.sink(),
                                                      stream)) {
        // the bitmaps do not fit shared memory: the overflow path takes every vertex
        grow_overflowed(halo, input, num_vertices, queue, num_vertices, true, max_rings, 16, f, accept,
                        active, stream);
        return;
    }
    // the vertices whose rings outgrew the patch kernel's lists or halos:
    // warps, lists 4x longer, queued without the host (the set of the
    // largest lists may not fit shared memory: then threads, after a look)
    const std::uint32_t longer =
        std::uint32_t(std::min<std::uint64_t>(std::uint64_t(capacity) * 4, num_vertices));
    KRingQueue next(num_vertices, stream);
    if (!launch_overflow_warps(halo, input, num_vertices, queue, next, max_rings, longer, f, accept,
                               stream)) {
        const std::uint32_t queued = queue.read_count(stream);
        if (queued > 0)
            grow_overflowed(halo, input, num_vertices, queue, queued, false, max_rings, capacity, f,
                            accept, active, stream);
        return;
    }
    const std::uint32_t left = next.read_count(stream);
    if (left > 0 && longer >= num_vertices)
        throw Error("k-ring query: a vertex's rings exceed the vertex count (corrupt rows)");
    if (left > 0)  // rings longer still: threads, lists 4x longer again, and so on
        grow_overflowed(halo, input, num_vertices, next, left, false, max_rings, longer, f, accept,
                        active, stream);
}

}  // namespace detail

}  // namespace rxmesh
