// The expert's alternative to a matrix-free MCF solver: assemble
// A = 2 diag(a) + dt L as a float CSR matrix on the GPU (COO from the edge
// weights, CUB radix sort and reduce-by-key, cuSPARSE coo2csr), then run CG
// with cuSPARSE SpMM (the three coordinates as an n x 3 row-major block) and
// the same fused vector kernels as RXMesh's solver (solver/cg.cuh): one pass
// for d.q, one for x, r and r.r, one for the direction update.
#pragma once

#include <cusparse.h>

#include <cstdint>
#include <string>

#include "rxmesh/solver/cg.cuh"
#include "rxmesh/algo/mcf.cuh"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh::baselines {

#define RXMESH_CHECK_CUSPARSE(call)                                                             \
    do {                                                                                        \
        const cusparseStatus_t status_ = (call);                                                \
        if (status_ != CUSPARSE_STATUS_SUCCESS)                                                 \
            throw ::rxmesh::CudaError(std::string(#call) + ": " + cusparseGetErrorString(status_)); \
    } while (0)

struct AssembledMatrix
{
    std::int32_t               n = 0, nnz = 0;
    DeviceBuffer<std::int32_t> row_offsets, columns;
    DeviceBuffer<float>        values;

    std::size_t bytes() const { return row_offsets.bytes() + columns.bytes() + values.bytes(); }
};

//! A = 2 diag(a) + dt L from the system's weights and areas and the mesh's
//! edges (for_each<EV>), on the GPU; with `rank` (device, per vertex) the
//! rows and columns are numbered rank[v] instead of v.
AssembledMatrix assemble_mcf_matrix(const RXMesh& mesh, const McfSystem& s, float dt,
                                    const std::uint32_t* rank = nullptr, cudaStream_t stream = 0);

//! How the product runs: SpMM on the n x 3 block (row-major: the vectors
//! interleaved as RXMesh keeps them; column-major: one coordinate after the
//! other) with a cuSPARSE algorithm, or three SpMV on the columns. The bench
//! times them all and keeps the fastest (tuning the baseline as we tune
//! ourselves).
struct ProductVariant
{
    const char*       name;
    bool              column_major;
    bool              three_spmv;
    int               algorithm;  // cusparseSpMMAlg_t or cusparseSpMVAlg_t
};
const ProductVariant* product_variants(int* count);

//! CG on the assembled matrix: x (initial guess) and r = b - A x on entry,
//! 3 floats per vertex, interleaved; the same stopping rule as cg_solve.
//! \throw CudaError when cuSPARSE rejects the variant.
CgReport assembled_cg(const AssembledMatrix& A, const ProductVariant& variant, float* x, float* r,
                      const CgOptions& options, cudaStream_t stream = 0);

//! Device bytes the CG vectors of assembled_cg take (x, r, d, q, SpMM buffer
//! excluded: reported by the bench from cuSPARSE).
inline std::size_t assembled_cg_vector_bytes(std::int32_t n) { return 4 * 3 * std::size_t(n) * 4; }

}  // namespace rxmesh::baselines
