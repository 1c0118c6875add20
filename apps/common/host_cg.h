// A CPU path's linear solver (--device cpu): conjugate gradient in double on
// the host over any symmetric positive definite operator, with the GPU
// solver's stopping rule and report (solver/cg.cuh, cg_report.h), so that the CPU path
// stops where the GPU's would.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/solver/cg_report.h"

namespace rxmesh::app {

//! Solves A x = b from x and its residual r = b - A x (the caller forms it,
//! e.g. without cancellation, as the GPU's), where `apply(d)` is A d, with
//! solver/cg.cuh's stopping rule (|r| <= tolerance |r0|, or max_iterations)
//! and its report. \throw Error when the residual is not finite.
template <typename Apply>
CgReport host_cg(const Apply& apply, std::vector<double>& x, std::vector<double> r,
                 const CgOptions& o)
{
    const auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
        double sum = 0;
        for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
        return sum;
    };
    const double        rr0 = dot(r, r), tol2 = o.tolerance * o.tolerance;
    double              rr  = rr0;
    std::vector<double> d   = r;
    CgReport            rep;
    while (rr > tol2 * rr0 && rep.iterations < o.max_iterations) {
        const std::vector<double> q  = apply(d);
        const double              dq = dot(d, q);
        if (!(dq > 0)) break;  // d = 0 (or an operator that is not positive definite)
        const double alpha = rr / dq;
        for (std::size_t i = 0; i < x.size(); ++i) x[i] += alpha * d[i], r[i] -= alpha * q[i];
        const double rr_next = dot(r, r), beta = rr_next / rr;
        for (std::size_t i = 0; i < d.size(); ++i) d[i] = r[i] + beta * d[i];
        rr = rr_next;
        ++rep.iterations;
    }
    if (!std::isfinite(rr))
        throw Error("the CPU CG's residual is not finite after " + std::to_string(rep.iterations) +
                    " iterations");
    rep.initial_residual = std::sqrt(rr0);
    rep.final_residual   = std::sqrt(rr);
    rep.converged        = rr0 == 0 || rr <= tol2 * rr0;
    return rep;
}

}  // namespace rxmesh::app
