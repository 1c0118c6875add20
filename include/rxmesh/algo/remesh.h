// Isotropic remeshing on the GPU (Botsch and Kobbelt, "A remeshing approach
// to multiresolution modeling", 2004) over the changing-topology engine.
//
//   DynamicMesh mesh(soup);
//   RemeshReport r = isotropic_remesh(mesh);          // L: the mean edge length
//   TriangleSoup out = mesh.to_host();
//
// Each iteration, with target edge length L:
//   1. split edges longer than 4/3 L at their midpoints (longest first),
//      pass after pass until none is left;
//   2. collapse edges shorter than 4/5 L into one of their ends (shortest
//      first; the survivor stays on the surface, as CGAL's): the sharp end
//      when only one is sharp (below), the clearly sharper end when both
//      are (kSharperCosineMargin), else the better-shaped end, among
//      those that keep every neighbour within 4/3 L, fold no face and pass
//      the sliver guard. On the boundary (as CGAL's without protected
//      constraints): a boundary edge collapses only into an end that stays
//      where it is, the other being no corner of the boundary (its two
//      boundary edges within kBoundaryCornerDegrees of a straight line);
//      an interior edge with one end on the boundary only into that end;
//      one with both ends on the boundary (a chord) never;
//   3. flip interior edges when that brings the valences of their four
//      vertices closer to 6 (4 on the boundary), or mends a face below the
//      guard's angle, biggest gain first; only when the new diagonal makes
//      the two faces flatter (their area vectors' dot product does not shrink: no
//      flip across a ridge, as CGAL's);
//   4. move every interior vertex that is not sharp to its neighbours'
//      centroid within its tangent plane (area-weighted normal), then
//   5. onto its closest point of the input surface (a GPU BVH over a copy of
//      the input made before the first step); a move that folds a face or
//      fails the guard is shortened (1/2, 1/4, 1/8, then projection alone)
//      or not made.
// A vertex is sharp (a tip, a crease, a corner) when the unit normal of one
// of its faces is more than kSharpVertexDegrees from their mean: smoothing
// it or collapsing it away would round the surface off there, which is most
// of the distance to the input.
// The sliver guard (min_angle_degrees): no collapse, flip or move makes a
// face with an angle below the threshold unless the faces it replaces had
// one as small (geometry/triangle_shape.h); splits are never refused by it.
// Boundary vertices never move: the boundary polyline loses only vertices
// on nearly straight stretches and has its long edges split at midpoints
// (reference::check_boundary tests that it stays within L/2, its loops
// kept). Optional feature edges (those whose
// faces' normals differ by more than feature_angle_degrees) are kept the
// same way: never flipped, their vertices never move or collapse, split at
// midpoints (so they stay on the feature line). Non-manifold edges and vertices are
// left as they are (the engine refuses every operation that touches them).
// The rules are the serial oracle's (reference/isotropic_remesh.h); the
// GPU applies them in parallel passes of non-overlapping operations.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "rxmesh/dynamic/dynamic_mesh.h"

namespace rxmesh {

//! The sliver guard's default angle.
constexpr double kRemeshMinAngleDegrees = 20;
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
    //! L; 0: the input's mean edge length (as CGAL and PMP).
    double        target_length = 0;
    std::uint32_t iterations    = 3;
    //! Step 5 (off: smoothing alone, the surface drifts).
    bool          project       = true;
    //! Feature edges by dihedral angle, in degrees; 0: none.
    double        feature_angle_degrees = 0;
    //! The sliver guard's angle in degrees, in [0, 60); 0: off.
    double        min_angle_degrees = kRemeshMinAngleDegrees;
    //! A bound on the passes of one step (every step ends by itself: splits
    //! halve lengths, collapses remove vertices, flips lower the valence
    //! excess); reaching it is reported, never silent.
    std::uint32_t max_passes_per_step = 200;
    //! Called on the host before each step of each iteration with the share
    //! of the steps done, in [0, 1) (e.g. for a progress line); empty: none.
    std::function<void(double done)> progress;
    //! Called on the host after each pass of steps 1 to 3 with its report
    //! (PassReport's phase times say where a step's time goes); empty: none.
    std::function<void(const PassReport&)> on_pass;
};

struct RemeshReport
{
    double        target_length = 0;
    std::uint32_t iterations    = 0;
    std::uint64_t splits = 0, collapses = 0, flips = 0;
    std::uint32_t split_passes = 0, collapse_passes = 0, flip_passes = 0;
    //! A step stopped at max_passes_per_step with work left.
    bool          hit_pass_bound = false;
    float         ms = 0;  // device time, the BVH build and every step included
    //! Each step's device time over the iterations (steps 4 and 5 together).
    float         split_ms = 0, collapse_ms = 0, flip_ms = 0, smooth_ms = 0;

    std::string to_json() const;
};

//! \throw InvalidInputError when the target length is not positive and
//! finite (after defaulting: a mesh without edges has no mean), the
//! feature angle is not in [0, 180] or the minimum angle not in [0, 60).
RemeshReport isotropic_remesh(DynamicMesh& mesh, const RemeshOptions& options = {});

class TriangleBvh;

// ---- the steps, each usable alone (target_length > 0) ----
struct RemeshStep
{
    std::uint64_t applied   = 0;
    std::uint32_t passes    = 0;
    bool          hit_bound = false;  // stopped at max_passes with work left
};
//! What the steps take besides L (RemeshOptions' fields of the same names).
struct RemeshStepOptions
{
    std::uint32_t max_passes            = 200;
    double        feature_angle_degrees = 0;
    double        min_angle_degrees     = kRemeshMinAngleDegrees;
    //! As RemeshOptions::on_pass.
    std::function<void(const PassReport&)> on_pass;
};
//! Step 1: passes until no edge longer than 4/3 L is left (or the bound).
RemeshStep split_long_edges(DynamicMesh& mesh, double target_length,
                            const RemeshStepOptions& options = {});
//! Step 2: passes until no short interior edge can go.
RemeshStep collapse_short_edges(DynamicMesh& mesh, double target_length,
                                const RemeshStepOptions& options = {});
//! Step 3: passes until no flip lowers the valence excess or mends a sliver.
RemeshStep equalize_valences(DynamicMesh& mesh, const RemeshStepOptions& options = {});
//! Steps 4 and 5 (5 only with a surface, whose arrays must not be the
//! mesh's own: the mesh moves); max_passes is unused.
void smooth_tangentially(DynamicMesh& mesh, const TriangleBvh* surface,
                         const RemeshStepOptions& options = {});

}  // namespace rxmesh
