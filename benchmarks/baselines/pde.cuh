// PdeMesh: Parallel Directed Edges, the GPU halfedge baseline of the RXMesh
// paper (section 7, item 1), implemented as the paper describes it:
// - index based, SoA: per halfedge its target vertex, face and next halfedge
//   in three buffers; per vertex one outgoing halfedge, per face one
//   halfedge;
// - the two halfedges of edge e are 2e and 2e + 1 (twin = h ^ 1, implicit);
//   halfedge 2e belongs to a face, 2e + 1 is the boundary halfedge (face =
//   kInvalid) when e is a boundary edge;
// - one thread per source element; fixed-size outputs (EV, FV, FE) are held
//   in registers and stored once.
// Memory: 12 bytes per halfedge + 4 per vertex + 4 per face (~42 bytes/face).
//
// Edge ids: edges are numbered in order of first appearance when walking the
// faces in input order, corners (v0,v1), (v1,v2), (v2,v0); they differ from
// the canonical (sorted) ids; edge_vertices() maps them to vertex pairs.
//
// Boundary: boundary halfedges get a face of kInvalid and a next pointer
// along the boundary loop, as in any halfedge mesh. A boundary vertex stores
// as its outgoing halfedge the one on the boundary, and the one-ring
// circulation h -> next[twin(h)] (clockwise) goes from there across the whole
// fan and through the boundary halfedge back to the start, so every one-ring
// is complete. A vertex on several boundary fans (e.g. bowtie(): edge-manifold
// but not vertex-manifold) is handled the same way: the incoming boundary
// halfedge of each fan continues (next) to the outgoing boundary halfedge of
// the following fan, so one circulation visits every fan.
//
// Input limits (InvalidInputError): faces must be edge-manifold (at most two
// faces per edge) and consistently oriented (the two faces of an edge walk it
// in opposite directions); the message names the offending edge. A vertex
// that has a closed (boundary-free) fan and another fan cannot be circulated
// by PDE and is rejected too, naming the vertex.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "query_workload.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/query/op.h"

namespace rxmesh::baselines {

//! The PDE arrays on the host (what PdeMesh uploads).
struct PdeHost
{
    std::uint32_t              num_vertices = 0, num_edges = 0, num_faces = 0;
    std::vector<std::uint32_t> target;     // per halfedge (2 * num_edges)
    std::vector<std::uint32_t> face;       // per halfedge, kInvalid on the boundary
    std::vector<std::uint32_t> next;       // per halfedge
    std::vector<std::uint32_t> vertex_he;  // per vertex, kInvalid when isolated
    std::vector<std::uint32_t> face_he;    // per face: halfedge v0 -> v1
};

//! Builds the halfedges on the host, O(F log F); no GPU needed.
//! \throw InvalidInputError as described above.
PdeHost build_pde_host(const std::vector<rxmesh::Triangle>& faces, std::uint32_t num_vertices);

class PdeMesh
{
   public:
    static constexpr std::uint32_t kInvalid = ~0u;

    //! Builds the halfedges on the host (O(F log F)) and uploads them.
    //! \pre every index < num_vertices; no face repeats a vertex (checked)
    //! \throw InvalidInputError as described above.
    PdeMesh(const std::vector<rxmesh::Triangle>& faces, std::uint32_t num_vertices)
        : PdeMesh(build_pde_host(faces, num_vertices))
    {
    }
    //! Uploads arrays built by build_pde_host.
    explicit PdeMesh(const PdeHost& host);

    std::uint32_t num_vertices() const { return m_num_vertices; }
    std::uint32_t num_edges() const { return m_num_edges; }
    std::uint32_t num_faces() const { return m_num_faces; }
    std::uint32_t num_halfedges() const { return 2 * m_num_edges; }
    std::uint32_t num_sources(rxmesh::Op op) const
    {
        return baselines::num_sources(op, m_num_vertices, m_num_edges, m_num_faces);
    }

    //! Allocates the output of `op` and fills its offsets (counts + scan for
    //! the variable-size ops). Synchronous; not part of the timing.
    QueryOutput allocate(rxmesh::Op op) const;

    //! Launches the query kernel of `op` writing into `out` (from
    //! allocate(op)) in blocks of `block_threads` (a multiple of 32, at most
    //! 1024); launches only, no synchronization. Fixed-size ops (EV, FV, FE)
    //! write at k * s without reading out.offsets.
    void run(rxmesh::Op op, QueryOutput& out, cudaStream_t stream = 0,
             int block_threads = kDefaultBlockThreads) const;

    static constexpr int kDefaultBlockThreads = 256;

    //! Device memory of the data structure (not the outputs).
    std::size_t bytes() const
    {
        return m_target.bytes() + m_face.bytes() + m_next.bytes() + m_vertex_he.bytes() +
               m_face_he.bytes();
    }

    //! PDE edge id -> its two vertices, smaller first (downloads m_target).
    EdgeVertices edge_vertices() const;

    // Device arrays, for custom kernels.
    const std::uint32_t* d_target() const { return m_target.data(); }   // per halfedge
    const std::uint32_t* d_face() const { return m_face.data(); }       // per halfedge
    const std::uint32_t* d_next() const { return m_next.data(); }       // per halfedge
    const std::uint32_t* d_vertex_he() const { return m_vertex_he.data(); }  // per vertex
    const std::uint32_t* d_face_he() const { return m_face_he.data(); }      // per face

   private:
    std::uint32_t m_num_vertices = 0;
    std::uint32_t m_num_edges    = 0;
    std::uint32_t m_num_faces    = 0;

    rxmesh::DeviceBuffer<std::uint32_t> m_target;     // halfedge -> target vertex
    rxmesh::DeviceBuffer<std::uint32_t> m_face;       // halfedge -> face or kInvalid
    rxmesh::DeviceBuffer<std::uint32_t> m_next;       // halfedge -> next halfedge
    rxmesh::DeviceBuffer<std::uint32_t> m_vertex_he;  // vertex -> outgoing halfedge
                                                      //   (kInvalid: isolated)
    rxmesh::DeviceBuffer<std::uint32_t> m_face_he;    // face (v0,v1,v2) -> halfedge v0->v1
};

}  // namespace rxmesh::baselines
