// RXMesh::for_each / launch_config / device(): the user-facing launchers of
// the queries of device_mesh.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/query/device_mesh.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

namespace detail {

//! Devices whose launch limits for_each caches (others look them up each call).
inline constexpr int kMaxCachedDevices = 16;

//! Register cap of each query's kernel (0: the compiler's choice), measured
//! on the H100 (armadillo x4^4, sorted; ms at no cap / 40 / 32 registers):
//! EV, FE, FV hold four rows in flight and EF, FF four short rows: they are
//! fastest at full occupancy (EF 0.209 / 0.200 / 0.166, FF 0.205 / 0.195 /
//! 0.189); VV, VE, VF lose when capped (VF 0.225 / 0.226 / 0.284).
//! A lambda that needs many registers spills under a cap: launch your own
//! kernel with DeviceMesh::kernel<Op> and launch_config<Op>() (no cap) then.
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

//! Blocks per SM that a query kernel must fit: its register cap.
constexpr int query_min_blocks(Op op, int block_threads)
{
    const int cap = query_max_registers(op);
    return cap > 0 ? std::max(1, 65536 / (block_threads * cap)) : 1;
}

template <Op op, int BlockThreads, typename F, typename Active>
__global__ void __launch_bounds__(BlockThreads, query_min_blocks(op, BlockThreads))
    for_each_kernel(DeviceMesh mesh, F f, Active active, bool oriented)
{
    mesh.kernel<op, BlockThreads>(f, active, oriented);
}

template <Op op, int BlockThreads, typename F, typename Active>
__global__ void __launch_bounds__(BlockThreads)
    for_each_scratch_kernel(DeviceMesh mesh, F f, Active active, bool oriented)
{
    mesh.kernel_in_scratch<op, BlockThreads>(f, active, oriented);
}

}  // namespace detail

inline DeviceMesh RXMesh::device() const
{
    return DeviceMesh{m_store.view(), m_store.limits};
}

template <Op op>
RXMesh::LaunchConfig RXMesh::launch_config(bool oriented, unsigned block_threads) const
{
    LaunchConfig cfg;
    cfg.grid       = m_store.num_patches;
    cfg.block      = block_threads;
    cfg.smem_bytes = query_smem_bytes(op, oriented && can_orient(op), m_store.limits);
    return cfg;
}

template <Op op, int BlockThreads, typename F, typename Active>
void RXMesh::for_each(F f, Active active, bool oriented, cudaStream_t stream) const
{
    const LaunchConfig cfg = launch_config<op>(oriented, BlockThreads);
    if (cfg.grid == 0)
        return;
    auto kernel = detail::for_each_kernel<op, BlockThreads, F, Active>;
    // Device limits and the kernel's opt-in, looked up once per device and
    // instantiation: a for_each in an iterative solver should cost one launch.
    struct Cache
    {
        int         max_smem = -1, sms = 0;
        std::size_t static_smem = 0, opted_in = 0;
    };
    static Cache cache[detail::kMaxCachedDevices];
    int          dev = 0;
    RXMESH_CHECK_CUDA(cudaGetDevice(&dev));
    Cache  local;
    Cache& c = dev < detail::kMaxCachedDevices ? cache[dev] : local;
    if (c.max_smem < 0) {
        RXMESH_CHECK_CUDA(
            cudaDeviceGetAttribute(&c.max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        RXMESH_CHECK_CUDA(cudaDeviceGetAttribute(&c.sms, cudaDevAttrMultiProcessorCount, dev));
        cudaFuncAttributes attr{};
        RXMESH_CHECK_CUDA(cudaFuncGetAttributes(&attr, kernel));
        c.static_smem = attr.sharedSizeBytes;
    }
    const int max_smem = c.max_smem, sms = c.sms;
    DeviceMesh mesh = device();
    if (cfg.smem_bytes + c.static_smem <= std::size_t(max_smem)) {
        // the opt-in covers static + dynamic shared memory above 48 KB
        if (cfg.smem_bytes > c.opted_in) {
            RXMESH_CHECK_CUDA(cudaFuncSetAttribute(
                kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(cfg.smem_bytes)));
            c.opted_in = cfg.smem_bytes;
        }
        kernel<<<cfg.grid, BlockThreads, cfg.smem_bytes, stream>>>(mesh, f, active, oriented);
        RXMESH_CHECK_LAUNCH();
        return;
    }
    // Some patch's query is larger than shared memory (a vertex of very high
    // valence, many faces on one edge): a few blocks loop over the patches
    // with their arrays in global memory instead. Correct, slower.
    const unsigned grid   = std::min<unsigned>(cfg.grid, 2u * unsigned(sms));
    mesh.scratch_stride   = (cfg.smem_bytes + 255) & ~std::size_t(255);
    DeviceBuffer<unsigned char> scratch(mesh.scratch_stride * grid, stream);
    mesh.scratch = scratch.data();
    detail::for_each_scratch_kernel<op, BlockThreads, F, Active>
        <<<grid, BlockThreads, 0, stream>>>(mesh, f, active, oriented);
    RXMESH_CHECK_LAUNCH();
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));  // before the scratch is freed
}

}  // namespace rxmesh
