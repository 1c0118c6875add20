// launch_for_each<Op>: the kernels behind RXMesh::for_each and their launch
// (one block per patch; device limits looked up once per device), with the
// global-memory fallback for meshes whose largest patch does not fit the
// device's shared memory.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "rxmesh/core/launch.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/query/block_query.cuh"
#include "rxmesh/query/smem_plan.h"

namespace rxmesh::detail {

//! Devices whose launch limits for_each caches (others look them up each call).
inline constexpr int kMaxCachedDevices = 16;

//! Register cap of each query's kernel (0: the compiler's choice), chosen by
//! measurement (benchmarks/results, ANALYSIS.md): EV, FE, FV hold four rows
//! in flight and EF, FF four short rows: they are fastest at full occupancy;
//! VV, VE, VF lose when capped. A lambda that needs many registers spills
//! under a cap: launch your own kernel with RXMesh::query<Op>() then.
#ifndef RXMESH_QUERY_MAX_REGISTERS
#define RXMESH_QUERY_MAX_REGISTERS -1  // experiments: >= 0 overrides the staged queries' cap
#endif
constexpr int query_max_registers(Op op)
{
    if (is_direct_query(op))
        return 32;
    if (RXMESH_QUERY_MAX_REGISTERS >= 0)
        return RXMESH_QUERY_MAX_REGISTERS;
    return op == Op::EF || op == Op::FF ? 32 : 0;
}

//! Resident threads per multiprocessor of the architecture being compiled
//! (CUDA C++ Programming Guide, compute capabilities table); 2048 in the
//! host pass, where __launch_bounds__ is not used.
constexpr int max_threads_per_sm()
{
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 750)
    return 1024;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || \
                                 __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
    return 1536;
#else
    return 2048;
#endif
}

//! Blocks per SM that a query kernel must fit under its register cap: as
//! many as the register file (64K registers on every supported
//! architecture) and the SM's thread limit allow.
constexpr int query_min_blocks(Op op, int block_threads)
{
    const int cap = query_max_registers(op);
    if (cap <= 0)
        return 1;
    const int by_registers = 65536 / (block_threads * cap);
    const int by_threads   = max_threads_per_sm() / block_threads;
    return std::max(1, std::min(by_registers, by_threads));
}

template <Op op, int BlockThreads, typename F, typename Active>
__global__ void __launch_bounds__(BlockThreads, query_min_blocks(op, BlockThreads))
    for_each_kernel(DeviceMesh mesh, F f, Active active, bool oriented)
{
    // launched only by launch_for_each, with BlockThreads threads: no check
    block_query<op, BlockThreads, true>(mesh, f, active, oriented);
}

template <Op op, int BlockThreads, typename F, typename Active>
__global__ void __launch_bounds__(BlockThreads)
    for_each_scratch_kernel(DeviceMesh mesh, F f, Active active, bool oriented)
{
    block_query<op, BlockThreads, false>(mesh, f, active, oriented);
}

//! What for_each needs to know of the device and of one kernel, once.
struct LaunchLimits
{
    int         max_smem = -1, sms = 0;
    std::size_t static_smem = 0, opted_in = 0;
    // resident blocks per SM at the dynamic shared memory `occupancy_smem`
    std::size_t occupancy_smem = ~std::size_t(0);
    int         blocks_per_sm  = 0;
};

//! The grid of a scheduled launch: one block per entry the schedule can
//! span, at most as many as fit on the device at once (they loop).
template <auto kernel>
unsigned scheduled_grid(LaunchLimits& c, int block_threads, std::size_t smem, std::uint32_t capacity)
{
    if (c.occupancy_smem != smem) {
        RXMESH_CHECK_CUDA(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&c.blocks_per_sm, kernel, block_threads, smem));
        c.occupancy_smem = smem;
    }
    const std::uint64_t resident = std::uint64_t(std::max(c.blocks_per_sm, 1)) * c.sms;
    return unsigned(std::max<std::uint64_t>(1, std::min<std::uint64_t>(capacity, resident)));
}

//! (One cache per kernel: a template on the kernel itself, since kernels of
//! different queries share one function type.)
template <auto kernel>
LaunchLimits& launch_limits()
{
    // per host thread: queries may run from several threads (on their own
    // streams) without sharing this cache
    static thread_local LaunchLimits cache[kMaxCachedDevices];
    static thread_local LaunchLimits other;
    int                 dev = 0;
    RXMESH_CHECK_CUDA(cudaGetDevice(&dev));
    LaunchLimits& c = dev < kMaxCachedDevices ? cache[dev] : (other = LaunchLimits{});
    if (c.max_smem < 0) {
        RXMESH_CHECK_CUDA(
            cudaDeviceGetAttribute(&c.max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        RXMESH_CHECK_CUDA(cudaDeviceGetAttribute(&c.sms, cudaDevAttrMultiProcessorCount, dev));
        cudaFuncAttributes attr{};
        RXMESH_CHECK_CUDA(cudaFuncGetAttributes(&attr, kernel));
        c.static_smem = attr.sharedSizeBytes;
    }
    return c;
}

//! The fallback: a few blocks loop over the patches with their arrays in
//! global memory. Correct, slower; synchronous (the scratch is freed after).
template <Op op, int BlockThreads, typename F, typename Active>
void launch_in_scratch(DeviceMesh mesh, std::size_t smem_bytes, int sms, F f, Active active,
                       bool oriented, cudaStream_t stream)
{
    const std::uint32_t items =
        mesh.schedule.range ? mesh.schedule.capacity : mesh.store.num_patches;
    const unsigned grid = std::max(1u, std::min<unsigned>(items, 2u * unsigned(sms)));
    mesh.scratch_stride  = (smem_bytes + 255) & ~std::size_t(255);
    DeviceBuffer<unsigned char> scratch(mesh.scratch_stride * grid, stream);
    mesh.scratch = scratch.data();
    for_each_scratch_kernel<op, BlockThreads, F, Active>
        <<<grid, BlockThreads, 0, stream>>>(mesh, f, active, oriented);
    RXMESH_CHECK_LAUNCH();
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
}

//! Runs f(source, row) for every owned, active source element of `op`: one
//! kernel of one block per patch (with a schedule: of as many blocks as are
//! resident, looping over its entries), or the scratch fallback when the largest
//! patch's query exceeds the device's shared memory.
template <Op op, int BlockThreads, typename F, typename Active>
void launch_for_each(const DeviceMesh& mesh, F f, Active active, bool oriented,
                     cudaStream_t stream)
{
    if (mesh.store.num_patches == 0 || (mesh.schedule.range && mesh.schedule.capacity == 0))
        return;
    const bool        orient = oriented && can_orient(op);
    const std::size_t smem   = query_smem_bytes(op, orient, mesh.limits);
    auto              kernel = for_each_kernel<op, BlockThreads, F, Active>;
    LaunchLimits&     c      = launch_limits<for_each_kernel<op, BlockThreads, F, Active>>();
    if (smem + c.static_smem > std::size_t(c.max_smem)) {
        launch_in_scratch<op, BlockThreads>(mesh, smem, c.sms, f, active, orient, stream);
        return;
    }
    if (smem > c.opted_in) {  // the opt-in covers static + dynamic shared memory above 48 KB
        opt_in_all_shared_memory(kernel);
        c.opted_in = std::size_t(c.max_smem);
    }
    const unsigned grid =
        mesh.schedule.range
            ? scheduled_grid<for_each_kernel<op, BlockThreads, F, Active>>(c, BlockThreads, smem,
                                                                             mesh.schedule.capacity)
            : mesh.store.num_patches;
    kernel<<<grid, BlockThreads, smem, stream>>>(mesh, f, active, orient);
    RXMESH_CHECK_LAUNCH();
}

}  // namespace rxmesh::detail
