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

template <Op op, int BlockThreads, typename F, typename Active>
__global__ void __launch_bounds__(BlockThreads)
    for_each_kernel(DeviceMesh mesh, F f, Active active, bool oriented)
{
    mesh.kernel<op, BlockThreads>(f, active, oriented);
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
    int  dev = 0, max_smem = 0, sms = 0;
    RXMESH_CHECK_CUDA(cudaGetDevice(&dev));
    RXMESH_CHECK_CUDA(
        cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    RXMESH_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    cudaFuncAttributes attr{};
    RXMESH_CHECK_CUDA(cudaFuncGetAttributes(&attr, kernel));
    DeviceMesh mesh = device();
    if (cfg.smem_bytes + attr.sharedSizeBytes <= std::size_t(max_smem)) {
        // the opt-in covers static + dynamic shared memory above 48 KB
        RXMESH_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               int(cfg.smem_bytes)));
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
    kernel<<<grid, BlockThreads, 0, stream>>>(mesh, f, active, oriented);
    RXMESH_CHECK_LAUNCH();
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));  // before the scratch is freed
}

}  // namespace rxmesh
