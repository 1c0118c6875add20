// The quality figures of a remeshed or simplified DynamicMesh, computed on
// the GPU over its current edge table: edge lengths against a target (the
// share within [4/5 L, 4/3 L]), the smallest angle, and the valence
// histogram of interior vertices; the same figures as the serial oracle's
// reference::mesh_quality (reference/isotropic_remesh.h) on manifold meshes.
//
//   SurfaceQuality q = surface_quality(mesh, target_length);
//   q.share_in_band; q.min_angle_degrees; q.interior_valences[6];
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rxmesh/dynamic/dynamic_mesh.h"

namespace rxmesh {

//! The angle below which SurfaceQuality counts a face as a sliver.
constexpr double kSliverDegrees = 5;

struct SurfaceQuality
{
    std::uint32_t vertices = 0, edges = 0, faces = 0;
    double        target_length = 0;
    double        mean_edge     = 0;
    double        min_edge = 0, max_edge = 0;
    double        share_in_band = 0;  // edges with length in [4/5 L, 4/3 L]
    //! Edge lengths / L in bins of 0.1 from 0 to 2 (the last holds >= 2).
    std::vector<std::uint32_t> length_histogram;
    double                     min_angle_degrees = 0;  // over alive faces (0 for none)
    //! The share of faces whose smallest angle is below kSliverDegrees.
    double                     share_below_5_degrees = 0;
    //! Interior manifold vertices by valence (index); the last entry also
    //! counts every larger valence. Boundary and non-manifold vertices are left out.
    std::vector<std::uint32_t> interior_valences;

    //! The share of counted interior vertices with valence 6.
    double      share_valence6() const;
    std::string to_json() const;
};

//! The mean edge length of the current mesh (0 when it has no edge).
double mean_edge_length(DynamicMesh& mesh);

//! target_length > 0: the L of share_in_band and the histogram.
SurfaceQuality surface_quality(DynamicMesh& mesh, double target_length);

}  // namespace rxmesh
