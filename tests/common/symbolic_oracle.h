// What the direct solvers' symbolic analyses (solver/ordering.h,
// solver/supernodes.h) are checked against: a mesh's matrix pattern, the
// definition of the factor's pattern (elimination on a dense boolean
// matrix: L(i, j) for i > j is nonzero when A(i, j) is or when some k < j
// has L(i, k) and L(j, k)) and a random order. Host code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "rxmesh/reference/sparse_operators.h"
#include "rxmesh/solver/ordering.h"

namespace rxmesh::test {

//! The VV + diagonal pattern of a soup (the mass matrix's, as the GPU
//! pattern's) as HostCsr.
inline HostCsr pattern_of(const TriangleSoup& soup)
{
    const reference::CsrMatrix m = reference::full_mass(soup.positions, soup.faces);
    HostCsr                    h;
    h.num_rows    = m.size;
    h.row_offsets = m.row_offsets;
    h.columns.assign(m.columns.begin(), m.columns.end());
    h.values = m.values;
    return h;
}

//! The dense pattern of P A P^T's factor: L[j][i] for column j, row i >= j.
inline std::vector<std::vector<char>> dense_factor_pattern(const HostCsr& A, const Permutation& p)
{
    const std::uint32_t            n = p.size();
    std::vector<std::vector<char>> L(n, std::vector<char>(n, 0));
    for (std::uint32_t r = 0; r < n; ++r)
        for (auto e = A.row_offsets[r]; e < A.row_offsets[r + 1]; ++e) {
            const std::uint32_t i = p.old_to_new[r], j = p.old_to_new[A.columns[e]];
            L[std::min(i, j)][std::max(i, j)] = 1;
        }
    for (std::uint32_t j = 0; j < n; ++j) {
        L[j][j] = 1;
        for (std::uint32_t i = j + 1; i < n; ++i)
            if (L[j][i])
                for (std::uint32_t m = i; m < n; ++m)
                    if (L[j][m]) L[i][m] = 1;  // eliminating j joins its rows i and m
    }
    return L;
}

//! The definition of symbolic_factor: its figures read off the dense pattern.
inline SymbolicFactor dense_symbolic(const HostCsr& A, const Permutation& p)
{
    const std::vector<std::vector<char>> L = dense_factor_pattern(A, p);
    const std::uint32_t                  n = p.size();
    SymbolicFactor                       s;
    s.parent.assign(n, -1);
    s.column_counts.assign(n, 0);
    for (std::uint32_t j = 0; j < n; ++j) {
        for (std::uint32_t i = j; i < n; ++i) s.column_counts[j] += L[j][i];
        for (std::uint32_t i = j + 1; i < n && s.parent[j] < 0; ++i)
            if (L[j][i]) s.parent[j] = i;
        s.factor_nonzeros += s.column_counts[j];
        s.flops += double(s.column_counts[j] - 1) * double(s.column_counts[j] - 1);
    }
    return s;
}

inline Permutation random_order(std::uint32_t n, unsigned seed)
{
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), std::mt19937(seed));
    return Permutation::from_new_to_old(order);
}

}  // namespace rxmesh::test
