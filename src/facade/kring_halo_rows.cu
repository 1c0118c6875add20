// RXMesh::kring_halo, stages 3 and 4 (see kring_halo.cu): which levels each
// patch keeps, the halo's global ids in ext order, and the rows in ext ids.
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cub/device/device_scan.cuh>
#include <string>
#include <vector>

#include "kring_halo_build.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/core/search.cuh"

namespace rxmesh::detail {
namespace {

constexpr std::uint32_t kMaxExt = 65535;  // ext ids are 16 bits

struct PatchKey
{
    __host__ __device__ unsigned long long operator()(std::uint32_t p) const
    {
        return static_cast<unsigned long long>(p) << 32;
    }
};

//! Where each patch's keys begin in a level (P + 1 values, on the host).
std::vector<std::uint32_t> patch_begins(const DeviceBuffer<unsigned long long>& level,
                                        std::uint32_t num_patches, cudaStream_t stream)
{
    DeviceBuffer<std::uint32_t> begins(num_patches + 1, stream);
    auto keys = thrust::make_transform_iterator(thrust::make_counting_iterator(0u), PatchKey{});
    thrust::lower_bound(thrust::cuda::par.on(stream), level.data(), level.data() + level.size(),
                        keys, keys + num_patches + 1, begins.data());
    return begins.to_host();
}

//! Per patch and level (levels + 2 rows of P): where the level starts in
//! halo_vertices (row d - 1 for level d; the last row is the halo's end).
struct Layout
{
    std::vector<std::uint32_t> halo_offsets, row_first, level_base;
    std::uint32_t              max_ext = 0;
};

Layout plan_layout(const std::vector<std::uint32_t>&              vertex_offsets,
                   const std::vector<std::vector<std::uint32_t>>& begins, std::uint32_t P)
{
    const std::size_t D = begins.size();
    Layout            L;
    L.halo_offsets.assign(P + 1, 0), L.row_first.assign(P + 1, 0);
    L.level_base.assign((D + 1) * P, 0);
    for (std::uint32_t p = 0; p < P; ++p) {
        const std::uint32_t owned = vertex_offsets[p + 1] - vertex_offsets[p];
        std::uint32_t       ext = owned, halo = 0, rows = owned, kept = 0;
        for (std::size_t d = 0; d < D; ++d) {
            const std::uint32_t c   = begins[d][p + 1] - begins[d][p];
            L.level_base[d * P + p] = L.halo_offsets[p] + halo;
            if (kept == d && ext + c <= kMaxExt) {
                if (d > 0) rows += begins[d - 1][p + 1] - begins[d - 1][p];
                ext += c, halo += c, ++kept;
            }
        }
        if (kept == 0)
            throw Error("k-ring halo: patch " + std::to_string(p) +
                        " has more neighbouring vertices than 16-bit ids hold");
        for (std::size_t d = kept; d <= D; ++d) L.level_base[d * P + p] = L.halo_offsets[p] + halo;
        L.halo_offsets[p + 1] = L.halo_offsets[p] + halo;
        L.row_first[p + 1]    = L.row_first[p] + rows;
        L.max_ext             = std::max(L.max_ext, ext);
    }
    return L;
}

__global__ void place_level(const unsigned long long* keys, std::uint64_t n,
                            const std::uint32_t* begins, const std::uint32_t* base,
                            const std::uint32_t* next_base, std::uint32_t* halo_vertices)
{
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        const std::uint32_t p  = std::uint32_t(keys[i] >> 32),
                            at = base[p] + std::uint32_t(i - begins[p]);
        if (at < next_base[p])  // the level is kept by p
            halo_vertices[at] = std::uint32_t(keys[i]);
    }
}

struct RowContext
{
    const std::uint32_t *vertex_offsets, *halo_offsets, *halo_vertices, *row_first, *level_base;
    std::uint32_t        num_patches, levels;
    GlobalRows           g;

    __device__ std::uint32_t patch_of_row(std::uint32_t r) const
    {
        std::uint32_t lo = 0, hi = num_patches - 1;  // the last p with row_first[p] <= r
        while (lo < hi) {
            const std::uint32_t mid = (lo + hi + 1) / 2;
            if (row_first[mid] <= r)
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    }
    __device__ std::uint32_t vertex_of_row(std::uint32_t p, std::uint32_t r) const
    {
        const std::uint32_t l = r - row_first[p], owned = vertex_offsets[p + 1] - vertex_offsets[p];
        return l < owned ? vertex_offsets[p] + l : halo_vertices[halo_offsets[p] + l - owned];
    }
    //! z's ext id in p, searched level by level (each level sorted).
    __device__ std::uint32_t ext_id(std::uint32_t p, std::uint32_t z) const
    {
        const std::uint32_t first = vertex_offsets[p], owned = vertex_offsets[p + 1] - first;
        if (z - first < owned) return z - first;
        for (std::uint32_t d = 0; d < levels; ++d) {
            const std::uint32_t lo = level_base[d * num_patches + p],
                                hi = level_base[(d + 1) * num_patches + p];
            const std::uint32_t at = detail::lower_bound_in(halo_vertices, lo, hi, z);
            if (at < hi && halo_vertices[at] == z) return owned + at - halo_offsets[p];
        }
        return 0xFFFFu;  // not reached: rows exist only below the last kept level
    }
};

__global__ void row_valences(RowContext c, std::uint32_t rows, std::uint32_t* counts)
{
    RXMESH_FOR_EACH_ITEM(r, rows)
    {
        const std::uint32_t x = c.vertex_of_row(c.patch_of_row(std::uint32_t(r)), std::uint32_t(r));
        counts[r]             = c.g.offsets[x + 1] - c.g.offsets[x];
    }
}

__global__ void fill_rows(RowContext c, std::uint32_t rows, const std::uint32_t* row_offsets,
                          std::uint16_t* entries)
{
    RXMESH_FOR_EACH_ITEM(r, rows)
    {
        const std::uint32_t p   = c.patch_of_row(std::uint32_t(r));
        const std::uint32_t x   = c.vertex_of_row(p, std::uint32_t(r));
        std::uint32_t       out = row_offsets[r];
        for (std::uint32_t e = c.g.offsets[x]; e < c.g.offsets[x + 1]; ++e, ++out)
            entries[out] = std::uint16_t(c.ext_id(p, c.g.indices[e]));
    }
}

void build_rows(KRingHalo& halo, const RowContext& c, std::uint32_t rows, cudaStream_t stream)
{
    halo.row_offsets = DeviceBuffer<std::uint32_t>(std::size_t(rows) + 1, stream);
    halo.row_offsets.memset(0);
    if (rows > 0) {
        row_valences<<<flat_grid(rows), kFlatBlockThreads, 0, stream>>>(c, rows,
                                                                        halo.row_offsets.data());
        RXMESH_CHECK_LAUNCH();
    }
    std::uint32_t* offsets = halo.row_offsets.data();
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, offsets, offsets, rows + 1, stream);
    });
    halo.entries = DeviceBuffer<std::uint16_t>(halo.row_offsets.to_host()[rows], stream);
    if (rows > 0) {
        fill_rows<<<flat_grid(rows), kFlatBlockThreads, 0, stream>>>(c, rows, offsets,
                                                                     halo.entries.data());
        RXMESH_CHECK_LAUNCH();
    }
}

}  // namespace

void assemble_halo(KRingHalo& halo, const PatchStoreView& store, std::uint32_t P,
                   const GlobalRows& g, const std::vector<DeviceBuffer<unsigned long long>>& levels,
                   cudaStream_t stream)
{
    std::vector<std::vector<std::uint32_t>> begins;
    for (const auto& level : levels) begins.push_back(patch_begins(level, P, stream));
    std::vector<std::uint32_t> vertex_offsets(P + 1);
    RXMESH_CHECK_CUDA(cudaMemcpy(vertex_offsets.data(), store.vertex_offsets,
                                 (P + 1) * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    const Layout L     = plan_layout(vertex_offsets, begins, P);
    halo.depth         = int(levels.size());
    halo.max_ext       = L.max_ext;
    halo.halo_offsets  = DeviceBuffer<std::uint32_t>::from_host(L.halo_offsets, stream);
    halo.row_first     = DeviceBuffer<std::uint32_t>::from_host(L.row_first, stream);
    halo.halo_vertices = DeviceBuffer<std::uint32_t>(L.halo_offsets[P], stream);
    auto level_base    = DeviceBuffer<std::uint32_t>::from_host(L.level_base, stream);
    for (std::size_t d = 0; d < levels.size(); ++d) {
        auto b = DeviceBuffer<std::uint32_t>::from_host(begins[d], stream);
        if (levels[d].size() > 0)
            place_level<<<flat_grid(levels[d].size()), kFlatBlockThreads, 0, stream>>>(
                levels[d].data(), levels[d].size(), b.data(), level_base.data() + d * P,
                level_base.data() + (d + 1) * P, halo.halo_vertices.data());
        RXMESH_CHECK_LAUNCH();
        RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    }
    const RowContext c{store.vertex_offsets,
                       halo.halo_offsets.data(),
                       halo.halo_vertices.data(),
                       halo.row_first.data(),
                       level_base.data(),
                       P,
                       std::uint32_t(levels.size()),
                       g};
    build_rows(halo, c, L.row_first[P], stream);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
}

}  // namespace rxmesh::detail
