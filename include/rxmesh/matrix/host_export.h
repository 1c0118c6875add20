// A SparseMatrix copied to the host as scalar compressed rows in double
// (HostCsr, matrix/sparse_matrix.h): for tests, for Eigen (matrix/eigen.h),
// for a user's CPU solver. Block (u, v)'s entry (i, j) becomes scalar entry
// (u * K + i, v * K + j); with the mesh, u and v are the input's vertex ids
// (a welded vertex: its first input id; a dropped input vertex: an empty
// row), columns sorted per row. Synchronous.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/matrix/sparse_matrix.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

namespace detail {

template <typename T>
std::vector<T> download(const T* device, std::size_t n)
{
    std::vector<T> host(n);
    if (n != 0)
        copy_and_wait(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost, 0);
    return host;
}

//! The scalar triplets (row, column, value) of A with block rows and
//! columns renamed by `name` (identity when empty), sorted into rows.
template <typename T, int K>
HostCsr pack_rows(const SparseMatrix<T, K>& A, const std::vector<std::uint32_t>& name,
                  std::uint64_t num_block_rows)
{
    const auto offsets = download(A.pattern()->row_offsets(), std::size_t(A.num_rows()) + 1);
    const auto columns = download(A.pattern()->columns(), std::size_t(A.num_blocks()));
    const auto values  = download(A.values(), std::size_t(A.num_values()));
    auto rename = [&](std::uint32_t v) { return name.empty() ? std::uint64_t(v) : name[v]; };

    HostCsr out;
    out.num_rows = num_block_rows * K;
    std::vector<std::vector<std::pair<std::uint64_t, double>>> rows(out.num_rows);
    for (std::uint32_t u = 0; u < A.num_rows(); ++u)
        for (int b = offsets[u]; b < offsets[u + 1]; ++b)
            for (int i = 0; i < K; ++i)
                for (int j = 0; j < K; ++j)
                    rows[rename(u) * K + i].emplace_back(
                        rename(std::uint32_t(columns[b])) * K + j,
                        double(values[std::size_t(b) * K * K + i * K + j]));
    out.row_offsets.assign(1, 0);
    for (auto& row : rows) {
        std::sort(row.begin(), row.end());
        for (const auto& [c, v] : row) {
            out.columns.push_back(c);
            out.values.push_back(v);
        }
        out.row_offsets.push_back(out.columns.size());
    }
    return out;
}

}  // namespace detail

//! In the mesh's global (patch) numbering.
template <typename T, int K>
HostCsr to_host(const SparseMatrix<T, K>& A)
{
    return detail::pack_rows(A, {}, A.num_rows());
}

//! In the input's vertex numbering of `mesh` (the mesh A was built on).
template <typename T, int K>
HostCsr to_host(const SparseMatrix<T, K>& A, const RXMesh& mesh)
{
    if (mesh.num_vertices() != A.num_rows())
        throw InvalidInputError("to_host: the matrix has " + std::to_string(A.num_rows()) +
                                " rows, the mesh " + std::to_string(mesh.num_vertices()) +
                                " vertices");
    return detail::pack_rows(A, mesh.global_vertex_to_input().to_host(),
                             mesh.input_vertex_to_global().size());
}

}  // namespace rxmesh
