// The kernels of the supernodal Cholesky factorization and its triangular
// solves (solver/cholesky.h says what they do). Internal to src/solver.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cholesky_plan.h"

namespace rxmesh::detail {

//! The widest panel the kernels take (its diagonal block in shared memory).
inline constexpr std::uint32_t kMaxPanelColumns = 64;
//! Right-hand sides one solve kernel takes at a time.
inline constexpr std::uint32_t kSolveColumns = 8;
inline constexpr int           kCholeskyThreads = 256;

//! The panels as the kernels see them.
struct PanelsView
{
    const std::uint32_t* first_column;
    const std::uint64_t* row_offsets;
    const std::uint32_t* rows;
    const std::uint64_t* value_offsets;
    const std::uint32_t* column_supernode;
    double*              values;

    __device__ std::uint32_t columns(std::uint32_t s) const
    {
        return first_column[s + 1] - first_column[s];
    }
    __device__ std::uint32_t num_rows(std::uint32_t s) const
    {
        return std::uint32_t(row_offsets[s + 1] - row_offsets[s]);
    }
    __device__ double*              panel(std::uint32_t s) const { return values + value_offsets[s]; }
    __device__ const std::uint32_t* rows_of(std::uint32_t s) const { return rows + row_offsets[s]; }
    //! The position of `row` among s's rows (which hold it: the analysis
    //! put every entry of L in its column's panel).
    __device__ std::uint32_t position(std::uint32_t s, std::uint32_t row) const
    {
        const std::uint32_t* r  = rows_of(s);
        std::uint32_t        lo = 0, hi = num_rows(s);
        while (lo < hi) {
            const std::uint32_t mid = (lo + hi) / 2;
            if (r[mid] < row) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
};

//! What the checks found: the first entry (A's order) that is not finite,
//! the first of an asymmetric pair, the first column (the analysis' order)
//! whose pivot is not positive; ~0 for none.
struct FactorFailures
{
    unsigned long long not_finite, not_symmetric, pivot;
};

//! A's values into the panels (each entry on or below the diagonal once),
//! with the finiteness and symmetry checks.
__global__ void scatter_entries(std::uint64_t entries, const double* values,
                                const std::int64_t* slot, const std::uint64_t* mirror,
                                double* panels, double symmetry_tolerance, FactorFailures* failures)
{
    const std::uint64_t e = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    if (e >= entries) return;
    const double v = values[e];
    if (!isfinite(v)) atomicMin(&failures->not_finite, e);
    const double w = values[mirror[e]];
    if (fabs(v - w) > symmetry_tolerance * fmax(fabs(v), fabs(w)))
        atomicMin(&failures->not_symmetric, e < mirror[e] ? e : mirror[e]);
    if (slot[e] >= 0) panels[slot[e]] = v;
}

//! One block per supernode of a level: its diagonal block factored in
//! shared memory (the pivot of column k checked against A's diagonal entry
//! diagonal[k], A's values), then its rows below solved against it.
__global__ void factor_panels(const std::uint32_t* level_supernodes, PanelsView p,
                              const double* a_values, const std::uint64_t* diagonal,
                              double pivot_tolerance, FactorFailures* failures)
{
    __shared__ double   L[kMaxPanelColumns * kMaxPanelColumns];
    const std::uint32_t s  = level_supernodes[blockIdx.x];
    const std::uint32_t nc = p.columns(s), ld = p.num_rows(s), first = p.first_column[s];
    double*             P  = p.panel(s);
    for (std::uint32_t x = threadIdx.x; x < nc * nc; x += blockDim.x) {
        const std::uint32_t i = x % nc, j = x / nc;
        L[x]                  = i >= j ? P[i + std::uint64_t(j) * ld] : 0.0;
    }
    __syncthreads();
    for (std::uint32_t c = 0; c < nc; ++c) {
        if (threadIdx.x == 0) {
            double d = L[c + c * nc];
            if (!(d > pivot_tolerance * fabs(a_values[diagonal[first + c]])) || !isfinite(d)) {
                atomicMin(&failures->pivot, (unsigned long long)(first + c));
                d = 1;  // the factor is refused; carry on without NaN
            }
            L[c + c * nc] = sqrt(d);
        }
        __syncthreads();
        const double inverse = 1.0 / L[c + c * nc];
        for (std::uint32_t i = c + 1 + threadIdx.x; i < nc; i += blockDim.x) L[i + c * nc] *= inverse;
        __syncthreads();
        const std::uint32_t rest = nc - c - 1;
        for (std::uint32_t x = threadIdx.x; x < rest * rest; x += blockDim.x) {
            const std::uint32_t i = c + 1 + x % rest, j = c + 1 + x / rest;
            if (i >= j) L[i + j * nc] -= L[i + c * nc] * L[j + c * nc];
        }
        __syncthreads();
    }
    for (std::uint32_t x = threadIdx.x; x < nc * nc; x += blockDim.x) {
        const std::uint32_t i = x % nc, j = x / nc;
        if (i >= j) P[i + std::uint64_t(j) * ld] = L[x];
    }
    // rows below: row a of L21 = row a of A21 x L11^-T, column by column
    for (std::uint32_t a = nc + threadIdx.x; a < ld; a += blockDim.x)
        for (std::uint32_t c = 0; c < nc; ++c) {
            double x = P[a + std::uint64_t(c) * ld];
            for (std::uint32_t k = 0; k < c; ++k) x -= P[a + std::uint64_t(k) * ld] * L[c + k * nc];
            P[a + std::uint64_t(c) * ld] = x / L[c + c * nc];
        }
}

//! The tile pair (ta >= tb) of index q: q = ta (ta + 1) / 2 + tb.
__device__ inline void tile_pair(std::uint32_t q, std::uint32_t& ta, std::uint32_t& tb)
{
    std::uint32_t t = std::uint32_t((sqrt(8.0 * q + 1.0) - 1.0) / 2.0);
    while (t * (t + 1) / 2 > q) --t;
    while ((t + 1) * (t + 2) / 2 <= q) ++t;
    ta = t;
    tb = q - t * (t + 1) / 2;
}

//! One block per update tile of a level: rows a of tile ta and b of tile tb
//! of a panel's rows below (a >= b) give -L(a, :) L(b, :)^T to the entry
//! (row a, column b) of the ancestor panel that holds column b.
__global__ void update_ancestors(const std::uint32_t* level_supernodes,
                                 const std::uint32_t* tile_start, std::uint32_t count, PanelsView p)
{
    constexpr std::uint32_t T = kUpdateTile;
    __shared__ double       As[T][T + 1], Bs[T][T + 1];
    // the supernode whose tiles hold this block: the last start <= blockIdx.x
    std::uint32_t lo = 0, hi = count;
    while (hi - lo > 1) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (tile_start[mid] <= blockIdx.x) lo = mid;
        else hi = mid;
    }
    const std::uint32_t s = level_supernodes[lo];
    std::uint32_t       ta, tb;
    tile_pair(blockIdx.x - tile_start[lo], ta, tb);
    const std::uint32_t nc = p.columns(s), ld = p.num_rows(s), below = ld - nc;
    const double*       P  = p.panel(s);
    const std::uint32_t a0 = ta * T, b0 = tb * T;
    const std::uint32_t tx = threadIdx.x % T, ty = threadIdx.x / T;  // 32 x 8 threads
    constexpr std::uint32_t kRowsPerThread = T * T / kCholeskyThreads;
    double                  sum[kRowsPerThread] = {};
    for (std::uint32_t c0 = 0; c0 < nc; c0 += T) {
        for (std::uint32_t x = threadIdx.x; x < T * T; x += blockDim.x) {
            const std::uint32_t r = x % T, c = c0 + x / T;
            const bool          in_columns = c < nc;
            As[r][x / T] = in_columns && a0 + r < below ? P[nc + a0 + r + std::uint64_t(c) * ld] : 0.0;
            Bs[r][x / T] = in_columns && b0 + r < below ? P[nc + b0 + r + std::uint64_t(c) * ld] : 0.0;
        }
        __syncthreads();
        for (std::uint32_t c = 0; c < T; ++c) {
            const double b = Bs[tx][c];
            for (std::uint32_t i = 0; i < kRowsPerThread; ++i) sum[i] += As[ty + i * (T / kRowsPerThread)][c] * b;
        }
        __syncthreads();
    }
    const std::uint32_t* rows = p.rows_of(s) + nc;
    for (std::uint32_t i = 0; i < kRowsPerThread; ++i) {
        const std::uint32_t a = a0 + ty + i * (T / kRowsPerThread), b = b0 + tx;
        if (a >= below || b >= below || a < b) continue;
        const std::uint32_t row = rows[a], column = rows[b];
        const std::uint32_t t   = p.column_supernode[column];
        double*             Pt  = p.panel(t);
        atomicAdd(&Pt[p.position(t, row) + std::uint64_t(column - p.first_column[t]) * p.num_rows(t)],
                  -sum[i]);
    }
}

//! y (rows x stride, row-major, new order), columns [r0, r0 + R): a level of
//! L y = b, one block per supernode: its diagonal block, then its rows
//! below subtracted from the ancestors' rows.
__global__ void forward_level(const std::uint32_t* level_supernodes, PanelsView p, double* y,
                              std::uint32_t stride, std::uint32_t r0, std::uint32_t R)
{
    __shared__ double   ys[kMaxPanelColumns * kSolveColumns];
    const std::uint32_t s  = level_supernodes[blockIdx.x];
    const std::uint32_t nc = p.columns(s), ld = p.num_rows(s), first = p.first_column[s];
    const double*       P  = p.panel(s);
    for (std::uint32_t x = threadIdx.x; x < nc * R; x += blockDim.x)
        ys[x] = y[std::uint64_t(first + x / R) * stride + r0 + x % R];
    __syncthreads();
    for (std::uint32_t c = 0; c < nc; ++c) {
        if (threadIdx.x < R) ys[c * R + threadIdx.x] /= P[c + std::uint64_t(c) * ld];
        __syncthreads();
        for (std::uint32_t x = threadIdx.x; x < (nc - c - 1) * R; x += blockDim.x) {
            const std::uint32_t i = c + 1 + x / R, r = x % R;
            ys[i * R + r] -= P[i + std::uint64_t(c) * ld] * ys[c * R + r];
        }
        __syncthreads();
    }
    for (std::uint32_t x = threadIdx.x; x < nc * R; x += blockDim.x)
        y[std::uint64_t(first + x / R) * stride + r0 + x % R] = ys[x];
    const std::uint32_t* rows = p.rows_of(s);
    for (std::uint32_t x = threadIdx.x; x < (ld - nc) * R; x += blockDim.x) {
        const std::uint32_t a = nc + x / R, r = x % R;
        double              sum = 0;
        for (std::uint32_t c = 0; c < nc; ++c) sum += P[a + std::uint64_t(c) * ld] * ys[c * R + r];
        atomicAdd(&y[std::uint64_t(rows[a]) * stride + r0 + r], -sum);
    }
}

//! A level of L^T x = y (top down), one block per supernode: the rows
//! below (solved already) subtracted, then its diagonal block.
__global__ void backward_level(const std::uint32_t* level_supernodes, PanelsView p, double* y,
                               std::uint32_t stride, std::uint32_t r0, std::uint32_t R)
{
    __shared__ double   ys[kMaxPanelColumns * kSolveColumns];
    const std::uint32_t s  = level_supernodes[blockIdx.x];
    const std::uint32_t nc = p.columns(s), ld = p.num_rows(s), first = p.first_column[s];
    const double*       P  = p.panel(s);
    const std::uint32_t* rows = p.rows_of(s);
    for (std::uint32_t x = threadIdx.x; x < nc * R; x += blockDim.x)
        ys[x] = y[std::uint64_t(first + x / R) * stride + r0 + x % R];
    __syncthreads();
    const std::uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (std::uint32_t x = warp; x < nc * R; x += blockDim.x / 32) {
        const std::uint32_t c = x / R, r = x % R;
        double              sum = 0;
        for (std::uint32_t a = nc + lane; a < ld; a += 32)
            sum += P[a + std::uint64_t(c) * ld] * y[std::uint64_t(rows[a]) * stride + r0 + r];
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) ys[c * R + r] -= sum;
    }
    __syncthreads();
    for (std::uint32_t c = nc; c-- > 0;) {
        if (threadIdx.x < R) ys[c * R + threadIdx.x] /= P[c + std::uint64_t(c) * ld];
        __syncthreads();
        for (std::uint32_t x = threadIdx.x; x < c * R; x += blockDim.x) {
            const std::uint32_t i = x / R, r = x % R;
            ys[i * R + r] -= P[c + std::uint64_t(i) * ld] * ys[c * R + r];
        }
        __syncthreads();
    }
    for (std::uint32_t x = threadIdx.x; x < nc * R; x += blockDim.x)
        y[std::uint64_t(first + x / R) * stride + r0 + x % R] = ys[x];
}

//! to[k] = from[map[k]] (rows of R values) or, scattering, to[map[k]] = from[k].
__global__ void permute_rows(std::uint32_t n, std::uint32_t R, const std::uint32_t* map,
                             const double* from, double* to, bool scatter)
{
    const std::uint64_t x = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    if (x >= std::uint64_t(n) * R) return;
    const std::uint64_t k = x / R, r = x % R;
    if (scatter) to[map[k] * std::uint64_t(R) + r] = from[x];
    else to[x] = from[map[k] * std::uint64_t(R) + r];
}

}  // namespace rxmesh::detail
