// RXMesh::kring_halo: the entry point of the halo build (kring_halo.cu has
// the stages): the bucket owners, the one-rings in global ids, the levels.
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_scan.cuh>

#include "kring_halo_build.h"
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

//! Every vertex's one-ring in global ids (CSR), from the VV query.
struct OneRings
{
    DeviceBuffer<std::uint32_t> offsets, indices;
};

OneRings one_rings(const RXMesh& mesh, cudaStream_t stream)
{
    const std::uint32_t n = mesh.num_vertices();
    OneRings            r{DeviceBuffer<std::uint32_t>(std::size_t(n) + 1, stream), {}};
    r.offsets.memset(0);
    std::uint32_t* offsets = r.offsets.data();
    mesh.for_each<Op::VV>(
        [=] __device__(VertexId v, const RowView<VertexId>& row) { offsets[v.id()] = row.size(); },
        AllActive{}, false, stream);
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, offsets, offsets, n + 1, stream);
    });
    std::uint32_t total = 0;
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(&total, offsets + n, sizeof total, cudaMemcpyDeviceToHost,
                                      stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    r.indices               = DeviceBuffer<std::uint32_t>(total, stream);
    std::uint32_t* indices = r.indices.data();
    mesh.for_each<Op::VV>(
        [=] __device__(VertexId v, const RowView<VertexId>& row) {
            for (std::uint32_t i = 0; i < row.size(); ++i)
                indices[offsets[v.id()] + i] = row[i].id();
        },
        AllActive{}, false, stream);
    return r;
}

}  // namespace

const KRingHalo& RXMesh::kring_halo(cudaStream_t stream) const
{
    if (m_kring_halo)
        return *m_kring_halo;
    auto                halo = std::make_shared<KRingHalo>();
    const std::uint32_t n    = num_vertices();
    halo->bucket_patch       = bucket_owners(m_store, n, stream);
    const OneRings          rings = one_rings(*this, stream);
    const detail::GlobalRows g{rings.offsets.data(), rings.indices.data()};
    const KRingHaloView      h = halo->view(m_store.view());
    std::vector<DeviceBuffer<unsigned long long>> levels;
    levels.push_back(detail::halo_level_one(h, g, n, stream));
    const DeviceBuffer<unsigned long long> none;
    for (int d = 2; d <= kKRingHaloDepth; ++d) {
        const auto& older = d == 2 ? none : levels[levels.size() - 2];
        auto        next  = detail::halo_next_level(h, g, levels.back(), older, stream);
        levels.push_back(std::move(next));
    }
    detail::assemble_halo(*halo, m_store.view(), m_store.num_patches, g, levels, stream);
    m_kring_halo = std::move(halo);
    return *m_kring_halo;
}

}  // namespace rxmesh
