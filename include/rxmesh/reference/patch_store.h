// Reference (serial CPU) construction of the patch store from a given face
// -> patch assignment. The GPU build must produce exactly the same arrays for
// the same assignment, so the rules below are normative:
//
// - face owner: face_patch[f]; vertex owner / edge owner: the smallest patch
//   id among the incident faces (an unreferenced vertex goes to patch 0);
// - new global ids: elements sorted by (owner patch, old id); for edges the
//   old id is the canonical edge id of reference::build_topology on the
//   input faces; renumbered faces keep their corner order;
// - ribbon of p: faces of other patches sharing a vertex with an owned face
//   of p; local faces/edges/vertices: owned (by new id) then ribbon (sorted
//   by new id); local edges and vertices are exactly those of local faces;
// - M_EV: the edge's two local vertices, smaller NEW global id first;
// - M_FE: the local edges of (v0,v1), (v1,v2), (v2,v0) of the renumbered
//   face, each (local edge << 1) | flip, flip = 1 when the face walks the
//   edge from its larger to its smaller new global vertex id.
//
// Readings of the rules above (also what validate() accepts):
// - an unreferenced vertex is owned by patch 0 and is one of its local
//   vertices (an owned one), the only local vertex of no local face;
// - the owned elements of p are its whole owned ranges (every owned edge and
//   referenced vertex lies on an owned face of p by the owner rule);
// - local counts per patch: at most 65535 vertices and 65535 faces, and at
//   most 32767 edges, so that (local edge << 1) | flip fits in 16 bits and
//   0xFFFF is never a valid M_EV or M_FE entry; more throws;
// - capacity is stored, not enforced: any assignment with non-empty patches
//   is built (validate() reports Capacity / Connected violations);
// - num_patches == 0 is accepted only for an empty mesh (no vertex, no face).
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/patch/patch_store.h"

namespace rxmesh::reference {

struct PatchedMesh
{
    HostPatchStore             store;
    std::vector<Triangle>      faces;              // renumbered (new vertex ids, new order)
    std::vector<std::uint32_t> vertex_new_to_old;  // size V
    std::vector<std::uint32_t> edge_new_to_old;    // size E (canonical old edge ids)
    std::vector<std::uint32_t> face_new_to_old;    // size F
};

//! \pre faces valid over [0, num_vertices) (see build_topology), every
//!      face_patch[f] < num_patches and every patch non-empty.
//! \throw InvalidInputError when the precondition fails, or when a patch
//!        needs more than 65535 local elements of a kind.
PatchedMesh build_patch_store(std::uint32_t                     num_vertices,
                              const std::vector<Triangle>&      faces,
                              const std::vector<std::uint32_t>& face_patch,
                              std::uint32_t                     num_patches,
                              std::uint32_t                     capacity);

//! A simple serial patcher for tests: breadth-first growth over face
//! adjacency (shared edges) from the lowest unassigned face, each patch
//! stopping at `capacity` faces. Patches are connected and non-empty.
std::vector<std::uint32_t> bfs_patches(std::uint32_t                num_vertices,
                                       const std::vector<Triangle>& faces,
                                       std::uint32_t                capacity,
                                       std::uint32_t&               num_patches);

}  // namespace rxmesh::reference
