// Helpers shared by the ops_*.cu files.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "ops.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/rxmesh.h"

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

//! `values` (cols per input vertex) in mesh order: one row per mesh vertex.
template <typename T>
DeviceBuffer<T> gather_to_mesh_order(const MeshHandle& h, const T* values, int cols,
                                     cudaStream_t s)
{
    const std::uint32_t n = h.mesh->num_vertices();
    DeviceBuffer<T>     out(std::size_t(n) * cols, s);
    if (n > 0) {
        rows_to_mesh_order<T><<<blocks(std::uint64_t(n) * cols), 256, 0, s>>>(
            values, h.mesh->global_vertex_to_input().data(), n, cols, out.data());
        RXMESH_CHECK_LAUNCH();
    }
    return out;
}

//! `values` (cols per mesh vertex) into `out` in input order (one row per
//! input vertex; a dropped vertex gets fallback's row when given, else fill).
template <typename T>
void scatter_to_input_order(const MeshHandle& h, const T* values, int cols, const T* fallback,
                            T fill, T* out, cudaStream_t s)
{
    const std::uint32_t n = h.num_input_vertices;
    if (n == 0)
        return;
    rows_to_input_order<T><<<blocks(std::uint64_t(n) * cols), 256, 0, s>>>(
        values, h.mesh->input_vertex_to_global().data(), n, cols, fallback, fill, out);
    RXMESH_CHECK_LAUNCH();
}

//! Device float positions (3 per vertex): the caller's own when they are
//! float32 in device memory, else a converted or uploaded copy in `store`.
const float* device_positions(const ArrayIn& a, DeviceBuffer<float>& store, cudaStream_t s);
//! Device vertex ids (3 per face), the same way (int32/uint32 in place).
const std::uint32_t* device_faces(const ArrayIn& a, DeviceBuffer<std::uint32_t>& store,
                                  cudaStream_t s);

}  // namespace rxmesh::python::detail
