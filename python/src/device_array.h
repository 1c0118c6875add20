// An array in device memory that Python frameworks read without a copy: it
// exports itself through DLPack (__dlpack__, __dlpack_device__), and the
// capsule keeps the memory alive for as long as the consumer's tensor
// lives, whatever happens to this object. The values are written on the
// stream of the call that made them; an event recorded there after the
// last write lets a consumer on another stream wait for them
// (__dlpack__(stream=...)) without stopping the host.
#pragma once

#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rxmesh/core/device_buffer.h"

namespace rxmesh::python {

enum class DType
{
    Float32,
    Float64,  // the sparse matrices and the Cholesky's solutions in double
    Int32,
    UInt8
};

std::size_t dtype_size(DType t);
const char* dtype_name(DType t);  // NumPy's name

//! An event recorded on a stream after the work that wrote an array.
class ReadyEvent
{
   public:
    explicit ReadyEvent(cudaStream_t stream);
    ~ReadyEvent();
    ReadyEvent(const ReadyEvent&)            = delete;
    ReadyEvent& operator=(const ReadyEvent&) = delete;
    //! Makes `consumer` wait for the writes (no host wait).
    void order_before(cudaStream_t consumer) const;
    void wait() const;

   private:
    cudaEvent_t m_event{};
};

class DeviceArray
{
   public:
    //! `owner` keeps `data` alive (a DeviceBuffer, or the mesh that holds
    //! it); `ready` was recorded on the stream that wrote the values (one
    //! event may serve every array of a call).
    DeviceArray(std::shared_ptr<const void> owner, void* data, DType dtype,
                std::vector<std::int64_t> shape, std::shared_ptr<const ReadyEvent> ready);

    template <typename T>
    static DeviceArray of(std::shared_ptr<DeviceBuffer<T>> buffer, DType dtype,
                          std::vector<std::int64_t> shape, std::shared_ptr<const ReadyEvent> ready)
    {
        void* data = buffer->data();
        return DeviceArray(std::move(buffer), data, dtype, std::move(shape), std::move(ready));
    }

    const std::vector<std::int64_t>& shape() const { return m_shape; }
    DType                            dtype() const { return m_dtype; }
    std::uintptr_t                   ptr() const { return reinterpret_cast<std::uintptr_t>(m_data); }
    std::uint64_t                    size() const;  // elements
    int                              device() const { return m_device; }
    //! A DLManagedTensor that owns a reference to the data (the caller
    //! wraps it in a "dltensor" capsule and orders its stream with ready()).
    DLManagedTensor* to_dlpack() const;
    const ReadyEvent& ready() const { return *m_ready; }
    //! The values on the host (waits for them).
    std::vector<unsigned char> to_host_bytes() const;

   private:
    std::shared_ptr<const void> m_owner;
    void*                       m_data;
    DType                       m_dtype;
    std::vector<std::int64_t>   m_shape;
    int                         m_device = 0;
    std::shared_ptr<const ReadyEvent> m_ready;
};

//! The stream a DLPack `stream` argument names (CUDA's conventions: 1 the
//! legacy default stream, 2 the per-thread one, else the handle).
cudaStream_t dlpack_stream(std::int64_t value);

}  // namespace rxmesh::python
