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

//! The shared memory of a solve block: a panel's diagonal block (the lower
//! triangle, nc x nc) and its nc x R values.
inline std::size_t solve_shared_bytes(std::uint32_t max_columns)
{
    return sizeof(double) * (std::size_t(max_columns) * max_columns + max_columns * kSolveColumns);
}

//! One solve task: a panel, the chunk of its rows below a block takes.
struct SolveTask
{
    std::uint32_t s, nc, ld, first, chunks, a0, a1;  // rows [a0, a1) of the panel

    __device__ SolveTask(const std::uint32_t* tasks, std::uint32_t chunk_rows, const PanelsView& p)
    {
        s             = tasks[2 * blockIdx.x];
        const auto j  = tasks[2 * blockIdx.x + 1];
        nc            = p.columns(s);
        ld            = p.num_rows(s);
        first         = p.first_column[s];
        chunks        = solve_chunks(ld - nc, chunk_rows);
        const auto cr = chunks == 1 ? ld - nc : chunk_rows;
        a0            = nc + j * cr;
        a1            = min(ld, a0 + cr);
    }
};

//! The panel's diagonal block into D (column-major, nc x nc, the upper
//! part zero, the diagonal as its reciprocals): its loads all issued at
//! once, not one column per step of the triangular solve.
__device__ inline void load_diagonal(const double* P, std::uint32_t nc, std::uint32_t ld, double* D)
{
    for (std::uint32_t x = threadIdx.x; x < nc * nc; x += blockDim.x) {
        const std::uint32_t i = x % nc, j = x / nc;
        const double        v = i >= j ? P[i + std::uint64_t(j) * ld] : 0.0;
        D[x]                  = i == j ? 1.0 / v : v;
    }
}

//! ys = D^-1 ys (R columns), by the block's first warp.
__device__ inline void forward_diagonal(const double* D, std::uint32_t nc, double* ys, std::uint32_t R)
{
    const std::uint32_t lane = threadIdx.x;
    for (std::uint32_t c = 0; c < nc; ++c) {
        if (lane < R) ys[c * R + lane] *= D[c + c * nc];
        __syncwarp();
        for (std::uint32_t x = lane; x < (nc - c - 1) * R; x += 32) {
            const std::uint32_t i = c + 1 + x / R, r = x % R;
            ys[i * R + r] -= D[i + c * nc] * ys[c * R + r];
        }
        __syncwarp();
    }
}

//! ys = D^-T ys (R columns), by the block's first warp.
__device__ inline void backward_diagonal(const double* D, std::uint32_t nc, double* ys, std::uint32_t R)
{
    const std::uint32_t lane = threadIdx.x;
    for (std::uint32_t c = nc; c-- > 0;) {
        if (lane < R) ys[c * R + lane] *= D[c + c * nc];
        __syncwarp();
        for (std::uint32_t x = lane; x < c * R; x += 32) {
            const std::uint32_t i = x / R, r = x % R;
            ys[i * R + r] -= D[c + i * nc] * ys[c * R + r];
        }
        __syncwarp();
    }
}

//! The threads that share one of `pairs` dot products: a power of two of at
//! most a warp, as many as the block has per pair.
__device__ inline std::uint32_t threads_per_pair(std::uint32_t pairs)
{
    const std::uint32_t per = pairs == 0 ? 32 : blockDim.x / pairs;
    std::uint32_t       g   = 1;
    while (2 * g <= per && g < 32) g *= 2;
    return g;
}

//! The sum over a group of g lanes (g a power of two), in its first lane.
__device__ inline double group_sum(double v, std::uint32_t g)
{
    for (std::uint32_t offset = g / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset, g);
    return v;
}

//! Whether this block is the last of its panel's `chunks` to get here (the
//! counter is left at 0 for the next solve). Every thread calls it.
__device__ inline bool last_of_chunks(std::uint32_t* counter, std::uint32_t chunks)
{
    __shared__ bool last;
    __threadfence();  // this block's atomics on y before the count
    __syncthreads();
    if (threadIdx.x == 0) {
        last = atomicAdd(counter, 1u) == chunks - 1;
        if (last) *counter = 0;
    }
    __syncthreads();
    return last;
}

//! y (rows x stride, row-major, new order), columns [r0, r0 + R): a level of
//! L y = b. A block per task: its panel's diagonal block solved (by every
//! chunk's block alike), then its chunk of the rows below subtracted from
//! the ancestors' rows; the panel's own rows written by its last block, when
//! every chunk has read them.
__global__ void forward_level(const std::uint32_t* tasks, std::uint32_t chunk_rows, PanelsView p,
                              double* y, std::uint32_t stride, std::uint32_t r0, std::uint32_t R,
                              std::uint32_t* counters)
{
    extern __shared__ double solve_shared[];
    const SolveTask          t(tasks, chunk_rows, p);
    const double*            P  = p.panel(t.s);
    double*                  D  = solve_shared;
    double*                  ys = solve_shared + t.nc * t.nc;
    load_diagonal(P, t.nc, t.ld, D);
    for (std::uint32_t x = threadIdx.x; x < t.nc * R; x += blockDim.x)
        ys[x] = y[std::uint64_t(t.first + x / R) * stride + r0 + x % R];
    __syncthreads();
    if (threadIdx.x < 32) forward_diagonal(D, t.nc, ys, R);
    __syncthreads();
    // each (row, column) pair of the chunk by g threads splitting the columns
    const std::uint32_t* rows  = p.rows_of(t.s);
    const std::uint32_t  pairs = (t.a1 - t.a0) * R, g = threads_per_pair(pairs);
    for (std::uint32_t base = 0; base < pairs; base += blockDim.x / g) {
        const std::uint32_t x = base + threadIdx.x / g, k = threadIdx.x % g;
        const std::uint32_t a = t.a0 + x / R, r = x % R;
        double              sum = 0;
        if (x < pairs)
#pragma unroll 4
            for (std::uint32_t c = k; c < t.nc; c += g) sum += P[a + std::uint64_t(c) * t.ld] * ys[c * R + r];
        sum = group_sum(sum, g);
        if (x < pairs && k == 0) atomicAdd(&y[std::uint64_t(rows[a]) * stride + r0 + r], -sum);
    }
    if (t.chunks > 1 && !last_of_chunks(&counters[t.s], t.chunks)) return;
    for (std::uint32_t x = threadIdx.x; x < t.nc * R; x += blockDim.x)
        y[std::uint64_t(t.first + x / R) * stride + r0 + x % R] = ys[x];
}

//! A level of L^T x = y (top down). A block per task: its chunk of the rows
//! below (solved already) subtracted from the panel's own rows; then, by the
//! panel's last block, its diagonal block.
__global__ void backward_level(const std::uint32_t* tasks, std::uint32_t chunk_rows, PanelsView p,
                               double* y, std::uint32_t stride, std::uint32_t r0, std::uint32_t R,
                               std::uint32_t* counters)
{
    extern __shared__ double solve_shared[];
    const SolveTask          t(tasks, chunk_rows, p);
    const double*            P    = p.panel(t.s);
    const std::uint32_t*     rows = p.rows_of(t.s);
    double*                  D    = solve_shared;
    double*                  ys   = solve_shared + t.nc * t.nc;
    const bool               split = t.chunks > 1;
    if (!split)
        for (std::uint32_t x = threadIdx.x; x < t.nc * R; x += blockDim.x)
            ys[x] = y[std::uint64_t(t.first + x / R) * stride + r0 + x % R];
    __syncthreads();
    // each (column, right-hand side) pair by g threads splitting the rows
    const std::uint32_t pairs = t.nc * R, g = threads_per_pair(pairs);
    for (std::uint32_t base = 0; base < pairs; base += blockDim.x / g) {
        const std::uint32_t x = base + threadIdx.x / g, k = threadIdx.x % g;
        const std::uint32_t c = x / R, r = x % R;
        double              sum = 0;
        if (x < pairs)
#pragma unroll 4
            for (std::uint32_t a = t.a0 + k; a < t.a1; a += g)
                sum += P[a + std::uint64_t(c) * t.ld] * y[std::uint64_t(rows[a]) * stride + r0 + r];
        sum = group_sum(sum, g);
        if (x >= pairs || k != 0) continue;
        if (split) atomicAdd(&y[std::uint64_t(t.first + c) * stride + r0 + r], -sum);
        else ys[c * R + r] -= sum;
    }
    if (split) {
        if (!last_of_chunks(&counters[t.s], t.chunks)) return;
        // every chunk's sums are in y now (in L2: read past this SM's L1)
        for (std::uint32_t x = threadIdx.x; x < t.nc * R; x += blockDim.x)
            ys[x] = __ldcg(&y[std::uint64_t(t.first + x / R) * stride + r0 + x % R]);
    }
    load_diagonal(P, t.nc, t.ld, D);
    __syncthreads();
    if (threadIdx.x < 32) backward_diagonal(D, t.nc, ys, R);
    __syncthreads();
    for (std::uint32_t x = threadIdx.x; x < t.nc * R; x += blockDim.x)
        y[std::uint64_t(t.first + x / R) * stride + r0 + x % R] = ys[x];
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
