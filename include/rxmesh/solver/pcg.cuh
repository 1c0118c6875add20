// Preconditioned conjugate gradient on an assembled SparseMatrix<T, K>
// (matrix/sparse_matrix.h), for a symmetric positive definite A:
//
//   PcgReport rep = pcg_solve(A, b, x, {.max_iterations = 2000, .tolerance = 1e-6});
//   PatchGaussSeidel<float> patch(mesh, A);                // solver/patch_preconditioner.cuh
//   PcgReport rep = pcg_solve(A, b, x, patch, {2000, 1e-6});
//
// The preconditioner: Jacobi (the inverse of the diagonal entries;
// solver/jacobi_preconditioner.cuh) unless one is given, any type with
// apply(A, r, z, stream) for z = M^-1 r, M symmetric positive definite.
// x holds the initial guess on entry and the solution on return; b and x
// hold N = R * K values per vertex: R right-hand sides side by side, solved
// as one CG on the R copies of A (one set of scalars for all columns, as
// the matrix-free CG of solver/cg.cuh runs MCF's three coordinates). The
// loop is the textbook one (Saad, Iterative Methods for Sparse Linear
// Systems, algorithm 9.1), its scalars read back each iteration
// (attribute/blas.cuh's reductions accumulate float in double). Refused
// with InvalidInputError, before anything is solved: a view of the wrong
// size, a preconditioner that refuses A (Jacobi: a diagonal entry that is
// not positive and finite, which no SPD matrix has), a right-hand side that
// is not finite; with Error, during the solve: p.Ap <= 0 or r.z <= 0 (A or
// the preconditioner is not positive definite) or a residual that stops
// being finite.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/sparse_matrix.h"
#include "rxmesh/solver/jacobi_preconditioner.cuh"

namespace rxmesh {

struct PcgOptions
{
    int    max_iterations = 1000;
    double tolerance      = 1e-6;  // stop when |b - A x| <= tolerance |b|
};

struct PcgReport
{
    int    iterations        = 0;
    //! |b - A x| / |b| at the end, from a fresh b - A x (the recurrence's
    //! drifts below it in rounding), whether converged or stopped by the cap
    double relative_residual = 0;
    bool   converged         = false;
};

namespace detail {

template <typename T>
void require_finite(double value, const char* what)
{
    if (!std::isfinite(value))
        throw InvalidInputError(std::string("pcg_solve: ") + what + " is not finite");
}

}  // namespace detail

//! With a preconditioner M (JacobiPreconditioner, PatchGaussSeidel or the
//! caller's own, built for A).
template <typename T, int K, typename U, int N, typename Preconditioner,
          typename = std::enable_if_t<!std::is_same_v<Preconditioner, PcgOptions>>>
PcgReport pcg_solve(const SparseMatrix<T, K>& A, AttributeView<U, N, VertexId> b,
                    detail::Scalar<VertexView<T, N>> x, const Preconditioner& M,
                    const PcgOptions& options = {}, cudaStream_t stream = 0)
{
    static_assert(detail::is_view_of<T, U>, "b holds the matrix's value type");
    static_assert(N % K == 0, "whole blocks: N = right-hand sides * K");
    using View  = VertexView<T, N>;
    using CView = VertexView<const T, N>;
    detail::require_rows(A, b, "pcg_solve");
    detail::require_rows(A, x, "pcg_solve");
    if (options.max_iterations < 0 || !(options.tolerance > 0))
        throw InvalidInputError("pcg_solve: max_iterations must be >= 0 and tolerance > 0");
    const CView  bc    = b;
    const double bnorm = norm2(bc, stream);
    detail::require_finite<T>(bnorm, "the right-hand side");

    const std::uint32_t n = A.num_rows();
    DeviceBuffer<T>     rb(std::size_t(n) * N, stream), zb(rb.size(), stream),
        pb(rb.size(), stream), qb(rb.size(), stream);
    const View r(rb.data(), n), z(zb.data(), n), p(pb.data(), n), q(qb.data(), n);
    auto precondition = [&] { M.apply(A, CView(r), z, stream); };  // z = M^-1 r

    PcgReport rep;
    // r = b - A x, formed again when the recurrence says it has converged (it
    // drifts below the true one): the loop goes on until that is small too
    auto true_residual = [&] {
        copy(r, bc, stream);
        multiply(A, CView(x), q, T(1), T(0), stream);
        axpy(T(-1), CView(q), r, stream);
        const double norm = norm2(CView(r), stream);
        precondition();
        copy(p, CView(z), stream);
        return norm;
    };
    auto require_positive = [&](double value, const char* what) {
        if (!(value > 0))
            throw Error(std::string("pcg_solve: ") + what + " = " + std::to_string(value) +
                        " at iteration " + std::to_string(rep.iterations) + "; the " +
                        (what[0] == 'p' ? "matrix" : "preconditioner") +
                        " is not positive definite");
    };
    if (bnorm == 0) {  // x = 0 solves it exactly
        fill(x, T(0), stream);
        return {0, 0.0, true};
    }
    double rnorm = true_residual();
    double rz    = dot(CView(r), CView(z), stream);
    while (rep.iterations < options.max_iterations) {
        if (rnorm <= options.tolerance * bnorm) {
            rnorm = true_residual();
            if (rnorm <= options.tolerance * bnorm)
                break;
            rz = dot(CView(r), CView(z), stream);
        }
        require_positive(rz, "r.z");
        multiply(A, CView(p), q, T(1), T(0), stream);
        const double pq = dot(CView(p), CView(q), stream);
        require_positive(pq, "p.Ap");
        const double alpha = rz / pq;
        axpy(T(alpha), CView(p), x, stream);
        axpy(T(-alpha), CView(q), r, stream);
        rnorm = norm2(CView(r), stream);
        if (!std::isfinite(rnorm))
            throw Error("pcg_solve: the residual is not finite at iteration " +
                        std::to_string(rep.iterations));
        ++rep.iterations;
        if (rnorm <= options.tolerance * bnorm)
            continue;  // checked against the true residual first
        precondition();
        const double rz_next = dot(CView(r), CView(z), stream);
        const double beta    = rz_next / rz;
        rz                   = rz_next;
        scale(p, T(beta), stream);
        axpy(T(1), CView(z), p, stream);  // p = z + beta p
    }
    if (rep.iterations == options.max_iterations)  // stopped by the cap: the true residual
        rnorm = true_residual();
    rep.relative_residual = rnorm / bnorm;
    rep.converged         = rnorm <= options.tolerance * bnorm;
    return rep;
}

//! With the Jacobi preconditioner, built for this solve.
template <typename T, int K, typename U, int N>
PcgReport pcg_solve(const SparseMatrix<T, K>& A, AttributeView<U, N, VertexId> b,
                    detail::Scalar<VertexView<T, N>> x, const PcgOptions& options = {},
                    cudaStream_t stream = 0)
{
    detail::require_rows(A, b, "pcg_solve");
    detail::require_rows(A, x, "pcg_solve");
    const JacobiPreconditioner<T, K> jacobi(A, stream);
    return pcg_solve(A, b, x, jacobi, options, stream);
}

}  // namespace rxmesh
