// A query's rows, or every vertex's k-ring, gathered into CSR arrays in
// device memory: for callers that want the relation itself rather than a
// lambda per row (Python, a sparse-matrix library, a check).
//
//   DeviceRows vv = query_rows<Op::VV>(mesh);      // offsets: V + 1
//   // the neighbours of global vertex v: vv.indices[offsets[v] .. offsets[v + 1])
//
// Written with the public API: RXMesh::for_each counts each row, a CUB scan
// places them, a second for_each writes them (rows of a fixed length, EV,
// FV and FE, skip the count: their offsets follow from the length). Ids are global (the mesh's
// patch numbering); rows are in the order the query gives them.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/sequence.h>

#include <cstdint>
#include <string>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

//! Rows in CSR form: row r is indices[offsets[r] .. offsets[r + 1]).
struct DeviceRows
{
    std::uint32_t               num_rows = 0;
    DeviceBuffer<std::uint32_t> offsets;  // num_rows + 1
    DeviceBuffer<std::uint32_t> indices;
};

//! How many source elements `op` has: one row each.
template <Op op>
std::uint32_t num_sources(const RXMesh& mesh)
{
    return mesh.attributes().num_elements<typename OpTraits<op>::Source>();
}

namespace detail {

struct ToWide
{
    __host__ __device__ std::uint64_t operator()(std::uint32_t x) const { return x; }
};

//! offsets[0 .. rows] from the row sizes in sizes[0 .. rows) (sizes[rows]
//! must be 0), and the total, read back (synchronises `stream`).
//! \throw InvalidInputError when the total does not fit 32-bit offsets.
inline std::uint32_t offsets_from_sizes(const DeviceBuffer<std::uint32_t>& sizes,
                                        DeviceBuffer<std::uint32_t>&       offsets,
                                        std::uint32_t rows, cudaStream_t stream)
{
    DeviceBuffer<std::uint64_t> wide_total(1, stream);
    const auto wide = thrust::make_transform_iterator(sizes.data(), ToWide{});
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::Sum(tmp, bytes, wide, wide_total.data(), std::size_t(rows) + 1,
                                      stream);
    });
    const std::uint64_t total = read_back(wide_total.data(), stream);
    if (total > 0xFFFFFFFFull)
        throw InvalidInputError("query_rows: " + std::to_string(total) +
                                " entries; the offsets are 32-bit");
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, sizes.data(), offsets.data(),
                                             std::size_t(rows) + 1, stream);
    });
    return std::uint32_t(total);
}

//! A row visitor that stores each row's size (the counting pass).
struct StoreRowSize
{
    std::uint32_t* size_of;
    template <typename Source, typename Row>
    __device__ void operator()(Source s, const Row& row) const
    {
        size_of[s.id()] = row.size();
    }
};

//! A row visitor that writes each row at its offset (the writing pass).
struct StoreRow
{
    const std::uint32_t* offsets;
    std::uint32_t*       indices;
    template <typename Source, typename Row>
    __device__ void operator()(Source s, const Row& row) const
    {
        const std::uint32_t begin = offsets[s.id()];
        for (std::uint32_t i = 0; i < row.size(); ++i)
            indices[begin + i] = row[i].id();
    }
};

//! The CSR rows that for_each_row(visitor) visits, one per source of
//! num_rows: offsets from a counting pass, or, for rows of one fixed
//! length (> 0), from the length alone; then the writing pass.
template <typename ForEachRow>
DeviceRows gather_rows(std::uint32_t num_rows, std::uint32_t fixed_length,
                       ForEachRow&& for_each_row, cudaStream_t stream)
{
    DeviceRows out;
    out.num_rows = num_rows;
    out.offsets  = DeviceBuffer<std::uint32_t>(std::size_t(num_rows) + 1, stream);
    std::uint32_t total = 0;
    if (fixed_length > 0) {
        const std::uint64_t wide = std::uint64_t(fixed_length) * num_rows;
        if (wide > 0xFFFFFFFFull)
            throw InvalidInputError("query_rows: " + std::to_string(wide) +
                                    " entries; the offsets are 32-bit");
        thrust::sequence(thrust::cuda::par.on(stream), out.offsets.data(),
                         out.offsets.data() + num_rows + 1, 0u, fixed_length);
        total = std::uint32_t(wide);
    } else {
        DeviceBuffer<std::uint32_t> sizes(std::size_t(num_rows) + 1, stream);
        // every row's size is written by the pass: only the last entry needs a value
        RXMESH_CHECK_CUDA(
            cudaMemsetAsync(sizes.data() + num_rows, 0, sizeof(std::uint32_t), stream));
        for_each_row(StoreRowSize{sizes.data()});
        total = offsets_from_sizes(sizes, out.offsets, num_rows, stream);
    }
    out.indices = DeviceBuffer<std::uint32_t>(total, stream);
    for_each_row(StoreRow{out.offsets.data(), out.indices.data()});
    return out;
}

}  // namespace detail

//! Every row of query `op` (oriented: VV/VE/VF counter-clockwise, as
//! RXMesh::for_each). Rows of a fixed length (EV, FV, FE) take one query;
//! the others two and synchronise `stream` once (the total size).
template <Op op>
DeviceRows query_rows(const RXMesh& mesh, bool oriented = false, cudaStream_t stream = 0)
{
    return detail::gather_rows(
        num_sources<op>(mesh), std::uint32_t(OpTraits<op>::row_length),
        [&](auto visit) { mesh.for_each<op>(visit, AllActive{}, oriented, stream); }, stream);
}

//! Every vertex's k-ring (RXMesh::for_each_kring): row v holds v itself,
//! then ring 1, ring 2, ... up to ring k, each vertex once. Synchronises
//! `stream`.
inline DeviceRows kring_rows(const RXMesh& mesh, int k, cudaStream_t stream = 0)
{
    return detail::gather_rows(
        mesh.num_vertices(), 0,
        [&](auto visit) { mesh.for_each_kring(k, visit, AllActive{}, {}, stream); }, stream);
}

}  // namespace rxmesh
