// Quadric-error simplification on the GPU (Garland and Heckbert, "Surface
// simplification using quadric error metrics", 1997) over the
// changing-topology engine.
//
//   DynamicMesh mesh(soup);
//   SimplifyReport r = qem_simplify(mesh, {.target_faces = soup.faces.size() / 10});
//   r.stop_reason();   // "target reached" or "no valid collapse left"
//
// - Each vertex starts with the quadric of its faces' planes, weighted by
//   area, plus for each boundary edge a plane through it perpendicular to
//   its face, weighted by boundary_weight x its squared length (the boundary
//   keeps its shape); a collapse's survivor takes the sum of both quadrics.
// - An edge's cost is its summed quadric's minimum: at the optimal point
//   when the 3x3 system is well conditioned, else at the better of the ends
//   and the midpoint; the survivor moves there. Among equal costs (flat
//   regions, where every collapse costs 0) the collapse whose new faces are
//   best shaped goes first: its priority is the cost plus kShapeTieBreak x
//   (the input's mean edge length)^4 x the cosine of its new faces'
//   smallest angle (costs are area x squared distance: length^4).
// - The sliver guard (min_angle_degrees): no collapse makes a face with an
//   angle below it unless the faces it replaces had one as small (no
//   needles; geometry/triangle_shape.h).
// - Passes of collapses: the cheapest candidates (at most a share of the
//   faces per pass, and never more than the target needs) compete; those
//   whose neighbourhoods do not overlap go, cheapest first. The engine
//   refuses collapses that break the link condition, fold a face or touch
//   a non-manifold element.
// - Deterministic: every choice depends on the mesh alone (unique priority
//   keys), never on thread order.
// The rules are the serial oracle's (reference/qem_simplify.h), which
// collapses strictly one at a time, cheapest first.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "rxmesh/dynamic/dynamic_mesh.h"

namespace rxmesh {

//! The weight of the shape tie-break, relative to (mean edge length)^4.
constexpr double kShapeTieBreak = 1e-5;

struct SimplifyOptions
{
    std::uint32_t target_faces    = 0;
    double        boundary_weight = 1000;
    //! The sliver guard's angle in degrees, in [0, 60); 0: off.
    double        min_angle_degrees = 5;
    //! At most this share of the faces' count collapses per pass: smaller
    //! batches follow the cheapest-first order more closely (better quality),
    //! larger ones need fewer passes.
    double        batch_share = 0.1;
    //! A bound on passes (each applies at least one collapse, so the vertex
    //! count bounds them anyway); reaching it is reported.
    std::uint32_t max_passes = 10000;
    //! Called on the host before each pass with the share of the faces to
    //! remove that are gone, in [0, 1] (e.g. for a progress line); empty: none.
    std::function<void(double done)> progress;
};

struct SimplifyReport
{
    std::uint32_t faces = 0, vertices = 0;
    std::uint64_t collapses = 0;
    std::uint32_t passes    = 0;
    bool          reached_target = false;
    bool          hit_pass_bound = false;
    float         ms             = 0;  // device time, quadrics included

    std::string stop_reason() const
    {
        return reached_target   ? "target reached"
               : hit_pass_bound ? "pass bound reached"
                                : "no valid collapse left";
    }
    std::string to_json() const;
};

//! \throw InvalidInputError for boundary_weight, batch_share or
//! min_angle_degrees out of range.
SimplifyReport qem_simplify(DynamicMesh& mesh, const SimplifyOptions& options);

}  // namespace rxmesh
