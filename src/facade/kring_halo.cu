// RXMesh::kring_halo: every patch's halo and rows (query/kring_halo.h),
// built on the GPU from the mesh's own VV query:
//   1. the one-rings in global ids (for_each<Op::VV>, counted, scanned, filled);
//   2. halo level 1, then 2, 3: candidate (patch, vertex) keys from the
//      previous level's rows, minus those the patch owns or found at the
//      two levels before (a neighbour of level d lies at d - 1, d or d + 1),
//      radix-sorted and made unique (CUB);
//   3. per patch, the levels that fit 16-bit ext ids (host, P values);
//   4. the rows of the vertices below the last kept level, in ext ids.
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <vector>

#include "kring_halo_build.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/core/search.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh {
namespace detail {
namespace {

constexpr unsigned long long kNoKey = ~0ull;

__device__ inline unsigned long long halo_key(std::uint32_t p, std::uint32_t v)
{
    return (static_cast<unsigned long long>(p) << 32) | v;
}

//! Level-1 candidates: (owner of x, y) for every edge x -> y leaving the owner.
__global__ void level_one_keys(KRingHaloView h, GlobalRows g, std::uint32_t num_vertices,
                               unsigned long long* keys)
{
    RXMESH_FOR_EACH_ITEM(x, num_vertices)
    {
        const std::uint32_t p     = h.owner(std::uint32_t(x));
        const std::uint32_t first = h.vertex_offsets[p], owned = h.vertex_offsets[p + 1] - first;
        for (std::uint32_t e = g.offsets[x]; e < g.offsets[x + 1]; ++e) {
            const std::uint32_t y = g.indices[e];
            keys[e]               = y - first < owned ? kNoKey : halo_key(p, y);
        }
    }
}

//! Level-d candidates from level d - 1 (`prev`), minus level d - 2 (`older`,
//! empty at d = 2: the owned vertices are tested by range).
__global__ void next_level_keys(KRingHaloView h, GlobalRows g, const unsigned long long* prev,
                                std::uint64_t num_prev, const unsigned long long* older,
                                std::uint64_t num_older, const std::uint32_t* out_offsets,
                                unsigned long long* keys)
{
    RXMESH_FOR_EACH_ITEM(i, num_prev)
    {
        const std::uint32_t p = std::uint32_t(prev[i] >> 32), y = std::uint32_t(prev[i]);
        const std::uint32_t first = h.vertex_offsets[p], owned = h.vertex_offsets[p + 1] - first;
        std::uint32_t       out = out_offsets[i];
        for (std::uint32_t e = g.offsets[y]; e < g.offsets[y + 1]; ++e, ++out) {
            const std::uint32_t      z     = g.indices[e];
            const unsigned long long k     = halo_key(p, z);
            const bool               known = z - first < owned ||
                               detail::sorted_contains(prev, std::uint64_t(0), num_prev, k) ||
                               detail::sorted_contains(older, std::uint64_t(0), num_older, k);
            keys[out] = known ? kNoKey : k;
        }
    }
}

__global__ void valences_of_keys(GlobalRows g, const unsigned long long* keys, std::uint64_t n,
                                 std::uint32_t* out)
{
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        const std::uint32_t y = std::uint32_t(keys[i]);
        out[i]                = g.offsets[y + 1] - g.offsets[y];
    }
}

//! Sorts keys, drops repeats and kNoKey; returns how many remain.
std::uint64_t sort_unique(DeviceBuffer<unsigned long long>& keys, cudaStream_t stream)
{
    const std::uint64_t n = keys.size();
    if (n == 0) return 0;
    DeviceBuffer<unsigned long long> sorted(n, stream), unique(n, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(tmp, bytes, keys.data(), sorted.data(), n, 0, 64,
                                              stream);
    });
    DeviceBuffer<std::uint64_t> count(1, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSelect::Unique(tmp, bytes, sorted.data(), unique.data(), count.data(), n,
                                         stream);
    });
    std::uint64_t kept = count.to_host()[0];
    if (kept > 0) {
        unsigned long long last = 0;
        RXMESH_CHECK_CUDA(
            cudaMemcpy(&last, unique.data() + kept - 1, sizeof last, cudaMemcpyDeviceToHost));
        kept -= last == kNoKey;
    }
    keys = std::move(unique);
    keys.shrink(kept);
    return kept;
}

}  // namespace

DeviceBuffer<unsigned long long> halo_level_one(const KRingHaloView& h, const GlobalRows& g,
                                                std::uint32_t num_vertices, cudaStream_t stream)
{
    std::uint32_t nnz = 0;
    RXMESH_CHECK_CUDA(
        cudaMemcpy(&nnz, g.offsets + num_vertices, sizeof nnz, cudaMemcpyDeviceToHost));
    DeviceBuffer<unsigned long long> keys(nnz, stream);
    level_one_keys<<<flat_grid(num_vertices), kFlatBlockThreads, 0, stream>>>(h, g, num_vertices,
                                                                              keys.data());
    RXMESH_CHECK_LAUNCH();
    sort_unique(keys, stream);
    return keys;
}

DeviceBuffer<unsigned long long> halo_next_level(const KRingHaloView& h, const GlobalRows& g,
                                                 const DeviceBuffer<unsigned long long>& prev,
                                                 const DeviceBuffer<unsigned long long>& older,
                                                 cudaStream_t                            stream)
{
    const std::uint64_t         n = prev.size();
    DeviceBuffer<std::uint32_t> offsets(n + 1, stream);
    offsets.memset(0);
    if (n > 0) {
        valences_of_keys<<<flat_grid(n), kFlatBlockThreads, 0, stream>>>(g, prev.data(), n,
                                                                         offsets.data());
        RXMESH_CHECK_LAUNCH();
    }
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, offsets.data(), offsets.data(), n + 1,
                                             stream);
    });
    const std::uint32_t              total = offsets.to_host()[n];
    DeviceBuffer<unsigned long long> keys(total, stream);
    if (n > 0) {
        next_level_keys<<<flat_grid(n), kFlatBlockThreads, 0, stream>>>(
            h, g, prev.data(), n, older.data(), older.size(), offsets.data(), keys.data());
        RXMESH_CHECK_LAUNCH();
    }
    sort_unique(keys, stream);
    return keys;
}

}  // namespace detail
}  // namespace rxmesh
