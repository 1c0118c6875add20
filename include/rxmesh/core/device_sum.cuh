// Reductions of float arrays in device memory read back to the host, the
// sum accumulated in double (float sums over millions of elements lose
// digits). Each call synchronises `stream`.
#pragma once

#include <cub/device/device_reduce.cuh>

#include <cstdint>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"

namespace rxmesh::detail {

struct FloatToDouble
{
    __host__ __device__ double operator()(float x) const { return double(x); }
};

//! One value from device memory, after the work queued on `stream`.
template <typename T>
T read_back(const T* device, cudaStream_t stream)
{
    T host{};
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(&host, device, sizeof(T), cudaMemcpyDeviceToHost, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return host;
}

inline double sum_as_double(const float* values, std::uint32_t n, cudaStream_t stream)
{
    DeviceBuffer<double> sum(1, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(tmp, bytes, values, sum.data(), n,
                                                  cuda::std::plus<double>{}, FloatToDouble{}, 0.0,
                                                  stream);
    });
    return read_back(sum.data(), stream);
}

//! reduce over n floats, from init.
template <typename Reduce>
float reduce_floats(const float* values, std::uint32_t n, float init, Reduce reduce,
                    cudaStream_t stream)
{
    DeviceBuffer<float> out(1, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::Reduce(tmp, bytes, values, out.data(), n, reduce, init, stream);
    });
    return read_back(out.data(), stream);
}

}  // namespace rxmesh::detail
