// Delaunay edge flips on a surface: flip every interior edge that is not
// locally Delaunay (the angles opposite it sum to more than pi) until none
// is left or every one left is refused by the engine's rules (a flip that
// would duplicate an edge, fold a face or touch a non-manifold element).
//
//   DynamicMesh mesh(soup);
//   DelaunayReport r = delaunay_flips(mesh);   // r.flips, r.passes, r.converged
//
// The most violating edges go first when flips overlap (priority: the sum
// of the two opposite cotangents, negative when the angles exceed pi).
// Compiled into the library (src/algo/delaunay.cu); the rule itself, for
// device code, is in delaunay.cuh.
#pragma once

#include <cstdint>
#include <string>

#include "rxmesh/dynamic/dynamic_mesh.h"

namespace rxmesh {

struct DelaunayOptions
{
    //! An edge is flipped when cot(alpha) + cot(beta) < -tolerance (alpha +
    //! beta > pi by a margin, so float noise on cocircular quads cannot make
    //! flips cycle).
    float tolerance = 1e-5f;
    //! A bound on passes: on curved surfaces Lawson's flips need not end.
    std::uint32_t max_passes = 1000;
};

struct DelaunayReport
{
    std::uint32_t passes = 0, flips = 0;
    //! The last pass found no flip to apply (every edge left is Delaunay or
    //! its flip is refused), rather than stopping at max_passes.
    bool          converged = false;
    std::uint32_t refused   = 0;  // non-Delaunay edges refused in the last pass
    float         ms        = 0;  // device time of every pass, edge tables included

    std::string to_json() const
    {
        return "{\"passes\":" + std::to_string(passes) + ",\"flips\":" + std::to_string(flips) +
               ",\"converged\":" + (converged ? "true" : "false") +
               ",\"refused\":" + std::to_string(refused) + ",\"ms\":" + std::to_string(ms) + "}";
    }
};

//! Flips until no pass finds a flip to apply or `options.max_passes` passes
//! have run (report.converged says which).
DelaunayReport delaunay_flips(DynamicMesh& mesh, const DelaunayOptions& options = {});

}  // namespace rxmesh
