// KRingRows: what the k-ring queries (query/kring.cuh) read beyond the patch
// store: every vertex's one-ring, stored once, in its owner patch's 16-bit
// local ids (vertices are numbered by patch, so the rows of a patch's owned
// vertices are contiguous and indexed by global id).
//
// Why rows and not a deeper ribbon: a k-ring leaves its patch (and the
// ribbon, which holds one ring only) for every vertex within k - 1 edges of
// the patch's border, and for k larger than the patch's radius it can cross
// several patches. A halo of depth k per patch would grow with k and still
// need a way out for large k; a row per vertex serves every k, every
// patch, and every vertex of any valence, at 4 bytes per vertex plus 2 per
// directed edge (about 8 bytes per face; a global CSR of 32-bit ids needs
// about 14). A ring that crosses into patch q reads q's rows and maps q's
// local ids to global ids through q's ribbon list (as RowView does).
//
// The owner of a vertex is found through `bucket_patch`: the patch owning
// the first vertex of each bucket of 2^kKRingBucketShift vertices, so a
// lookup is one load and a binary search over the few patches a bucket
// spans (bytes per vertex: 4 / 2^shift).
#pragma once

#include <cstdint>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/macros.h"
#include "rxmesh/patch/patch_store.h"
#include "rxmesh/query/row_view.h"

namespace rxmesh {

inline constexpr int kKRingBucketShift = 8;

//! How a k-ring query runs. capacity: list entries per thread in shared
//! memory (0: chosen from k); vertices with more rings' entries take the
//! slower global-memory path, so any value is correct.
struct KRingOptions
{
    std::uint32_t capacity = 0;
};

//! Raw pointers of a KRingRows, passed by value to kernels.
struct KRingRowsView
{
    const std::uint32_t* row_offsets  = nullptr;  // V + 1
    const std::uint16_t* entries      = nullptr;  // owner-local neighbour ids
    const std::uint32_t* bucket_patch = nullptr;  // (V >> shift) + 2
    const std::uint32_t* vertex_offsets   = nullptr;  // the store's, P + 1
    const std::uint32_t* ribbon_v_offsets = nullptr;
    const std::uint32_t* ribbon_v         = nullptr;

    //! The patch that owns global vertex v.
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

    //! How patch q's local vertex ids map to global ids.
    RXMESH_DEVICE LocalToGlobal local_to_global(std::uint32_t q) const
    {
        const std::uint32_t first = vertex_offsets[q];
        return {first, vertex_offsets[q + 1] - first, ribbon_v + ribbon_v_offsets[q]};
    }
};

//! Device storage of the rows; built by RXMesh on first use of a k-ring
//! query (src/facade/kring_rows.cu), kept with the mesh.
struct KRingRows
{
    DeviceBuffer<std::uint32_t> row_offsets;
    DeviceBuffer<std::uint16_t> entries;
    DeviceBuffer<std::uint32_t> bucket_patch;
    //! The most vertices one patch owns (sizes the per-thread bitmaps).
    std::uint32_t max_owned_vertices = 0;

    KRingRowsView view(const PatchStoreView& store) const
    {
        return {row_offsets.data(), entries.data(), bucket_patch.data(), store.vertex_offsets,
                store.ribbon_v_offsets, store.ribbon_v};
    }
    std::size_t bytes() const
    {
        return row_offsets.bytes() + entries.bytes() + bucket_patch.bytes();
    }
};

}  // namespace rxmesh
