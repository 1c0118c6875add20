// AttributeView<T, N, Id>: a non-owning, typed view of N values of type T per
// vertex, edge or face in device memory, element-major (value k of element e
// at e * N + k), indexed by the element's id type: a FaceId cannot index a
// vertex view. It is what algorithms, staged inputs and finalize targets take
// and return, whoever owns the memory: an Attribute of the mesh
// (`attr.view()`, or the Attribute itself, which converts), or the user's
// own buffer (`VertexView<float, 3>(ptr, num_vertices)`).
//
// Trivially copyable: capture it by value in device lambdas. A view of T
// converts to a view of const T, never the other way.
//
//   void smooth(const RXMesh& mesh, VertexView<const float, 3> in, VertexView<float, 3> out);
//   smooth(mesh, mesh.positions(), out_attribute);   // both convert
//   float* raw = out.data();                          // for Thrust, CUB, cuSPARSE
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/ids.h"
#include "rxmesh/core/macros.h"

namespace rxmesh {

template <typename T, int N, typename Id>
class AttributeView
{
    static_assert(N >= 1, "a view has at least one component per element");

   public:
    using value_type                = T;
    using id_type                   = Id;
    static constexpr int components = N;

    AttributeView() = default;
    //! `data`: num_elements * N values in device memory (may be null when
    //! num_elements is 0).
    RXMESH_HD AttributeView(T* data, std::uint32_t num_elements)
        : m_data(data), m_size(num_elements)
    {
    }
    //! A view of U (T = const U) from a view of mutable U.
    template <typename U,
              typename = std::enable_if_t<std::is_same_v<T, const U> && !std::is_const_v<U>>>
    RXMESH_HD AttributeView(const AttributeView<U, N, Id>& other)
        : m_data(other.data()), m_size(other.num_elements())
    {
    }

    //! Value k of element e (device code).
    RXMESH_DEVICE T& operator()(Id e, int k = 0) const
    {
        return m_data[std::uint64_t(e.id()) * N + k];
    }
    //! Value i of the flat array (element i / N, component i % N).
    RXMESH_DEVICE T& operator[](std::uint64_t i) const { return m_data[i]; }

    RXMESH_HD T* data() const { return m_data; }
    RXMESH_HD std::uint32_t num_elements() const { return m_size; }
    RXMESH_HD std::uint64_t num_values() const { return std::uint64_t(m_size) * N; }
    RXMESH_HD std::uint64_t num_bytes() const { return num_values() * sizeof(T); }
    RXMESH_HD bool          empty() const { return m_size == 0; }

   private:
    T*            m_data = nullptr;
    std::uint32_t m_size = 0;
};

template <typename T, int N = 1>
using VertexView = AttributeView<T, N, VertexId>;
template <typename T, int N = 1>
using EdgeView = AttributeView<T, N, EdgeId>;
template <typename T, int N = 1>
using FaceView = AttributeView<T, N, FaceId>;

//! A view's values copied to the host (synchronous), element-major.
template <typename T, int N, typename Id>
std::vector<std::remove_const_t<T>> to_host(const AttributeView<T, N, Id>& view,
                                            cudaStream_t                   stream = 0)
{
    std::vector<std::remove_const_t<T>> out(view.num_values());
    detail::copy_and_wait(out.data(), view.data(), view.num_bytes(), cudaMemcpyDeviceToHost, stream);
    return out;
}

}  // namespace rxmesh
