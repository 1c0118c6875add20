// The input checks that the direct solvers' host analyses share.
#pragma once

#include "rxmesh/matrix/sparse_matrix.h"

namespace rxmesh::detail {

//! \throw InvalidInputError, naming `what`, when A's row offsets do not
//! match its rows and entries or a column is out of range.
void require_square(const HostCsr& A, const char* what);

}  // namespace rxmesh::detail
