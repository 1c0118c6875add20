// Smoothing by implicit mean curvature flow (Desbrun et al. 1999; RXMesh
// paper, section 8.1), the entry point: each step solves
//
//   (2 diag(a) + dt L) X = 2 diag(a) X0
//
// with a matrix-free CG (mcf.cuh says how), or with a sparse Cholesky
// factorization of the same system (McfSolver::cholesky: assembled in
// double, analyzed once, refactored per step). Compiled into the library
// (src/algo/mcf.cu).
//
//   rxmesh::MeanCurvatureFlow flow(mesh, x, options);   // the time step, once
//   for (...) flow.step(x);                             // in place, analysis reused
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
#include <memory>

#include "rxmesh/solver/cg_report.h"
#include "rxmesh/solver/cholesky.h"

namespace rxmesh {

//! How each step's system is solved.
enum class McfSolver
{
    cg,       // matrix-free, float, from the step's start (McfOptions::cg)
    cholesky  // assembled in double, factored (solver/cholesky.h): exact up to rounding
};

struct McfOptions
{
    float           dt          = 0;      // > 0: the time step; 0: relative_dt * mean edge length^2
    float           relative_dt = 10.f;   // used when dt == 0
    bool            uniform     = false;  // uniform weights (1) and areas (valence / 2)
    int             steps       = 1;
    McfSolver       solver      = McfSolver::cg;
    CgOptions       cg;        // McfSolver::cg
    CholeskyOptions cholesky;  // McfSolver::cholesky
};

struct McfReport
{
    float  dt               = 0;
    double mean_edge_length = 0;
    int    iterations       = 0;  // CG iterations, all steps (0 for the Cholesky)
    //! The last step's: the CG's |r| / |r0|; the Cholesky's |b - A x| / |b|
    //! of its double solution (before x is rounded to float).
    double final_residual = 0;
    bool   converged      = true;
    float  terms_ms = 0, solve_ms = 0;  // solve_ms: the CG, or the Cholesky's solves
    //! The Cholesky's: assembly and factor (all steps), the analysis (host,
    //! the first step only: later steps reuse it).
    float assembly_ms = 0, factor_ms = 0, analysis_ms = 0;
};

//! Adds a step's figures to a flow's `total`: counts and times summed, the
//! last step's residual, converged while every step is.
inline void add_step(McfReport& total, const McfReport& step)
{
    total.iterations += step.iterations;
    total.final_residual = step.final_residual;
    total.converged      = total.converged && step.converged;
    total.terms_ms += step.terms_ms;
    total.solve_ms += step.solve_ms;
    total.assembly_ms += step.assembly_ms;
    total.factor_ms += step.factor_ms;
    total.analysis_ms += step.analysis_ms;
}

//! A flow over one mesh: the time step fixed at construction (from the
//! starting positions), one step per step(), the Cholesky's analysis kept
//! between steps (the pattern does not change, only the values).
class MeanCurvatureFlow
{
   public:
    //! \throw InvalidInputError as mean_curvature_flow (steps is not read).
    MeanCurvatureFlow(const RXMesh& mesh, VertexView<const float, 3> positions,
                      const McfOptions& options);
    ~MeanCurvatureFlow();
    MeanCurvatureFlow(MeanCurvatureFlow&&) noexcept;
    MeanCurvatureFlow& operator=(MeanCurvatureFlow&&) noexcept;

    //! One step from the positions in x, overwritten with the smoothed ones.
    //! \throw InvalidInputError (Cholesky) when the step's system is not
    //!        positive definite: a component whose faces have no area.
    McfReport step(VertexView<float, 3> x, cudaStream_t stream = 0);

    float  dt() const;
    double mean_edge_length() const;
    //! The Cholesky's analysis after the first step (nullptr before, or for CG).
    const CholeskyAnalysis* analysis() const;

   private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
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
