// The standard sparse operators of a triangle mesh, serial, in double: the
// oracle that the sparse-matrix layer's GPU builders (issue 54) must equal.
// Rows and columns are the soup's vertex ids; every operator's pattern is
// the vertex-vertex adjacency plus the diagonal (a vertex of no face: its
// diagonal entry alone, 0). Faces that repeat a vertex are skipped, as in
// reference/mcf.h.
//
//   const CsrMatrix L = cotangent_laplacian(soup.positions, soup.faces);
//   const std::vector<double> y = L.apply(x);   // L x, one value per vertex
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

//! A square sparse matrix in compressed rows, columns sorted in each row.
struct CsrMatrix
{
    std::uint32_t              size = 0;  // rows = columns
    std::vector<std::uint64_t> row_offsets;
    std::vector<std::uint32_t> columns;
    std::vector<double>        values;

    std::uint64_t num_entries() const { return columns.size(); }
    //! Entry (i, j); 0 outside the pattern.
    double at(std::uint32_t i, std::uint32_t j) const;
    //! A x for one value per row.
    std::vector<double> apply(const std::vector<double>& x) const;
};

//! The cotangent Laplacian, positive semi-definite: L_ij = -(cot a + cot b) / 2
//! over the angles opposite edge ij (one on the boundary, every face's at a
//! non-manifold edge), L_ii = -sum_j L_ij, so that L 1 = 0 and
//! x^T L x = Dirichlet energy of the piecewise-linear x. No clamping: an
//! obtuse pair gives a positive off-diagonal entry.
CsrMatrix cotangent_laplacian(const std::vector<Vec3f>& positions,
                              const std::vector<Triangle>& faces);

//! The consistent (full) mass matrix of linear elements: per face of area A,
//! A / 6 on each corner's diagonal and A / 12 between two corners.
CsrMatrix full_mass(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces);

//! The lumped mass: each vertex's mixed Voronoi area (Meyer et al. 2003;
//! reference/mcf.h's mixed_area), which partition the faces' areas.
std::vector<double> lumped_voronoi_mass(const std::vector<Vec3f>& positions,
                                        const std::vector<Triangle>& faces);

//! The area of a triangle, in double.
double triangle_area(const Vec3f& a, const Vec3f& b, const Vec3f& c);

}  // namespace rxmesh::reference
