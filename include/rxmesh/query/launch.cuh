// launch_for_each<Op>: the kernels behind RXMesh::for_each and their launch
// (query/patch_launch.cuh: one block per patch, or the global-memory
// fallback for meshes whose largest patch does not fit the device's shared
// memory), and the launch bounds of query kernels.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "rxmesh/query/block_query.cuh"
#include "rxmesh/query/op.h"
#include "rxmesh/query/patch_launch.cuh"
#include "rxmesh/query/smem_plan.h"

namespace rxmesh::detail {

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

//! Runs f(source, row) for every owned, active source element of `op`: one
//! kernel of one block per patch (with a schedule: of as many blocks as are
//! resident, looping over its entries), or the scratch fallback when the largest
//! patch's query exceeds the device's shared memory.
template <Op op, int BlockThreads, typename F, typename Active>
void launch_for_each(const DeviceMesh& mesh, F f, Active active, bool oriented,
                     cudaStream_t stream)
{
    const bool        orient = oriented && can_orient(op);
    const std::size_t smem   = query_smem_bytes(op, orient, mesh.limits);
    launch_patches<for_each_kernel<op, BlockThreads, F, Active>,
                   for_each_scratch_kernel<op, BlockThreads, F, Active>, BlockThreads>(
        mesh, smem, stream, f, active, orient);
}

}  // namespace rxmesh::detail
