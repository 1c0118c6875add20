// RXMesh::kring_rows: every vertex's one-ring in its owner patch's local ids
// (query/kring_rows.h), built with the mesh's own VV query: one pass counts
// the rows, a CUB scan turns counts into offsets, a second pass writes them.
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_scan.cuh>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh {
namespace {

//! The first vertex of bucket b (the last vertex for buckets past the end).
struct BucketFirstVertex
{
    std::uint32_t last_vertex;
    __host__ __device__ std::uint32_t operator()(std::uint32_t b) const
    {
        const std::uint64_t v = std::uint64_t(b) << kKRingBucketShift;
        return v < last_vertex ? std::uint32_t(v) : last_vertex;
    }
};

//! The patch owning each bucket's first vertex: the last patch whose first
//! owned vertex is not after it (patches owning no vertex are skipped,
//! since the next patch starts at the same vertex).
DeviceBuffer<std::uint32_t> bucket_owners(const PatchStore& store, std::uint32_t num_vertices,
                                          cudaStream_t stream)
{
    const std::uint32_t         buckets = ((num_vertices - 1) >> kKRingBucketShift) + 2;
    DeviceBuffer<std::uint32_t> owners(buckets, stream);
    auto keys = thrust::make_transform_iterator(thrust::make_counting_iterator(0u),
                                                BucketFirstVertex{num_vertices - 1});
    thrust::upper_bound(thrust::cuda::par.on(stream), store.vertex_offsets.data(),
                        store.vertex_offsets.data() + store.num_patches + 1, keys, keys + buckets,
                        owners.data());
    // upper_bound - 1, in place
    thrust::transform(thrust::cuda::par.on(stream), owners.data(), owners.data() + buckets,
                      owners.data(), [] __device__(std::uint32_t u) { return u - 1; });
    return owners;
}

std::uint32_t max_owned(const PatchStore& store)
{
    const auto    offsets = store.vertex_offsets.to_host();
    std::uint32_t most    = 0;
    for (std::size_t p = 0; p + 1 < offsets.size(); ++p)
        most = std::max(most, offsets[p + 1] - offsets[p]);
    return most;
}

}  // namespace

const KRingRows& RXMesh::kring_rows(cudaStream_t stream) const
{
    if (m_kring_rows)
        return *m_kring_rows;
    auto                rows = std::make_shared<KRingRows>();
    const std::uint32_t n    = num_vertices();
    rows->row_offsets        = DeviceBuffer<std::uint32_t>(std::size_t(n) + 1, stream);
    rows->row_offsets.memset(0);
    std::uint32_t* offsets = rows->row_offsets.data();
    for_each<Op::VV>(
        [=] __device__(VertexId v, const RowView<VertexId>& row) { offsets[v.id()] = row.size(); },
        AllActive{}, false, stream);
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, offsets, offsets, n + 1, stream);
    });
    std::uint32_t total = 0;
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(&total, offsets + n, sizeof total, cudaMemcpyDeviceToHost,
                                      stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    rows->entries          = DeviceBuffer<std::uint16_t>(total, stream);
    std::uint16_t* entries = rows->entries.data();
    for_each<Op::VV>(
        [=] __device__(VertexId v, const RowView<VertexId>& row) {
            const std::uint32_t first = offsets[v.id()];
            for (std::uint32_t i = 0; i < row.size(); ++i)
                entries[first + i] = std::uint16_t(row.local(i));
        },
        AllActive{}, false, stream);
    rows->bucket_patch       = bucket_owners(m_store, n, stream);
    rows->max_owned_vertices = max_owned(m_store);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    m_kring_rows = std::move(rows);
    return *m_kring_rows;
}

}  // namespace rxmesh
