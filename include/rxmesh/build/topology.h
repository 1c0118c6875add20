// Global topology of an indexed triangle mesh, built on the GPU with sort,
// scan and select (the one-ring paper's sort/scan/reduce method), all in
// device memory.
//
// The arrays have exactly the canonical form of reference::Topology (see
// rxmesh/reference/topology.h), so GPU and CPU results compare element by
// element:
// - ev: unique undirected edges (a < b), sorted lexicographically;
// - fe: 3 per face, (edge_id << 1) | flip, edges (v0,v1), (v1,v2), (v2,v0);
// - CSR rows (ef, ff, vv, ve, vf) sorted ascending without repeats;
//   non-manifold edges keep all their faces.
//
// \pre faces reference vertices < num_vertices and repeat no vertex
//      (reindex() guarantees both); checked, InvalidInputError otherwise;
//      at most kMaxTopologyFaces faces, and face adjacency within 32-bit
//      offsets (refused up front, before any allocation, otherwise).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/mesh_stats.h"

namespace rxmesh {

struct DeviceCsr
{
    DeviceBuffer<std::uint32_t> offsets;  // rows + 1
    DeviceBuffer<std::uint32_t> indices;
};

struct DeviceTopology
{
    std::uint32_t num_vertices = 0;
    std::uint32_t num_edges    = 0;
    std::uint32_t num_faces    = 0;
    DeviceBuffer<std::uint32_t> ev;  // 2 per edge
    DeviceBuffer<std::uint32_t> fe;  // 3 per face, (edge << 1) | flip
    DeviceCsr ef, ff, vv, ve, vf;
};

//! Which parts to build: edges (ev, fe, ef) are always built.
struct TopologyParts
{
    bool face_adjacency = true;  // ff
    bool vertex_edges   = true;  // vv, ve
    bool vertex_faces   = true;  // vf
};

//! Most faces build_topology accepts: edge ids carry a flip bit (E <= 3F <
//! 2^31) and the rows of VV/VE (2E <= 6F entries) have 32-bit offsets.
constexpr std::uint64_t kMaxTopologyFaces = ((std::uint64_t(1) << 31) - 1) / 3;

//! \throw InvalidInputError naming the limit when `num_faces` exceeds it.
void require_topology_size(std::uint64_t num_faces);

//! \throw InvalidInputError when FF would hold `face_pairs` ordered pairs
//!        of faces sharing an edge, beyond its 32-bit offsets (edges of
//!        tens of thousands of faces each).
void require_face_pairs(std::uint64_t face_pairs);

//! Builds the topology of `num_faces` triangles (3 indices each, device
//! memory) over vertex ids [0, num_vertices).
DeviceTopology build_topology(const std::uint32_t* d_faces,
                              std::uint32_t        num_faces,
                              std::uint32_t        num_vertices,
                              TopologyParts        parts  = {},
                              cudaStream_t         stream = 0);

//! Mesh statistics (same definitions as reference::compute_stats), computed
//! on the GPU from a topology built with every part.
MeshStats compute_stats(const DeviceTopology& topo,
                              const std::uint32_t*  d_faces,
                              cudaStream_t          stream = 0);

}  // namespace rxmesh
