// GPU Lloyd patcher (RXMesh paper, section 6.3 and appendix C).
//
// Partitions the faces of a mesh into edge-connected patches of at most
// `capacity` faces, by Lloyd iterations on the face adjacency graph:
// seeds (one per connected component, then in proportion to component
// size), patch assignment by breadth-first propagation from the seeds, a
// seed update that moves each seed to its patch's most central face (the
// face farthest from the patch boundary), and seed addition inside oversized
// patches every few iterations. Deterministic for a given random seed: the
// propagation pulls the smallest neighbouring patch id from the previous
// round instead of racing with atomics. Always terminates: after
// `max_iterations`, patches still too large are split by bounded
// breadth-first growth.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/build/topology.h"
#include "rxmesh/core/device_buffer.h"

namespace rxmesh {

struct PatcherOptions
{
    std::uint32_t capacity       = 512;  // max faces per patch
    std::uint32_t max_iterations = 48;
    std::uint32_t add_seeds_every = 5;   // iterations between seed additions
    std::uint64_t random_seed    = 0x5eed;
};

struct PatcherResult
{
    DeviceBuffer<std::uint32_t> face_patch;  // patch id per face
    std::uint32_t num_patches   = 0;
    std::uint32_t num_components = 0;  // edge-connected face components
    std::uint32_t iterations    = 0;
    std::uint32_t split_patches = 0;   // patches split by the fallback
    std::uint32_t max_patch_faces = 0;
};

//! \pre `ff` is the face adjacency CSR of `num_faces` faces (build_topology).
PatcherResult lloyd_patches(const DeviceCsr&      ff,
                            std::uint32_t         num_faces,
                            const PatcherOptions& options = {},
                            cudaStream_t          stream  = 0);

}  // namespace rxmesh
