// (private to the facade) Boundary flags (RXMesh paper, section 2): an edge with exactly one incident
// face is a boundary edge; a vertex or face incident to a boundary edge is a
// boundary vertex or face. Edges of three or more faces are non-manifold, not
// boundary. RXMesh computes the flags once at construction; users read them
// with RXMesh::boundary_vertices() / boundary_edges() / boundary_faces().
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/attribute/attribute.h"
#include "rxmesh/core/ids.h"

namespace rxmesh {

class RXMesh;

namespace detail {

//! Writes the three flags (device data; 1 = boundary) with an EF and an EV
//! pass of the query engine, on the attributes' stream. Synchronous. Every
//! flag is written, whatever the attributes held.
void compute_boundary_flags(const RXMesh&                 mesh,
                            VertexAttribute<std::uint8_t> vertex,
                            EdgeAttribute<std::uint8_t>   edge,
                            FaceAttribute<std::uint8_t>   face,
                            cudaStream_t                  stream);

}  // namespace detail
}  // namespace rxmesh
