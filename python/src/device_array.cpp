#include "device_array.h"

#include "rxmesh/core/cuda_check.h"

namespace rxmesh::python {

namespace {

//! What a DLManagedTensor's manager_ctx holds: a reference to the data and
//! the shape and strides the tensor points at.
struct Holder
{
    std::shared_ptr<const void> owner;
    std::vector<std::int64_t>   shape, strides;
};

void delete_holder(DLManagedTensor* t)
{
    delete static_cast<Holder*>(t->manager_ctx);
    delete t;
}

DLDataType dl_type(DType t)
{
    switch (t) {
        case DType::Float32: return {kDLFloat, 32, 1};
        case DType::Float64: return {kDLFloat, 64, 1};
        case DType::Int32: return {kDLInt, 32, 1};
        case DType::UInt8: return {kDLUInt, 8, 1};
    }
    return {kDLFloat, 32, 1};
}

}  // namespace

std::size_t dtype_size(DType t)
{
    switch (t) {
        case DType::Float64: return 8;
        case DType::UInt8: return 1;
        default: return 4;
    }
}

const char* dtype_name(DType t)
{
    switch (t) {
        case DType::Float32: return "float32";
        case DType::Float64: return "float64";
        case DType::Int32: return "int32";
        case DType::UInt8: return "uint8";
    }
    return "uint8";
}

ReadyEvent::ReadyEvent(cudaStream_t stream)
{
    RXMESH_CHECK_CUDA(cudaEventCreateWithFlags(&m_event, cudaEventDisableTiming));
    RXMESH_CHECK_CUDA(cudaEventRecord(m_event, stream));
}

ReadyEvent::~ReadyEvent()
{
    cudaEventDestroy(m_event);
}

void ReadyEvent::order_before(cudaStream_t consumer) const
{
    RXMESH_CHECK_CUDA(cudaStreamWaitEvent(consumer, m_event, 0));
}

void ReadyEvent::wait() const
{
    RXMESH_CHECK_CUDA(cudaEventSynchronize(m_event));
}

cudaStream_t dlpack_stream(std::int64_t value)
{
    if (value == 1)
        return cudaStreamLegacy;
    if (value == 2)
        return cudaStreamPerThread;
    return reinterpret_cast<cudaStream_t>(static_cast<std::intptr_t>(value));
}

DeviceArray::DeviceArray(std::shared_ptr<const void> owner, void* data, DType dtype,
                         std::vector<std::int64_t> shape, std::shared_ptr<const ReadyEvent> ready)
    : m_owner(std::move(owner)),
      m_data(data),
      m_dtype(dtype),
      m_shape(std::move(shape)),
      m_ready(std::move(ready))
{
    RXMESH_CHECK_CUDA(cudaGetDevice(&m_device));
}

std::uint64_t DeviceArray::size() const
{
    std::uint64_t n = 1;
    for (std::int64_t d : m_shape) n *= std::uint64_t(d);
    return n;
}

DLManagedTensor* DeviceArray::to_dlpack() const
{
    auto* h = new Holder{m_owner, m_shape, std::vector<std::int64_t>(m_shape.size(), 1)};
    for (int d = int(m_shape.size()) - 2; d >= 0; --d)  // row-major
        h->strides[d] = h->strides[d + 1] * m_shape[d + 1];
    auto* t                  = new DLManagedTensor{};
    t->dl_tensor.data        = m_data;
    t->dl_tensor.device      = {kDLCUDA, m_device};
    t->dl_tensor.ndim        = int(m_shape.size());
    t->dl_tensor.dtype       = dl_type(m_dtype);
    t->dl_tensor.shape       = h->shape.data();
    t->dl_tensor.strides     = h->strides.data();
    t->dl_tensor.byte_offset = 0;
    t->manager_ctx           = h;
    t->deleter               = delete_holder;
    return t;
}

std::vector<unsigned char> DeviceArray::to_host_bytes() const
{
    m_ready->wait();
    std::vector<unsigned char> out(size() * dtype_size(m_dtype));
    if (!out.empty())
        RXMESH_CHECK_CUDA(cudaMemcpy(out.data(), m_data, out.size(), cudaMemcpyDeviceToHost));
    return out;
}

}  // namespace rxmesh::python
