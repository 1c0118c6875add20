// OpenSubdiv's Far as the oracle of our Loop subdivision (reference and
// GPU): uniform Loop refinement, boundary interpolation "edge only",
// infinitely sharp creases for our sharp edges, positions in double, given
// in our numbering (reference/loop_subdivision.h).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::test {

//! False when the tests were built without OpenSubdiv (libosd-dev).
bool osd_oracle_available();

//! Levels 1 .. levels of OpenSubdiv's refinement, each level's positions in
//! our vertex order (vertices matched through the documented order: a
//! child of a vertex is that vertex; a child of an edge is the one vertex
//! adjacent to the children of both of the edge's ends).
//! \throw std::runtime_error when OpenSubdiv refuses the mesh, a count
//!        differs from ours, or a vertex cannot be matched.
std::vector<std::vector<std::array<double, 3>>> osd_levels_in_our_numbering(
    const TriangleSoup& soup, int levels, const std::vector<std::array<std::uint32_t, 2>>& sharp = {});

}  // namespace rxmesh::test
