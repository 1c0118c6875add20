#include "rxmesh/matrix/vertex_pattern.h"

#include <cub/device/device_for.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <climits>
#include <cstdint>
#include <string>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"

namespace rxmesh {

namespace {

//! In-place exclusive sum of counts[0, n] (counts[n] = 0 on entry): the
//! offsets of n rows.
void counts_to_offsets(DeviceBuffer<int>& counts, std::uint32_t n, cudaStream_t stream)
{
    int* data = counts.data();
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, data, data, int(n) + 1, stream);
    });
}

//! Rows of the VV pattern plus the diagonal, columns sorted.
void build_rows(const RXMesh& mesh, DeviceBuffer<int>& offsets, DeviceBuffer<int>& columns,
                cudaStream_t stream)
{
    const std::uint32_t V = mesh.num_vertices();
    offsets = DeviceBuffer<int>(std::size_t(V) + 1, stream);
    int* off = offsets.data();
    RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(
        V + 1, [=] __device__(std::uint32_t v) { off[v] = v < V ? 1 : 0; }, stream));
    mesh.for_each<Op::VV>(
        [=] __device__(VertexId v, const RowView<VertexId>& vv) { off[v.id()] = int(vv.size()) + 1; },
        AllActive{}, false, stream);
    counts_to_offsets(offsets, V, stream);

    const std::size_t num_blocks = std::size_t(V) + 2 * std::size_t(mesh.num_edges());
    DeviceBuffer<int> unsorted(num_blocks, stream);
    int*              col = unsorted.data();
    RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(
        V, [=] __device__(std::uint32_t v) { col[off[v]] = int(v); }, stream));
    mesh.for_each<Op::VV>(
        [=] __device__(VertexId v, const RowView<VertexId>& vv) {
            int* row = col + off[v.id()] + 1;
            for (std::uint32_t i = 0; i < vv.size(); ++i)
                row[i] = int(vv[i].id());
        },
        AllActive{}, false, stream);
    columns = DeviceBuffer<int>(num_blocks, stream);
    const int* in  = unsorted.data();
    int*       out = columns.data();
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSegmentedSort::SortKeys(tmp, bytes, in, out, num_blocks, V, off,
                                                  off + 1, stream);
    });
}

//! Each vertex's (face * 4 + corner), ascending face id: a stable radix
//! sort of the corners by vertex keeps the faces' order.
void build_incidences(const DeviceBuffer<std::uint32_t>& faces, std::uint32_t V,
                      DeviceBuffer<int>& offsets, DeviceBuffer<std::uint32_t>& incidences,
                      cudaStream_t stream)
{
    const std::size_t    corners = faces.size();
    const std::uint32_t* fv      = faces.data();
    offsets = DeviceBuffer<int>(std::size_t(V) + 1, stream);
    offsets.memset(0);
    int* off = offsets.data();
    RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(
        corners, [=] __device__(std::size_t i) { atomicAdd(off + fv[i], 1); }, stream));
    counts_to_offsets(offsets, V, stream);

    DeviceBuffer<std::uint32_t> packed(corners, stream), sorted_keys(corners, stream);
    incidences = DeviceBuffer<std::uint32_t>(corners, stream);
    std::uint32_t* pk = packed.data();
    RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(
        corners,
        [=] __device__(std::size_t i) { pk[i] = std::uint32_t(i / 3) * 4u + std::uint32_t(i % 3); },
        stream));
    const int      bits = detail::bits_for(V);
    std::uint32_t* sk   = sorted_keys.data();
    std::uint32_t* inc  = incidences.data();
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, fv, sk, pk, inc, corners, 0, bits,
                                               stream);
    });
}

}  // namespace

std::shared_ptr<const SparsePattern> vertex_pattern(const RXMesh& mesh, cudaStream_t stream)
{
    const std::uint32_t V = mesh.num_vertices(), F = mesh.num_faces();
    const std::uint64_t num_blocks = std::uint64_t(V) + 2 * std::uint64_t(mesh.num_edges());
    if (num_blocks > std::uint64_t(INT_MAX))
        throw InvalidInputError("vertex_pattern: " + std::to_string(num_blocks) +
                                " blocks do not fit 32-bit offsets");
    if (F >= (1u << 30))
        throw InvalidInputError("vertex_pattern: " + std::to_string(F) +
                                " faces; at most 2^30 - 1");
    DeviceBuffer<int> offsets, columns, incidence_offsets;
    build_rows(mesh, offsets, columns, stream);
    DeviceBuffer<std::uint32_t> faces = mesh.faces(stream), incidences;
    build_incidences(faces, V, incidence_offsets, incidences, stream);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return std::make_shared<const SparsePattern>(V, std::move(offsets), std::move(columns),
                                                 std::move(faces), std::move(incidence_offsets),
                                                 std::move(incidences));
}

}  // namespace rxmesh
