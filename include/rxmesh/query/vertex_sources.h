// VertexSources: accumulate's per-patch transpose, done once and kept.
//
// accumulate<Op::FV> (faces into their vertices) and accumulate<Op::EV>
// (edges) need, in every block, each owned vertex's list of the patch's
// local faces (edges). Without this cache a block builds the lists every
// call, by a shared-memory transpose of the patch's rows (counts by
// shared-memory atomics, a scan, a scatter by atomics again, three
// barriers): for a gather that is itself a few shared-memory reads per face,
// that transpose is most of the kernel's shared-memory traffic. A mesh's
// topology does not change (RXMesh is static), so the lists can be made
// once and read from global memory by every later call:
//   offsets[g] .. offsets[g + 1]: the sources of global vertex g, in
//   `sources` as 16-bit local ids in the patch that owns g (the ids the
//   block's rows use).
// Memory: 4 bytes per vertex and 2 per (vertex, source) pair, i.e. about
// 8 bytes per face for FV and 10 for EV; RXMesh::memory() counts it.
// Built on request (RXMesh::vertex_sources), never implicitly: one call of
// accumulate costs less without it; an iterated one (a filter, a front, a
// solver's product) gains from the second call on.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/macros.h"

namespace rxmesh {

//! Raw pointers of a VertexSources (null: not built), passed to kernels.
struct VertexSourcesView
{
    const std::uint32_t* offsets = nullptr;  // V + 1, global vertex order
    const std::uint16_t* sources = nullptr;  // local ids in the owner patch

    RXMESH_HD bool built() const { return offsets != nullptr; }
};

//! The device arrays behind a VertexSourcesView.
struct VertexSources
{
    DeviceBuffer<std::uint32_t> offsets;
    DeviceBuffer<std::uint16_t> sources;

    VertexSourcesView view() const { return {offsets.data(), sources.data()}; }
    std::size_t bytes() const { return offsets.allocated_bytes() + sources.allocated_bytes(); }
};

}  // namespace rxmesh
