// The mesh's sparse operators (matrix/mesh_operators.cuh) as CSR arrays the
// bindings hand out without a copy, and their input-order copies.
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "ops.h"
#include "ops_detail.cuh"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/matrix/mesh_operators.cuh"
#include "rxmesh/matrix/vertex_pattern.h"

namespace rxmesh::python {

namespace {

//! The mesh's vertex pattern, built on first use (MeshHandle::pattern).
std::shared_ptr<const SparsePattern> pattern_of(const MeshHandle& h, cudaStream_t s)
{
    if (!h.pattern) {
        auto p = vertex_pattern(*h.mesh, s);
        // a later call may run on another stream: the pattern must be complete
        RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));
        h.pattern = std::move(p);
    }
    return h.pattern;
}

template <typename T>
DeviceCsr csr_of(std::shared_ptr<SparseMatrix<T>> A)
{
    DeviceCsr out;
    out.num_rows    = A->num_rows();
    out.nnz         = A->num_blocks();
    out.row_offsets = A->pattern()->row_offsets();
    out.columns     = A->pattern()->columns();
    out.values      = A->values();
    out.owner       = std::move(A);  // the pattern's arrays and the values
    return out;
}

template <typename T>
DeviceCsr assemble(const MeshHandle& h, MeshMatrix which, cudaStream_t s)
{
    auto pattern = pattern_of(h, s);
    auto A       = std::make_shared<SparseMatrix<T>>(
        which == MeshMatrix::CotangentLaplacian
                  ? cotangent_laplacian<T>(std::move(pattern), h.mesh->positions(), s)
                  : full_mass<T>(std::move(pattern), h.mesh->positions(), s));
    return csr_of(std::move(A));
}

//! Row lengths in input order: row global_to_input[g] gets row g's length
//! (the others stay 0: their rows are empty).
__global__ void input_row_lengths(const int* offsets, const std::uint32_t* global_to_input,
                                  std::uint32_t n, int* lengths)
{
    const std::uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < n)
        lengths[global_to_input[g]] = offsets[g + 1] - offsets[g];
}

//! Row g's entries into its input row, columns renamed (not yet sorted).
template <typename T>
__global__ void rename_rows(const int* offsets, const int* columns, const T* values,
                            const std::uint32_t* global_to_input, std::uint32_t n,
                            const int* new_offsets, int* new_columns, T* new_values)
{
    const std::uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= n)
        return;
    const int at = new_offsets[global_to_input[g]] - offsets[g];
    for (int k = offsets[g]; k < offsets[g + 1]; ++k) {
        new_columns[at + k] = int(global_to_input[columns[k]]);
        new_values[at + k]  = values[k];
    }
}

//! What an input-order matrix owns.
template <typename T>
struct OwnedCsr
{
    DeviceBuffer<int> offsets, columns;
    DeviceBuffer<T>   values;
};

template <typename T>
DeviceCsr permuted(const MeshHandle& h, const DeviceCsr& A, cudaStream_t s)
{
    const std::uint32_t  n = A.num_rows, rows = h.num_input_vertices;
    const std::uint32_t* g2i = h.mesh->global_vertex_to_input().data();
    auto out     = std::make_shared<OwnedCsr<T>>();
    out->offsets = DeviceBuffer<int>(std::size_t(rows) + 1, s);
    // lengths[rows] = 0: the scan's last entry is the total
    DeviceBuffer<int> lengths(std::size_t(rows) + 1, s), columns(A.nnz, s);
    DeviceBuffer<T>   values(A.nnz, s);
    lengths.memset(0);
    if (n > 0) {
        input_row_lengths<<<detail::blocks(n), 256, 0, s>>>(A.row_offsets, g2i, n, lengths.data());
        RXMESH_CHECK_LAUNCH();
    }
    rxmesh::detail::cub_call(s, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, lengths.data(), out->offsets.data(),
                                             rows + 1, s);
    });
    out->columns = DeviceBuffer<int>(A.nnz, s);
    out->values  = DeviceBuffer<T>(A.nnz, s);
    if (n > 0) {
        rename_rows<T><<<detail::blocks(n), 256, 0, s>>>(
            A.row_offsets, A.columns, static_cast<const T*>(A.values), g2i, n,
            out->offsets.data(), columns.data(), values.data());
        RXMESH_CHECK_LAUNCH();
    }
    // renaming breaks each row's column order, which cuSPARSE (torch, CuPy) expects
    if (A.nnz > 0)
        rxmesh::detail::cub_call(s, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceSegmentedSort::SortPairs(
                tmp, bytes, columns.data(), out->columns.data(), values.data(),
                out->values.data(), std::int64_t(A.nnz), std::int64_t(rows),
                out->offsets.data(), out->offsets.data() + 1, s);
        });
    DeviceCsr r{nullptr, rows, A.nnz, out->offsets.data(), out->columns.data(),
                out->values.data()};
    r.owner = std::move(out);
    return r;
}

//! out[global_to_input[g]] = in[g]; out is zero elsewhere.
template <typename T>
__global__ void scatter_first(const T* in, const std::uint32_t* global_to_input, std::uint32_t n,
                              T* out)
{
    const std::uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < n)
        out[global_to_input[g]] = in[g];
}

template <typename T>
DeviceValues lumped(const MeshHandle& h, bool input_order, cudaStream_t s)
{
    const std::uint32_t n       = h.mesh->num_vertices();
    const auto          pattern = pattern_of(h, s);
    auto                mass    = std::make_shared<DeviceBuffer<T>>(n, s);
    lumped_voronoi_mass<T>(*pattern, h.mesh->positions(), VertexView<T>(mass->data(), n), s);
    if (input_order) {
        auto in = std::make_shared<DeviceBuffer<T>>(h.num_input_vertices, s);
        in->memset(0);
        if (n > 0) {
            scatter_first<T><<<detail::blocks(n), 256, 0, s>>>(
                mass->data(), h.mesh->global_vertex_to_input().data(), n, in->data());
            RXMESH_CHECK_LAUNCH();
        }
        mass = std::move(in);
    }
    DeviceValues out{nullptr, mass->data(), mass->size()};
    out.owner = std::move(mass);
    return out;
}

}  // namespace

DeviceCsr mesh_matrix(const MeshHandle& h, MeshMatrix which, bool double_precision,
                      cudaStream_t s)
{
    return double_precision ? assemble<double>(h, which, s) : assemble<float>(h, which, s);
}

DeviceCsr csr_to_input_order(const MeshHandle& h, const DeviceCsr& A, bool double_precision,
                             cudaStream_t s)
{
    return double_precision ? permuted<double>(h, A, s) : permuted<float>(h, A, s);
}

DeviceValues lumped_mass(const MeshHandle& h, bool double_precision, bool input_order,
                         cudaStream_t s)
{
    return double_precision ? lumped<double>(h, input_order, s) : lumped<float>(h, input_order, s);
}

}  // namespace rxmesh::python
