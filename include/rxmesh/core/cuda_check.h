// RXMESH_CHECK_CUDA: every CUDA runtime call goes through it; a failure
// becomes a rxmesh::CudaError naming the call, the file and the line (a
// NoDeviceError, "no usable CUDA device", when there is no device or the
// driver is too old; a hint for code compiled for other GPUs).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "rxmesh/core/error.h"

namespace rxmesh::detail {

inline void throw_cuda_error(cudaError_t err,
                             const char* call,
                             const char* file,
                             int         line)
{
    const std::string what = std::string(file) + ":" + std::to_string(line) + ": " + call +
                             " failed: " + cudaGetErrorName(err) + " (" +
                             cudaGetErrorString(err) + ")";
    switch (err) {
        case cudaErrorNoDevice:
        case cudaErrorInsufficientDriver:
        case cudaErrorDevicesUnavailable:
            throw NoDeviceError("no usable CUDA device: " + what);
        case cudaErrorNoKernelImageForDevice:
        case cudaErrorUnsupportedPtxVersion:
            throw CudaError(what + "; RXMesh (or this program) was compiled for other GPUs: "
                                   "set CMAKE_CUDA_ARCHITECTURES to this GPU's");
        default:
            throw CudaError(what);
    }
}

}  // namespace rxmesh::detail

#define RXMESH_CHECK_CUDA(call)                                              \
    do {                                                                     \
        cudaError_t rxmesh_err_ = (call);                                    \
        if (rxmesh_err_ != cudaSuccess)                                      \
            ::rxmesh::detail::throw_cuda_error(                              \
                rxmesh_err_, #call, __FILE__, __LINE__);                     \
    } while (0)

//! Checks the launch itself (bad configuration) without synchronizing.
#define RXMESH_CHECK_LAUNCH() RXMESH_CHECK_CUDA(cudaGetLastError())

namespace rxmesh::detail {

//! cudaMemcpyAsync on `stream`, then waits for it: the synchronous transfer
//! of host mirrors and downloads. Nothing for zero bytes.
inline void copy_and_wait(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                          cudaStream_t stream)
{
    if (bytes == 0)
        return;
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(dst, src, bytes, kind, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
}

}  // namespace rxmesh::detail
