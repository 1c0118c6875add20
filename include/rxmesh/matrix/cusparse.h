// A SparseMatrix handed to cuSPARSE as it is stored: CSR for K = 1, BSR
// (row-major blocks) for K > 1, over the pattern's arrays and the values,
// no copy. For any cuSPARSE routine the library does not wrap, and for
// comparing our own kernels with cuSPARSE's (benchmarks, tests).
//
//   CusparseHandle handle(stream);
//   CusparseMatrix<float, 1> a(L);             // A's arrays, not a copy
//   cusparse_multiply(handle, a, x, y);        // y = A x by cusparseSpMV
//
// Link CUDA::cusparse.
#pragma once

#include <cuda_runtime.h>
#include <cusparse.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/matrix/sparse_matrix.h"

#define RXMESH_CHECK_CUSPARSE(call)                                                        \
    do {                                                                                   \
        const cusparseStatus_t rxmesh_status_ = (call);                                    \
        if (rxmesh_status_ != CUSPARSE_STATUS_SUCCESS)                                     \
            throw ::rxmesh::Error(std::string("cuSPARSE: ") + #call + ": " +                \
                                  cusparseGetErrorString(rxmesh_status_));                 \
    } while (0)

namespace rxmesh {

template <typename T>
constexpr cudaDataType cuda_data_type()
{
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                  "cuSPARSE takes float or double here");
    return std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F;
}

//! A cuSPARSE library handle bound to a stream.
class CusparseHandle
{
   public:
    explicit CusparseHandle(cudaStream_t stream = 0)
    {
        RXMESH_CHECK_CUSPARSE(cusparseCreate(&m_handle));
        RXMESH_CHECK_CUSPARSE(cusparseSetStream(m_handle, stream));
    }
    CusparseHandle(const CusparseHandle&)            = delete;
    CusparseHandle& operator=(const CusparseHandle&) = delete;
    ~CusparseHandle() { cusparseDestroy(m_handle); }
    cusparseHandle_t get() const { return m_handle; }

   private:
    cusparseHandle_t m_handle = nullptr;
};

//! A descriptor of a SparseMatrix's storage; valid while the matrix lives.
template <typename T, int K>
class CusparseMatrix
{
   public:
    explicit CusparseMatrix(const SparseMatrix<T, K>& A) : m_rows(A.num_rows())
    {
        auto* offsets = const_cast<int*>(A.pattern()->row_offsets());
        auto* columns = const_cast<int*>(A.pattern()->columns());
        auto* values  = const_cast<T*>(A.values());
        if constexpr (K == 1)
            RXMESH_CHECK_CUSPARSE(cusparseCreateCsr(
                &m_descr, A.num_rows(), A.num_rows(), std::int64_t(A.num_blocks()), offsets,
                columns, values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                CUSPARSE_INDEX_BASE_ZERO, cuda_data_type<T>()));
        else
            RXMESH_CHECK_CUSPARSE(cusparseCreateBsr(
                &m_descr, A.num_rows(), A.num_rows(), std::int64_t(A.num_blocks()), K, K,
                offsets, columns, values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                CUSPARSE_INDEX_BASE_ZERO, cuda_data_type<T>(), CUSPARSE_ORDER_ROW));
    }
    CusparseMatrix(const CusparseMatrix&)            = delete;
    CusparseMatrix& operator=(const CusparseMatrix&) = delete;
    ~CusparseMatrix() { cusparseDestroySpMat(m_descr); }

    cusparseSpMatDescr_t get() const { return m_descr; }
    std::uint32_t        num_rows() const { return m_rows; }

   private:
    cusparseSpMatDescr_t m_descr = nullptr;
    std::uint32_t        m_rows  = 0;
};

//! y = alpha A x + beta y by cusparseSpMV (one column: K values per vertex),
//! with the buffer cuSPARSE asks for, allocated per call (keep a
//! CusparseSpmv for repeated products).
template <typename T, int K>
class CusparseSpmv
{
   public:
    CusparseSpmv(const CusparseHandle& handle, const CusparseMatrix<T, K>& A,
                 VertexView<const T, K> x, VertexView<T, K> y,
                 cusparseSpMVAlg_t alg = CUSPARSE_SPMV_ALG_DEFAULT)
        : m_handle(handle.get()), m_A(A.get()), m_alg(alg)
    {
        if (x.num_elements() != A.num_rows() || y.num_elements() != A.num_rows())
            throw InvalidInputError("CusparseSpmv: the vectors do not match the matrix");
        const std::int64_t n = std::int64_t(A.num_rows()) * K;
        RXMESH_CHECK_CUSPARSE(
            cusparseCreateDnVec(&m_x, n, const_cast<T*>(x.data()), cuda_data_type<T>()));
        RXMESH_CHECK_CUSPARSE(cusparseCreateDnVec(&m_y, n, y.data(), cuda_data_type<T>()));
        const T     one = 1, zero = 0;
        std::size_t bytes = 0;
        RXMESH_CHECK_CUSPARSE(cusparseSpMV_bufferSize(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                      &one, m_A, m_x, &zero, m_y,
                                                      cuda_data_type<T>(), m_alg, &bytes));
        m_buffer = DeviceBuffer<unsigned char>(bytes);
    }
    CusparseSpmv(const CusparseSpmv&)            = delete;
    CusparseSpmv& operator=(const CusparseSpmv&) = delete;
    ~CusparseSpmv()
    {
        cusparseDestroyDnVec(m_x);
        cusparseDestroyDnVec(m_y);
    }

    void operator()(T alpha = T(1), T beta = T(0)) const
    {
        RXMESH_CHECK_CUSPARSE(cusparseSpMV(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, m_A,
                                           m_x, &beta, m_y, cuda_data_type<T>(), m_alg,
                                           const_cast<unsigned char*>(m_buffer.data())));
    }

   private:
    cusparseHandle_t            m_handle = nullptr;
    cusparseSpMatDescr_t        m_A      = nullptr;
    cusparseDnVecDescr_t        m_x = nullptr, m_y = nullptr;
    cusparseSpMVAlg_t           m_alg;
    DeviceBuffer<unsigned char> m_buffer;
};

}  // namespace rxmesh
