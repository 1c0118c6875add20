// A query's rows, or every vertex's k-ring, gathered into CSR arrays in
// device memory: for callers that want the relation itself rather than a
// lambda per row (Python, a sparse-matrix library, a check).
//
//   DeviceRows vv = query_rows<Op::VV>(mesh);      // offsets: V + 1
//   // the neighbours of global vertex v: vv.indices[offsets[v] .. offsets[v + 1])
//
// Written with the public API: RXMesh::for_each counts each row, a CUB scan
// places them, a second for_each writes them. Ids are global (the mesh's
// patch numbering); rows are in the order the query gives them.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <string>
#include <type_traits>

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
    using Source = typename OpTraits<op>::Source;
    if constexpr (std::is_same_v<Source, VertexId>)
        return mesh.num_vertices();
    else if constexpr (std::is_same_v<Source, EdgeId>)
        return mesh.num_edges();
    else
        return mesh.num_faces();
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

}  // namespace detail

//! Every row of query `op` (oriented: VV/VE/VF counter-clockwise, as
//! RXMesh::for_each). Synchronises `stream` once (the total size).
template <Op op>
DeviceRows query_rows(const RXMesh& mesh, bool oriented = false, cudaStream_t stream = 0)
{
    using Source = typename OpTraits<op>::Source;
    using Output = typename OpTraits<op>::Output;
    DeviceRows out;
    out.num_rows = num_sources<op>(mesh);
    DeviceBuffer<std::uint32_t> sizes(std::size_t(out.num_rows) + 1, stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(sizes.data(), 0, sizes.bytes(), stream));
    std::uint32_t* const size_of = sizes.data();
    mesh.for_each<op>(
        [=] __device__(Source s, const RowView<Output>& row) { size_of[s.id()] = row.size(); },
        AllActive{}, oriented, stream);
    out.offsets = DeviceBuffer<std::uint32_t>(std::size_t(out.num_rows) + 1, stream);
    const std::uint32_t total = detail::offsets_from_sizes(sizes, out.offsets, out.num_rows, stream);
    out.indices = DeviceBuffer<std::uint32_t>(total, stream);
    const std::uint32_t* const offsets = out.offsets.data();
    std::uint32_t* const       indices = out.indices.data();
    mesh.for_each<op>(
        [=] __device__(Source s, const RowView<Output>& row) {
            const std::uint32_t begin = offsets[s.id()];
            for (std::uint32_t i = 0; i < row.size(); ++i)
                indices[begin + i] = row[i].id();
        },
        AllActive{}, oriented, stream);
    return out;
}

//! Every vertex's k-ring (RXMesh::for_each_kring): row v holds v itself,
//! then ring 1, ring 2, ... up to ring k, each vertex once. Synchronises
//! `stream`.
inline DeviceRows kring_rows(const RXMesh& mesh, int k, cudaStream_t stream = 0)
{
    DeviceRows out;
    out.num_rows = mesh.num_vertices();
    DeviceBuffer<std::uint32_t> sizes(std::size_t(out.num_rows) + 1, stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(sizes.data(), 0, sizes.bytes(), stream));
    std::uint32_t* const size_of = sizes.data();
    mesh.for_each_kring(
        k, [=] __device__(VertexId v, const KRingView& rings) { size_of[v.id()] = rings.size(); },
        AllActive{}, {}, stream);
    out.offsets = DeviceBuffer<std::uint32_t>(std::size_t(out.num_rows) + 1, stream);
    const std::uint32_t total = detail::offsets_from_sizes(sizes, out.offsets, out.num_rows, stream);
    out.indices = DeviceBuffer<std::uint32_t>(total, stream);
    const std::uint32_t* const offsets = out.offsets.data();
    std::uint32_t* const       indices = out.indices.data();
    mesh.for_each_kring(
        k,
        [=] __device__(VertexId v, const KRingView& rings) {
            const std::uint32_t begin = offsets[v.id()];
            for (std::uint32_t i = 0; i < rings.size(); ++i)
                indices[begin + i] = rings[i].id();
        },
        AllActive{}, {}, stream);
    return out;
}

}  // namespace rxmesh
