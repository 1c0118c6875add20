// An independent direct solve of one MCF step with Eigen's sparse LDLT, in
// double: the oracle of the GPU's matrix-free CG. Test-only (Eigen3).
#pragma once

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rxmesh/reference/mcf.h"

namespace rxmesh::test {

//! Solves (2 diag(a) + dt L) X = 2 diag(a) X0 over the vertices whose row of
//! A is not zero (the others: no face, or only zero-area faces, keep X0),
//! as X = X0 + D with A D = -dt L X0 (no cancellation in the right-hand
//! side). Returns 3 doubles per vertex.
inline std::vector<double> eigen_mcf_step(const reference::McfSystem& s, double dt,
                                          const std::vector<Vec3f>& positions)
{
    const std::size_t          n = positions.size();
    std::vector<double> diag(n, 0);  // A's diagonal: 0 only for a zero row
    for (std::size_t v = 0; v < n; ++v)
        diag[v] = 2 * s.area[v];
    for (std::size_t e = 0; e < s.edges.size(); ++e)
        for (int k = 0; k < 2; ++k)
            diag[s.edges[e][k]] += dt * s.weight[e];
    std::vector<std::int64_t> index(n, -1);
    std::int64_t              m = 0;
    for (std::size_t v = 0; v < n; ++v)
        if (s.in_face[v] && diag[v] > 0)
            index[v] = m++;
    std::vector<Eigen::Triplet<double>> t;
    for (std::size_t v = 0; v < n; ++v)
        if (index[v] >= 0)
            t.emplace_back(index[v], index[v], 2 * s.area[v]);
    for (std::size_t e = 0; e < s.edges.size(); ++e) {
        const std::int64_t i = index[s.edges[e][0]], j = index[s.edges[e][1]];
        const double       w = dt * s.weight[e];
        if (w == 0)
            continue;  // (also every edge at an excluded vertex)
        t.emplace_back(i, i, w);
        t.emplace_back(j, j, w);
        t.emplace_back(i, j, -w);
        t.emplace_back(j, i, -w);
    }
    Eigen::SparseMatrix<double> A(m, m);
    A.setFromTriplets(t.begin(), t.end());
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(A);
    if (ldlt.info() != Eigen::Success)
        throw std::runtime_error("eigen_mcf_step: the LDLT factorization failed");

    std::vector<double> x0(3 * n);
    for (std::size_t v = 0; v < n; ++v)
        for (int d = 0; d < 3; ++d)
            x0[3 * v + d] = positions[v][d];
    const std::vector<double> lx0 = reference::laplacian_apply(s, x0);
    std::vector<double>       out = x0;
    for (int d = 0; d < 3; ++d) {
        Eigen::VectorXd rhs(m);
        for (std::size_t v = 0; v < n; ++v)
            if (index[v] >= 0)
                rhs[index[v]] = -dt * lx0[3 * v + d];
        const Eigen::VectorXd disp = ldlt.solve(rhs);
        if (ldlt.info() != Eigen::Success)
            throw std::runtime_error("eigen_mcf_step: the LDLT solve failed");
        for (std::size_t v = 0; v < n; ++v)
            if (index[v] >= 0)
                out[3 * v + d] += disp[index[v]];
    }
    return out;
}

}  // namespace rxmesh::test
