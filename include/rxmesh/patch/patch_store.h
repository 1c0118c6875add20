// The per-patch LAR store (RXMesh paper, sections 5.2 and 6.1).
//
// Global ids are renumbered by patch: the vertices, edges and faces a patch
// owns have contiguous global ids [X_offsets[p], X_offsets[p+1]). Inside a
// patch, local ids put owned elements first, in global-id order, so for an
// owned element local = global - X_offsets[p] and no map is stored for it.
// Ribbon elements (owned by another patch) follow, sorted by global id, and
// their global ids are listed in ribbon_X (CSR by patch: ribbon_X_offsets).
//
// Per patch p, with nF/nE/nV local faces/edges/vertices (owned + ribbon):
//   M_FE: 3 x u16 per local face, (local edge << 1) | flip, flat from
//         3 * (face_offsets[p] + ribbon_f_offsets[p]);
//   M_EV: 2 x u16 per local edge (local vertices, smaller global id first),
//         flat from 2 * (edge_offsets[p] + ribbon_e_offsets[p]).
// Derived from M_FE (a query hint, not part of the validated contract):
//   oriented_manifold[p] = 1 when no two local faces of p walk a local edge
//         in the same direction (every edge has at most one face on each
//         side, consistently oriented): EF and FF of such a patch put an
//         edge's faces in two fixed slots, no counting or scan.
// The owner of any global element is the patch whose owned range holds it
// (a binary search over X_offsets), so no owner arrays are stored.
//
// Contracts (checked by validate()): every face, edge and vertex owned by
// exactly one patch; a patch's owned faces are edge-connected and at most
// `capacity`; the local faces of p are its owned faces plus its ribbon, the
// faces of other patches that share a vertex with an owned face of p; the
// local edges and vertices are exactly those of the local faces; M_FE and
// M_EV reproduce the global topology; the ribbon therefore holds the full
// one-ring of every owned vertex.
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/patch/patch_limits.h"

namespace rxmesh {

//! Raw device pointers of a PatchStore, passed by value to kernels.
struct PatchStoreView
{
    std::uint32_t num_patches = 0;
    const std::uint32_t* vertex_offsets = nullptr;  // P + 1
    const std::uint32_t* edge_offsets   = nullptr;  // P + 1
    const std::uint32_t* face_offsets   = nullptr;  // P + 1
    const std::uint32_t* ribbon_v_offsets = nullptr;  // P + 1
    const std::uint32_t* ribbon_e_offsets = nullptr;  // P + 1
    const std::uint32_t* ribbon_f_offsets = nullptr;  // P + 1
    const std::uint32_t* ribbon_v = nullptr;  // global ids
    const std::uint32_t* ribbon_e = nullptr;
    const std::uint32_t* ribbon_f = nullptr;
    const std::uint16_t* m_ev = nullptr;
    const std::uint16_t* m_fe = nullptr;
    const std::uint8_t*  oriented_manifold = nullptr;  // P flags (null: none known)
    // array lengths, so that vectorised loads never read past an array
    std::uint64_t num_ribbon_v = 0, num_ribbon_e = 0, num_ribbon_f = 0;
    std::uint64_t m_ev_size = 0, m_fe_size = 0;
};

//! Host mirror of the store: plain vectors, same layout. Used by validate()
//! and by tests that corrupt a store on purpose.
struct HostPatchStore
{
    std::uint32_t num_patches = 0;
    std::uint32_t capacity    = 0;
    std::vector<std::uint32_t> vertex_offsets, edge_offsets, face_offsets;
    std::vector<std::uint32_t> ribbon_v_offsets, ribbon_e_offsets, ribbon_f_offsets;
    std::vector<std::uint32_t> ribbon_v, ribbon_e, ribbon_f;
    std::vector<std::uint16_t> m_ev, m_fe;

    std::uint32_t num_vertices() const { return vertex_offsets.back(); }
    std::uint32_t num_edges() const { return edge_offsets.back(); }
    std::uint32_t num_faces() const { return face_offsets.back(); }
};

struct PatchStore
{
    std::uint32_t num_patches = 0;
    std::uint32_t capacity    = 0;  // the patcher's bound on owned faces
    PatchLimits   limits;           // largest patch sizes: what a query block must fit
    DeviceBuffer<std::uint32_t> vertex_offsets, edge_offsets, face_offsets;
    DeviceBuffer<std::uint32_t> ribbon_v_offsets, ribbon_e_offsets, ribbon_f_offsets;
    DeviceBuffer<std::uint32_t> ribbon_v, ribbon_e, ribbon_f;
    DeviceBuffer<std::uint16_t> m_ev, m_fe;
    DeviceBuffer<std::uint8_t>  oriented_manifold;  // per patch, see the header comment

    PatchStoreView view() const
    {
        return {num_patches,          vertex_offsets.data(),   edge_offsets.data(),
                face_offsets.data(),  ribbon_v_offsets.data(), ribbon_e_offsets.data(),
                ribbon_f_offsets.data(), ribbon_v.data(),      ribbon_e.data(),
                ribbon_f.data(),      m_ev.data(),             m_fe.data(),
                oriented_manifold.empty() ? nullptr : oriented_manifold.data(),
                ribbon_v.size(),      ribbon_e.size(),         ribbon_f.size(),
                m_ev.size(),          m_fe.size()};
    }

    //! Calls f(buffer) for each of the store's device buffers.
    template <typename F>
    void for_each_buffer(F&& f) const
    {
        f(vertex_offsets), f(edge_offsets), f(face_offsets);
        f(ribbon_v_offsets), f(ribbon_e_offsets), f(ribbon_f_offsets);
        f(ribbon_v), f(ribbon_e), f(ribbon_f);
        f(m_ev), f(m_fe), f(oriented_manifold);
    }

    //! Bytes of device memory the store's contents occupy.
    std::size_t bytes() const
    {
        std::size_t total = 0;
        for_each_buffer([&](const auto& buffer) { total += buffer.bytes(); });
        return total;
    }

    //! Bytes of device memory the store's buffers have allocated.
    std::size_t allocated_bytes() const
    {
        std::size_t total = 0;
        for_each_buffer([&](const auto& buffer) { total += buffer.allocated_bytes(); });
        return total;
    }

    HostPatchStore to_host() const
    {
        HostPatchStore h;
        h.num_patches      = num_patches;
        h.capacity         = capacity;
        h.vertex_offsets   = vertex_offsets.to_host();
        h.edge_offsets     = edge_offsets.to_host();
        h.face_offsets     = face_offsets.to_host();
        h.ribbon_v_offsets = ribbon_v_offsets.to_host();
        h.ribbon_e_offsets = ribbon_e_offsets.to_host();
        h.ribbon_f_offsets = ribbon_f_offsets.to_host();
        h.ribbon_v         = ribbon_v.to_host();
        h.ribbon_e         = ribbon_e.to_host();
        h.ribbon_f         = ribbon_f.to_host();
        h.m_ev             = m_ev.to_host();
        h.m_fe             = m_fe.to_host();
        return h;
    }
};

}  // namespace rxmesh
