// Serial isotropic remeshing (Botsch and Kobbelt, "A remeshing approach to
// multiresolution modeling", 2004), the oracle of the GPU remesher of issue
// 30: obviously correct, for small meshes (every operation goes through
// reference::EditableMesh and inherits its refusals: non-manifold elements
// are left as they are, the link condition, duplicate edges, folds).
//
// Each iteration, with target edge length L:
//   1. split every edge longer than 4/3 L at its midpoint, until none is;
//   2. collapse edges shorter than 4/5 L (shortest first) to their
//      midpoint, unless that puts a neighbour farther than 4/3 L from it;
//   3. flip interior edges when that brings the valences of the four
//      vertices closer to 6 (4 on the boundary);
//   4. move every interior vertex to the centroid of its neighbours within
//      its tangent plane (area-weighted normal);
//   5. project every interior vertex to its closest point on the input.
// The boundary stays: boundary vertices never collapse or move, boundary
// edges split at their midpoints (on the input's boundary polyline).
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/reference/editable_mesh.h"

namespace rxmesh::reference {

struct RemeshOptions
{
    double target_length = 0;  // 0: the input's mean edge length (reference/mcf.h)
    int    iterations    = 3;
};

struct RemeshReport
{
    double        target_length = 0;
    std::uint64_t splits = 0, collapses = 0, flips = 0;
};

// The steps, each usable alone; each returns how many operations it applied.
std::uint32_t split_long_edges(EditableMesh& m, double target_length);
std::uint32_t collapse_short_edges(EditableMesh& m, double target_length);
std::uint32_t equalize_valences(EditableMesh& m);
void          tangential_smoothing(EditableMesh& m);
void          project_to_surface(EditableMesh& m, const TriangleSoup& surface);

//! \throw InvalidInputError for a bad index, a face repeating a vertex, or a
//!        target length that is not positive and finite after defaulting.
TriangleSoup isotropic_remesh(const TriangleSoup& input, const RemeshOptions& options = {},
                              RemeshReport* report = nullptr);

struct MeshQuality
{
    std::uint32_t              faces        = 0;
    double                     mean_edge    = 0;
    double                     share_in_band = 0;  // edges within [4/5 L, 4/3 L]
    double                     min_angle_degrees = 0;
    std::vector<std::uint32_t> interior_valences;  // count by valence (index); boundary
                                                   // vertices: on an edge of one face
};

MeshQuality mesh_quality(const TriangleSoup& mesh, double target_length);

}  // namespace rxmesh::reference
