// KRingHalo: what the k-ring queries (query/kring.cuh) read beyond the
// patch store. Per patch p, its halo: the vertices within `depth` edges of
// p's owned vertices that p does not own, level by level (level d: at
// distance exactly d from the owned set), each level sorted by global id.
// With the owned vertices first, they give p an extended local numbering
// ("ext ids": owned l -> l, halo entry i -> owned + i), in which the
// one-ring of every vertex closer than `depth` to the owned set is stored
// (the rows; ext ids in 16 bits).
//
// Why a halo: a thread growing the k-ring (k <= depth) of an owned vertex
// then reads only p's rows, stays in ext ids, and tests membership with a
// bitmap over them: no search of the list, no owner lookups, no id
// translation until the user reads the ring. Rings that leave the halo
// (k > depth, the predicate form, vertices of huge valence) take the
// global path, which reads any vertex's row from its owner's halo (an
// owned vertex always has one) and maps it to global ids.
// Memory: the rows of owned and halo vertices (4 bytes per row, 2 per
// entry) and the halo's global ids; bench_kring measures about 15 bytes per
// face on refined scans at depth 3 (depth 4: about 19, and k = 2, 3 slower).
//
// A patch's ext ids must fit 16 bits: a patch whose halo would exceed them
// keeps fewer levels (at least one, the vertices next to it, which its
// store already numbers in 16 bits).
#pragma once

#include <cstdint>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/macros.h"
#include "rxmesh/patch/patch_store.h"
#include "rxmesh/query/row_view.h"

namespace rxmesh {

inline constexpr int kKRingBucketShift = 8;
//! Levels of every halo: k-rings up to this k never leave it.
inline constexpr int kKRingHaloDepth = 3;

//! How a k-ring query runs. capacity: list entries per thread on the fast
//! path (0: chosen from k); vertices whose rings are longer take the
//! slower global-memory path, so any value is correct.
struct KRingOptions
{
    std::uint32_t capacity = 0;
};

//! Raw pointers of a KRingHalo, passed by value to kernels.
struct KRingHaloView
{
    const std::uint32_t* vertex_offsets = nullptr;  // the store's, P + 1
    const std::uint32_t* halo_offsets   = nullptr;  // P + 1, into halo_vertices
    const std::uint32_t* halo_vertices  = nullptr;  // global ids
    const std::uint32_t* row_first      = nullptr;  // P + 1: p's rows, ext ids 0 .. count - 1
    const std::uint32_t* row_offsets    = nullptr;  // rows + 1, into entries
    const std::uint16_t* entries        = nullptr;  // ext ids of the row's patch
    const std::uint32_t* bucket_patch   = nullptr;  // (V - 1 >> shift) + 2

    //! The patch that owns global vertex v: one load and a binary search
    //! over the few patches whose first vertex lies in v's bucket.
    RXMESH_DEVICE std::uint32_t owner(std::uint32_t v) const
    {
        const std::uint32_t b  = v >> kKRingBucketShift;
        std::uint32_t       lo = bucket_patch[b], hi = bucket_patch[b + 1];
        while (lo < hi) {  // the largest q with vertex_offsets[q] <= v
            const std::uint32_t mid = (lo + hi + 1) / 2;
            if (vertex_offsets[mid] <= v)
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    }
    //! Patch p's ext ids -> global ids.
    RXMESH_DEVICE LocalToGlobal ext_to_global(std::uint32_t p) const
    {
        const std::uint32_t first = vertex_offsets[p];
        return {first, vertex_offsets[p + 1] - first, halo_vertices + halo_offsets[p]};
    }
    //! Ext ids of p, owned and halo.
    RXMESH_DEVICE std::uint32_t num_ext(std::uint32_t p) const
    {
        return vertex_offsets[p + 1] - vertex_offsets[p] + halo_offsets[p + 1] - halo_offsets[p];
    }
};

//! Device storage of the halos; built by RXMesh on the first k-ring query
//! (src/facade/kring_halo.cu) and kept with the mesh.
struct KRingHalo
{
    int depth = 0;  // levels built (patches may keep fewer, see above)
    DeviceBuffer<std::uint32_t> halo_offsets, halo_vertices, row_first, row_offsets;
    DeviceBuffer<std::uint16_t> entries;
    DeviceBuffer<std::uint32_t> bucket_patch;
    std::uint32_t max_ext = 0;  // the most ext ids of one patch

    KRingHaloView view(const PatchStoreView& store) const
    {
        return {store.vertex_offsets, halo_offsets.data(), halo_vertices.data(), row_first.data(),
                row_offsets.data(),   entries.data(),      bucket_patch.data()};
    }
    //! Device bytes the halo's buffers have allocated.
    std::size_t bytes() const
    {
        return halo_offsets.allocated_bytes() + halo_vertices.allocated_bytes() +
               row_first.allocated_bytes() + row_offsets.allocated_bytes() +
               entries.allocated_bytes() + bucket_patch.allocated_bytes();
    }
};

}  // namespace rxmesh
