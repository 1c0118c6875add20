// DeviceBuffer<T>: an owning, move-only array in device memory.
//
// Allocations are stream-ordered (cudaMallocAsync) so that the import
// pipeline's many temporaries come from CUDA's memory pool instead of paying
// for cudaMalloc/cudaFree each time.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "rxmesh/core/cuda_check.h"

namespace rxmesh {

template <typename T>
class DeviceBuffer
{
    static_assert(std::is_trivially_copyable_v<T>,
                  "DeviceBuffer holds trivially copyable types only");

   public:
    DeviceBuffer() = default;

    explicit DeviceBuffer(std::size_t count, cudaStream_t stream = 0)
        : m_stream(stream)
    {
        allocate(count);
    }

    //! Copies a host vector to a new device buffer (synchronous).
    static DeviceBuffer from_host(const std::vector<T>& host,
                                  cudaStream_t          stream = 0)
    {
        DeviceBuffer buffer(host.size(), stream);
        buffer.upload(host.data(), host.size());
        return buffer;
    }

    DeviceBuffer(const DeviceBuffer&)            = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept
    {
        if (this != &other) {
            release();
            swap(other);
        }
        return *this;
    }

    ~DeviceBuffer() { release(); }

    T*          data() noexcept { return m_data; }
    const T*    data() const noexcept { return m_data; }
    std::size_t size() const noexcept { return m_size; }
    bool        empty() const noexcept { return m_size == 0; }
    std::size_t bytes() const noexcept { return m_size * sizeof(T); }
    //! Bytes allocated (shrink() keeps the allocation): what the buffer holds
    //! of the device's memory.
    std::size_t allocated_bytes() const noexcept { return m_capacity * sizeof(T); }

    //! Reallocates to exactly `count` elements; the contents are lost.
    void resize_discard(std::size_t count)
    {
        release();
        allocate(count);
    }

    //! Keeps the first `count` elements (count <= size()); no reallocation.
    void shrink(std::size_t count) noexcept
    {
        if (count < m_size)
            m_size = count;
    }

    void upload(const T* host, std::size_t count)
    {
        if (count > m_size)
            throw Error("DeviceBuffer::upload: " + std::to_string(count) +
                        " elements into a buffer of " + std::to_string(m_size));
        if (count == 0)
            return;
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(
            m_data, host, count * sizeof(T), cudaMemcpyHostToDevice, m_stream));
        RXMESH_CHECK_CUDA(cudaStreamSynchronize(m_stream));
    }

    std::vector<T> to_host() const
    {
        std::vector<T> host(m_size);
        if (m_size != 0) {
            RXMESH_CHECK_CUDA(cudaMemcpyAsync(host.data(),
                                              m_data,
                                              m_size * sizeof(T),
                                              cudaMemcpyDeviceToHost,
                                              m_stream));
            RXMESH_CHECK_CUDA(cudaStreamSynchronize(m_stream));
        }
        return host;
    }

    //! Sets every byte to `byte` (asynchronous on the buffer's stream).
    void memset(int byte)
    {
        if (m_size != 0)
            RXMESH_CHECK_CUDA(cudaMemsetAsync(m_data, byte, bytes(), m_stream));
    }

   private:
    void allocate(std::size_t count)
    {
        m_size     = count;
        m_capacity = count;
        if (count != 0)
            RXMESH_CHECK_CUDA(cudaMallocAsync(
                reinterpret_cast<void**>(&m_data), count * sizeof(T), m_stream));
    }

    void release() noexcept
    {
        if (m_data != nullptr)
            cudaFreeAsync(m_data, m_stream);  // destructor path: cannot throw
        m_data     = nullptr;
        m_size     = 0;
        m_capacity = 0;
    }

    void swap(DeviceBuffer& other) noexcept
    {
        std::swap(m_data, other.m_data);
        std::swap(m_size, other.m_size);
        std::swap(m_capacity, other.m_capacity);
        std::swap(m_stream, other.m_stream);
    }

    T*           m_data   = nullptr;
    std::size_t  m_size     = 0;
    std::size_t  m_capacity = 0;  // elements allocated (>= m_size after shrink)
    cudaStream_t m_stream   = 0;
};

//! Reads one element back from device memory (synchronous).
template <typename T>
T read_back(const T* device_ptr, cudaStream_t stream = 0)
{
    T value;
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(
        &value, device_ptr, sizeof(T), cudaMemcpyDeviceToHost, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return value;
}

}  // namespace rxmesh
