// JacobiPreconditioner<T, K>: z = D^-1 r with D the diagonal entries of a
// SparseMatrix<T, K> (each of a block's K, not the K x K block), for
// pcg_solve (solver/pcg.cuh). Built from the matrix's values; a new set of
// values on the same pattern wants refresh(A).
//
//   JacobiPreconditioner<float> jacobi(A);
//   pcg_solve(A, b, x, jacobi, {.max_iterations = 2000, .tolerance = 1e-6});
//
// Refused with InvalidInputError: a diagonal entry that is not positive and
// finite (no symmetric positive definite matrix has one).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/sparse_matrix.h"

namespace rxmesh {

template <typename T, int K = 1>
class JacobiPreconditioner
{
   public:
    explicit JacobiPreconditioner(const SparseMatrix<T, K>& A, cudaStream_t stream = 0)
        : m_pattern(A.pattern())
    {
        refresh(A, stream);
    }

    //! The inverse diagonal of A's values now (A on the same pattern).
    void refresh(const SparseMatrix<T, K>& A, cudaStream_t stream = 0)
    {
        require_pattern(A);
        m_inverse = DeviceBuffer<T>(A.num_scalar_rows(), stream);
        VertexView<T, K> d(m_inverse.data(), A.num_rows());
        diagonal(A, d, stream);
        DeviceBuffer<int> bad(1, stream);
        bad.memset(0);
        int* flag = bad.data();
        T*   v    = m_inverse.data();
        detail::for_indices(
            A.num_scalar_rows(),
            [=] __device__(std::uint64_t i) {
                if (!(v[i] > T(0)) || !isfinite(v[i]))
                    atomicExch(flag, 1);  // an integer flag: any order gives the same result
                v[i] = T(1) / v[i];
            },
            stream);
        if (bad.to_host()[0] != 0)
            throw InvalidInputError(
                "JacobiPreconditioner: a diagonal entry is not positive and finite; the matrix "
                "is not symmetric positive definite");
    }

    //! z = D^-1 r for R = N / K right-hand sides side by side.
    template <int N>
    void apply(const SparseMatrix<T, K>& A, VertexView<const T, N> r, VertexView<T, N> z,
               cudaStream_t stream = 0) const
    {
        static_assert(N % K == 0, "whole blocks: N = columns * K");
        require_pattern(A);
        T*       zz = z.data();
        const T *rr = r.data(), *mi = m_inverse.data();
        detail::for_indices(
            std::uint64_t(A.num_rows()) * N,
            [=] __device__(std::uint64_t i) {
                const std::uint64_t row = i / N;
                zz[i] = mi[row * K + (i % N) % K] * rr[i];
            },
            stream);
    }

    //! Device bytes held (the inverse diagonal).
    std::size_t bytes() const { return m_inverse.allocated_bytes(); }

   private:
    void require_pattern(const SparseMatrix<T, K>& A) const
    {
        if (A.pattern() != m_pattern)
            throw InvalidInputError(
                "JacobiPreconditioner: the matrix is not on the pattern it was built for");
    }

    std::shared_ptr<const SparsePattern> m_pattern;
    DeviceBuffer<T>                      m_inverse;
};

}  // namespace rxmesh
