// The GPU Cholesky (solver/cholesky.h) of a CSR matrix the caller holds
// (PyTorch, CuPy): its pattern is downloaded once, for the host analysis;
// each factorization copies the values on the device (no host trip); each
// solve reads the right-hand sides in place. The solver's kernels run on
// CUDA's default stream and end with a device synchronisation, so the
// caller's stream is waited for before them and its results are complete
// when they return.
#include <climits>
#include <string>
#include <type_traits>

#include "ops.h"
#include "ops_detail.cuh"
#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

namespace rxmesh::python {

namespace {

//! Integer ids (int32, uint32 or int64) in device memory, on the host as
//! uint64; a negative one becomes ~0, which the range checks refuse.
//! Waits for `stream` (the producer's writes come first).
std::vector<std::uint64_t> download_ids(const ArrayIn& a, cudaStream_t s)
{
    std::vector<std::uint64_t> out(a.rows);
    auto copy = [&](auto tag) {
        using S = decltype(tag);
        std::vector<S> ids(a.rows);
        rxmesh::detail::copy_and_wait(ids.data(), a.data, a.rows * sizeof(S),
                                      cudaMemcpyDeviceToHost, s);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            if constexpr (std::is_signed_v<S>)
                out[i] = ids[i] < 0 ? ~0ull : std::uint64_t(ids[i]);
            else
                out[i] = ids[i];
        }
    };
    if (a.type == InType::I64)
        copy(std::int64_t{});
    else if (a.type == InType::I32)
        copy(std::int32_t{});
    else
        copy(std::uint32_t{});
    return out;
}

//! The checks of a CSR matrix's arrays that need no values: n x n, the
//! offsets' and the entries' counts.
void require_shape(const CsrIn& A, std::uint32_t n, const char* what)
{
    const std::string w = what;
    if (A.rows != n || A.cols != n)
        throw InvalidInputError(w + ": A is " + std::to_string(A.rows) + " x " +
                                std::to_string(A.cols) + ", the mesh has " + std::to_string(n) +
                                " vertices (A's rows are the mesh's vertices, mesh order)");
    if (A.row_offsets->rows != std::uint64_t(n) + 1)
        throw InvalidInputError(w + ": " + std::to_string(A.row_offsets->rows) +
                                " row offsets for " + std::to_string(n) + " rows");
    if (A.values && A.values->rows != A.columns->rows)
        throw InvalidInputError(w + ": " + std::to_string(A.values->rows) + " values for " +
                                std::to_string(A.columns->rows) + " columns");
}

//! Offsets from 0 to the entry count, never decreasing; columns in range.
void require_csr(const HostCsr& A)
{
    const auto& o = A.row_offsets;
    if (o.front() != 0 || o.back() != A.columns.size())
        throw InvalidInputError("CholeskySolver: the row offsets go from " +
                                std::to_string(o.front()) + " to " + std::to_string(o.back()) +
                                ", expected 0 to " + std::to_string(A.columns.size()));
    for (std::uint64_t r = 0; r < A.num_rows; ++r)
        if (o[r + 1] < o[r])
            throw InvalidInputError("CholeskySolver: the row offsets decrease at row " +
                                    std::to_string(r));
    for (std::uint64_t k = 0; k < A.columns.size(); ++k)
        if (A.columns[k] >= A.num_rows)
            throw InvalidInputError("CholeskySolver: entry " + std::to_string(k) +
                                    " has a column out of range (" + std::to_string(A.num_rows) +
                                    " columns)");
    if (A.columns.size() > std::uint64_t(INT_MAX))
        throw InvalidInputError("CholeskySolver: more than 2^31 - 1 entries");
}

//! The analyzed pattern on the device, as a SparseMatrix's (int32); the
//! assembly's face lists stay empty: nothing assembles into it.
std::shared_ptr<const SparsePattern> device_pattern(const HostCsr& A)
{
    const std::vector<int> offsets(A.row_offsets.begin(), A.row_offsets.end());
    const std::vector<int> columns(A.columns.begin(), A.columns.end());
    return std::make_shared<const SparsePattern>(
        std::uint32_t(A.num_rows), DeviceBuffer<int>::from_host(offsets),
        DeviceBuffer<int>::from_host(columns), DeviceBuffer<std::uint32_t>{}, DeviceBuffer<int>{},
        DeviceBuffer<std::uint32_t>{});
}

template <typename I>
__global__ void mark_differences(const int* expected, const I* got, std::uint64_t n,
                                 unsigned* differ)
{
    const std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    if (i < n && std::int64_t(got[i]) != std::int64_t(expected[i]))
        atomicOr(differ, 1u);
}

void mark(const int* expected, const ArrayIn& got, unsigned* differ, cudaStream_t s)
{
    if (got.rows == 0)
        return;
    const unsigned blocks = detail::blocks(got.rows);
    if (got.type == InType::I64)
        mark_differences<<<blocks, 256, 0, s>>>(
            expected, static_cast<const std::int64_t*>(got.data), got.rows, differ);
    else if (got.type == InType::I32)
        mark_differences<<<blocks, 256, 0, s>>>(
            expected, static_cast<const std::int32_t*>(got.data), got.rows, differ);
    else
        mark_differences<<<blocks, 256, 0, s>>>(
            expected, static_cast<const std::uint32_t*>(got.data), got.rows, differ);
    RXMESH_CHECK_LAUNCH();
}

//! Whether A's arrays hold `p` (on the device: no download per factor).
bool same_pattern(const SparsePattern& p, const CsrIn& A, cudaStream_t s)
{
    DeviceBuffer<unsigned> differ(1, s);
    differ.memset(0);
    mark(p.row_offsets(), *A.row_offsets, differ.data(), s);
    mark(p.columns(), *A.columns, differ.data(), s);
    return differ.to_host()[0] == 0;  // waits for s
}

}  // namespace

struct Cholesky::Impl
{
    std::uint32_t                   n = 0;
    std::unique_ptr<CholeskySolver> solver;
    //! The analyzed pattern with room for the values: what factor() compares
    //! a matrix with and copies its values into for the solver.
    SparseMatrix<double> matrix;
};

Cholesky::Cholesky(const CsrIn& A, const MeshHandle& h, cudaStream_t s)
    : m_impl(std::make_unique<Impl>())
{
    Impl& m = *m_impl;
    m.n     = h.mesh->num_vertices();
    require_shape(A, m.n, "CholeskySolver");
    HostCsr pattern;
    pattern.num_rows    = m.n;
    pattern.row_offsets = download_ids(*A.row_offsets, s);
    pattern.columns     = download_ids(*A.columns, s);
    require_csr(pattern);
    const std::vector<float> flat = to_host(h.mesh->positions().view());
    std::vector<Vec3f>       positions(m.n);
    for (std::uint32_t v = 0; v < m.n; ++v)
        positions[v] = {flat[3 * std::size_t(v)], flat[3 * std::size_t(v) + 1],
                        flat[3 * std::size_t(v) + 2]};
    m.solver = std::make_unique<CholeskySolver>(pattern, positions);
    m.matrix = SparseMatrix<double>(device_pattern(pattern));
    // the values were allocated on the default stream; factor() fills them on the caller's
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(0));
}

Cholesky::~Cholesky() = default;

void Cholesky::factor(const CsrIn& A, cudaStream_t s)
{
    Impl& m = *m_impl;
    require_shape(A, m.n, "CholeskySolver.factor");
    if (!A.values)
        throw InvalidInputError("CholeskySolver.factor: no values");
    if (A.columns->rows != m.matrix.num_blocks() || !same_pattern(*m.matrix.pattern(), A, s))
        throw InvalidInputError(
            "CholeskySolver.factor: A's pattern is not the analyzed one (a new pattern needs a "
            "new CholeskySolver)");
    if (m.matrix.num_values() > 0)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(m.matrix.values(), A.values->data,
                                          m.matrix.num_values() * sizeof(double),
                                          cudaMemcpyDeviceToDevice, s));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));  // the factorization runs on the default stream
    m.solver->factor(m.matrix);
}

Shared<double> Cholesky::solve(const ArrayIn& b, cudaStream_t s) const
{
    const Impl& m = *m_impl;
    if (b.rows != m.n || !b.on_device || b.type != InType::F64)
        throw InvalidInputError("CholeskySolver.solve: b must hold " + std::to_string(m.n) +
                                " rows of float64 on the device");
    auto x = std::make_shared<DeviceBuffer<double>>(std::size_t(m.n) * b.cols, s);
    // b's producer and x's allocation, before the solve on the default stream
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));
    m.solver->solve(static_cast<const double*>(b.data), x->data(), std::uint32_t(b.cols));
    return x;
}

const CholeskyAnalysis& Cholesky::analysis() const
{
    return m_impl->solver->analysis();
}
bool Cholesky::factored() const
{
    return m_impl->solver->factored();
}
std::uint32_t Cholesky::rows() const
{
    return m_impl->n;
}

}  // namespace rxmesh::python
