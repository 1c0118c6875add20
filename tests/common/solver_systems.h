// The linear systems the solver tests share: the implicit smoothing matrix
// M + t L (symmetric positive definite on any mesh whose vertices all touch
// a face of nonzero area) and Eigen's view of a host matrix, the oracle.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>
#include <vector>

#include "rxmesh/matrix/assemble.cuh"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/mesh_operators.cuh"
#include "rxmesh/rxmesh.h"

#if RXMESH_HAVE_EIGEN
#include <Eigen/Sparse>
#endif

namespace rxmesh::test {

//! M + t L in double.
inline SparseMatrix<double> smoothing_matrix(const RXMesh&                               mesh,
                                             const std::shared_ptr<const SparsePattern>& pattern,
                                             double                                      t)
{
    SparseMatrix<double> A = full_mass<double>(pattern, mesh.positions());
    const auto           L = cotangent_laplacian<double>(pattern, mesh.positions());
    axpby(t, L, 1.0, A);
    return A;
}

//! Diagonal 0.1 per edge, -2 between neighbours: positive diagonal, yet
//! x = 1 gives x^T A x < 0 (the pattern's matrix, indefinite).
inline void assemble_indefinite(SparseMatrix<double>& A)
{
    assemble_edges(A, [=] __device__(VertexId, VertexId, EdgeBlocks<double>& b) {
        b(0, 0) = b(1, 1) = 0.1;
        b(0, 1) = b(1, 0) = -2;
    });
}

//! t for M + t L whose conditioning does not depend on the mesh's scale
//! (M grows with h^2, L does not).
inline double mean_squared_edge_length(const TriangleSoup& soup)
{
    double sum = 0;
    for (const auto& t : soup.faces)
        for (int k = 0; k < 3; ++k) {
            const auto& a = soup.positions[t[k]];
            const auto& b = soup.positions[t[(k + 1) % 3]];
            for (int d = 0; d < 3; ++d) sum += (double(a[d]) - b[d]) * (double(a[d]) - b[d]);
        }
    return soup.faces.empty() ? 1.0 : sum / (3.0 * soup.faces.size());
}

inline double min_diagonal(const HostCsr& h)
{
    double m = INFINITY;
    for (std::uint64_t i = 0; i < h.num_rows; ++i)
        for (auto k = h.row_offsets[i]; k < h.row_offsets[i + 1]; ++k)
            if (h.columns[k] == i) m = std::min(m, h.values[k]);
    return m;
}

//! The largest |cot| of an angle of a face of nonzero area: a needle's
//! cotangent grows as 1/angle and the matrix's conditioning with it.
inline double largest_cotangent(const TriangleSoup& soup)
{
    double largest = 0;
    for (const auto& t : soup.faces)
        for (int k = 0; k < 3; ++k) {
            double e0[3], e1[3];
            for (int d = 0; d < 3; ++d) {
                e0[d] = double(soup.positions[t[(k + 1) % 3]][d]) - soup.positions[t[k]][d];
                e1[d] = double(soup.positions[t[(k + 2) % 3]][d]) - soup.positions[t[k]][d];
            }
            const double c = std::hypot(e0[1] * e1[2] - e0[2] * e1[1],
                                        e0[2] * e1[0] - e0[0] * e1[2],
                                        e0[0] * e1[1] - e0[1] * e1[0]);
            if (c > FLT_MIN)
                largest = std::max(largest, std::abs(e0[0] * e1[0] + e0[1] * e1[1] +
                                                     e0[2] * e1[2]) / c);
        }
    return largest;
}

#if RXMESH_HAVE_EIGEN
inline Eigen::SparseMatrix<double> to_eigen(const HostCsr& h)
{
    std::vector<Eigen::Triplet<double>> t;
    for (std::uint64_t i = 0; i < h.num_rows; ++i)
        for (auto k = h.row_offsets[i]; k < h.row_offsets[i + 1]; ++k)
            t.emplace_back(int(i), int(h.columns[k]), h.values[k]);
    Eigen::SparseMatrix<double> m(int(h.num_rows), int(h.num_rows));
    m.setFromTriplets(t.begin(), t.end());
    return m;
}

//! How far two computations of |b - A x| / |b| in double may differ: each
//! row's sum is off by at most gamma_k (|A| |x| + |b|) for k terms (Higham,
//! Accuracy and Stability of Numerical Algorithms, 3.5), in either one;
//! large cotangents that cancel make this larger than the residual itself.
inline double rounding_of_residual(const Eigen::SparseMatrix<double>& E, const Eigen::VectorXd& x,
                                   const Eigen::VectorXd& b)
{
    Eigen::SparseMatrix<double, Eigen::RowMajor> rows = E;
    Eigen::Index                                 k    = 0;
    for (Eigen::Index i = 0; i < rows.rows(); ++i)
        k = std::max<Eigen::Index>(k, rows.outerIndexPtr()[i + 1] - rows.outerIndexPtr()[i] + 1);
    const double          gamma = k * DBL_EPSILON / (1 - k * DBL_EPSILON);
    const Eigen::VectorXd scale = E.cwiseAbs() * x.cwiseAbs() + b.cwiseAbs();
    return 2 * gamma * scale.norm() / b.norm();
}
#endif

}  // namespace rxmesh::test
