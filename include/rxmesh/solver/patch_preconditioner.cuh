// PatchGaussSeidel<T, K>: a preconditioner for pcg_solve (solver/pcg.cuh)
// that uses the mesh's patches. It is block Jacobi over the patches (the
// couplings between two patches are dropped), each patch's block A_pp
// applied by symmetric Gauss-Seidel from z = 0, in multicolour order, one
// thread block per patch with the patch's z in shared memory:
//
//   forward:  for colour c = 0 .. C-1, for each row i of colour c at once:
//             z_i = D_i^-1 (r_i - sum_{j in patch, j != i} A_ij z_j)
//   backward: the same, colours C-1 .. 0
//
// D_i is row i's K x K diagonal block (inverted at setup by a Cholesky, so
// that one that is not positive definite is refused). Rows of one colour are
// never neighbours inside the patch, so a colour's rows update in parallel
// exactly as they would one after another. With z = 0 at the start, one
// forward + backward sweep applies (D + U)^-1 D (D + L)^-1 of A_pp in colour
// order, symmetric and positive definite for a symmetric positive definite
// A (Saad, Iterative Methods for Sparse Linear Systems, 4.1 and 10.2), as
// CG needs; `sweeps` > 1 repeats the symmetric sweep, still symmetric.
//
//   PatchGaussSeidel<float> patch(mesh, A);
//   pcg_solve(A, b, x, patch, {.max_iterations = 2000, .tolerance = 1e-6});
//
// The colours depend only on the pattern: greedy, row by row in ascending
// order, one thread per patch at setup. A patch's rows are contiguous in
// the mesh's numbering (matrix/sparse_pattern.h), its range the store's
// vertex offsets. A new set of values on the same pattern wants refresh(A).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/sparse_matrix.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

struct PatchGaussSeidelOptions
{
    int sweeps = 1;  // symmetric sweeps (forward + backward) per application, >= 1
    int threads = 128;  // per patch's block, a multiple of 32
};

namespace detail {

//! Greedy colours of each patch's rows (one thread per patch): row i takes
//! the smallest colour none of its lower in-patch neighbours holds;
//! colours_of[p] = the patch's colour count. Colours are looked for in
//! windows of kWindow (the bits of a word).
template <int kWindow = 64>
__global__ void colour_patch_rows(SparsePatternView pattern, const std::uint32_t* offsets,
                                         std::uint32_t num_patches, std::uint16_t* colour,
                                         std::uint16_t* colours_of)
{
    const std::uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= num_patches)
        return;
    const std::uint32_t lo = offsets[p], hi = offsets[p + 1];
    std::uint32_t       count = 0;
    for (std::uint32_t i = lo; i < hi; ++i) {
        std::uint32_t c = 0;
        // a full window needs kWindow distinct neighbours in it, so the
        // loop ends within degree / kWindow + 1 windows
        static_assert(kWindow == 64, "one 64-bit word per window");
        for (std::uint32_t base = 0;; base += kWindow) {
            std::uint64_t used = 0;
            for (int b = pattern.row_offsets[i]; b < pattern.row_offsets[i + 1]; ++b) {
                const std::uint32_t j = std::uint32_t(pattern.columns[b]);
                if (j >= lo && j < i && colour[j] >= base && colour[j] < base + kWindow)
                    used |= std::uint64_t(1) << (colour[j] - base);
            }
            if (used != ~std::uint64_t(0)) {
                c = base + std::uint32_t(__ffsll((long long)~used)) - 1;
                break;
            }
        }
        RXMESH_DEVICE_CHECK(c < 65535u);  // a patch has fewer than 2^16 vertices
        colour[i] = std::uint16_t(c);
        count     = c + 1 > count ? c + 1 : count;
    }
    colours_of[p] = std::uint16_t(count);
}

//! inv = the inverse of the symmetric K x K block a (row-major) by its
//! Cholesky factor; false when a is not positive definite (or not finite).
template <typename T, int K>
RXMESH_DEVICE bool invert_spd_block(const T* a, T* inv)
{
    T l[K][K] = {};
    for (int j = 0; j < K; ++j) {
        T d = a[j * K + j];
        for (int k = 0; k < j; ++k)
            d -= l[j][k] * l[j][k];
        if (!(d > T(0)) || !isfinite(d))
            return false;
        l[j][j] = sqrt(d);
        for (int i = j + 1; i < K; ++i) {
            T s = a[i * K + j];
            for (int k = 0; k < j; ++k)
                s -= l[i][k] * l[j][k];
            l[i][j] = s / l[j][j];
        }
    }
    for (int col = 0; col < K; ++col) {  // solve L L^T x = e_col
        T y[K];
        for (int i = 0; i < K; ++i) {
            T s = i == col ? T(1) : T(0);
            for (int k = 0; k < i; ++k)
                s -= l[i][k] * y[k];
            y[i] = s / l[i][i];
        }
        for (int i = K - 1; i >= 0; --i) {
            T s = y[i];
            for (int k = i + 1; k < K; ++k)
                s -= l[k][i] * y[k];
            y[i] = s / l[i][i];
        }
        for (int i = 0; i < K; ++i)
            inv[i * K + col] = y[i];
    }
    return true;
}

//! One row's relaxation inside its patch [lo, hi): z_i = D_i^-1 (r_i -
//! sum_{j != i in the patch} A_ij z_j), for the R = N / K columns.
template <typename T, int K, int N>
RXMESH_DEVICE void relax_row(const SparseMatrixView<const T, K>& A, const T* dinv, const T* r,
                             T* zs, std::uint32_t i, std::uint32_t lo, std::uint32_t hi)
{
    T s[N];
    for (int q = 0; q < N; ++q)
        s[q] = r[std::uint64_t(i) * N + q];
    for (int b = A.pattern.row_offsets[i]; b < A.pattern.row_offsets[i + 1]; ++b) {
        const std::uint32_t j = std::uint32_t(A.pattern.columns[b]);
        if (j == i || j < lo || j >= hi)
            continue;
        const T* blk = A.block(b);
        const T* zj  = zs + std::uint64_t(j - lo) * N;
        for (int c = 0; c < N / K; ++c)
            for (int k = 0; k < K; ++k)
                for (int l = 0; l < K; ++l)
                    s[c * K + k] -= blk[k * K + l] * zj[c * K + l];
    }
    const T* d  = dinv + std::uint64_t(i) * K * K;
    T*       zi = zs + std::uint64_t(i - lo) * N;
    for (int c = 0; c < N / K; ++c)
        for (int k = 0; k < K; ++k) {
            T v = 0;
            for (int l = 0; l < K; ++l)
                v += d[k * K + l] * s[c * K + l];
            zi[c * K + k] = v;
        }
}

//! z = the patch preconditioner applied to r: one block per patch.
template <typename T, int K, int N>
__global__ void patch_gauss_seidel_kernel(SparseMatrixView<const T, K> A, const T* dinv,
                                          const std::uint32_t* offsets,
                                          const std::uint16_t* colour,
                                          const std::uint16_t* colours_of, const T* r, T* z,
                                          int sweeps)
{
    extern __shared__ unsigned char patch_gs_shared[];
    T*                  zs = reinterpret_cast<T*>(patch_gs_shared);
    const std::uint32_t p  = blockIdx.x;
    const std::uint32_t lo = offsets[p], hi = offsets[p + 1];
    const std::uint32_t values = (hi - lo) * N;
    for (std::uint32_t q = threadIdx.x; q < values; q += blockDim.x)
        zs[q] = T(0);
    __syncthreads();
    const int colours = colours_of[p];
    for (int s = 0; s < 2 * sweeps; ++s)
        for (int step = 0; step < colours; ++step) {
            const int c = s % 2 == 0 ? step : colours - 1 - step;
            for (std::uint32_t i = lo + threadIdx.x; i < hi; i += blockDim.x)
                if (colour[i] == c)
                    relax_row<T, K, N>(A, dinv, r, zs, i, lo, hi);
            __syncthreads();
        }
    for (std::uint32_t q = threadIdx.x; q < values; q += blockDim.x)
        z[std::uint64_t(lo) * N + q] = zs[q];
}

}  // namespace detail

template <typename T, int K = 1>
class PatchGaussSeidel
{
   public:
    //! \throw InvalidInputError when A is not over the mesh's vertices, the
    //!        options are out of range or a diagonal block is not positive
    //!        definite (no symmetric positive definite matrix has one).
    PatchGaussSeidel(const RXMesh& mesh, const SparseMatrix<T, K>& A,
                     const PatchGaussSeidelOptions& options = {}, cudaStream_t stream = 0)
        : m_pattern(A.pattern()), m_options(options), m_num_patches(mesh.num_patches())
    {
        if (A.num_rows() != mesh.num_vertices())
            throw InvalidInputError("PatchGaussSeidel: the matrix has " +
                                    std::to_string(A.num_rows()) + " block rows, the mesh " +
                                    std::to_string(mesh.num_vertices()) + " vertices");
        if (options.sweeps < 1 || options.threads < 32 || options.threads > 1024 ||
            options.threads % 32 != 0)
            throw InvalidInputError(
                "PatchGaussSeidel: sweeps >= 1 and threads a multiple of 32 in [32, 1024]");
        m_offsets = DeviceBuffer<std::uint32_t>(std::size_t(m_num_patches) + 1, stream);
        if (m_num_patches > 0)
            RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_offsets.data(), mesh.store().vertex_offsets.data(),
                                              m_offsets.bytes(), cudaMemcpyDeviceToDevice, stream));
        const std::vector<std::uint32_t> offsets = m_offsets.to_host();
        for (std::uint32_t p = 0; p < m_num_patches; ++p)
            m_largest_patch = std::max(m_largest_patch, offsets[p + 1] - offsets[p]);
        if (m_num_patches > 0 && offsets.back() != A.num_rows())
            throw InvalidInputError("PatchGaussSeidel: the mesh's patches do not cover the rows");
        colour(A, stream);
        refresh(A, stream);
    }

    //! The inverse diagonal blocks of A's values now (A on the same pattern).
    void refresh(const SparseMatrix<T, K>& A, cudaStream_t stream = 0)
    {
        require_pattern(A);
        m_dinv = DeviceBuffer<T>(std::size_t(A.num_rows()) * K * K, stream);
        DeviceBuffer<int> bad(1, stream);
        bad.memset(0);
        int*                               flag = bad.data();
        T*                                 inv  = m_dinv.data();
        const SparseMatrixView<const T, K> a    = A.view();
        detail::for_indices(
            A.num_rows(),
            [=] __device__(std::uint32_t row) {
                const int b = a.pattern.find(row, row);
                if (b < 0 || !detail::invert_spd_block<T, K>(a.block(b), inv + std::uint64_t(row) * K * K))
                    atomicExch(flag, 1);  // an integer flag: any order gives the same result
            },
            stream);
        if (bad.to_host()[0] != 0)
            throw InvalidInputError(
                "PatchGaussSeidel: a diagonal block is missing or not positive definite; the "
                "matrix is not symmetric positive definite");
    }

    //! z = M^-1 r for R = N / K right-hand sides side by side.
    //! \throw Error when a patch's z does not fit a block's shared memory.
    template <int N>
    void apply(const SparseMatrix<T, K>& A, VertexView<const T, N> r, VertexView<T, N> z,
               cudaStream_t stream = 0) const
    {
        static_assert(N % K == 0, "whole blocks: N = columns * K");
        require_pattern(A);
        if (m_num_patches == 0)
            return;
        constexpr auto    kernel = detail::patch_gauss_seidel_kernel<T, K, N>;
        const std::size_t smem   = std::size_t(m_largest_patch) * N * sizeof(T);
        detail::require_shared_memory<kernel>(smem);
        kernel<<<m_num_patches, m_options.threads, smem, stream>>>(
            A.view(), m_dinv.data(), m_offsets.data(), m_colour.data(), m_colours_of.data(),
            r.data(), z.data(), m_options.sweeps);
        RXMESH_CHECK_LAUNCH();
    }

    //! Each row's colour (global order) and each patch's colour count, for
    //! tests and for a look at the ordering.
    std::vector<std::uint16_t> colours() const { return m_colour.to_host(); }
    std::vector<std::uint16_t> colours_per_patch() const { return m_colours_of.to_host(); }
    const PatchGaussSeidelOptions& options() const { return m_options; }

    //! Device bytes held: the colours, the patch offsets, the inverse blocks.
    std::size_t bytes() const
    {
        return m_colour.allocated_bytes() + m_colours_of.allocated_bytes() +
               m_offsets.allocated_bytes() + m_dinv.allocated_bytes();
    }

   private:
    void colour(const SparseMatrix<T, K>& A, cudaStream_t stream)
    {
        m_colour     = DeviceBuffer<std::uint16_t>(A.num_rows(), stream);
        m_colours_of = DeviceBuffer<std::uint16_t>(m_num_patches, stream);
        if (m_num_patches == 0)
            return;
        constexpr int threads = 64;
        detail::colour_patch_rows<><<<(m_num_patches + threads - 1) / threads, threads, 0, stream>>>(
            A.pattern()->view(), m_offsets.data(), m_num_patches, m_colour.data(),
            m_colours_of.data());
        RXMESH_CHECK_LAUNCH();
    }

    void require_pattern(const SparseMatrix<T, K>& A) const
    {
        if (A.pattern() != m_pattern)
            throw InvalidInputError(
                "PatchGaussSeidel: the matrix is not on the pattern it was built for");
    }

    std::shared_ptr<const SparsePattern> m_pattern;
    PatchGaussSeidelOptions              m_options;
    std::uint32_t                        m_num_patches   = 0;
    std::uint32_t                        m_largest_patch = 0;
    DeviceBuffer<std::uint32_t>          m_offsets;
    DeviceBuffer<std::uint16_t>          m_colour, m_colours_of;
    DeviceBuffer<T>                      m_dinv;
};

}  // namespace rxmesh
