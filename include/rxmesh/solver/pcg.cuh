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
// Systems, algorithm 9.1) with its scalars in device memory
// (solver/pcg_kernels.cuh, sums in double), so the host queues iterations
// without waiting and learns of the stop one iteration late. When the
// recurrence's |r| falls below the tolerance, b - A x is formed again with
// its rows summed in double; above the tolerance, the loop restarts from it,
// and a restart that does not halve it ends the solve as stagnated (float
// cannot hold an x whose residual is below about eps |A| |x|). Refused
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
#include "rxmesh/core/launch.cuh"
#include "rxmesh/solver/jacobi_preconditioner.cuh"
#include "rxmesh/solver/pcg_kernels.cuh"
#include "rxmesh/solver/state_monitor.h"

namespace rxmesh {

struct PcgOptions
{
    int    max_iterations = 1000;
    double tolerance      = 1e-6;  // stop when |b - A x| <= tolerance |b|
};

struct PcgReport
{
    int    iterations        = 0;
    //! |b - A x| / |b| at the end, from a fresh b - A x summed in double (the
    //! recurrence's drifts below it in rounding), however the solve ended
    double relative_residual = 0;
    bool   converged         = false;
    //! Stopped before the cap because the true residual no longer fell: a
    //! restart from it did not halve it (the tolerance is below what T's
    //! rounding of x allows, or the preconditioner is too inexact)
    bool   stagnated = false;
    int    restarts  = 0;  // from a fresh residual, after the recurrence's fell below the tolerance
};

namespace detail {

template <typename T>
void require_finite(double value, const char* what)
{
    if (!std::isfinite(value))
        throw InvalidInputError(std::string("pcg_solve: ") + what + " is not finite");
}

//! |v| summed in double (attribute/blas.cuh), not rounded to T.
template <typename T, int N>
double norm_of(VertexView<const T, N> v, cudaStream_t stream)
{
    return std::sqrt(double(dot_accumulate(v, v, stream)));
}

//! \throw Error naming why the device stopped, when it broke down.
inline void pcg_require_no_breakdown(const PcgState& s)
{
    const std::string at = " at iteration " + std::to_string(s.iterations) + "; ";
    switch (s.done == kPcgBreakdown ? s.breakdown : kPcgNone) {
        case kPcgMatrixNotSpd:
            throw Error("pcg_solve: p.Ap <= 0" + at + "the matrix is not positive definite");
        case kPcgPreconditionerNotSpd:
            throw Error("pcg_solve: r.z <= 0" + at + "the preconditioner is not positive definite");
        case kPcgNotFinite:
            throw Error("pcg_solve: the residual is not finite" + at +
                        "the matrix or the preconditioner is not positive definite, or overflows");
        default: return;
    }
}

//! The host's loop: restart(), then iteration() queued until the device
//! stops (seen one iteration late), then the true residual; again from it
//! while above `stop` and halving. The report (synchronous).
template <typename Restart, typename Iteration, typename TrueResidual>
PcgReport pcg_drive(double bnorm, double stop, int max_iterations, const PcgState* state,
                    cudaStream_t stream, Restart&& restart, Iteration&& iteration,
                    TrueResidual&& true_residual)
{
    PcgReport                 rep;
    double                    rnorm = true_residual(), previous = INFINITY;
    StateMonitor<PcgState>    monitor;
    while (rnorm > stop) {
        restart();
        for (int it = 0;; ++it) {  // ends: the device stops at the cap at the latest
            const int cur = it & 1;
            iteration();
            monitor.record(cur, state, stream);
            if (it > 0 && monitor.done(cur ^ 1))  // the previous iteration, while this one runs
                break;
        }
        const PcgState last = rxmesh::read_back(state, stream);
        rep.iterations      = last.iterations;
        pcg_require_no_breakdown(last);
        previous = rnorm;
        rnorm    = true_residual();
        if (last.done == kPcgCap || rnorm > 0.5 * previous)
            break;  // the cap, or a restart that did not halve the residual: the precision's floor
        ++rep.restarts;
    }
    rep.relative_residual = rnorm / bnorm;
    rep.converged         = rnorm <= stop;
    rep.stagnated         = !rep.converged && rep.iterations < max_iterations;
    return rep;
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
    const double bnorm = detail::norm_of(bc, stream);
    detail::require_finite<T>(bnorm, "the right-hand side");
    if (bnorm == 0) {  // x = 0 solves it exactly
        fill(x, T(0), stream);
        return {0, 0.0, true};
    }

    const std::uint32_t n      = A.num_rows();
    const std::uint64_t values = std::uint64_t(n) * N;
    DeviceBuffer<T>     rb(values, stream), zb(values, stream), pb(values, stream), qb(values, stream);
    const View          r(rb.data(), n), z(zb.data(), n), p(pb.data(), n), q(qb.data(), n);
    DeviceBuffer<detail::PcgState> state(1, stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(state.data(), 0, state.bytes(), stream));
    detail::PcgReductions<T> sums(values, stream);
    const double             stop = options.tolerance * bnorm;
    const unsigned           grid = detail::flat_grid(values);

    // r = b - A x (rows summed in double), z = M^-1 r, p = z, rz = r.z: the
    // start, and each restart after the recurrence's |r| fell below the
    // tolerance while the true one had not (it drifts below it in rounding)
    auto true_residual = [&] {
        residual(A, bc, CView(x), r, stream);
        return detail::norm_of(CView(r), stream);
    };
    auto restart = [&] {
        M.apply(A, CView(r), z, stream);
        copy(p, CView(z), stream);
        sums.residual_sums(r.data(), z.data(), &state.data()->rr_rz, stream);
        detail::pcg_start_kernel<<<1, 1, 0, stream>>>(state.data(), stop * stop,
                                                      options.max_iterations);
        RXMESH_CHECK_LAUNCH();
    };
    auto iteration = [&] {
        multiply(A, CView(p), q, T(1), T(0), stream);
        sums.dot(p.data(), q.data(), &state.data()->pq, stream);
        detail::pcg_update_kernel<<<grid, detail::kFlatBlockThreads, 0, stream>>>(
            values, x.data(), r.data(), p.data(), q.data(), state.data());
        RXMESH_CHECK_LAUNCH();
        M.apply(A, CView(r), z, stream);
        sums.residual_sums(r.data(), z.data(), &state.data()->rr_rz, stream);
        detail::pcg_scalars_kernel<<<1, 1, 0, stream>>>(state.data());
        detail::pcg_direction_kernel<<<grid, detail::kFlatBlockThreads, 0, stream>>>(
            values, p.data(), z.data(), state.data());
        RXMESH_CHECK_LAUNCH();
    };

    return detail::pcg_drive(bnorm, stop, options.max_iterations, state.data(), stream, restart,
                             iteration, true_residual);
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
