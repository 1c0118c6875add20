// Reference Loop subdivision (Loop 1987), serial, in double: the oracle of
// the GPU version (algo/loop_subdivision.cuh). The rules are OpenSubdiv's
// Loop scheme with boundary interpolation "edge only":
//
// Edge points, edge (a, b):
//   two faces, (a, b, c) and (b, a, d):  3/8 (a + b) + 1/8 (c + d);
//   a crease (one face: boundary; three or more: non-manifold; or marked
//   sharp by the user):  (a + b) / 2.
// Vertex points, vertex v of valence n (incident edges), m of them creases:
//   m <= 1 (smooth, or a dart):  (1 - n beta) v + beta (sum of neighbours),
//          beta(n) = (1/n) (5/8 - (3/8 + 1/4 cos(2 pi / n))^2);
//   m == 2 (on a crease; also a corner of a lone face: no automatic
//          corners with "edge only"):  3/4 v + 1/8 (its two crease neighbours);
//   m >= 3 (a corner):  v;
//   no edge (an isolated vertex):  v.
//
// Numbering of the refined mesh (the GPU version produces the same):
// - vertices: the coarse vertices first, in order, then vertex V + e for
//   coarse edge e;
// - edges: level 0 lists its edges in the canonical order of
//   reference::build_topology (sorted vertex pairs (a < b)); a refined level
//   derives its edges from the coarse level without sorting: coarse edge
//   e = (a, b) gives edges 2e = (a, V + e) and 2e + 1 = (V + e, b); then face f
//   gives its three interior edges 2E + 3f + j = (M_j, M_{j+1}), where M_j is
//   the vertex of face edge j = (f_j, f_{j+1}) (indices mod 3);
// - faces: face f becomes faces 4f .. 4f + 3: the corners (f_i, M_i, M_{i-1})
//   for i = 0, 1, 2, then the middle (M_0, M_1, M_2), winding kept.
// Sharp edges (optional, one flag per edge of the level's list): the two
// halves of a sharp edge are sharp; interior edges are not.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

using LoopEdge = std::array<std::uint32_t, 2>;

struct LoopMesh
{
    std::vector<std::array<double, 3>> positions;
    std::vector<Triangle>              faces;
    //! This level's edges in the documented order; empty at level 0, which
    //! means the canonical order.
    std::vector<LoopEdge> edges;
    //! Per edge of `edges` (or of the canonical order): 1 = sharp. Empty:
    //! no sharp edge.
    std::vector<std::uint8_t> sharp;
};

//! Loop's beta(n) (see above); 0 for n == 0.
double loop_beta(std::uint32_t n);

//! The mesh's edges in the documented order (mesh.edges, or the canonical
//! order when it is empty).
std::vector<LoopEdge> loop_level_edges(const LoopMesh& mesh);

//! One level of Loop subdivision.
//! \throw InvalidInputError for a face index out of range, a face that
//!        repeats a vertex, or edges that are not those of the faces.
LoopMesh loop_subdivide_once(const LoopMesh& mesh);

//! Level 0 from float positions, with the edges given as vertex pairs (in
//! either order) marked sharp. \throw InvalidInputError for a pair that is
//! not an edge of the faces.
LoopMesh loop_level0(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                     const std::vector<LoopEdge>& sharp_edges = {});

//! `levels` levels (>= 0) of loop_level0(positions, faces, sharp_edges).
LoopMesh loop_subdivide(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                        int levels, const std::vector<LoopEdge>& sharp_edges = {});

}  // namespace rxmesh::reference
