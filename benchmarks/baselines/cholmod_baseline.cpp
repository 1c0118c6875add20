#include "cholmod_baseline.h"

#include <algorithm>
#include <chrono>
#include <string>

#if RXMESH_HAVE_CHOLMOD
#include <dlfcn.h>

#include <cholmod.h>
#endif

namespace rxmesh::bench {

#if !RXMESH_HAVE_CHOLMOD
CholmodRun cholmod_solve(const HostCsr&, const std::vector<double>&, std::uint32_t, int, int)
{
    CholmodRun r;
    r.note = "CHOLMOD not found at build time";
    return r;
}
#else
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

//! Sets OpenBLAS's threads when it is the BLAS loaded; returns whether it was.
bool set_blas_threads(int threads)
{
    using SetThreads = void (*)(int);
    auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    if (set) set(threads);
    return set != nullptr;
}

const char* ordering_name(int o)
{
    switch (o) {
        case CHOLMOD_NATURAL: return "natural";
        case CHOLMOD_AMD: return "AMD";
        case CHOLMOD_METIS: return "METIS";
        case CHOLMOD_NESDIS: return "NESDIS";
        case CHOLMOD_COLAMD: return "COLAMD";
        default: return "other";
    }
}

//! A's lower triangle as CHOLMOD's symmetric sparse matrix (CSR of a
//! symmetric matrix is its CSC; stype -1 reads the lower part).
cholmod_sparse* to_cholmod(const HostCsr& A, cholmod_common* c)
{
    cholmod_sparse* S = cholmod_allocate_sparse(A.num_rows, A.num_rows, A.columns.size(), 1, 1, -1,
                                                CHOLMOD_REAL, c);
    auto* p = static_cast<int*>(S->p);
    auto* i = static_cast<int*>(S->i);
    auto* x = static_cast<double*>(S->x);
    for (std::uint64_t r = 0; r <= A.num_rows; ++r) p[r] = int(A.row_offsets[r]);
    for (std::size_t e = 0; e < A.columns.size(); ++e) i[e] = int(A.columns[e]), x[e] = A.values[e];
    return S;
}

}  // namespace

CholmodRun cholmod_solve(const HostCsr& A, const std::vector<double>& b, std::uint32_t R,
                         int threads, int runs)
{
    CholmodRun r;
    r.available = true;
    r.threads   = set_blas_threads(threads) ? threads : 0;
    r.note      = r.threads ? "OpenBLAS, " + std::to_string(threads) + " threads"
                            : "a BLAS whose threads are not settable";
    cholmod_common c;
    cholmod_start(&c);
    c.supernodal       = CHOLMOD_SUPERNODAL;
    c.final_ll         = 1;
    cholmod_sparse* S  = to_cholmod(A, &c);
    auto            at = Clock::now();
    cholmod_factor* L  = cholmod_analyze(S, &c);
    r.analyze_ms       = ms_since(at);
    r.ordering         = ordering_name(c.selected >= 0 ? c.method[c.selected].ordering : -1);
    r.factor_nonzeros  = c.lnz;
    r.flops            = c.fl;
    cholmod_dense* B   = cholmod_allocate_dense(A.num_rows, R, A.num_rows, CHOLMOD_REAL, &c);
    auto*          bx  = static_cast<double*>(B->x);
    for (std::uint64_t i = 0; i < A.num_rows; ++i)
        for (std::uint32_t k = 0; k < R; ++k) bx[i + k * A.num_rows] = b[i * R + k];
    std::vector<double> factor_ms, solve_ms;
    cholmod_dense*      X = nullptr;
    for (int run = 0; run <= runs; ++run) {  // run 0 warms up
        at = Clock::now();
        cholmod_factorize(S, L, &c);
        if (run) factor_ms.push_back(ms_since(at));
        if (c.status != CHOLMOD_OK) {
            r.available = false;
            r.note      = "cholmod_factorize failed (status " + std::to_string(c.status) + ")";
            break;
        }
        if (X) cholmod_free_dense(&X, &c);
        at = Clock::now();
        X  = cholmod_solve(CHOLMOD_A, L, B, &c);
        if (run) solve_ms.push_back(ms_since(at));
    }
    r.factor_ms = median(factor_ms);
    r.solve_ms  = median(solve_ms);
    if (X) {
        const auto* xx = static_cast<const double*>(X->x);
        r.x.resize(b.size());
        for (std::uint64_t i = 0; i < A.num_rows; ++i)
            for (std::uint32_t k = 0; k < R; ++k) r.x[i * R + k] = xx[i + k * A.num_rows];
        cholmod_free_dense(&X, &c);
    }
    cholmod_free_dense(&B, &c);
    cholmod_free_factor(&L, &c);
    cholmod_free_sparse(&S, &c);
    cholmod_finish(&c);
    return r;
}
#endif

}  // namespace rxmesh::bench
