// CHOLMOD's supernodal Cholesky on the CPU (SuiteSparse, Debian's
// libsuitesparse-dev), the direct solvers' baseline: its own analysis
// (CHOLMOD's default ordering choice: AMD, then METIS where it fills less),
// numeric factor and R-column solve, each timed by wall clock. Its BLAS's
// threads are set when the BLAS is OpenBLAS (openblas_set_num_threads,
// looked up at run time); without CHOLMOD at build time (RXMESH_HAVE_CHOLMOD
// unset) available is false and note says so. Host C++17.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rxmesh/matrix/sparse_matrix.h"

namespace rxmesh::bench {

struct CholmodRun
{
    bool        available = false;
    std::string note;            // why not available, or the BLAS and its threads
    int         threads = 0;     // the BLAS threads asked for (0: not settable)
    double      analyze_ms = 0;  // one run
    double      factor_ms = 0, solve_ms = 0;  // medians of the runs
    double      factor_nonzeros = 0, flops = 0;  // CHOLMOD's lnz and fl
    std::string ordering;                         // the one CHOLMOD chose
    std::vector<double> x;                        // rows x R, row-major
};

//! A (both triangles, columns sorted per row) factored and solved against
//! b (rows x R, row-major) with `threads` BLAS threads, the factor and
//! solve timed over `runs` runs.
CholmodRun cholmod_solve(const HostCsr& A, const std::vector<double>& b, std::uint32_t R,
                         int threads, int runs);

}  // namespace rxmesh::bench
