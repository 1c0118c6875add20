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

//! Where the patcher's time goes (GPU clock, each stage summed over the
//! iterations), and how many breadth-first and relaxation passes ran.
struct PatcherStageTimes
{
    float components_ms = 0;  // components of the face graph, initial seeds
    float propagate_ms  = 0;  // breadth-first growth of the patches from the seeds
    float members_ms    = 0;  // each patch's members listed (sort, offsets, largest)
    float central_ms    = 0;  // distance to the patch boundary, central faces
    float seeds_ms      = 0;  // new seeds (and extra ones in oversized patches)
    float split_ms      = 0;  // the host fallback, when Lloyd did not converge
    std::uint32_t propagate_passes = 0, relax_passes = 0;
};

struct PatcherResult
{
    DeviceBuffer<std::uint32_t> face_patch;  // patch id per face
    std::uint32_t num_patches   = 0;
    std::uint32_t num_components = 0;  // edge-connected face components
    std::uint32_t iterations    = 0;
    std::uint32_t split_patches = 0;   // patches split by the fallback
    std::uint32_t max_patch_faces = 0;
    PatcherStageTimes stages;
};

//! \pre `ff` is the face adjacency CSR of `num_faces` faces (build_topology).
PatcherResult lloyd_patches(const DeviceCsr&      ff,
                            std::uint32_t         num_faces,
                            const PatcherOptions& options = {},
                            cudaStream_t          stream  = 0);

}  // namespace rxmesh
