// vertex_pattern(): the pattern of the operators that couple a vertex with
// its one-ring (the cotangent Laplacian, the mass matrix, a per-vertex
// elastic energy's Hessian): block (u, v) exists for u == v and for every
// edge uv, from the VV query; with it, the faces and each vertex's incident
// faces in ascending face id, the fixed order element assembly sums in
// (matrix/assemble.cuh), so that a matrix's bits do not depend on how the
// query's rows come out.
//
//   std::shared_ptr<const SparsePattern> p = vertex_pattern(mesh);
//   SparseMatrix<double, 3> H(p);   // 3 x 3 blocks on the same pattern
#pragma once

#include <cuda_runtime.h>

#include <memory>

#include "rxmesh/matrix/sparse_pattern.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

//! Built on the device on `stream` (synchronised once, to size the arrays).
//! \throw InvalidInputError when the pattern would not fit 32-bit offsets
//!        (more than 2^31 - 1 blocks) or the mesh has 2^30 faces or more.
std::shared_ptr<const SparsePattern> vertex_pattern(const RXMesh& mesh, cudaStream_t stream = 0);

}  // namespace rxmesh
