// Fill-reducing orderings for a sparse Cholesky factorization of a matrix
// over a mesh, and the symbolic analysis that measures them: the
// elimination tree of P A P^T and the nonzeros of each column of its
// factor L (Liu, "The role of elimination trees in sparse factorization",
// 1990). Host code over the pattern (HostCsr, matrix/sparse_matrix.h: its
// values are not read); the numeric factorization lays L out from this.
//
//   const HostCsr      A = to_host(laplacian);            // the pattern
//   const Permutation  p = geometric_nested_dissection(A, positions);
//   const SymbolicFactor s = symbolic_factor(A, p);
//   s.factor_nonzeros;                                     // fill of L
//
// geometric_nested_dissection cuts the vertices in two by the plane, across
// one of the three axes and with 30% to 70% of the set on each side, whose
// edge cut is smallest for the parts' sizes (a ratio cut over 1024 bins of
// each coordinate, the three weighed in one pass over the set's edges): the
// neck of a curved surface, a limb, rather than a median plane across its
// widest part. Sets under 512 vertices, and sets no axis spreads, are cut at
// the median of each axis, keeping the cut whose separator is smallest. The
// separator is
// a minimum vertex cover of the edges the cut crosses (König's theorem over a
// maximum bipartite matching), so it is never larger than either side's
// boundary. Each half is ordered the same way and the separator last, down
// to leaves of NestedDissectionOptions::leaf_size vertices, which are
// ordered by minimum degree (their neighbours in the separators above
// counted). (George, "Nested dissection of a regular finite element mesh",
// 1973; the geometric form of Miller, Teng, Thurston and Vavasis.) On a
// surface mesh a plane cut has a separator of about sqrt(n) vertices, as on
// a planar graph, which is what makes the fill O(n log n).
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/matrix/sparse_matrix.h"

namespace rxmesh {

//! An ordering: row new_to_old[k] of A is row k of P A P^T.
struct Permutation
{
    std::vector<std::uint32_t> new_to_old, old_to_new;

    std::uint32_t size() const { return std::uint32_t(new_to_old.size()); }
    //! The identity of n rows.
    static Permutation identity(std::uint32_t n);
    //! From new_to_old. \throw InvalidInputError when it is not a permutation.
    static Permutation from_new_to_old(std::vector<std::uint32_t> new_to_old);
};

struct NestedDissectionOptions
{
    //! Sets of at most this many vertices are not cut further; they are
    //! ordered by minimum degree.
    std::uint32_t leaf_size = 64;
};

//! \throw InvalidInputError when A is not square or `positions` does not
//! hold one point per row.
Permutation geometric_nested_dissection(const HostCsr& A, const std::vector<Vec3f>& positions,
                                        const NestedDissectionOptions& options = {});

//! What a factorization of P A P^T needs to know before it sees a value.
struct SymbolicFactor
{
    //! parent[k]: the elimination tree's parent of column k; -1 for a root.
    std::vector<std::int64_t> parent;
    //! column_counts[k]: nonzeros of column k of L, its diagonal included.
    std::vector<std::uint64_t> column_counts;
    std::uint64_t              factor_nonzeros = 0;  // the sum of column_counts
    //! Multiply-adds of the numeric factorization: the sum of the squared
    //! column counts below the diagonal (each column's outer product).
    double flops = 0;
};

//! The elimination tree and column counts of P A P^T's factor; A's pattern
//! is taken as symmetric (its lower and upper parts are read alike).
//! \throw InvalidInputError when A is not square, `p` is not of A's size or
//! a column is out of range.
SymbolicFactor symbolic_factor(const HostCsr& A, const Permutation& p);

}  // namespace rxmesh
