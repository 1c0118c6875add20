// Internal: element-wise device sequences of the build pipeline, through CUB
// (cub::DeviceFor / cub::DeviceTransform): 0, 1, 2, ... (optionally divided),
// and the low bits of sorted 64-bit keys.
#pragma once

#include <cub/device/device_for.cuh>
#include <cub/device/device_transform.cuh>

#include <cstdint>

#include "rxmesh/core/cuda_check.h"

namespace rxmesh::detail {

struct SequenceOp
{
    std::uint32_t* out;
    std::uint32_t  divisor;
    __device__ void operator()(std::uint64_t i) const
    {
        out[i] = static_cast<std::uint32_t>(i / divisor);
    }
};

//! out[i] = i / divisor for i < n.
inline void fill_sequence(std::uint32_t* out, std::uint64_t n, cudaStream_t stream,
                          std::uint32_t divisor = 1)
{
    if (n != 0)
        RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(n, SequenceOp{out, divisor}, stream));
}

struct LowBitsOp
{
    std::uint64_t mask;
    __device__ std::uint32_t operator()(std::uint64_t key) const
    {
        return static_cast<std::uint32_t>(key & mask);
    }
};

//! out[i] = the low `bits` bits of keys[i].
inline void low_bits(const std::uint64_t* keys, std::uint64_t n, int bits, std::uint32_t* out,
                     cudaStream_t stream)
{
    if (n != 0)
        RXMESH_CHECK_CUDA(cub::DeviceTransform::Transform(
            keys, out, n, LowBitsOp{(std::uint64_t(1) << bits) - 1}, stream));
}

}  // namespace rxmesh::detail
