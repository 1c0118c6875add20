// A float array in device memory that Python frameworks read without a
// copy: it exports itself through DLPack (__dlpack__, __dlpack_device__),
// and the capsule keeps the memory alive for as long as the consumer's
// tensor lives, whatever happens to this object.
#pragma once

#include <dlpack/dlpack.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "rxmesh/core/device_buffer.h"

namespace rxmesh::python {

class DeviceArray
{
   public:
    DeviceArray(std::shared_ptr<DeviceBuffer<float>> data, std::vector<std::int64_t> shape)
        : m_data(std::move(data)), m_shape(std::move(shape))
    {
    }
    const std::vector<std::int64_t>& shape() const { return m_shape; }
    std::uintptr_t                   ptr() const { return reinterpret_cast<std::uintptr_t>(m_data->data()); }
    int                              device() const;
    //! A DLManagedTensor that owns a reference to the data (the caller
    //! wraps it in a "dltensor" capsule).
    DLManagedTensor* to_dlpack() const;
    std::vector<float> to_host() const { return m_data->to_host(); }

   private:
    std::shared_ptr<DeviceBuffer<float>> m_data;
    std::vector<std::int64_t>            m_shape;
};

}  // namespace rxmesh::python
