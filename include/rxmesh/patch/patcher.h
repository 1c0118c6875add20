// GPU patchers: partition the faces of a mesh into edge-connected patches of
// at most `capacity` faces.
//
// PatcherMethod::Curve (the default; curve_patches):
// - faces ordered along a 3D Hilbert curve of their centroids (curve_key.h);
// - seeds: the middle face of every run of capacity * fill_percent / 100
//   faces along the curve, plus one face per edge-connected component that
//   holds none (its first face on the curve);
// - patches grown from the seeds by breadth-first distance on the face graph
//   (ties to the smaller seed id), then `recenter_steps` times the seeds
//   moved to their patch's most central face and the patches grown again;
// - every patch still over capacity is split: m = ceil(size / spacing)
//   (at least 2) seeds spread along its faces' curve order, regrown inside
//   the patch only; repeated until every patch fits;
// - patch ids in the order of each patch's first face on the curve.
// Each growth is the unique fixpoint of a min-plus relaxation, computed by
// blocks that relax 1024 consecutive faces of the curve in shared memory
// until they settle, a few sweeps in all instead of one per BFS level, and
// the result does not depend on the schedule: the patches are deterministic
// and reference/patcher.h computes the same ones on the CPU.
//
// PatcherMethod::Lloyd (lloyd_patches; RXMesh paper, section 6.3 and
// appendix C): Lloyd iterations on the face adjacency graph:
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

#include "rxmesh/build/import.h"
#include "rxmesh/build/topology.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/device_buffer.h"

namespace rxmesh {

enum class PatcherMethod
{
    Curve,  // Hilbert-curve seeds, growth, recentering, splits (the default)
    Lloyd,  // the paper's Lloyd iterations
};

struct PatcherOptions
{
    std::uint32_t capacity = 512;  // max faces per patch
    PatcherMethod method   = PatcherMethod::Curve;
    // Curve: seed spacing along the curve, in percent of the capacity, and
    // how many times the seeds move to their patch's centre
    std::uint32_t fill_percent   = 80;
    std::uint32_t recenter_steps = 1;
    // Lloyd
    std::uint32_t max_iterations  = 48;
    std::uint32_t add_seeds_every = 5;  // iterations between seed additions
    std::uint64_t random_seed     = 0x5eed;
};

//! The device mesh a patcher reads: compact faces (three vertex ids each),
//! their positions and the face adjacency.
struct PatcherInput
{
    const DeviceCsr*     ff            = nullptr;  // face -> edge-adjacent faces
    const std::uint32_t* faces         = nullptr;  // 3 * num_faces vertex ids
    const float*         positions     = nullptr;  // 3 * num_vertices
    std::uint32_t        num_faces     = 0;
    std::uint32_t        num_vertices  = 0;
};

//! The patcher's view of an imported mesh (which must outlive it).
inline PatcherInput patcher_input(const ImportedMesh& mesh)
{
    PatcherInput in;
    in.ff           = &mesh.topology.ff;
    in.faces        = mesh.faces.data();
    in.positions    = mesh.positions.data();
    in.num_faces    = mesh.num_faces;
    in.num_vertices = mesh.num_vertices;
    return in;
}

//! Where the patcher's time goes (GPU clock, each stage summed over the
//! iterations), and how many breadth-first and relaxation passes ran.
struct PatcherStageTimes
{
    float order_ms      = 0;  // Curve: keys, sort along the curve, graph renumbered
    float components_ms = 0;  // components of the face graph, initial seeds
    float propagate_ms  = 0;  // breadth-first growth of the patches from the seeds
    float members_ms    = 0;  // each patch's members listed (sort, offsets, largest)
    float central_ms    = 0;  // distance to the patch boundary, central faces
    float seeds_ms      = 0;  // new seeds (and extra ones in oversized patches)
    float split_ms      = 0;  // Curve: oversized patches split; Lloyd: the host fallback
    float finish_ms     = 0;  // Curve: patch ids in curve order, back to face order
    std::uint32_t propagate_passes = 0, relax_passes = 0;
};

struct PatcherResult
{
    DeviceBuffer<std::uint32_t> face_patch;  // patch id per face
    std::uint32_t num_patches   = 0;
    std::uint32_t num_components = 0;  // edge-connected face components
    std::uint32_t iterations    = 0;   // Lloyd: iterations; Curve: growths
    std::uint32_t split_patches = 0;   // Curve: split by the split stage; Lloyd: by the fallback
    std::uint32_t max_patch_faces = 0;
    PatcherStageTimes stages;
};

//! The patches of `input` by options.method.
//! \throw Error when the capacity is 0 or the input is incomplete.
PatcherResult make_patches(const PatcherInput&   input,
                           const PatcherOptions& options = {},
                           cudaStream_t          stream  = 0);

//! \pre input.ff is the face adjacency CSR of input.num_faces faces.
PatcherResult curve_patches(const PatcherInput&   input,
                            const PatcherOptions& options = {},
                            cudaStream_t          stream  = 0);

//! \pre `ff` is the face adjacency CSR of `num_faces` faces (build_topology).
PatcherResult lloyd_patches(const DeviceCsr&      ff,
                            std::uint32_t         num_faces,
                            const PatcherOptions& options = {},
                            cudaStream_t          stream  = 0);

}  // namespace rxmesh
