// Launch helpers for the flat, one-thread-per-item kernels of the import
// pipeline. Kernels loop grid-stride so any item count fits any grid.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "rxmesh/core/cuda_check.h"

namespace rxmesh::detail {

constexpr int kFlatBlockThreads = 256;

//! Grid size for `n` items: enough blocks to fill the GPU many times over,
//! capped so that huge inputs reuse threads through the grid-stride loop.
inline unsigned flat_grid(std::size_t n, int block_threads = kFlatBlockThreads)
{
    const std::size_t threads = static_cast<std::size_t>(block_threads);
    const std::size_t blocks  = (n + threads - 1) / threads;
    return static_cast<unsigned>(std::clamp<std::size_t>(blocks, 1, 1u << 20));
}

//! Number of bits needed to hold values in [0, n).
inline int bits_for(std::uint64_t n)
{
    int b = 1;
    while (b < 64 && (std::uint64_t{1} << b) < n)
        ++b;
    return b;
}

//! Lets `kernel` launch with as much dynamic shared memory as the device
//! gives a block. Always the same value: host threads that launch the kernel
//! at the same time never lower each other's limit, as setting each launch's
//! own size would.
template <typename Kernel>
void opt_in_all_shared_memory(Kernel kernel)
{
    int device = 0, optin = 0;
    RXMESH_CHECK_CUDA(cudaGetDevice(&device));
    RXMESH_CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    cudaFuncAttributes attr{};
    RXMESH_CHECK_CUDA(cudaFuncGetAttributes(&attr, kernel));
    RXMESH_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           optin - int(attr.sharedSizeBytes)));
}

}  // namespace rxmesh::detail

//! Grid-stride loop over [0, n) with a 64-bit index.
#define RXMESH_FOR_EACH_ITEM(i, n)                                            \
    for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) +           \
                           threadIdx.x;                                        \
         i < std::uint64_t(n);                                                 \
         i += std::uint64_t(gridDim.x) * blockDim.x)
