// Preconditioned conjugate gradient on an assembled SparseMatrix<T, K>
// (matrix/sparse_matrix.h) with the Jacobi preconditioner (the inverse of
// the diagonal entries), for a symmetric positive definite A:
//
//   PcgReport rep = pcg_solve(A, b, x, {.max_iterations = 2000, .tolerance = 1e-6});
//
// x holds the initial guess on entry and the solution on return; b and x
// hold K values per vertex (one right-hand side). The loop is the textbook
// one (Saad, Iterative Methods for Sparse Linear Systems, algorithm 9.1),
// its scalars read back each iteration (attribute/blas.cuh's reductions
// accumulate float in double). Refused with InvalidInputError, before
// anything is solved: a view of the wrong size, a diagonal entry that is not
// positive and finite (no SPD matrix has one), a right-hand side that is not
// finite; with Error, during the solve: p.Ap <= 0 (A is not positive
// definite) or a residual that stops being finite.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/sparse_matrix.h"

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

//! The inverse of A's diagonal, K values per vertex; refuses a diagonal
//! entry that is not positive and finite.
template <typename T, int K>
DeviceBuffer<T> jacobi_inverse(const SparseMatrix<T, K>& A, cudaStream_t stream)
{
    DeviceBuffer<T>  inv(A.num_scalar_rows(), stream);
    VertexView<T, K> d(inv.data(), A.num_rows());
    diagonal(A, d, stream);
    DeviceBuffer<int> bad(1, stream);
    bad.memset(0);
    int* flag = bad.data();
    T*   v    = inv.data();
    for_indices(
        A.num_scalar_rows(),
        [=] __device__(std::uint64_t i) {
            if (!(v[i] > T(0)) || !isfinite(v[i]))
                atomicExch(flag, 1);  // an integer flag: any order gives the same result
            v[i] = T(1) / v[i];
        },
        stream);
    if (bad.to_host()[0] != 0)
        throw InvalidInputError(
            "pcg_solve: a diagonal entry is not positive and finite; the matrix is not "
            "symmetric positive definite");
    return inv;
}

template <typename T>
void require_finite(double value, const char* what)
{
    if (!std::isfinite(value))
        throw InvalidInputError(std::string("pcg_solve: ") + what + " is not finite");
}

}  // namespace detail

template <typename T, int K, typename U>
PcgReport pcg_solve(const SparseMatrix<T, K>& A, AttributeView<U, K, VertexId> b,
                    detail::Scalar<VertexView<T, K>> x, const PcgOptions& options = {},
                    cudaStream_t stream = 0)
{
    static_assert(detail::is_view_of<T, U>, "b holds the matrix's value type");
    detail::require_rows(A, b, "pcg_solve");
    detail::require_rows(A, x, "pcg_solve");
    if (options.max_iterations < 0 || !(options.tolerance > 0))
        throw InvalidInputError("pcg_solve: max_iterations must be >= 0 and tolerance > 0");
    const VertexView<const T, K> bc = b;
    const double                 bnorm = norm2(bc, stream);
    detail::require_finite<T>(bnorm, "the right-hand side");
    const DeviceBuffer<T> inv = detail::jacobi_inverse(A, stream);

    const std::uint32_t n = A.num_rows();
    DeviceBuffer<T>     rb(A.num_scalar_rows(), stream), zb(rb.size(), stream),
        pb(rb.size(), stream), qb(rb.size(), stream);
    VertexView<T, K> r(rb.data(), n), z(zb.data(), n), p(pb.data(), n), q(qb.data(), n);
    const VertexView<const T, K> minv(inv.data(), n);
    auto precondition = [&] {  // z = M^-1 r
        T*       zz = z.data();
        const T *rr = r.data(), *mi = inv.data();
        detail::for_indices(
            A.num_scalar_rows(), [=] __device__(std::uint64_t i) { zz[i] = mi[i] * rr[i]; },
            stream);
    };

    PcgReport rep;
    // r = b - A x, formed again when the recurrence says it has converged (it
    // drifts below the true one): the loop goes on until that is small too
    auto true_residual = [&] {
        copy(r, bc, stream);
        multiply(A, VertexView<const T, K>(x), q, T(1), T(0), stream);
        axpy(T(-1), VertexView<const T, K>(q), r, stream);
        const double norm = norm2(VertexView<const T, K>(r), stream);
        precondition();
        copy(p, VertexView<const T, K>(z), stream);
        return norm;
    };
    if (bnorm == 0) {  // x = 0 solves it exactly
        fill(x, T(0), stream);
        return {0, 0.0, true};
    }
    double rnorm = true_residual();
    double rz    = dot(VertexView<const T, K>(r), VertexView<const T, K>(z), stream);
    while (rep.iterations < options.max_iterations) {
        if (rnorm <= options.tolerance * bnorm) {
            rnorm = true_residual();
            if (rnorm <= options.tolerance * bnorm)
                break;
            rz = dot(VertexView<const T, K>(r), VertexView<const T, K>(z), stream);
        }
        multiply(A, VertexView<const T, K>(p), q, T(1), T(0), stream);
        const double pq = dot(VertexView<const T, K>(p), VertexView<const T, K>(q), stream);
        if (!(pq > 0))
            throw Error("pcg_solve: p.Ap = " + std::to_string(pq) +
                        " at iteration " + std::to_string(rep.iterations) +
                        "; the matrix is not positive definite");
        const double alpha = rz / pq;
        axpy(T(alpha), VertexView<const T, K>(p), x, stream);
        axpy(T(-alpha), VertexView<const T, K>(q), r, stream);
        rnorm = norm2(VertexView<const T, K>(r), stream);
        if (!std::isfinite(rnorm))
            throw Error("pcg_solve: the residual is not finite at iteration " +
                        std::to_string(rep.iterations));
        precondition();
        const double rz_next = dot(VertexView<const T, K>(r), VertexView<const T, K>(z), stream);
        const double beta    = rz_next / rz;
        rz                   = rz_next;
        scale(p, T(beta), stream);
        axpy(T(1), VertexView<const T, K>(z), p, stream);  // p = z + beta p
        ++rep.iterations;
    }
    if (rep.iterations == options.max_iterations)  // stopped by the cap: the true residual
        rnorm = true_residual();
    rep.relative_residual = rnorm / bnorm;
    rep.converged         = rnorm <= options.tolerance * bnorm;
    return rep;
}

}  // namespace rxmesh
