// A direct solve of a symmetric positive definite system, serial, in
// double: the references' (heat geodesics, parameterization, MCF with a
// factorization). Obviously correct and fine for the tests' meshes: an
// envelope Cholesky after a reverse Cuthill-McKee order, with a clear
// refusal where the envelope would not fit (kMaxEnvelope).
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/reference/sparse_operators.h"

namespace rxmesh::reference {

//! Doubles an envelope factor may hold (2 GiB).
inline constexpr std::uint64_t kMaxEnvelope = std::uint64_t(1) << 28;

//! x = A^-1 b for a symmetric positive definite A (its lower triangle read),
//! for `columns` right-hand sides (b and x row-major: row i's values
//! together), one factorization for all. \throw std::invalid_argument for
//! an envelope over kMaxEnvelope, a matrix that is not positive definite
//! (naming the row) or has a non-finite entry, or a b that is not rows x
//! columns.
std::vector<double> solve_spd(const CsrMatrix& A, const std::vector<double>& b,
                              std::uint32_t columns = 1);

}  // namespace rxmesh::reference
