// Serial isotropic remeshing (Botsch and Kobbelt, "A remeshing approach to
// multiresolution modeling", 2004), the oracle of the GPU remesher of issue
// 30: obviously correct, for small meshes (every operation goes through
// reference::EditableMesh and inherits its refusals: non-manifold elements
// are left as they are, the link condition, duplicate edges, folds).
//
// Each iteration, with target edge length L:
//   1. split every edge longer than 4/3 L at its midpoint, until none is;
//   2. collapse edges shorter than 4/5 L (shortest first, sweep after sweep
//      until none can go, as the GPU's passes) into one of their
//      ends (CGAL's rule: the survivor stays on the surface): the sharp end
//      when only one is sharp (below), the clearly sharper end when both
//      are (kSharperCosineMargin), else the better-shaped end, among those
//      that keep every neighbour within 4/3 L, fold no face and pass the
//      sliver guard. A boundary edge collapses only into an end that stays,
//      the other being no corner (kBoundaryCornerDegrees); an interior
//      edge with one boundary end only into that end; a chord (both ends
//      on the boundary, the edge not) never;
//   3. flip interior edges (sweep after sweep until none) when that brings
//      the valences of the four
//      vertices closer to 6 (4 on the boundary), or mends a face below the
//      guard's angle; only when the new diagonal does not make the pair
//      less flat (the dot product of the two faces' area vectors does not
//      shrink: no flip across a ridge, CGAL's test) and the guard holds;
//   4. move every interior vertex that is not sharp to the centroid of its
//      neighbours within its tangent plane (area-weighted normal), then
//   5. to its closest point on the input (unless RemeshOptions::project
//      is off); a move that folds a face or fails the guard is shortened
//      (1/2, 1/4, 1/8, then projection alone) or not made.
// A vertex is sharp (a tip, a crease, a corner) when the unit normal of one
// of its faces is more than kSharpVertexDegrees from their mean: smoothing
// it or collapsing it away would round the surface off there (the largest
// part of the distance to the input).
// The sliver guard (min_angle_degrees): no collapse, flip or move makes a
// face with an angle below it unless the faces it replaces had one as small.
// The boundary stays: boundary vertices never move, a collapse removes only
// one on a nearly straight stretch of the boundary, boundary edges split at
// their midpoints (check_boundary in reference/boundary_check.h tests that
// the boundary stays within L/2 with its loops).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/reference/editable_mesh.h"

namespace rxmesh::reference {

//! A vertex with a face normal this far from its faces' mean normal is sharp.
constexpr double kSharpVertexDegrees = 60;
//! When both ends of a collapse are sharp, the one whose most turned face's
//! cosine to the mean is lower by more than this survives (the tip of a thin
//! part); closer than this is a tie, settled by shape.
constexpr double kSharperCosineMargin = 0.05;
//! A boundary vertex whose two boundary edges meet at a smaller angle than
//! this is a corner of the boundary: no collapse removes it.
constexpr double kBoundaryCornerDegrees = 150;

struct RemeshOptions
{
    double target_length = 0;  // 0: the input's mean edge length (reference/mcf.h)
    int    iterations    = 3;
    //! The sliver guard: no collapse, flip or smoothing move makes a face
    //! with a smaller angle unless the faces it replaces had one (0: off).
    double min_angle_degrees = 20;
    //! Step 5 (off: smoothing alone, the surface drifts; the GPU's
    //! RemeshOptions::project).
    bool project = true;
};

struct RemeshReport
{
    double        target_length = 0;
    std::uint64_t splits = 0, collapses = 0, flips = 0;
};

//! Step 2's rule for one edge: where collapsing (a, b) puts the survivor,
//! or nothing when the rules keep it (not shorter than 4/5 L, a chord, a
//! boundary corner it would remove, no end that keeps the neighbours within 4/3 L, folds nothing and
//! passes the guard). The mesh may still refuse it.
std::optional<Vec3f> short_edge_collapse(const EditableMesh& m, std::uint32_t a, std::uint32_t b,
                                         double target_length, double min_angle_degrees);
//! Step 3's rule for edge (a, b): the flip lowers the valence excess or
//! mends a sliver, and the flatness test and the guard allow it. The mesh
//! may still refuse it.
bool flip_wanted(const EditableMesh& m, std::uint32_t a, std::uint32_t b, double min_angle_degrees);

// The steps, each usable alone; each returns how many operations it applied.
std::uint32_t split_long_edges(EditableMesh& m, double target_length);
// min_angle_degrees: the sliver guard (0: off).
std::uint32_t collapse_short_edges(EditableMesh& m, double target_length,
                                   double min_angle_degrees = 0);
std::uint32_t equalize_valences(EditableMesh& m, double min_angle_degrees = 0);
class ClosestPointTree;
//! Steps 4 and 5 (5 with a surface): each move tried whole, then shortened
//! (1/2, 1/4, 1/8, none: projection alone) until it folds no face and passes
//! the guard; every move reads the old positions.
void          tangential_smoothing(EditableMesh& m, const ClosestPointTree* surface = nullptr,
                                   double min_angle_degrees = 0);
void          project_to_surface(EditableMesh& m, const TriangleSoup& surface);
//! The same, through a tree built once (reference/closest_point_tree.h).
void          project_to_surface(EditableMesh& m, const ClosestPointTree& surface);

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
    double                     share_below_5_degrees = 0;  // faces with an angle below 5
    std::vector<std::uint32_t> interior_valences;  // count by valence (index); boundary
                                                   // vertices: on an edge of one face
};

MeshQuality mesh_quality(const TriangleSoup& mesh, double target_length);

}  // namespace rxmesh::reference
