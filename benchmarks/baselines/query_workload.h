// The query workload shared by the GPU query baselines (PdeMesh, CsrMesh) and
// the benchmark drivers that compare them with RXMesh.
//
// The benchmark workload of every system (as the RXMesh paper's section 7.1):
// each source element s writes its output ids to a pre-allocated device
// buffer at values[offsets[s] ...], offsets from that system's own output
// sizes (so offsets has rows = sources + 1 entries and offsets[rows] is the
// total); allocation is excluded from the timing.
//
// Output ids are the system's own ids: vertex and face ids are the input's
// for every system, edge ids are not (each system numbers its edges its own
// way), so the verification identifies an edge by its vertex pair, through
// the system's edge_vertices() map.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench_util.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/query/op.h"
#include "rxmesh/reference/topology.h"

namespace rxmesh::baselines {

struct QueryOutput
{
    rxmesh::DeviceBuffer<std::uint32_t> offsets;  // rows: sources + 1
    rxmesh::DeviceBuffer<std::uint32_t> values;

    std::uint32_t rows() const
    {
        return offsets.empty() ? 0u : static_cast<std::uint32_t>(offsets.size() - 1);
    }
};

//! System edge id -> its two vertices (smaller first).
using EdgeVertices = std::vector<std::array<std::uint32_t, 2>>;

//! Median GPU time in ms (CUDA events, bench::gpu_median_ms) of `runs` calls
//! of run_once after `warmup` calls. run_once should only launch, e.g.
//!   time_query([&] { pde.run(Op::VV, out); }, 3, 21);
template <typename F>
double time_query(F&& run_once, int warmup, int runs)
{
    return rxmesh::bench::gpu_median_ms(std::function<void()>(std::forward<F>(run_once)),
                                        warmup, runs);
}

//! Checks every row of `out` (downloaded, synchronous) against the reference
//! topology. Rows compare as sets (sorted, repeats removed); for every op but
//! FF the row length must also equal the reference's (FF may legitimately
//! repeat a neighbour that shares two edges). FV rows must equal the face's
//! vertices as a cyclic sequence (winding order kept). Edge ids (EV rows,
//! VE/FE values, EF sources) go through `edges` (system edge id -> vertex
//! pair); EV additionally requires `edges` to be a bijection onto the
//! reference edges and each EV row to be its edge's pair.
//! Returns false and says why (the first mismatch) in `why`.
bool verify_against_reference(const QueryOutput&                out,
                              rxmesh::Op                        op,
                              const rxmesh::reference::Topology& ref,
                              const EdgeVertices&               edges,
                              std::string&                      why);

//! Same, on rows already on the host (offsets: rows + 1 entries).
bool verify_against_reference(const std::vector<std::uint32_t>&  offsets,
                              const std::vector<std::uint32_t>&  values,
                              rxmesh::Op                        op,
                              const rxmesh::reference::Topology& ref,
                              const EdgeVertices&               edges,
                              std::string&                      why);

//! Same, for systems whose edge ids are the canonical ones (CsrMesh):
//! edges are ref.ev.
bool verify_against_reference(const QueryOutput&                out,
                              rxmesh::Op                        op,
                              const rxmesh::reference::Topology& ref,
                              std::string&                      why);

//! Number of source elements of `op` for a mesh of these sizes.
inline std::uint32_t num_sources(rxmesh::Op    op,
                                 std::uint32_t num_vertices,
                                 std::uint32_t num_edges,
                                 std::uint32_t num_faces)
{
    switch (op) {
        case rxmesh::Op::VV:
        case rxmesh::Op::VE:
        case rxmesh::Op::VF: return num_vertices;
        case rxmesh::Op::EV:
        case rxmesh::Op::EF: return num_edges;
        default: return num_faces;
    }
}

namespace detail {

//! offsets[s] = k * s for s in [0, rows]; returns a buffer of rows + 1.
rxmesh::DeviceBuffer<std::uint32_t> fixed_offsets(std::uint32_t rows, std::uint32_t k,
                                                  cudaStream_t stream = 0);

//! Throws rxmesh::Error when `out` does not have `rows` rows (an output
//! allocated for another op or mesh); `who` names the caller.
void check_output_rows(const char* who, rxmesh::Op op, const QueryOutput& out, std::uint32_t rows);

//! Throws rxmesh::Error unless `block_threads` is a multiple of 32 in
//! [32, 1024]; `who` names the caller.
void check_block_threads(const char* who, int block_threads);

//! Exclusive prefix sum of `counts` (rows + 1 entries, counts[rows] unused)
//! into a new buffer of rows + 1 entries; returns it and sets `total`
//! (synchronous read-back of offsets[rows]).
rxmesh::DeviceBuffer<std::uint32_t> offsets_from_counts(
    const rxmesh::DeviceBuffer<std::uint32_t>& counts, std::uint32_t& total,
    cudaStream_t stream = 0);

}  // namespace detail

inline constexpr rxmesh::Op kAllOps[] = {rxmesh::Op::VV, rxmesh::Op::VE, rxmesh::Op::VF,
                                         rxmesh::Op::EV, rxmesh::Op::EF, rxmesh::Op::FV,
                                         rxmesh::Op::FE, rxmesh::Op::FF};

}  // namespace rxmesh::baselines
