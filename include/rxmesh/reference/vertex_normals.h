// Reference vertex normals (Max 1999 weights), serial, in double precision:
// the oracle of the GPU versions. See rxmesh/algo/vertex_normals.cuh.
#pragma once

#include <array>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

//! Max's contribution of triangle (v, a, b) at corner v, in double:
//! (e1 x e2) / (|e1|^2 |e2|^2) with e1 = a - v, e2 = b - v; zero when an edge
//! has zero length.
std::array<double, 3> max_weight_contribution(const Vec3f& v, const Vec3f& a, const Vec3f& b);

//! Unit normal per vertex (zero for vertices of no face or zero sum).
std::vector<Vec3f> vertex_normals(const std::vector<Vec3f>&    positions,
                                  const std::vector<Triangle>& faces);

}  // namespace rxmesh::reference
