// The connectivity of a DynamicMesh as one pass sees it: the faces (with dead
// slots), and the edge table derived from them at the start of the pass
// (src/dynamic/connectivity.cu). Edges are numbered in the order of their
// (smaller, larger) vertex pairs, so edge ids depend only on the faces, never
// on launch order or block size. A plain struct of device pointers: kernels
// take it by value.
#pragma once

#include <cstdint>

#include "rxmesh/core/macros.h"
#include "rxmesh/core/vec3.h"

namespace rxmesh {

//! A missing vertex, face or edge in the dynamic engine's arrays.
inline constexpr std::uint32_t kNoElement = ~0u;

//! faces[3 f] of a deleted face slot (the other two entries too).
inline constexpr std::uint32_t kDeadFace = ~0u;

enum EdgeFlag : std::uint8_t {
    kEdgeManifold = 1,  // one face, or two faces walking it in opposite directions
};

enum VertexFlag : std::uint8_t {
    kVertexManifold = 1,  // its faces form one fan over manifold edges (or it has none)
    kVertexBoundary = 2,  // that fan is open
};

struct ConnectivityView
{
    const float*         positions    = nullptr;  // 3 per vertex slot
    const std::uint32_t* faces        = nullptr;  // 3 per face slot
    const std::uint8_t*  vertex_alive = nullptr;  // 1 per vertex slot

    std::uint32_t num_vertex_slots = 0;
    std::uint32_t num_face_slots   = 0;
    std::uint32_t num_edges        = 0;
    std::uint32_t key_bits         = 0;  // an edge key is (a << key_bits) | b, a < b

    const std::uint64_t* edge_keys     = nullptr;  // sorted
    const std::uint32_t* edge_offsets  = nullptr;  // num_edges + 1, into halfedges
    const std::uint32_t* halfedges     = nullptr;  // 3 f + k, grouped by edge, increasing
    const std::uint32_t* face_edges    = nullptr;  // 3 per face slot: edge of (v_k, v_k+1)
    const std::uint8_t*  edge_flags    = nullptr;  // EdgeFlag bits
    const std::uint8_t*  vertex_flags  = nullptr;  // VertexFlag bits
    const std::uint32_t* vertex_face   = nullptr;  // the lowest face of v, kNoElement if none
    const std::uint32_t* vertex_degree = nullptr;  // faces at v

    RXMESH_HD std::uint64_t edge_key(std::uint32_t u, std::uint32_t v) const
    {
        const std::uint32_t a = u < v ? u : v, b = u < v ? v : u;
        return (std::uint64_t(a) << key_bits) | b;
    }
    RXMESH_HD std::uint32_t edge_first(std::uint32_t e) const
    {
        return std::uint32_t(edge_keys[e] >> key_bits);
    }
    RXMESH_HD std::uint32_t edge_second(std::uint32_t e) const
    {
        return std::uint32_t(edge_keys[e] & ((std::uint64_t(1) << key_bits) - 1));
    }
    RXMESH_HD std::uint32_t edge_face_count(std::uint32_t e) const
    {
        return edge_offsets[e + 1] - edge_offsets[e];
    }
    //! The i-th face of edge e, in increasing face order.
    RXMESH_HD std::uint32_t edge_face(std::uint32_t e, std::uint32_t i) const
    {
        return halfedges[edge_offsets[e] + i] / 3;
    }
    RXMESH_HD bool edge_manifold(std::uint32_t e) const
    {
        return (edge_flags[e] & kEdgeManifold) != 0;
    }
    RXMESH_HD bool vertex_manifold(std::uint32_t v) const
    {
        return (vertex_flags[v] & kVertexManifold) != 0;
    }
    RXMESH_HD bool vertex_boundary(std::uint32_t v) const
    {
        return (vertex_flags[v] & kVertexBoundary) != 0;
    }
    RXMESH_HD bool face_alive(std::uint32_t f) const { return faces[3 * f] != kDeadFace; }
    RXMESH_HD std::uint32_t face_vertex(std::uint32_t f, int k) const { return faces[3 * f + k]; }
    RXMESH_HD Vec3 position(std::uint32_t v) const { return load3(positions, v); }
};

}  // namespace rxmesh
