// How a DynamicMesh keeps its attributes in step with a pass: vertex and
// face attributes hear which operations ran (attribute_events.h); edge
// attributes are carried over to the rebuilt edge table by vertex pair,
// through the collapse merges, the halves of a split edge taking their
// parent's value.
#include <cub/device/device_radix_sort.cuh>

#include "connectivity_build.h"
#include "pass_workspace.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/search.cuh"
#include "rxmesh/dynamic/dynamic_mesh.h"

namespace rxmesh {

using namespace dynamic_detail;

namespace {

struct OldEdges
{
    const std::uint64_t* sorted_keys;  // after the pass's merges, sorted
    const std::uint32_t* sorted_ids;   // their old ids; null: identity
    const std::uint64_t* keys_by_id;   // before the pass
    std::uint32_t        count, key_bits, vertex_slots;
};

__device__ std::uint64_t low_bits(std::uint32_t bits) { return (std::uint64_t(1) << bits) - 1; }

__global__ void merged_keys_kernel(const std::uint64_t* keys, std::uint32_t n, std::uint32_t bits,
                                   const std::uint32_t* merged_into, std::uint64_t* out,
                                   std::uint32_t* ids)
{
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= n) return;
    std::uint32_t u = std::uint32_t(keys[e] >> bits), v = std::uint32_t(keys[e] & low_bits(bits));
    if (merged_into != nullptr && merged_into[u] != kNoElement) u = merged_into[u];
    if (merged_into != nullptr && merged_into[v] != kNoElement) v = merged_into[v];
    const std::uint32_t a = u < v ? u : v, b = u < v ? v : u;
    out[e] = u == v ? low_bits(2 * bits) : (std::uint64_t(a) << bits) | b;
    ids[e] = e;
}

__global__ void edge_sources_kernel(ConnectivityView c, OldEdges old, const std::uint32_t* winners,
                                    std::uint32_t* source)
{
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= c.num_edges) return;
    const std::uint32_t u = c.edge_first(e), v = c.edge_second(e);  // u < v
    std::uint32_t       s = kNoElement;
    if (v < old.vertex_slots) {
        const std::uint64_t key = (std::uint64_t(u) << old.key_bits) | v;
        const std::uint32_t lo  = detail::lower_bound_in(old.sorted_keys, 0u, old.count, key);
        if (lo < old.count && old.sorted_keys[lo] == key)
            s = old.sorted_ids ? old.sorted_ids[lo] : lo;
    } else if (winners != nullptr && u < old.vertex_slots) {  // v made by a split
        const std::uint32_t parent = winners[v - old.vertex_slots];
        const std::uint64_t pk     = old.keys_by_id[parent];
        if (u == std::uint32_t(pk >> old.key_bits) || u == std::uint32_t(pk & low_bits(old.key_bits)))
            s = parent | EdgeSources::kFromParent;
    }
    source[e] = s;
}

__global__ void identity_sources_kernel(std::uint32_t* source, std::uint32_t n)
{
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e < n) source[e] = e;
}

__global__ void new_edges_kernel(std::uint32_t* source, const std::uint32_t* winners,
                                 std::uint32_t count)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) source[winners[i]] = kNoElement;
}

}  // namespace

//! A flip pass keeps edge ids: each edge keeps its value but the flipped
//! ones, which are new edges.
void DynamicMesh::remap_flipped_edges(std::uint32_t count)
{
    const ConnectivityView& c     = connectivity();
    const std::uint32_t     block = m_options.block_threads;
    ensure_size(m_edge_sources, std::max<std::uint32_t>(c.num_edges, 1), m_stream);
    identity_sources_kernel<<<grid_for(c.num_edges, block), block, 0, m_stream>>>(
        m_edge_sources.data(), c.num_edges);
    RXMESH_CHECK_LAUNCH();
    new_edges_kernel<<<grid_for(count, block), block, 0, m_stream>>>(
        m_edge_sources.data(), m_workspace->winners.data(), count);
    RXMESH_CHECK_LAUNCH();
    const EdgeSources sources{m_edge_sources.data(), c.num_edges};
    for (const auto& a : m_attributes)
        if (a->kind() == ElementKind::Edge) a->remap_edges(sources, m_stream);
}

void DynamicMesh::attach(std::shared_ptr<DynamicAttributeBase> attribute)
{
    m_attributes.push_back(std::move(attribute));
}

void DynamicMesh::remove_attribute(const DynamicAttributeBase& attribute)
{
    for (auto it = m_attributes.begin(); it != m_attributes.end(); ++it)
        if (it->get() == &attribute) {
            m_attributes.erase(it);
            return;
        }
}

void DynamicMesh::notify_attributes(EdgeOpKind kind, const AppliedEdges& applied)
{
    for (const auto& a : m_attributes) {
        if (kind == EdgeOpKind::Split) a->after_split(applied, m_stream);
        if (kind == EdgeOpKind::Collapse) a->after_collapse(applied, m_stream);
        if (kind == EdgeOpKind::Flip) a->after_flip(applied, m_stream);
        if (a->kind() == ElementKind::Vertex) a->set_count(m_vertex_slots);
        if (a->kind() == ElementKind::Face) a->set_count(m_face_slots);
    }
}

bool DynamicMesh::has_edge_attributes() const
{
    for (const auto& a : m_attributes)
        if (a->kind() == ElementKind::Edge) return true;
    return false;
}

//! Rebuilds the edge table now (the next pass needs it anyway) and carries
//! every edge attribute over to it.
void DynamicMesh::remap_edge_attributes(EdgeOpKind kind, std::uint32_t count,
                                        std::uint32_t vertex_base)
{
    if (!has_edge_attributes()) return;
    if (kind == EdgeOpKind::Flip) return remap_flipped_edges(count);
    PassWorkspace& w = *m_workspace;
    if (kind == EdgeOpKind::Collapse)
        carry_edge_values(true, w.merged_into.data(), nullptr, vertex_base);
    else
        carry_edge_values(false, nullptr, count > 0 ? w.winners.data() : nullptr, vertex_base);
}

//! Renumbers the table in vertex-pair order after flips updated it in place,
//! the edge values following their edges.
void DynamicMesh::rebuild_in_pair_order()
{
    if (!has_edge_attributes()) return mark_changed();
    const ConnectivityView& c = connectivity();
    PassWorkspace&          w = *m_workspace;
    ensure_size(w.edge_keys, std::max<std::uint32_t>(c.num_edges, 1), m_stream);
    if (c.num_edges > 0)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(w.edge_keys.data(), c.edge_keys, 8ull * c.num_edges,
                                          cudaMemcpyDeviceToDevice, m_stream));
    w.num_edges = c.num_edges;
    w.key_bits  = c.key_bits;
    mark_changed();
    carry_edge_values(true, nullptr, nullptr, m_vertex_slots);
}

//! Old edges are the workspace's copy of the last table (sorted there unless
//! `sort_old`); merged_into: the collapse merges; split_winners: the split
//! edges, vertex_base + i made by split_winners[i].
void DynamicMesh::carry_edge_values(bool sort_old, const std::uint32_t* merged_into,
                                    const std::uint32_t* split_winners, std::uint32_t vertex_base)
{
    PassWorkspace&              w = *m_workspace;
    const std::uint32_t         block = m_options.block_threads, n = w.num_edges;
    OldEdges                    old{w.edge_keys.data(), nullptr, w.edge_keys.data(), n,
                 w.key_bits, vertex_base};
    DeviceBuffer<std::uint64_t> keys[2];
    DeviceBuffer<std::uint32_t> ids[2];
    if (sort_old && n > 0) {
        for (int i = 0; i < 2; ++i) {
            keys[i] = DeviceBuffer<std::uint64_t>(n, m_stream);
            ids[i]  = DeviceBuffer<std::uint32_t>(n, m_stream);
        }
        merged_keys_kernel<<<grid_for(n, block), block, 0, m_stream>>>(
            w.edge_keys.data(), n, w.key_bits, merged_into, keys[0].data(), ids[0].data());
        RXMESH_CHECK_LAUNCH();
        cub::DoubleBuffer<std::uint64_t> k(keys[0].data(), keys[1].data());
        cub::DoubleBuffer<std::uint32_t> v(ids[0].data(), ids[1].data());
        detail::cub_call(m_stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceRadixSort::SortPairs(tmp, bytes, k, v, n, 0, int(2 * w.key_bits),
                                                   m_stream);
        });
        old.sorted_keys = k.Current();
        old.sorted_ids  = v.Current();
    }
    const ConnectivityView& c = connectivity();
    ensure_size(m_edge_sources, std::max<std::uint32_t>(c.num_edges, 1), m_stream);
    edge_sources_kernel<<<grid_for(c.num_edges, block), block, 0, m_stream>>>(
        c, old, split_winners, m_edge_sources.data());
    RXMESH_CHECK_LAUNCH();
    const EdgeSources sources{m_edge_sources.data(), c.num_edges};
    for (const auto& a : m_attributes)
        if (a->kind() == ElementKind::Edge) a->remap_edges(sources, m_stream);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(m_stream));  // before keys/ids go
}

}  // namespace rxmesh
