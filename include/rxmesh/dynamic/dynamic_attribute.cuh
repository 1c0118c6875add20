// Attributes of a DynamicMesh: values that follow their vertices, edges or
// faces through every pass, new elements filled by the attribute's rule.
//
//   auto color = mesh.add_vertex_attribute<float, 3>("color", AttributeRule::Interpolate);
//   VertexView<float, 3> v = color->view();   // valid until the next pass
//
// Vertex and face values are indexed by slot (dead slots keep stale values);
// edge values by the edge ids of the current edge table (connectivity()).
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/dynamic/attribute_events.h"
#include "rxmesh/dynamic/dynamic_mesh.h"

namespace rxmesh {

template <typename T, int N>
struct AttributeValue
{
    T v[N];
};

namespace dynamic_detail {

inline unsigned attribute_grid(std::uint64_t n) { return unsigned((n + 255) / 256); }

template <typename T, int N>
__global__ void fill_values_kernel(T* data, std::uint64_t begin, std::uint64_t end,
                                   AttributeValue<T, N> fill)
{
    const std::uint64_t i = begin + std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < end)
        for (int k = 0; k < N; ++k) data[i * N + k] = fill.v[k];
}

//! to = mean of x and y (floating point), or x.
template <typename T, int N>
__device__ void store_mean(T* data, std::uint64_t to, std::uint64_t x, std::uint64_t y,
                           bool interpolate)
{
    for (int k = 0; k < N; ++k) {
        const T a = data[x * N + k], b = data[y * N + k];
        if constexpr (std::is_floating_point_v<T>)
            data[to * N + k] = interpolate ? (a + b) * T(0.5) : a;
        else
            data[to * N + k] = a;
    }
}

template <typename T, int N>
__device__ void store_fill(T* data, std::uint64_t to, const AttributeValue<T, N>& fill)
{
    for (int k = 0; k < N; ++k) data[to * N + k] = fill.v[k];
}

template <typename T, int N>
__global__ void split_vertex_kernel(AppliedEdges ap, T* data, AttributeRule rule,
                                   AttributeValue<T, N> fill)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ap.count) return;
    const std::uint32_t e = ap.winners[i], m = ap.vertex_base + i;
    if (rule == AttributeRule::Fill)
        store_fill(data, m, fill);
    else
        store_mean<T, N>(data, m, ap.c.edge_first(e), ap.c.edge_second(e),
                         rule == AttributeRule::Interpolate || rule == AttributeRule::Sum);
}

//! to += from.
template <typename T, int N>
__device__ void store_sum(T* data, std::uint64_t to, std::uint64_t from)
{
    for (int k = 0; k < N; ++k) data[to * N + k] = data[to * N + k] + data[from * N + k];
}

template <typename T, int N>
__global__ void collapse_vertex_kernel(AppliedEdges ap, T* data, AttributeRule rule,
                                       AttributeValue<T, N> fill)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ap.count) return;
    const std::uint32_t e = ap.winners[i], a = ap.c.edge_first(e);
    if (rule == AttributeRule::Fill)
        store_fill(data, a, fill);
    else if (rule == AttributeRule::Interpolate)
        store_mean<T, N>(data, a, a, ap.c.edge_second(e), true);
    else if (rule == AttributeRule::Sum)
        store_sum<T, N>(data, a, ap.c.edge_second(e));
}

template <typename T, int N>
__global__ void split_face_kernel(AppliedEdges ap, T* data, AttributeRule rule,
                                  AttributeValue<T, N> fill)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ap.count) return;
    const std::uint32_t e = ap.winners[i];
    for (std::uint32_t j = 0; j < ap.c.edge_face_count(e); ++j) {
        const std::uint32_t f = ap.c.edge_face(e, j), g = ap.face_base + ap.face_offset[i] + j;
        if (rule == AttributeRule::Fill) {
            store_fill(data, f, fill);
            store_fill(data, g, fill);
        } else {
            store_mean<T, N>(data, g, f, f, false);
        }
    }
}

template <typename T, int N>
__global__ void flip_face_kernel(AppliedEdges ap, T* data, AttributeValue<T, N> fill)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ap.count) return;
    const std::uint32_t e = ap.winners[i];
    for (std::uint32_t j = 0; j < ap.c.edge_face_count(e); ++j)
        store_fill(data, ap.c.edge_face(e, j), fill);
}

template <typename T, int N>
__global__ void remap_edge_kernel(EdgeSources sources, const T* old_data, T* data,
                                  AttributeRule rule, AttributeValue<T, N> fill)
{
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= sources.num_edges) return;
    const std::uint32_t s      = sources.source[e];
    const bool          parent = s != kNoElement && (s & EdgeSources::kFromParent) != 0;
    if (s == kNoElement || (parent && rule == AttributeRule::Fill)) {
        store_fill(data, e, fill);
        return;
    }
    const std::uint64_t from = s & EdgeSources::kSourceIndex;
    for (int k = 0; k < N; ++k) data[std::uint64_t(e) * N + k] = old_data[from * N + k];
}

}  // namespace dynamic_detail

template <typename T, int N, typename Id>
class DynamicAttribute final : public DynamicAttributeBase
{
   public:
    DynamicAttribute(std::string name, AttributeRule rule, AttributeValue<T, N> fill,
                     std::size_t count, std::size_t capacity, cudaStream_t stream)
        : m_name(std::move(name)), m_rule(rule), m_fill(fill)
    {
        reserve(std::max(capacity, count), 0, stream);
        m_count = count;
    }

    const std::string& name() const { return m_name; }
    AttributeRule      rule() const { return m_rule; }
    ElementKind        kind() const override { return KindOf<Id>::value; }
    std::uint32_t      num_elements() const { return std::uint32_t(m_count); }
    //! Valid until the next pass or growth of the mesh.
    AttributeView<T, N, Id> view() { return {m_data.data(), std::uint32_t(m_count)}; }
    AttributeView<const T, N, Id> view() const { return {m_data.data(), std::uint32_t(m_count)}; }
    operator AttributeView<T, N, Id>() { return view(); }
    operator AttributeView<const T, N, Id>() const { return view(); }

    std::vector<T> to_host() const
    {
        std::vector<T> out(m_count * N);
        if (!out.empty())
            RXMESH_CHECK_CUDA(cudaMemcpy(out.data(), m_data.data(), out.size() * sizeof(T),
                                         cudaMemcpyDeviceToHost));
        return out;
    }

    //! Sets every live element's values (num_elements() * N of them).
    void from_host(const std::vector<T>& values)
    {
        if (values.size() != m_count * N)
            throw Error("DynamicAttribute " + m_name + ": " + std::to_string(values.size()) +
                        " values for " + std::to_string(m_count) + " elements of " +
                        std::to_string(N));
        if (!values.empty())
            RXMESH_CHECK_CUDA(cudaMemcpy(m_data.data(), values.data(), values.size() * sizeof(T),
                                         cudaMemcpyHostToDevice));
    }

    void reserve(std::size_t elements, std::size_t keep, cudaStream_t stream) override
    {
        if (m_data.size() >= elements * N) return;
        DeviceBuffer<T> bigger(elements * N, stream);
        if (keep > 0)
            RXMESH_CHECK_CUDA(cudaMemcpyAsync(bigger.data(), m_data.data(), keep * N * sizeof(T),
                                              cudaMemcpyDeviceToDevice, stream));
        dynamic_detail::fill_values_kernel<T, N>
            <<<dynamic_detail::attribute_grid(elements - keep), 256, 0, stream>>>(
                bigger.data(), keep, elements, m_fill);
        RXMESH_CHECK_LAUNCH();
        m_data = std::move(bigger);
    }

    void after_split(const AppliedEdges& ap, cudaStream_t stream) override
    {
        if constexpr (std::is_same_v<Id, VertexId>) {
            dynamic_detail::split_vertex_kernel<T, N>
                <<<dynamic_detail::attribute_grid(ap.count), 256, 0, stream>>>(ap, m_data.data(),
                                                                             m_rule, m_fill);
            RXMESH_CHECK_LAUNCH();
        } else if constexpr (std::is_same_v<Id, FaceId>) {
            dynamic_detail::split_face_kernel<T, N>
                <<<dynamic_detail::attribute_grid(ap.count), 256, 0, stream>>>(ap, m_data.data(),
                                                                             m_rule, m_fill);
            RXMESH_CHECK_LAUNCH();
        }
    }

    void after_collapse(const AppliedEdges& ap, cudaStream_t stream) override
    {
        if constexpr (std::is_same_v<Id, VertexId>) {
            dynamic_detail::collapse_vertex_kernel<T, N>
                <<<dynamic_detail::attribute_grid(ap.count), 256, 0, stream>>>(ap, m_data.data(),
                                                                             m_rule, m_fill);
            RXMESH_CHECK_LAUNCH();
        }
    }

    void after_flip(const AppliedEdges& ap, cudaStream_t stream) override
    {
        if constexpr (std::is_same_v<Id, FaceId>) {
            if (m_rule != AttributeRule::Fill) return;
            dynamic_detail::flip_face_kernel<T, N>
                <<<dynamic_detail::attribute_grid(ap.count), 256, 0, stream>>>(ap, m_data.data(),
                                                                             m_fill);
            RXMESH_CHECK_LAUNCH();
        }
    }

    void remap_edges(const EdgeSources& sources, cudaStream_t stream) override
    {
        if constexpr (std::is_same_v<Id, EdgeId>) {
            DeviceBuffer<T> next(std::max<std::size_t>(sources.num_edges, 1) * N, stream);
            dynamic_detail::remap_edge_kernel<T, N>
                <<<dynamic_detail::attribute_grid(sources.num_edges), 256, 0, stream>>>(
                    sources, m_data.data(), next.data(), m_rule, m_fill);
            RXMESH_CHECK_LAUNCH();
            m_data  = std::move(next);
            m_count = sources.num_edges;
        }
    }

    void set_count(std::size_t count) override { m_count = count; }

    std::size_t bytes() const override { return m_data.allocated_bytes(); }

   private:
    std::string          m_name;
    AttributeRule        m_rule;
    AttributeValue<T, N> m_fill;
    DeviceBuffer<T>      m_data;
    std::size_t          m_count = 0;
};

template <typename T, int N>
std::shared_ptr<DynamicAttribute<T, N, VertexId>> DynamicMesh::add_vertex_attribute(
    const std::string& name, AttributeRule rule, AttributeValue<T, N> fill)
{
    auto a = std::make_shared<DynamicAttribute<T, N, VertexId>>(
        name, rule, fill, m_vertex_slots, m_vertex_alive.size(), m_stream);
    attach(a);
    return a;
}

template <typename T, int N>
std::shared_ptr<DynamicAttribute<T, N, FaceId>> DynamicMesh::add_face_attribute(
    const std::string& name, AttributeRule rule, AttributeValue<T, N> fill)
{
    auto a = std::make_shared<DynamicAttribute<T, N, FaceId>>(
        name, rule, fill, m_face_slots, m_faces.size() / 3, m_stream);
    attach(a);
    return a;
}

template <typename T, int N>
std::shared_ptr<DynamicAttribute<T, N, EdgeId>> DynamicMesh::add_edge_attribute(
    const std::string& name, AttributeRule rule, AttributeValue<T, N> fill)
{
    const std::uint32_t edges = num_edges();
    auto a = std::make_shared<DynamicAttribute<T, N, EdgeId>>(name, rule, fill, edges, edges,
                                                              m_stream);
    attach(a);
    return a;
}

}  // namespace rxmesh
