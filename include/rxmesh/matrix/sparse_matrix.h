// SparseMatrix<T, K>: a square block-sparse matrix over a mesh's vertices,
// K x K blocks of T (K = 1: plain CSR; K = 3: a 3D vector per vertex), the
// blocks of a SparsePattern (matrix/sparse_pattern.h) stored in its order,
// each block row-major: BSR as cuSPARSE reads it (CUSPARSE_DIRECTION_ROW),
// so any cuSPARSE routine takes the pattern's arrays and values() as they
// are (matrix/cusparse.h: CusparseMatrix).
//
//   auto pattern = vertex_pattern(mesh);                    // VV + diagonal
//   SparseMatrix<float> L = cotangent_laplacian<float>(mesh, pattern);
//   multiply(L, x, y);                                      // y = L x
//
// A dense matrix over the vertices is a view with N values per vertex
// (core/attribute_view.h): a vector of K per vertex, or R such vectors side
// by side (N = R * K, column r's block of vertex v at v * N + r * K).
// Operations live in matrix/matrix_ops.cuh, assembly in matrix/assemble.cuh,
// the mesh operators in matrix/mesh_operators.cuh.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/macros.h"
#include "rxmesh/matrix/sparse_pattern.h"

namespace rxmesh {

//! What device code sees of a SparseMatrix: the pattern and the values.
template <typename T, int K>
struct SparseMatrixView
{
    static constexpr int kBlockValues = K * K;
    SparsePatternView    pattern;
    T*                   values = nullptr;

    //! The K x K block at index b (row-major).
    RXMESH_DEVICE T* block(int b) const { return values + std::int64_t(b) * kBlockValues; }
    //! Entry (i, j) of block (row, col), which must be in the pattern.
    RXMESH_DEVICE T& at(std::uint32_t row, std::uint32_t col, int i = 0, int j = 0) const
    {
        const int b = pattern.find(row, col);
        RXMESH_DEVICE_CHECK(b >= 0);
        return block(b)[i * K + j];
    }
};

//! A matrix on the host in scalar compressed rows, in double, columns sorted
//! per row (what tests and Eigen read; matrix/host_export.h).
struct HostCsr
{
    std::uint64_t              num_rows = 0;  // = columns
    std::vector<std::uint64_t> row_offsets;
    std::vector<std::uint64_t> columns;
    std::vector<double>        values;
};

template <typename T, int K = 1>
class SparseMatrix
{
    static_assert(K >= 1 && K <= 8, "blocks of 1 x 1 to 8 x 8");

   public:
    using value_type                = T;
    static constexpr int block_size = K;

    SparseMatrix() = default;
    //! All values 0 (stream-ordered).
    explicit SparseMatrix(std::shared_ptr<const SparsePattern> pattern, cudaStream_t stream = 0)
        : m_pattern(std::move(pattern))
    {
        if (!m_pattern)
            throw InvalidInputError("SparseMatrix: no pattern");
        m_values = DeviceBuffer<T>(m_pattern->num_blocks() * K * K, stream);
        m_values.memset(0);
    }

    //! A deep copy: the same pattern (shared), the values copied.
    SparseMatrix clone(cudaStream_t stream = 0) const
    {
        SparseMatrix copy(m_pattern, stream);
        if (!m_values.empty())
            RXMESH_CHECK_CUDA(cudaMemcpyAsync(copy.m_values.data(), m_values.data(),
                                              m_values.bytes(), cudaMemcpyDeviceToDevice, stream));
        return copy;
    }

    //! Block rows (= block columns): the mesh's vertices.
    std::uint32_t num_rows() const { return m_pattern ? m_pattern->num_rows() : 0; }
    //! Scalar rows: num_rows() * K.
    std::uint64_t num_scalar_rows() const { return std::uint64_t(num_rows()) * K; }
    std::uint64_t num_blocks() const { return m_pattern ? m_pattern->num_blocks() : 0; }
    //! Stored scalar values: num_blocks() * K * K.
    std::uint64_t num_values() const { return m_values.size(); }

    const std::shared_ptr<const SparsePattern>& pattern() const { return m_pattern; }
    T*       values() { return m_values.data(); }
    const T* values() const { return m_values.data(); }

    SparseMatrixView<T, K>       view() { return {m_pattern->view(), m_values.data()}; }
    SparseMatrixView<const T, K> view() const { return {m_pattern->view(), m_values.data()}; }

    //! Device bytes of the values (the pattern's: pattern()->bytes()).
    std::size_t value_bytes() const { return m_values.allocated_bytes(); }

   private:
    std::shared_ptr<const SparsePattern> m_pattern;
    DeviceBuffer<T>                      m_values;
};

//! Throws when two matrices do not share one pattern (the element-wise
//! operations need the same blocks in the same places).
template <typename T, int K, typename U>
void require_same_pattern(const SparseMatrix<T, K>& a, const SparseMatrix<U, K>& b,
                          const char* what)
{
    if (a.pattern() != b.pattern())
        throw InvalidInputError(std::string(what) + ": the matrices have different patterns");
}

}  // namespace rxmesh
