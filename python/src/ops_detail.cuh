// Helpers shared by the ops_*.cu files.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "ops.h"

namespace rxmesh::python::detail {

//! Blocks of 256 threads for n items.
inline unsigned blocks(std::uint64_t n)
{
    return unsigned((n + 255) / 256);
}

//! The two vertex orders (ops.h), row by row, `cols` values per row:
//! out[g] = in[global_to_input[g]] for the n mesh vertices g.
template <typename T>
__global__ void rows_to_mesh_order(const T* in, const std::uint32_t* global_to_input,
                                   std::uint32_t n, int cols, T* out)
{
    const std::uint64_t t = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    if (t < std::uint64_t(n) * cols)
        out[t] = in[std::uint64_t(global_to_input[t / cols]) * cols + t % cols];
}

//! out[i] = in[input_to_global[i]] for the n input vertices i; a dropped
//! vertex gets fallback's row (cols values per row) when given, else fill.
template <typename T>
__global__ void rows_to_input_order(const T* in, const std::uint32_t* input_to_global,
                                    std::uint32_t n, int cols, const T* fallback, T fill, T* out)
{
    const std::uint64_t t = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    if (t >= std::uint64_t(n) * cols)
        return;
    const std::uint32_t g = input_to_global[t / cols];
    out[t] = g != ~0u ? in[std::uint64_t(g) * cols + t % cols] : fallback ? fallback[t] : fill;
}

//! Device float positions (3 per vertex): the caller's own when they are
//! float32 in device memory, else a converted or uploaded copy in `store`.
const float* device_positions(const ArrayIn& a, DeviceBuffer<float>& store, cudaStream_t s);
//! Device vertex ids (3 per face), the same way (int32/uint32 in place).
const std::uint32_t* device_faces(const ArrayIn& a, DeviceBuffer<std::uint32_t>& store,
                                  cudaStream_t s);

}  // namespace rxmesh::python::detail
