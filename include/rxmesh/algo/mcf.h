// Smoothing by implicit mean curvature flow (Desbrun et al. 1999; RXMesh
// paper, section 8.1), the entry point: each step solves
//
//   (2 diag(a) + dt L) X = 2 diag(a) X0
//
// with a matrix-free CG (mcf.cuh says how). Compiled into the library
// (src/algo/mcf.cu).
//
//   rxmesh::RXMesh mesh(soup);
//   auto smooth = mesh.add_vertex_attribute<float, 3>("smooth");
//   rxmesh::McfReport rep = rxmesh::mean_curvature_flow(mesh, mesh.positions(), smooth, {});
//
// The time step: McfOptions::dt when > 0, else relative_dt times the mean
// edge length squared, so the same options smooth a mesh the same way at
// any scale (a and dt L both scale as length^2).
#pragma once

#include <cuda_runtime.h>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/rxmesh.h"
#include "rxmesh/solver/cg_report.h"

namespace rxmesh {

struct McfOptions
{
    float     dt          = 0;     // > 0: the time step; 0: relative_dt * mean edge length^2
    float     relative_dt = 10.f;  // used when dt == 0
    bool      uniform     = false; // uniform weights (1) and areas (valence / 2)
    int       steps       = 1;
    CgOptions cg;
};

struct McfReport
{
    float    dt               = 0;
    double   mean_edge_length = 0;
    int      iterations       = 0;  // CG iterations, all steps
    double   final_residual   = 0;  // relative (|r| / |r0|), last step
    bool     converged        = true;
    float    terms_ms = 0, solve_ms = 0;
};

//! options.steps MCF steps from `positions`, the result in `smoothed`
//! (the same view for in place), each step with the weights and areas of
//! its starting positions.
//! \throw InvalidInputError for a dt that is negative or not finite,
//!        relative_dt <= 0 (when used), a time step that comes out 0 or not
//!        finite, steps < 1, a tolerance <= 0 or max_iterations < 0;
//!        Error when a view does not hold one element per vertex.
McfReport mean_curvature_flow(const RXMesh& mesh, VertexView<const float, 3> positions,
                              VertexView<float, 3> smoothed, const McfOptions& options,
                              cudaStream_t stream = 0);

}  // namespace rxmesh
