// The same geodesic algorithm as RXMesh's (algo/geodesic.cuh: toplesets by a
// level-synchronous BFS, then parallel toplesets propagation with the same
// window rule, Jacobi arrays, planar update and stopping test) over the PDE
// halfedge baseline (pde.cuh), with the same loop structures: device-side
// window bookkeeping by one thread, and either every iteration in one
// cooperative launch (GeodesicOptions::one_launch, grid barriers between
// the relaxation and the window's move) or iterations enqueued in chunks,
// the done flag read one chunk late (core/device_loop.cuh).
//
// What differs is only how a step finds its vertices and their triangles:
// the BFS queue is the list of vertices sorted by level (what Romero Calla et
// al. call the toplesets' "sorted index"), so a window is one contiguous
// range of it; one thread per window vertex circulates its halfedges. The
// kernels loop over the range with a grid of resident blocks (the range lives
// in device memory). BlockThreads is swept by the bench.
#pragma once

#include <cstdint>
#include <vector>

#include "pde.cuh"
#include "rxmesh/algo/geodesic.cuh"
#include "rxmesh/core/device_buffer.h"

namespace rxmesh::baselines {

struct PdeToplesets
{
    DeviceBuffer<std::uint32_t> level;          // per vertex, kNoLevel when unreachable
    DeviceBuffer<std::uint32_t> sorted;         // reached vertices by level (the BFS queue)
    DeviceBuffer<std::uint32_t> level_offsets;  // level k: sorted[offsets[k] .. offsets[k+1])
    std::uint32_t               num_levels = 0;
};

//! one_launch: every level in one cooperative launch, else chunks.
PdeToplesets pde_toplesets(const PdeMesh& pde, const std::vector<std::uint32_t>& sources,
                           int block_threads, bool one_launch = true, cudaStream_t stream = 0);

//! Distances (one float per vertex) from `sources` over given toplesets.
GeodesicReport pde_propagate(const PdeMesh& pde, const float* positions,
                             const std::vector<std::uint32_t>& sources, const PdeToplesets& t,
                             float* distance, const GeodesicOptions& options, int block_threads,
                             cudaStream_t stream = 0);

}  // namespace rxmesh::baselines
