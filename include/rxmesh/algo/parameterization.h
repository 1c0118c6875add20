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
// The free-boundary conformal map, conformal_map: the least-squares conformal
// map (Levy et al. 2002; Mullen et al. 2008's E_D - A), its energy assembled
// on the device per face, two boundary vertices pinned, the 2n x 2n system
// factored by the GPU Cholesky (its pattern and pins applied on the host).
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
    //! conformal_map's two pinned vertices (global ids), at (0, 0) and (1, 0).
    std::uint32_t pins[2] = {0, 0};
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

//! The least-squares conformal map of the disk whose boundary loop is
//! `boundary` (global ids, in the faces' orientation): UV of every vertex
//! (global order) minimizing E_D - A (the Dirichlet energy less the UV
//! area), with the boundary vertex farthest from boundary[0] at (0, 0) and
//! the boundary vertex farthest from that one at (1, 0) (the first of equal
//! ones in the loop's order, as reference::lscm picks them). Synchronous.
//! \throw InvalidInputError as parameterize, for two pins at one point, or
//!        a system that is not positive definite; Error when `uv` does not
//!        hold one pair per vertex.
ParamReport conformal_map(const RXMesh& mesh, const std::vector<std::uint32_t>& boundary,
                          VertexView<float, 2> uv, const CholeskyOptions& options = {});

}  // namespace rxmesh
