// Reference vertex normals (Max 1999 weights), serial, in double precision:
// the oracle of the GPU versions. See rxmesh/algo/vertex_normals.cuh.
#pragma once

#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

//! Unit normal per vertex (zero for vertices of no face or zero sum).
std::vector<Vec3f> vertex_normals(const std::vector<Vec3f>&    positions,
                                  const std::vector<Triangle>& faces);

}  // namespace rxmesh::reference
