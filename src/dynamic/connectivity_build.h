// Owner of a DynamicMesh's edge table: rebuilt from the faces at the start of
// each pass that follows a change (radix sort of the face corners' edge keys,
// run-length encoding into edges, then per-edge and per-vertex flags).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/dynamic/connectivity.h"

namespace rxmesh::dynamic_detail {

//! The arrays a flip pass rewrites in place (see flip_kernel).
struct ConnectivityArrays
{
    std::uint64_t* edge_keys;
    std::uint32_t* halfedges;
    std::uint32_t* face_edges;
    std::uint32_t* vertex_face;
    std::uint32_t* vertex_degree;
};

class Connectivity
{
   public:
    ConnectivityArrays arrays()
    {
        return {m_edge_keys.data(), m_halfedges.data(), m_face_edges.data(),
                m_vertex_face.data(), m_vertex_degree.data()};
    }
    //! Rebuilds every array from the faces of `slots` face slots.
    void build(const std::uint32_t* faces, std::uint32_t vertex_slots,
               std::uint32_t face_slots, std::uint32_t block_threads, cudaStream_t stream);

    //! The table (mesh pointers left for the caller to fill).
    const ConnectivityView& view() const { return m_view; }
    std::size_t             bytes() const;

    //! The most this table held at once, its build's sort buffers included.
    std::size_t peak_bytes() const { return m_peak_bytes; }

   private:
    struct SortBuffers
    {
        DeviceBuffer<std::uint64_t> keys[2];
        DeviceBuffer<std::uint32_t> halfedges[2];
    };
    int  sort_halfedges(const std::uint32_t* faces, std::uint32_t face_slots,
                        std::uint32_t block_threads, SortBuffers& b, cudaStream_t stream);
    void encode_edges(std::uint32_t face_slots, SortBuffers& b, int s, cudaStream_t stream);
    void flag_vertices(std::uint32_t vertex_slots, std::uint32_t face_slots,
                       std::uint32_t block_threads, cudaStream_t stream);

    DeviceBuffer<std::uint32_t> m_halfedges;  // sorted by edge
    DeviceBuffer<std::uint64_t> m_edge_keys;
    DeviceBuffer<std::uint32_t> m_edge_offsets;
    DeviceBuffer<std::uint32_t> m_face_edges, m_vertex_face, m_vertex_degree;
    DeviceBuffer<std::uint8_t>  m_edge_flags, m_vertex_flags;
    ConnectivityView            m_view;
    std::size_t                 m_peak_bytes = 0;
};

//! Bits that hold every vertex slot id with one value to spare (the key of
//! a dead face corner is all ones).
std::uint32_t key_bits_for(std::uint32_t vertex_slots);

//! Grows `buffer` to at least `count` elements (contents discarded).
template <typename T>
void ensure_size(DeviceBuffer<T>& buffer, std::size_t count, cudaStream_t stream)
{
    if (buffer.size() < count) buffer = DeviceBuffer<T>(count, stream);
}

inline unsigned grid_for(std::uint64_t n, std::uint32_t block)
{
    return unsigned(n == 0 ? 1 : (n + block - 1) / block);
}

}  // namespace rxmesh::dynamic_detail
