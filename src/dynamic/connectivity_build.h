// Owner of a DynamicMesh's edge table: rebuilt from the faces at the start of
// each pass that follows a change (radix sort of the face corners' edge keys,
// run-length encoding into edges, then per-edge and per-vertex flags).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/dynamic/connectivity.h"

namespace rxmesh::dynamic_detail {

class Connectivity
{
   public:
    //! Rebuilds every array from the faces of `slots` face slots.
    void build(const std::uint32_t* faces, std::uint32_t vertex_slots,
               std::uint32_t face_slots, std::uint32_t block_threads, cudaStream_t stream);

    //! The table (mesh pointers left for the caller to fill).
    const ConnectivityView& view() const { return m_view; }
    std::size_t             bytes() const;

   private:
    void sort_halfedges(const std::uint32_t* faces, std::uint32_t face_slots,
                        std::uint32_t block_threads, cudaStream_t stream);
    void encode_edges(std::uint32_t face_slots, cudaStream_t stream);
    void flag_vertices(std::uint32_t vertex_slots, std::uint32_t face_slots,
                       std::uint32_t block_threads, cudaStream_t stream);

    DeviceBuffer<std::uint64_t> m_keys[2];
    DeviceBuffer<std::uint32_t> m_halfedges[2];
    int                         m_sorted = 0;  // which of the pair holds the sorted ones
    DeviceBuffer<std::uint64_t> m_edge_keys;
    DeviceBuffer<std::uint32_t> m_edge_counts, m_edge_offsets, m_num_runs;
    DeviceBuffer<std::uint32_t> m_face_edges, m_vertex_face, m_vertex_degree;
    DeviceBuffer<std::uint8_t>  m_edge_flags, m_vertex_flags;
    ConnectivityView            m_view;
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
