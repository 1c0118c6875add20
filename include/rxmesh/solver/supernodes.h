// The supernodal symbolic analysis of a sparse Cholesky factorization:
// which consecutive columns of L share one row structure (a supernode), so
// that a numeric factorization stores each such group as one dense panel and
// updates it with dense matrix products instead of column by column. Host
// code over the pattern, after symbolic_factor (solver/ordering.h):
//
//   const Permutation      p  = geometric_nested_dissection(A, positions);
//   const SymbolicFactor   s  = symbolic_factor(A, p);
//   const SupernodalFactor sn = supernodal_factor(A, p, s);
//   sn.order;                     // the order the panels are laid out in
//   sn.level_supernodes;          // the panels, a batch per tree level
//
// The steps (Liu, Ng and Peyton, "On finding supernodes for sparse matrix
// computations", 1993; Ashcraft and Grimes, "The influence of relaxed
// supernode partitions on the multifrontal method", 1989):
// 1. a postorder of the elimination tree: it keeps the fill and the column
//    counts (only their numbering changes) and puts every subtree on
//    consecutive columns, each column's last child right before it;
// 2. the fundamental supernodes: column j + 1 joins j's supernode when it is
//    j's parent, j is its only child and its column of L is j's less the
//    diagonal (column_counts[j + 1] == column_counts[j] - 1);
// 3. relaxed amalgamation: a supernode joins the one right after it when
//    that one is its parent and the merged panel stays within the options;
//    the explicit zeros this adds buy fewer, larger panels;
// 4. each supernode's rows: its columns, then the union of A's entries below
//    them and its children's rows below them.
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/matrix/sparse_matrix.h"
#include "rxmesh/solver/ordering.h"

namespace rxmesh {

struct SupernodeOptions
{
    //! The widest panel: no supernode has more columns, a wider fundamental
    //! supernode is cut into consecutive pieces; bounds a panel's dense
    //! diagonal block, what one batched dense kernel takes.
    std::uint32_t max_columns = 128;
    //! Relaxed amalgamation: a child is merged into its parent when the
    //! merged panel's explicit zeros are at most this share of its lower
    //! part (the entries on and below its diagonal). 0 keeps only merges
    //! that add no zero; 1 merges whenever max_columns allows. In [0, 1].
    double max_extra_zeros = 0.05;
};

//! What a supernodal factorization needs to know before it sees a value.
//! Every column index is one of `order`'s P A P^T (p followed by the
//! elimination tree's postorder), not of the `p` the analysis was given:
//! the supernodes' columns must be consecutive, and only the postorder makes
//! every possible merge consecutive. Its fill is p's.
struct SupernodalFactor
{
    std::uint32_t num_columns = 0;
    //! The order of the analysis: row order.new_to_old[k] of A is row and
    //! column k of the factored matrix.
    Permutation order;
    //! Supernode s covers columns [first_column[s], first_column[s + 1]);
    //! num_supernodes() + 1 entries, the last num_columns.
    std::vector<std::uint32_t> first_column;
    //! The supernodal elimination tree: parent[s] holds the first row below
    //! s's diagonal block; -1 for a root. parent[s] > s.
    std::vector<std::int64_t> parent;
    //! Supernode s's panel rows are rows[row_offsets[s] .. row_offsets[s + 1]),
    //! ascending: its own columns first (the diagonal block), then the rows
    //! below where one of its columns has an entry of L.
    std::vector<std::uint64_t> row_offsets;
    std::vector<std::uint32_t> rows;
    //! The dense panels' size: the sum of panel rows x columns, the upper
    //! triangles of the diagonal blocks and the explicit zeros included.
    std::uint64_t stored_values = 0;
    //! The entries on and below the panels' diagonals, explicit zeros
    //! included: symbolic_factor's factor_nonzeros when no merge added a zero.
    std::uint64_t factor_nonzeros = 0;
    //! Multiply-adds of the numeric factorization counted as symbolic_factor
    //! counts them (each column's squared count below its diagonal), the
    //! explicit zeros included.
    double flops = 0;
    //! The supernodes by their height in the tree (leaves 0, a parent one
    //! more than its highest child): level l is level_supernodes[
    //! level_offsets[l] .. level_offsets[l + 1]), ascending. A level's
    //! supernodes depend on none of each other, only on lower levels, so a
    //! GPU factorization can take one level as one batch.
    std::vector<std::uint32_t> level_offsets;
    std::vector<std::uint32_t> level_supernodes;

    std::uint32_t num_supernodes() const
    {
        return first_column.empty() ? 0 : std::uint32_t(first_column.size() - 1);
    }
    std::uint32_t num_levels() const
    {
        return level_offsets.empty() ? 0 : std::uint32_t(level_offsets.size() - 1);
    }
    //! The columns and the panel rows of supernode s.
    std::uint32_t num_columns_of(std::uint32_t s) const
    {
        return first_column[s + 1] - first_column[s];
    }
    std::uint64_t num_rows_of(std::uint32_t s) const
    {
        return row_offsets[s + 1] - row_offsets[s];
    }
};

//! The supernodes of P A P^T's factor, `s` being symbolic_factor(A, p), for
//! a structurally symmetric A (a panel's entries of A are read from its
//! columns' rows; CholeskySolver checks the symmetry before its analysis).
//! Work: O(nnz(A) + the panels' rows), each panel's rows sorted once.
//! \throw InvalidInputError when A is not square, `p` is not of A's size,
//! `s` is not a tree of A's size or not the factor of A in the order p (where
//! a panel's rows contradict it), or an option is out of its range.
SupernodalFactor supernodal_factor(const HostCsr& A, const Permutation& p, const SymbolicFactor& s,
                                   const SupernodeOptions& options = {});

}  // namespace rxmesh
