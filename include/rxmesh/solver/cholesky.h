// A sparse Cholesky factorization A = L L^T on the GPU, supernodal, for a
// symmetric positive definite matrix over a mesh (the Laplacian plus a
// mass matrix, a stiffness matrix). Host code; the kernels are compiled in
// the rxmesh::matrix component.
//
//   CholeskySolver chol(A, mesh);   // analyze: ordering, supernodes (host)
//   chol.factor(A);                 // numeric, per new values (device)
//   chol.solve(b, x);               // as many times as needed, R columns
//
// The steps: the analysis orders the matrix by geometric nested dissection
// (solver/ordering.h) and finds the supernodes (solver/supernodes.h); each
// supernode is a dense panel (its rows x its columns, column-major) in one
// device array. The factorization walks the supernodal tree a level at a
// time (leaves first): each panel of a level factors its diagonal block in
// shared memory and solves its rows below against it, then every pair of its
// rows below updates the ancestors' panels (a tiled product, subtracted with
// atomics: two panels of a level can update one entry, so the factor's last
// bits depend on their order, not its accuracy). The triangular solves walk
// the same levels, up for L and down for L^T, a launch per level; a level of
// few panels (the top of the tree) gives each panel's rows below to several
// blocks (CholeskySolvePolicy), so the chain of tall separator panels there
// is read by many blocks, not one.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/matrix/sparse_matrix.h"
#include "rxmesh/solver/ordering.h"
#include "rxmesh/solver/supernodes.h"

namespace rxmesh {

class RXMesh;

//! How the triangular solves take the levels of the supernodal tree: a
//! launch per level, a block per panel; a level whose panels are few (the
//! top of the tree: one or two tall separator panels) splits each panel's
//! rows below into chunks, a block each.
struct CholeskySolvePolicy
{
    //! A level is split into chunks of its rows below so that it gives
    //! about this many blocks (not split where its panels are as many).
    std::uint32_t target_blocks = 512;
    //! The fewest rows below a chunk takes: each chunk's block reads the
    //! panel's diagonal block as well.
    std::uint32_t min_chunk_rows = 64;
};

struct CholeskyOptions
{
    NestedDissectionOptions ordering;
    //! Panels of at most 64 columns: a panel's diagonal block is factored
    //! in shared memory (64 x 64 doubles: 32 KB).
    SupernodeOptions supernodes{64, 0.05};
    //! A pivot at most this x the largest diagonal entry of A (or not
    //! finite) refuses the matrix as not positive definite.
    double pivot_tolerance = 1e-14;
    //! |A(i, j) - A(j, i)| above this x max(|A(i, j)|, |A(j, i)|) refuses
    //! the matrix as not symmetric.
    double symmetry_tolerance = 1e-10;
    CholeskySolvePolicy solve;
};

//! What the analysis found.
struct CholeskyAnalysis
{
    std::uint32_t rows = 0, supernodes = 0, levels = 0;
    std::uint64_t solve_tasks = 0;  // blocks of one triangular solve's levels, all together
    std::uint64_t matrix_entries  = 0;  // A's stored entries, both triangles
    std::uint64_t factor_nonzeros = 0;  // L's, the panels' explicit zeros included
    std::uint64_t panel_values    = 0;  // doubles the panels hold
    double        flops           = 0;  // multiply-adds of the numeric factorization
    double        ordering_ms = 0, symbolic_ms = 0, plan_ms = 0;  // host wall times
    std::size_t   device_bytes = 0;  // the plan and the panels on the device
};

class CholeskySolver
{
   public:
    //! Analyzes A's pattern (scalar rows: K = 1) with the mesh's positions
    //! (the global numbering A's rows are in) for the ordering.
    //! \throw InvalidInputError when the pattern is not square and
    //!        structurally symmetric, or the positions are not one per row.
    CholeskySolver(const SparseMatrix<double>& A, const RXMesh& mesh,
                   const CholeskyOptions& options = {});
    //! Analyzes a host pattern (its values are not read) with one position
    //! per row.
    CholeskySolver(const HostCsr& pattern, const std::vector<Vec3f>& positions,
                   const CholeskyOptions& options = {});
    ~CholeskySolver();
    CholeskySolver(CholeskySolver&&) noexcept;
    //! A second solver of the analyzed pattern, not factored, sharing this
    //! one's analysis (the ordering and the plan's device arrays, held by
    //! both until the last goes) with panels of its own: two matrices of one
    //! pattern (a heat and a Poisson system) factored side by side, for one
    //! analysis.
    CholeskySolver  with_same_analysis() const;
    CholeskySolver& operator=(CholeskySolver&&) noexcept;

    //! The numeric factorization of A, whose pattern is the analyzed one
    //! (the same SparsePattern, or a HostCsr of the analyzed pattern with
    //! entries in the same order). Synchronous.
    //! \throw InvalidInputError when A is not symmetric, has a non-finite
    //!        entry or is not positive definite (naming the row).
    void factor(const SparseMatrix<double>& A);
    void factor(const HostCsr& A);

    //! x = A^-1 b for R right-hand sides, both device arrays of rows x R
    //! doubles, row-major (row i's R values together: a vertex view with R
    //! values per vertex); x may be b. Synchronous.
    //! \throw Error before factor().
    void solve(const double* b, double* x, std::uint32_t columns = 1) const;
    //! The same with host arrays (uploaded, solved, downloaded).
    std::vector<double> solve(const std::vector<double>& b, std::uint32_t columns = 1) const;

    const CholeskyAnalysis& analysis() const;
    bool                    factored() const;

   private:
    CholeskySolver();
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace rxmesh
