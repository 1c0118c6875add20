#include "device_array.h"

#include <cuda_runtime.h>

#include "rxmesh/core/cuda_check.h"

namespace rxmesh::python {

namespace {

//! What a DLManagedTensor's manager_ctx holds: a reference to the data and
//! the shape and strides the tensor points at.
struct Holder
{
    std::shared_ptr<DeviceBuffer<float>> data;
    std::vector<std::int64_t>            shape, strides;
};

void delete_holder(DLManagedTensor* t)
{
    delete static_cast<Holder*>(t->manager_ctx);
    delete t;
}

}  // namespace

int DeviceArray::device() const
{
    cudaPointerAttributes a{};
    RXMESH_CHECK_CUDA(cudaPointerGetAttributes(&a, m_data->data()));
    return a.device;
}

DLManagedTensor* DeviceArray::to_dlpack() const
{
    auto* h  = new Holder{m_data, m_shape, std::vector<std::int64_t>(m_shape.size(), 1)};
    for (int d = int(m_shape.size()) - 2; d >= 0; --d)  // row-major
        h->strides[d] = h->strides[d + 1] * m_shape[d + 1];
    auto* t                 = new DLManagedTensor{};
    t->dl_tensor.data       = m_data->data();
    t->dl_tensor.device     = {kDLCUDA, device()};
    t->dl_tensor.ndim       = int(m_shape.size());
    t->dl_tensor.dtype      = {kDLFloat, 32, 1};
    t->dl_tensor.shape      = h->shape.data();
    t->dl_tensor.strides    = h->strides.data();
    t->dl_tensor.byte_offset = 0;
    t->manager_ctx          = h;
    t->deleter              = delete_holder;
    return t;
}

}  // namespace rxmesh::python
