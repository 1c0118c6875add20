// Attribute<T, N, Id>: N values of type T per vertex, edge or face, stored
// flat by global id (element-major: value k of element e at e * N + k) in
// device memory, with a host mirror and explicit transfers.
//
// An Attribute is a cheap, trivially copyable handle (capture it by value in
// device lambdas); its storage belongs to the mesh's AttributeRegistry and
// lives as long as the mesh or until the attribute is removed.
//
//   auto x = mesh.add_vertex_attribute<float, 3>("x", 0.f);
//   mesh.for_each<Op::VV>([=] __device__(VertexId v, const RowView<VertexId>& vv) {
//       x(v, 0) = vv.size();
//   });
//   x.to_host();  float x0 = x.host(VertexId(0), 0);
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/ids.h"
#include "rxmesh/core/macros.h"

namespace rxmesh {

template <typename T, int N, typename Id>
class Attribute
{
   public:
    using value_type = T;
    using id_type    = Id;
    static constexpr int components = N;

    Attribute() = default;
    Attribute(T* device, T* host, std::uint32_t num_elements, cudaStream_t stream = 0)
        : m_device(device), m_host(host), m_size(num_elements), m_stream(stream)
    {
    }

    //! Device access (also valid on the host for managed use: do not).
    RXMESH_DEVICE T& operator()(Id e, int k = 0) const
    {
        return m_device[std::uint64_t(e.id()) * N + k];
    }

    //! Host mirror access; call to_host() first to see device results.
    T& host(Id e, int k = 0) const { return m_host[std::uint64_t(e.id()) * N + k]; }

    //! The device values as a typed view (core/attribute_view.h), what
    //! algorithms take; an Attribute also converts to one implicitly.
    AttributeView<T, N, Id> view() const { return {m_device, m_size}; }
    operator AttributeView<T, N, Id>() const { return view(); }
    operator AttributeView<const T, N, Id>() const { return {m_device, m_size}; }

    T*            device_data() const { return m_device; }
    T*            host_data() const { return m_host; }
    std::uint32_t num_elements() const { return m_size; }
    std::uint64_t num_values() const { return std::uint64_t(m_size) * N; }
    bool          is_valid() const { return m_device != nullptr; }
    //! The stream that transfers and the BLAS functions (attribute/blas.cuh) use.
    cudaStream_t  stream() const { return m_stream; }
    std::uint64_t num_bytes() const { return num_values() * sizeof(T); }

    //! Host mirror -> device (synchronous). No-op for an empty attribute.
    void to_device() const
    {
        if (m_device != nullptr && m_host != nullptr)
            detail::copy_and_wait(m_device, m_host, num_bytes(), cudaMemcpyHostToDevice, m_stream);
    }

    //! Device -> host mirror (synchronous). No-op for an empty attribute.
    void to_host() const
    {
        if (m_device != nullptr && m_host != nullptr)
            detail::copy_and_wait(m_host, m_device, num_bytes(), cudaMemcpyDeviceToHost, m_stream);
    }

   private:
    T*            m_device = nullptr;
    T*            m_host   = nullptr;
    std::uint32_t m_size   = 0;
    cudaStream_t  m_stream = 0;
};

template <typename T, int N = 1>
using VertexAttribute = Attribute<T, N, VertexId>;
template <typename T, int N = 1>
using EdgeAttribute = Attribute<T, N, EdgeId>;
template <typename T, int N = 1>
using FaceAttribute = Attribute<T, N, FaceId>;

}  // namespace rxmesh
