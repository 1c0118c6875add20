// UV parameterization of a disk with a fixed boundary on the GPU: the
// boundary loop on the unit circle by arc length, every interior vertex the
// weighted mean of its neighbours (Tutte 1963 with uniform weights: no face
// flips for the convex circle; the harmonic map with cotangent weights),
// solved by the GPU Cholesky with both coordinates as two right-hand sides.
// Compiled into the library (src/algo/parameterization.cu) on the
// sparse-matrix layer; its oracle is rxmesh/reference/parameterization.h,
// whose disk_boundary also finds the loop (and refuses what is not a disk).
//
//   const auto loop = reference::disk_boundary(soup.positions, soup.faces);   // input ids
//   ... map them to the mesh's ids (RXMesh::input_vertex_to_global) ...
//   rxmesh::ParamReport r = rxmesh::parameterize(mesh, loop_global, uv);  // uv: 2 per vertex
//
// The free-boundary conformal map (LSCM) is the reference's only, for now.
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/rxmesh.h"
#include "rxmesh/solver/cholesky.h"

namespace rxmesh {

enum class ParamWeighting
{
    uniform,    // Tutte's barycentric embedding
    cotangent,  // the harmonic map
};

struct ParamOptions
{
    ParamWeighting  weights = ParamWeighting::uniform;
    CholeskyOptions cholesky;
};

//! What the map took (CUDA events; the analysis: host wall time) and made.
struct ParamReport
{
    std::uint32_t boundary_vertices = 0;
    float         assembly_ms = 0, factor_ms = 0, solve_ms = 0;
    double        analysis_ms = 0;
    //! Faces whose UV triangle does not keep the face's orientation (signed
    //! area <= 0): 0 for uniform weights (Tutte's theorem).
    std::uint32_t flipped_faces = 0;
};

//! UV of every vertex (global order, u then v) with `boundary` (the mesh's
//! one boundary loop in global ids, in the faces' orientation) on the unit
//! circle from (1, 0) counter-clockwise by arc length. Synchronous.
//! \throw InvalidInputError for a loop of fewer than 3 vertices, a vertex
//!        out of range or listed twice, a loop of no length, or a system
//!        that is not positive definite (cotangent weights on degenerate
//!        faces); Error when `uv` does not hold one pair per vertex.
ParamReport parameterize(const RXMesh& mesh, const std::vector<std::uint32_t>& boundary,
                         VertexView<float, 2> uv, const ParamOptions& options = {});

}  // namespace rxmesh
