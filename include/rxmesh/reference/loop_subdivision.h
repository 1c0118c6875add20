// Reference Loop subdivision (Loop 1987), serial, in double: the oracle of
// the GPU version (issue: Loop subdivision on the GPU). The rules are
// OpenSubdiv's Loop scheme with boundary interpolation "edge only":
//
// Edge points, edge (a, b):
//   two faces, (a, b, c) and (b, a, d):  3/8 (a + b) + 1/8 (c + d);
//   a crease (one face: boundary; three or more: non-manifold):  (a + b) / 2.
// Vertex points, vertex v of valence n (incident edges), m of them creases:
//   m <= 1 (smooth, or a dart):  (1 - n beta) v + beta (sum of neighbours),
//          beta(n) = (1/n) (5/8 - (3/8 + 1/4 cos(2 pi / n))^2);
//   m == 2 (on a crease; also a corner of a lone face: no automatic
//          corners with "edge only"):  3/4 v + 1/8 (its two crease neighbours);
//   m >= 3 (a corner):  v;
//   no edge (an isolated vertex):  v.
//
// Numbering of the refined mesh (what the GPU version must produce too):
// the coarse vertices first, in order, then one vertex per coarse edge in
// the canonical edge order of reference::build_topology (sorted vertex
// pairs); face f becomes faces 4f .. 4f + 3: the corners (v0, e01, e20),
// (v1, e12, e01), (v2, e20, e12), then the middle (e01, e12, e20), winding
// kept.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

struct LoopMesh
{
    std::vector<std::array<double, 3>> positions;
    std::vector<Triangle>              faces;
};

//! Loop's beta(n) (see above); 0 for n == 0.
double loop_beta(std::uint32_t n);

//! One level of Loop subdivision.
//! \throw InvalidInputError for a face index out of range or a face that
//!        repeats a vertex.
LoopMesh loop_subdivide_once(const LoopMesh& mesh);

//! `levels` levels (>= 0) from float positions.
LoopMesh loop_subdivide(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                        int levels);

}  // namespace rxmesh::reference
