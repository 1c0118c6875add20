#include "assembled_cg.cuh"

#include <cub/device/device_for.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_transform.cuh>

#include <algorithm>
#include <cmath>
#include <memory>

#include "block_sum.cuh"
#include "rxmesh/core/cub_call.cuh"

namespace rxmesh::baselines {

namespace {

//! COO entry i: four per edge (i,j), (j,i), (i,i), (j,j), then one diagonal
//! 2 a_v per vertex; key = row * n + column.
struct FillCoo
{
    const std::uint32_t* ev;
    const float*         w;
    const float*         a;
    float                dt;
    std::uint64_t        n, num_edges;
    const std::uint32_t* rank;  // nullable: the identity
    std::uint64_t*       keys;
    float*               vals;
    __device__ void operator()(std::uint64_t i) const
    {
        auto id = [&](std::uint64_t v) { return rank ? std::uint64_t(rank[v]) : v; };
        if (i >= 4 * num_edges) {
            const std::uint64_t v = i - 4 * num_edges;
            keys[i]               = id(v) * n + id(v);
            vals[i]               = 2.f * a[v];
            return;
        }
        const std::uint64_t e = i / 4, k = i % 4;
        const std::uint64_t p = id(ev[2 * e]), q = id(ev[2 * e + 1]);
        const float         we = dt * w[e];
        const std::uint64_t row = (k == 0 || k == 2) ? p : q;
        const std::uint64_t col = k == 0 ? q : (k == 1 ? p : row);
        keys[i]                 = row * n + col;
        vals[i]                 = k < 2 ? -we : we;
    }
};

struct SplitKey
{
    const std::uint64_t* keys;
    std::uint64_t        n;
    std::int32_t*        rows;
    std::int32_t*        cols;
    __device__ void operator()(std::uint64_t i) const
    {
        rows[i] = std::int32_t(keys[i] / n);
        cols[i] = std::int32_t(keys[i] % n);
    }
};

int bits_for(std::uint64_t max_key)
{
    int b = 1;
    while (b < 64 && (max_key >> b) != 0)
        ++b;
    return b;
}

}  // namespace

AssembledMatrix assemble_mcf_matrix(const RXMesh& mesh, const McfSystem& s, float dt,
                                    const std::uint32_t* rank, cudaStream_t stream)
{
    const std::uint64_t         n = mesh.num_vertices(), E = mesh.num_edges();
    const std::uint64_t         m = 4 * E + n;
    DeviceBuffer<std::uint32_t> ev(2 * E, stream);
    mesh.for_each<Op::EV>(mcf::StoreEdgeVertices{ev.data()}, AllActive{}, false, stream);
    DeviceBuffer<std::uint64_t> keys(m, stream), sorted_keys(m, stream);
    DeviceBuffer<float>         vals(m, stream), sorted_vals(m, stream);
    RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(
        m, FillCoo{ev.data(), s.w.data(), s.a.data(), dt, n, E, rank, keys.data(), vals.data()}, stream));
    const int end_bit = bits_for(n * n - 1);
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, keys.data(), sorted_keys.data(),
                                               vals.data(), sorted_vals.data(), m, 0, end_bit,
                                               stream);
    });
    DeviceBuffer<std::int64_t> runs(1, stream);
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {  // unique keys into `keys`
        return cub::DeviceReduce::ReduceByKey(tmp, bytes, sorted_keys.data(), keys.data(),
                                              sorted_vals.data(), vals.data(), runs.data(),
                                              ::cuda::std::plus<float>{}, m, stream);
    });
    AssembledMatrix A;
    A.n   = std::int32_t(n);
    A.nnz = std::int32_t(read_back(runs.data(), stream));
    A.values      = DeviceBuffer<float>(A.nnz, stream);
    A.columns     = DeviceBuffer<std::int32_t>(A.nnz, stream);
    A.row_offsets = DeviceBuffer<std::int32_t>(n + 1, stream);
    DeviceBuffer<std::int32_t> rows(A.nnz, stream);
    RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(
        std::uint64_t(A.nnz), SplitKey{keys.data(), n, rows.data(), A.columns.data()}, stream));
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(A.values.data(), vals.data(), A.values.bytes(),
                                      cudaMemcpyDeviceToDevice, stream));
    cusparseHandle_t handle = nullptr;
    RXMESH_CHECK_CUSPARSE(cusparseCreate(&handle));
    RXMESH_CHECK_CUSPARSE(cusparseSetStream(handle, stream));
    const cusparseStatus_t st = cusparseXcoo2csr(handle, rows.data(), A.nnz, A.n,
                                                 A.row_offsets.data(), CUSPARSE_INDEX_BASE_ZERO);
    cusparseDestroy(handle);
    RXMESH_CHECK_CUSPARSE(st);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return A;
}

namespace {

//! d = r + beta d (beta from the state; 0 in the first iteration).
struct Direction
{
    const detail::CgState* state;
    __device__ float       operator()(float r, float d) const { return r + float(state->beta) * d; }
};

//! state->dq += d.q (block sums, one atomic per block).
template <int BlockThreads>
__global__ void dot_into(std::uint64_t n, const float* d, const float* q, detail::CgState* state)
{
    double s = 0;
    for (std::uint64_t i = blockIdx.x * std::uint64_t(BlockThreads) + threadIdx.x; i < n;
         i += std::uint64_t(gridDim.x) * BlockThreads)
        s += double(d[i]) * q[i];
    add_block_sum<BlockThreads>(s, &state->dq);
}

//! cuSPARSE's descriptors of the matrix and of d and q for a variant.
struct ProductPlan
{
    cusparseHandle_t            handle = nullptr;
    cusparseSpMatDescr_t        A      = nullptr;
    cusparseDnMatDescr_t        D = nullptr, Q = nullptr;
    cusparseDnVecDescr_t        dv[3]{}, qv[3]{};
    ProductVariant              variant;
    std::int64_t                n = 0;
    DeviceBuffer<unsigned char> buffer;

    ProductPlan(const AssembledMatrix& m, const ProductVariant& v, float* d, float* q,
                cudaStream_t stream)
        : variant(v), n(m.n)
    {
        RXMESH_CHECK_CUSPARSE(cusparseCreate(&handle));
        RXMESH_CHECK_CUSPARSE(cusparseSetStream(handle, stream));
        RXMESH_CHECK_CUSPARSE(cusparseCreateCsr(
            &A, m.n, m.n, m.nnz, const_cast<std::int32_t*>(m.row_offsets.data()),
            const_cast<std::int32_t*>(m.columns.data()), const_cast<float*>(m.values.data()),
            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
        std::size_t bytes = 0;
        const float one = 1.f, zero = 0.f;
        if (v.three_spmv) {
            for (int k = 0; k < 3; ++k) {
                RXMESH_CHECK_CUSPARSE(cusparseCreateDnVec(&dv[k], m.n, d + std::size_t(k) * m.n, CUDA_R_32F));
                RXMESH_CHECK_CUSPARSE(cusparseCreateDnVec(&qv[k], m.n, q + std::size_t(k) * m.n, CUDA_R_32F));
            }
            RXMESH_CHECK_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A,
                                                          dv[0], &zero, qv[0], CUDA_R_32F,
                                                          cusparseSpMVAlg_t(v.algorithm), &bytes));
        } else {
            const cusparseOrder_t order = v.column_major ? CUSPARSE_ORDER_COL : CUSPARSE_ORDER_ROW;
            const std::int64_t    ld    = v.column_major ? m.n : 3;
            RXMESH_CHECK_CUSPARSE(cusparseCreateDnMat(&D, m.n, 3, ld, d, CUDA_R_32F, order));
            RXMESH_CHECK_CUSPARSE(cusparseCreateDnMat(&Q, m.n, 3, ld, q, CUDA_R_32F, order));
            RXMESH_CHECK_CUSPARSE(cusparseSpMM_bufferSize(
                handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, D,
                &zero, Q, CUDA_R_32F, cusparseSpMMAlg_t(v.algorithm), &bytes));
        }
        buffer = DeviceBuffer<unsigned char>(std::max<std::size_t>(bytes, 1), stream);
    }
    ~ProductPlan()
    {
        for (int k = 0; k < 3; ++k) {
            if (dv[k])
                cusparseDestroyDnVec(dv[k]);
            if (qv[k])
                cusparseDestroyDnVec(qv[k]);
        }
        if (Q)
            cusparseDestroyDnMat(Q);
        if (D)
            cusparseDestroyDnMat(D);
        cusparseDestroySpMat(A);
        cusparseDestroy(handle);
    }
    ProductPlan(const ProductPlan&)            = delete;
    ProductPlan& operator=(const ProductPlan&) = delete;

    //! Points the product's input at d (the direction buffers alternate).
    void bind(float* d)
    {
        if (variant.three_spmv) {
            for (int k = 0; k < 3; ++k)
                RXMESH_CHECK_CUSPARSE(cusparseDnVecSetValues(dv[k], d + std::size_t(k) * n));
        } else {
            RXMESH_CHECK_CUSPARSE(cusparseDnMatSetValues(D, d));
        }
    }

    void multiply()  // q = A d
    {
        const float one = 1.f, zero = 0.f;
        if (variant.three_spmv) {
            for (int k = 0; k < 3; ++k)
                RXMESH_CHECK_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A,
                                                   dv[k], &zero, qv[k], CUDA_R_32F,
                                                   cusparseSpMVAlg_t(variant.algorithm), buffer.data()));
            return;
        }
        RXMESH_CHECK_CUSPARSE(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, D, &zero, Q,
                                           CUDA_R_32F, cusparseSpMMAlg_t(variant.algorithm),
                                           buffer.data()));
    }
};

//! Interleaved (x0 y0 z0 x1 ...) <-> one coordinate after the other.
struct Deinterleave
{
    const float*  in;
    float*        out;
    std::uint64_t n;
    bool          to_columns;
    __device__ void operator()(std::uint64_t i) const  // i: index in the interleaved layout
    {
        const std::uint64_t v = i / 3, k = i % 3;
        if (to_columns)
            out[k * n + v] = in[i];
        else
            out[i] = in[k * n + v];
    }
};

void relayout(const float* in, float* out, std::uint64_t n, bool to_columns, cudaStream_t stream)
{
    RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(3 * n, Deinterleave{in, out, n, to_columns}, stream));
}

}  // namespace

const ProductVariant* product_variants(int* count)
{
    static const ProductVariant variants[] = {
        {"SpMM row-major, default", false, false, CUSPARSE_SPMM_ALG_DEFAULT},
        {"SpMM row-major, CSR_ALG2", false, false, CUSPARSE_SPMM_CSR_ALG2},
        {"SpMM row-major, CSR_ALG3", false, false, CUSPARSE_SPMM_CSR_ALG3},
        {"SpMM column-major, default", true, false, CUSPARSE_SPMM_ALG_DEFAULT},
        {"SpMM column-major, CSR_ALG1", true, false, CUSPARSE_SPMM_CSR_ALG1},
        {"3 x SpMV, CSR_ALG1", true, true, CUSPARSE_SPMV_CSR_ALG1},
        {"3 x SpMV, CSR_ALG2", true, true, CUSPARSE_SPMV_CSR_ALG2},
    };
    *count = int(sizeof(variants) / sizeof(variants[0]));
    return variants;
}

namespace {

CgReport assembled_cg_loop(const AssembledMatrix& A, const ProductVariant& variant, float* x, float* r,
                           const CgOptions& options, cudaStream_t stream)
{
    constexpr int                kThreads = 256;
    const std::uint64_t          n        = 3 * std::uint64_t(A.n);
    const unsigned               grid = unsigned(std::min<std::uint64_t>((n + kThreads - 1) / kThreads, 8192));
    std::unique_ptr<ProductPlan> plan;  // made at the first iteration, when q is known
    return detail::cg_drive(n, r, options, stream,
                            [&](const float* d_old, float* d_new, float* q, detail::CgState* state) {
        if (!plan)
            plan = std::make_unique<ProductPlan>(A, variant, d_new, q, stream);
        plan->bind(d_new);
        RXMESH_CHECK_CUDA(cub::DeviceTransform::Transform(
            ::cuda::std::make_tuple(static_cast<const float*>(r), d_old), d_new, n, Direction{state}, stream));
        plan->multiply();
        dot_into<kThreads><<<grid, kThreads, 0, stream>>>(n, d_new, q, state);
        detail::cg_update_kernel<kThreads><<<grid, kThreads, 0, stream>>>(n, x, r, d_new, q, state);
        detail::cg_scalars_kernel<<<1, 1, 0, stream>>>(state);
        RXMESH_CHECK_LAUNCH();
    });
}

}  // namespace

CgReport assembled_cg(const AssembledMatrix& A, const ProductVariant& variant, float* x, float* r,
                      const CgOptions& options, cudaStream_t stream)
{
    if (!variant.column_major)
        return assembled_cg_loop(A, variant, x, r, options, stream);
    const std::uint64_t n = A.n;
    DeviceBuffer<float> xc(3 * n, stream), rc(3 * n, stream);
    relayout(x, xc.data(), n, true, stream);
    relayout(r, rc.data(), n, true, stream);
    const CgReport res = assembled_cg_loop(A, variant, xc.data(), rc.data(), options, stream);
    relayout(xc.data(), x, n, false, stream);
    relayout(rc.data(), r, n, false, stream);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return res;
}

}  // namespace rxmesh::baselines
