// Vertex normals with Max's weights (N. Max, "Weights for computing vertex
// normals from facet normals", JGT 1999), the entry points: the launch
// chosen by the mesh's size, and the paper's atomic version. Compiled into
// the library (src/algo/vertex_normals.cu); the launch-tuned template and
// its pieces are in vertex_normals.cuh.
//
//   vertex_normals(mesh, mesh.positions(), normals);   // unit normals
//
// Positions and normals: 3 floats per vertex, in global (patch) order.
#pragma once

#include <cuda_runtime.h>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

//! Unit normals of every vertex (zero for a vertex of no face), a per-patch
//! sum with no atomics, in blocks whose width the mesh's size picks
//! (vertex_normals.cuh says how).
//! \pre positions and normals hold mesh.num_vertices() elements.
void vertex_normals(const RXMesh& mesh, VertexView<const float, 3> positions,
                    VertexView<float, 3> normals, cudaStream_t stream = 0);

//! The paper's version (Listing 1): FV per owned face, global atomics into
//! the vertices; normals must be zero on entry and are left unnormalised.
void vertex_normals_atomic(const RXMesh& mesh, VertexView<const float, 3> positions,
                           VertexView<float, 3> normals, cudaStream_t stream = 0);

}  // namespace rxmesh
