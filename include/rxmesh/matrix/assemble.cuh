// Element assembly of a SparseMatrix over a mesh (matrix/sparse_matrix.h):
// the user writes one element's local blocks in a __device__ lambda, the
// assembly adds them into the matrix.
//
//   assemble_faces(A, [=] __device__(FaceId f, const VertexId (&v)[3],
//                                    FaceBlocks<float, 1>& local) {
//       local(0, 1) = ...;   // the coupling of corner 0 with corner 1
//   });
//   assemble_edges(A, [=] __device__(VertexId a, VertexId b,
//                                    EdgeBlocks<float, 1>& local) { ... });
//
// Deterministic, without atomics: one thread owns a block row and gathers
// every element that touches it, faces in ascending face id (the pattern's
// incidence lists), edges in ascending column, so a matrix's bits depend on
// its input alone, not on the launch or on any query's row order. Each
// element's local blocks are computed once per row it touches (a face's
// three times): cheaper than the memory a scatter's per-element buffer
// would move.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_for.cuh>

#include <cstdint>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/ids.h"
#include "rxmesh/core/macros.h"
#include "rxmesh/matrix/sparse_matrix.h"

namespace rxmesh {

//! The local blocks of an element of M vertices: M x M blocks of K x K,
//! (a, b, i, j) = row i of corner a's unknowns, column j of corner b's.
//! Zero when the lambda receives it.
template <typename T, int K, int M>
struct ElementBlocks
{
    T values[M][M][K * K];

    RXMESH_HD T& operator()(int a, int b, int i = 0, int j = 0) { return values[a][b][i * K + j]; }
};
template <typename T, int K = 1>
using FaceBlocks = ElementBlocks<T, K, 3>;
template <typename T, int K = 1>
using EdgeBlocks = ElementBlocks<T, K, 2>;

//! Replace: the matrix becomes the assembled sum; Add: the sum is added to
//! the values already there (several energies on one matrix).
enum class AssemblyMode
{
    Replace,
    Add
};

namespace detail {

template <typename T, int K>
RXMESH_DEVICE void zero_row(const SparseMatrixView<T, K>& A, std::uint32_t row)
{
    const auto& p = A.pattern;
    for (int b = p.row_offsets[row]; b < p.row_offsets[row + 1]; ++b)
        for (int q = 0; q < K * K; ++q)
            A.block(b)[q] = T(0);
}

template <typename T, int K, int M>
RXMESH_DEVICE void add_block(T* dst, const ElementBlocks<T, K, M>& local, int a, int b)
{
    for (int q = 0; q < K * K; ++q)
        dst[q] += local.values[a][b][q];
}

template <typename T, int K, typename Local>
struct FaceRowAssembly
{
    SparseMatrixView<T, K> A;
    Local                  local;
    bool                   add;

    RXMESH_DEVICE void operator()(std::uint32_t row) const
    {
        const auto& p = A.pattern;
        if (!add)
            zero_row(A, row);
        for (int k = p.incidence_offsets[row]; k < p.incidence_offsets[row + 1]; ++k) {
            const std::uint32_t f = p.incidences[k] >> 2, c = p.incidences[k] & 3u;
            const VertexId      v[3] = {VertexId(p.faces[3 * f]), VertexId(p.faces[3 * f + 1]),
                                        VertexId(p.faces[3 * f + 2])};
            ElementBlocks<T, K, 3> blocks{};
            local(FaceId(f), v, blocks);
            for (int d = 0; d < 3; ++d)
                add_block(A.block(p.find(row, v[d].id())), blocks, int(c), d);
        }
    }
};

template <typename T, int K, typename Local>
struct EdgeRowAssembly
{
    SparseMatrixView<T, K> A;
    Local                  local;
    bool                   add;

    RXMESH_DEVICE void operator()(std::uint32_t row) const
    {
        const auto& p = A.pattern;
        if (!add)
            zero_row(A, row);
        const int diagonal = p.find(row, row);
        for (int b = p.row_offsets[row]; b < p.row_offsets[row + 1]; ++b) {
            const std::uint32_t col = std::uint32_t(p.columns[b]);
            if (col == row)
                continue;
            // every edge's blocks computed with its smaller id first, so that
            // both of its rows see the same local matrix
            const bool              first = row < col;
            ElementBlocks<T, K, 2>  blocks{};
            local(VertexId(first ? row : col), VertexId(first ? col : row), blocks);
            const int me = first ? 0 : 1;
            add_block(A.block(b), blocks, me, 1 - me);
            add_block(A.block(diagonal), blocks, me, me);
        }
    }
};

}  // namespace detail

//! Adds each face's FaceBlocks<T, K> (local(f, corners, blocks)) into the
//! blocks of its corners' rows and columns.
template <typename T, int K, typename Local>
void assemble_faces(SparseMatrix<T, K>& A, Local local, AssemblyMode mode = AssemblyMode::Replace,
                    cudaStream_t stream = 0)
{
    const detail::FaceRowAssembly<T, K, Local> op{A.view(), local, mode == AssemblyMode::Add};
    if (A.num_rows() != 0)
        RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(A.num_rows(), op, stream));
}

//! Adds each edge's EdgeBlocks<T, K> (local(a, b, blocks), a < b: the
//! vertex of the smaller id is corner 0) into the blocks (a, a), (a, b),
//! (b, a), (b, b). Edges are the pattern's off-diagonal blocks.
template <typename T, int K, typename Local>
void assemble_edges(SparseMatrix<T, K>& A, Local local, AssemblyMode mode = AssemblyMode::Replace,
                    cudaStream_t stream = 0)
{
    const detail::EdgeRowAssembly<T, K, Local> op{A.view(), local, mode == AssemblyMode::Add};
    if (A.num_rows() != 0)
        RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(A.num_rows(), op, stream));
}

}  // namespace rxmesh
