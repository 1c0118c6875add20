// What users do with a SparseMatrix<T, K> (matrix/sparse_matrix.h), on the
// device, stream-ordered (none synchronises unless it says so):
//
//   multiply(A, x, y, alpha, beta)   y = alpha A x + beta y; x, y views of
//                                    N = R * K values per vertex (R columns)
//   residual(A, b, x, r)             r = b - A x, each row summed in double
//   scale(A, alpha)                  A *= alpha
//   axpby(alpha, X, beta, Y)         Y = alpha X + beta Y (one pattern)
//   add_to_diagonal(A, alpha)        A += alpha I
//   add_to_diagonal(A, d, alpha)     A += alpha diag(d), d: K values per vertex
//   diagonal(A, d)                   d = the diagonal entries, K per vertex
//   transpose(A)                     a new matrix, A^T, on A's pattern
//   impose_dirichlet(A, fixed, ...)  fix vertices (see below)
//
// A view's number of elements must be the matrix's rows; sizes that differ
// throw InvalidInputError, before anything runs. Host export: host_export.h.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_for.cuh>

#include <cstdint>
#include <string>
#include <type_traits>

#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/matrix/sparse_matrix.h"

namespace rxmesh {

namespace detail {

//! Keeps an argument out of deduction, so that it converts: scale(A, 2.0) on
//! a float matrix, an Attribute where an output view is taken.
template <typename T>
using Scalar = NonDeduced<T>;

//! A view of T or const T (both are accepted where the function only reads).
template <typename T, typename U>
constexpr bool is_view_of = std::is_same_v<std::remove_const_t<U>, T>;

template <typename T, int K, typename View>
void require_rows(const SparseMatrix<T, K>& A, const View& v, const char* what)
{
    if (v.num_elements() != A.num_rows())
        throw InvalidInputError(std::string(what) + ": a view of " +
                                std::to_string(v.num_elements()) + " vertices for a matrix of " +
                                std::to_string(A.num_rows()) + " rows");
}

//! f(i) for i in [0, n) on the device; nothing for n = 0.
template <typename F>
void for_indices(std::uint64_t n, F f, cudaStream_t stream)
{
    if (n != 0)
        RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(n, f, stream));
}

//! One block row's product with R = N / K columns, in registers.
template <typename T, int K, int N>
struct RowMultiply
{
    SparseMatrixView<const T, K> A;
    const T*                     x;
    T*                           y;
    T                            alpha, beta;

    RXMESH_DEVICE void operator()(std::uint32_t row) const
    {
        T acc[N] = {};
        for (int b = A.pattern.row_offsets[row]; b < A.pattern.row_offsets[row + 1]; ++b) {
            const T* blk = A.block(b);
            const T* xc  = x + std::int64_t(A.pattern.columns[b]) * N;
            for (int r = 0; r < N / K; ++r)
                for (int i = 0; i < K; ++i)
                    for (int j = 0; j < K; ++j)
                        acc[r * K + i] += blk[i * K + j] * xc[r * K + j];
        }
        T* yr = y + std::int64_t(row) * N;
        for (int q = 0; q < N; ++q)  // beta = 0 never reads y (it may hold NaN)
            yr[q] = beta == T(0) ? alpha * acc[q] : alpha * acc[q] + beta * yr[q];
    }
};

}  // namespace detail

template <typename T, int K, typename U, int N>
void multiply(const SparseMatrix<T, K>& A, AttributeView<U, N, VertexId> x,
              detail::Scalar<VertexView<T, N>> y,
              detail::Scalar<T> alpha = T(1), detail::Scalar<T> beta = T(0),
              cudaStream_t stream = 0)
{
    static_assert(detail::is_view_of<T, U>, "x holds the matrix's value type");
    static_assert(N % K == 0, "a view of whole blocks: N = columns * K");
    detail::require_rows(A, x, "multiply");
    detail::require_rows(A, y, "multiply");
    if (x.data() == y.data() && A.num_rows() != 0)
        throw InvalidInputError("multiply: x and y are the same memory");
    detail::for_indices(A.num_rows(),
                        detail::RowMultiply<T, K, N>{A.view(), x.data(), y.data(), alpha, beta},
                        stream);
}

namespace detail {

//! One block row of b - A x summed in double (BlasAccumulator), rounded once.
template <typename T, int K, int N>
struct RowResidual
{
    SparseMatrixView<const T, K> A;
    const T*                     b;
    const T*                     x;
    T*                           r;

    RXMESH_DEVICE void operator()(std::uint32_t row) const
    {
        using Acc = BlasAccumulator<T>;
        Acc acc[N];
        for (int q = 0; q < N; ++q)
            acc[q] = Acc(b[std::int64_t(row) * N + q]);
        for (int e = A.pattern.row_offsets[row]; e < A.pattern.row_offsets[row + 1]; ++e) {
            const T* blk = A.block(e);
            const T* xc  = x + std::int64_t(A.pattern.columns[e]) * N;
            for (int c = 0; c < N / K; ++c)
                for (int i = 0; i < K; ++i)
                    for (int j = 0; j < K; ++j)
                        acc[c * K + i] -= Acc(blk[i * K + j]) * Acc(xc[c * K + j]);
        }
        for (int q = 0; q < N; ++q)
            r[std::int64_t(row) * N + q] = T(acc[q]);
    }
};

}  // namespace detail

//! r = b - A x with each row's sum in double: for a float matrix, b and A x
//! nearly cancel near a solution, and a float sum would leave only rounding
//! (a solver's true residual is formed this way).
template <typename T, int K, typename U, typename V, int N>
void residual(const SparseMatrix<T, K>& A, AttributeView<U, N, VertexId> b,
              AttributeView<V, N, VertexId> x, detail::Scalar<VertexView<T, N>> r,
              cudaStream_t stream = 0)
{
    static_assert(detail::is_view_of<T, U> && detail::is_view_of<T, V>,
                  "b and x hold the matrix's value type");
    static_assert(N % K == 0, "a view of whole blocks: N = columns * K");
    detail::require_rows(A, b, "residual");
    detail::require_rows(A, x, "residual");
    detail::require_rows(A, r, "residual");
    if ((x.data() == r.data() || b.data() == r.data()) && A.num_rows() != 0)
        throw InvalidInputError("residual: r is the memory of b or x");
    detail::for_indices(A.num_rows(),
                        detail::RowResidual<T, K, N>{A.view(), b.data(), x.data(), r.data()},
                        stream);
}

template <typename T, int K>
void scale(SparseMatrix<T, K>& A, detail::Scalar<T> alpha, cudaStream_t stream = 0)
{
    T* v = A.values();
    detail::for_indices(A.num_values(), [=] __device__(std::uint64_t i) { v[i] *= alpha; },
                        stream);
}

template <typename T, int K>
void axpby(detail::Scalar<T> alpha, const SparseMatrix<T, K>& X, detail::Scalar<T> beta,
           SparseMatrix<T, K>& Y,
           cudaStream_t stream = 0)
{
    require_same_pattern(X, Y, "axpby");
    const T* x = X.values();
    T*       y = Y.values();
    detail::for_indices(
        Y.num_values(), [=] __device__(std::uint64_t i) { y[i] = alpha * x[i] + beta * y[i]; },
        stream);
}

namespace detail {

//! Adds value(row, i) to diagonal entry i of every block row's diagonal block.
template <typename T, int K, typename Value>
void add_diagonal_values(SparseMatrix<T, K>& A, Value value, cudaStream_t stream)
{
    const SparseMatrixView<T, K> a = A.view();
    for_indices(
        A.num_rows(),
        [=] __device__(std::uint32_t row) {
            T* blk = a.block(a.pattern.find(row, row));
            for (int i = 0; i < K; ++i)
                blk[i * K + i] += value(row, i);
        },
        stream);
}

}  // namespace detail

template <typename T, int K>
void add_to_diagonal(SparseMatrix<T, K>& A, detail::Scalar<T> alpha, cudaStream_t stream = 0)
{
    detail::add_diagonal_values(A, [=] __device__(std::uint32_t, int) { return alpha; }, stream);
}

template <typename T, int K, typename U>
void add_to_diagonal(SparseMatrix<T, K>& A, AttributeView<U, K, VertexId> d,
                     detail::Scalar<T> alpha = T(1), cudaStream_t stream = 0)
{
    static_assert(detail::is_view_of<T, U>, "d holds the matrix's value type");
    detail::require_rows(A, d, "add_to_diagonal");
    const U* values = d.data();
    detail::add_diagonal_values(
        A,
        [=] __device__(std::uint32_t row, int i) {
            return alpha * values[std::uint64_t(row) * K + i];
        },
        stream);
}

template <typename T, int K>
void diagonal(const SparseMatrix<T, K>& A, detail::Scalar<VertexView<T, K>> d,
              cudaStream_t stream = 0)
{
    detail::require_rows(A, d, "diagonal");
    const SparseMatrixView<const T, K> a = A.view();
    detail::for_indices(
        A.num_rows(),
        [=] __device__(std::uint32_t row) {
            const T* blk = a.block(a.pattern.find(row, row));
            for (int i = 0; i < K; ++i)
                d.data()[std::uint64_t(row) * K + i] = blk[i * K + i];
        },
        stream);
}

//! A^T on A's pattern (the vertex patterns are symmetric): block (i, j) of
//! the result is block (j, i) of A transposed.
template <typename T, int K>
SparseMatrix<T, K> transpose(const SparseMatrix<T, K>& A, cudaStream_t stream = 0)
{
    SparseMatrix<T, K>                 out(A.pattern(), stream);
    const SparseMatrixView<const T, K> a = A.view();
    const SparseMatrixView<T, K>       t = out.view();
    detail::for_indices(
        A.num_rows(),
        [=] __device__(std::uint32_t row) {
            for (int b = a.pattern.row_offsets[row]; b < a.pattern.row_offsets[row + 1]; ++b) {
                const int mirror = a.pattern.find(std::uint32_t(a.pattern.columns[b]), row);
                RXMESH_DEVICE_CHECK(mirror >= 0);
                for (int i = 0; i < K; ++i)
                    for (int j = 0; j < K; ++j)
                        t.block(b)[i * K + j] = a.block(mirror)[j * K + i];
            }
        },
        stream);
    return out;
}

//! Fixes the vertices with fixed[v] != 0 at values[v] (Dirichlet conditions)
//! in the system A x = rhs of R = N / K right-hand sides, keeping A
//! symmetric: the free rows' rhs loses A_free,fixed * values, each fixed
//! row and column becomes the identity's, each fixed row's rhs its value.
//! A's pattern stays (the zeroed blocks are kept).
template <typename T, int K, typename U, int N>
void impose_dirichlet(SparseMatrix<T, K>& A, VertexView<const std::uint8_t, 1> fixed,
                      AttributeView<U, N, VertexId> values, detail::Scalar<VertexView<T, N>> rhs,
                      cudaStream_t stream = 0)
{
    static_assert(detail::is_view_of<T, U>, "values hold the matrix's value type");
    static_assert(N % K == 0, "a view of whole blocks: N = columns * K");
    detail::require_rows(A, fixed, "impose_dirichlet");
    detail::require_rows(A, values, "impose_dirichlet");
    detail::require_rows(A, rhs, "impose_dirichlet");
    const SparseMatrixView<T, K> a = A.view();
    const std::uint8_t*          f = fixed.data();
    const T*                     x = values.data();
    T*                           b = rhs.data();
    // first the right-hand sides, from the matrix as it was; then the matrix
    detail::for_indices(
        A.num_rows(),
        [=] __device__(std::uint32_t row) {
            T* br = b + std::int64_t(row) * N;
            if (f[row] != 0) {
                for (int q = 0; q < N; ++q)
                    br[q] = x[std::int64_t(row) * N + q];
                return;
            }
            for (int k = a.pattern.row_offsets[row]; k < a.pattern.row_offsets[row + 1]; ++k) {
                const int col = a.pattern.columns[k];
                if (f[col] == 0)
                    continue;
                for (int r = 0; r < N / K; ++r)
                    for (int i = 0; i < K; ++i)
                        for (int j = 0; j < K; ++j)
                            br[r * K + i] -= a.block(k)[i * K + j] * x[std::int64_t(col) * N + r * K + j];
            }
        },
        stream);
    detail::for_indices(
        A.num_rows(),
        [=] __device__(std::uint32_t row) {
            for (int k = a.pattern.row_offsets[row]; k < a.pattern.row_offsets[row + 1]; ++k) {
                const int col = a.pattern.columns[k];
                if (f[row] == 0 && f[col] == 0)
                    continue;
                for (int i = 0; i < K; ++i)
                    for (int j = 0; j < K; ++j)
                        a.block(k)[i * K + j] = (col == int(row) && i == j) ? T(1) : T(0);
            }
        },
        stream);
}

}  // namespace rxmesh
