// Internal to build_patch_store (patch/build_store.h): the state its stages
// share and the stages themselves, in the order build_patch_store runs them.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/build/topology.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/patch/build_store.h"

namespace rxmesh::detail {

struct StoreBuild
{
    StoreBuild(const std::uint32_t* faces_, const DeviceTopology& topo_,
               const std::uint32_t* face_patch_, cudaStream_t stream_)
        : faces(faces_), topo(topo_), face_patch(face_patch_), stream(stream_)
    {
    }

    const std::uint32_t*  faces;       // the input's faces, 3 per face (device)
    const DeviceTopology& topo;        // of those faces
    const std::uint32_t*  face_patch;  // patch of each input face (device)
    cudaStream_t          stream;
    std::uint32_t         F = 0, E = 0, V = 0, P = 0;
    int                   pbits = 0, fbits = 0, ebits = 0, vbits = 0;  // key widths
    // owners in the new (patch) order and the input -> new maps
    DeviceBuffer<std::uint32_t> face_patch_sorted, face_old_to_new;
    DeviceBuffer<std::uint32_t> vertex_owner_sorted, edge_owner_sorted, edge_old_to_new;
    // ribbon entries as sorted keys (patch << bits) | element
    DeviceBuffer<std::uint64_t> rf_unique, re_unique, rv_unique;
    std::uint64_t               num_rf = 0, num_re = 0, num_rv = 0;

    std::uint64_t local_faces() const { return F + num_rf; }
    std::uint64_t local_edges() const { return E + num_re; }
};

//! Owners (faces: their patch; edges, vertices: the smallest patch of their
//! faces), the renumbering by owner, owned ranges, renumbered faces.
void renumber_by_patch(StoreBuild& b, PatchedDeviceMesh& out);
//! Ribbon faces: faces of other patches that share a vertex with an owned face.
void build_ribbon_faces(StoreBuild& b, PatchStore& st);
//! Ribbon edges and vertices: those of local faces owned elsewhere.
void build_ribbon_elements(StoreBuild& b, PatchedDeviceMesh& out);
//! PatchLimits, after checking that 16-bit local ids hold every patch.
//! \throw InvalidInputError naming the largest patch's sizes.
void set_patch_limits(const StoreBuild& b, PatchedDeviceMesh& out);
//! M_FE and M_EV of every patch.
void fill_lar_matrices(const StoreBuild& b, PatchedDeviceMesh& out);
//! The EF / FF hint: which patches are oriented-manifold.
void classify_orientation(const StoreBuild& b, PatchStore& st);

}  // namespace rxmesh::detail
