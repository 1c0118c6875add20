// A 64-bit checksum of a query's output in canonical ids, computed on the
// device, so that systems with different numberings can be compared at any
// size without downloading their rows (bench_query_compare checks every
// system at every size with it; the CPU reference checks the small ones).
//
// Canonical ids are the input order's:
//   vertex  its id in the input the systems were built from (a system that
//           renumbers maps its ids through its vertex map);
//   edge    its two canonical vertices, as an ordered pair (smaller first);
//   face    its three canonical vertices, sorted.
// A system's edge and face keys come from its own EV and FV outputs; EV and
// FV are checked as multisets of edges and oriented faces, so a wrong EV or
// FV shows in its own checksum.
//
// A row's hash mixes its source's key with the sum of its outputs' hashes
// (independent of the order within the row, dependent on repeats); an FV row
// sums the hashes of its three directed corner pairs instead, so that its
// winding counts and its rotation does not. The checksum is the sum, mod
// 2^64, of the row hashes (a thrust reduction).
#pragma once

#include <cstdint>

#include "query_workload.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/query/op.h"

namespace rxmesh::baselines {

//! Per system element: its canonical key (see the header comment).
struct CanonicalKeys
{
    rxmesh::DeviceBuffer<std::uint64_t> vertex, edge, face;
};

//! Keys of a system's vertices, edges and faces from its EV and FV outputs
//! (from allocate + run). `vertex_to_input`: the system's vertex id -> the
//! input's, or nullptr when the system keeps the input's ids.
CanonicalKeys canonical_keys(const QueryOutput& ev, const QueryOutput& fv,
                             const std::uint32_t* vertex_to_input, std::uint32_t num_vertices);

//! The checksum of `op`'s output (synchronous).
std::uint64_t query_checksum(rxmesh::Op op, const QueryOutput& out, const CanonicalKeys& keys);

}  // namespace rxmesh::baselines
