// BLAS-like operations on typed views (core/attribute_view.h) and attributes,
// over all num_values() = elements * N values (the components are not told
// apart). Include from .cu files only (CUB inside).
//
//   fill(x, v)          x = v
//   copy(dst, src)      dst = src          (device to device)
//   axpy(alpha, x, y)   y += alpha * x
//   dot(x, y)           sum of x * y       (CUB reduction; float accumulates in double)
//   norm2(x)            sqrt(dot(x, x))
//   scale(x, alpha)     x *= alpha
//
// Every function works on the device data only (the host mirrors are left
// alone), runs on the given stream (an attribute's own stream for the
// Attribute overloads) and returns once the result is complete (the stream
// is synchronised). Sizes that differ throw rxmesh::Error;
// a CUDA failure throws rxmesh::CudaError.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_for.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_transform.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "rxmesh/attribute/attribute.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"

namespace rxmesh {

namespace detail {

//! The type dot() sums in: double for float, T otherwise.
//! Keeps a scalar argument out of template deduction: fill(x, 1.0) on a float
//! attribute converts 1.0 instead of failing to deduce T.
template <typename T>
struct NonDeducedT
{
    using type = T;
};
template <typename T>
using NonDeduced = typename NonDeducedT<T>::type;

template <typename T>
using BlasAccumulator = std::conditional_t<std::is_same_v<T, float>, double, T>;

//! The element-wise operations, for cub::DeviceFor / cub::DeviceTransform.
template <typename T>
struct BlasSet
{
    T value;
    __device__ void operator()(T& v) const { v = value; }
};
template <typename T>
struct BlasScale
{
    T alpha;
    __device__ void operator()(T& v) const { v *= alpha; }
};
template <typename T>
struct BlasAxpy
{
    T alpha;
    __device__ T operator()(T x, T y) const { return y + alpha * x; }
};

//! i -> Acc(x[i]) * Acc(y[i]), the input of dot()'s reduction.
template <typename T, typename Acc>
struct BlasProduct
{
    const T* x;
    const T* y;
    __host__ __device__ Acc operator()(std::uint64_t i) const
    {
        return static_cast<Acc>(x[i]) * static_cast<Acc>(y[i]);
    }
};

template <typename A, typename B>
void blas_check_sizes(const char* function, const A& a, const B& b)
{
    if (a.num_values() != b.num_values())
        throw Error(std::string(function) + ": attribute sizes differ (" +
                    std::to_string(a.num_values()) + " and " +
                    std::to_string(b.num_values()) + " values)");
}

}  // namespace detail

namespace detail {

//! op(v) on every value of x in place (cub::DeviceFor), then waits.
template <typename T, int N, typename Id, typename Op>
void for_each_value(AttributeView<T, N, Id> x, Op op, cudaStream_t stream)
{
    if (x.num_values() == 0)
        return;
    RXMESH_CHECK_CUDA(cub::DeviceFor::ForEachN(x.data(), x.num_values(), op, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
}

}  // namespace detail

//! Sets every value of `x` (on the device) to `value`.
template <typename T, int N, typename Id>
void fill(AttributeView<T, N, Id> x, detail::NonDeduced<T> value, cudaStream_t stream = 0)
{
    detail::for_each_value(x, detail::BlasSet<T>{value}, stream);
}

//! dst = src on the device (nothing when they are the same array).
//! \throw Error when the sizes differ.
template <typename T, int N, typename Id>
void copy(AttributeView<T, N, Id> dst, detail::NonDeduced<AttributeView<const T, N, Id>> src,
          cudaStream_t stream = 0)
{
    detail::blas_check_sizes("rxmesh::copy", dst, src);
    if (dst.num_values() == 0 || dst.data() == src.data())
        return;
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(dst.data(), src.data(), dst.num_bytes(),
                                      cudaMemcpyDeviceToDevice, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
}

//! y += alpha * x, every component. \throw Error when the sizes differ.
template <typename T, int N, typename Id>
void axpy(detail::NonDeduced<T> alpha, detail::NonDeduced<AttributeView<const T, N, Id>> x,
          AttributeView<T, N, Id> y, cudaStream_t stream = 0)
{
    detail::blas_check_sizes("rxmesh::axpy", x, y);
    const std::uint64_t n = y.num_values();
    if (n == 0)
        return;
    RXMESH_CHECK_CUDA(cub::DeviceTransform::Transform(
        ::cuda::std::make_tuple(x.data(), static_cast<const T*>(y.data())), y.data(), n,
        detail::BlasAxpy<T>{alpha}, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
}

//! x *= alpha, every component.
template <typename T, int N, typename Id>
void scale(AttributeView<T, N, Id> x, detail::NonDeduced<T> alpha, cudaStream_t stream = 0)
{
    detail::for_each_value(x, detail::BlasScale<T>{alpha}, stream);
}

namespace detail {

//! The sum of x[i] * y[i] in the accumulator type (CUB DeviceReduce); T
//! may be const.
template <typename T, int N, typename Id, typename V = std::remove_const_t<T>>
BlasAccumulator<V> dot_accumulate(AttributeView<T, N, Id> x,
                                  NonDeduced<AttributeView<const V, N, Id>> y, cudaStream_t stream)
{
    using Acc = BlasAccumulator<V>;
    blas_check_sizes("rxmesh::dot", x, y);
    const std::uint64_t n = x.num_values();
    if (n == 0)
        return Acc{};
    auto products = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0),
                                                    BlasProduct<V, Acc>{x.data(), y.data()});
    DeviceBuffer<Acc> result(1, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::Sum(tmp, bytes, products, result.data(), n, stream);
    });
    return read_back(result.data(), stream);  // synchronises the stream
}

}  // namespace detail

//! Sum over all values of x * y, accumulated in double for float inputs.
//! \throw Error when the sizes differ.
template <typename T, int N, typename Id, typename V = std::remove_const_t<T>>
V dot(AttributeView<T, N, Id> x, detail::NonDeduced<AttributeView<const V, N, Id>> y,
      cudaStream_t stream = 0)
{
    return static_cast<V>(detail::dot_accumulate(x, y, stream));
}

//! Euclidean norm of all values: sqrt(dot(x, x)), the root taken before
//! rounding to T.
template <typename T, int N, typename Id, typename V = std::remove_const_t<T>>
V norm2(AttributeView<T, N, Id> x, cudaStream_t stream = 0)
{
    static_assert(std::is_floating_point_v<V>, "norm2 needs a floating-point view");
    return static_cast<V>(std::sqrt(detail::dot_accumulate(x, x, stream)));
}

// The same on attributes, on each attribute's own stream.

template <typename T, int N, typename Id>
void fill(const Attribute<T, N, Id>& x, detail::NonDeduced<T> value)
{
    fill(x.view(), value, x.stream());
}
template <typename T, int N, typename Id>
void copy(const Attribute<T, N, Id>& dst, const Attribute<T, N, Id>& src)
{
    copy(dst.view(), src.view(), dst.stream());
}
template <typename T, int N, typename Id>
void axpy(detail::NonDeduced<T> alpha, const Attribute<T, N, Id>& x, const Attribute<T, N, Id>& y)
{
    axpy(alpha, x.view(), y.view(), y.stream());
}
template <typename T, int N, typename Id>
void scale(const Attribute<T, N, Id>& x, detail::NonDeduced<T> alpha)
{
    scale(x.view(), alpha, x.stream());
}
template <typename T, int N, typename Id>
T dot(const Attribute<T, N, Id>& x, const Attribute<T, N, Id>& y)
{
    return dot(x.view(), y.view(), x.stream());
}
template <typename T, int N, typename Id>
T norm2(const Attribute<T, N, Id>& x)
{
    return norm2(x.view(), x.stream());
}

}  // namespace rxmesh
