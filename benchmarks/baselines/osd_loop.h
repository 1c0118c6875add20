// OpenSubdiv CPU baseline of uniform Loop subdivision (Loop 1987), for the
// benchmark that compares it with our GPU Loop subdivision. Host C++17 only;
// OpenSubdiv (libosd-dev) is used when found at build time
// (RXMESH_HAVE_OPENSUBDIV), see baselines/CMakeLists.txt.
//
// Rules: Sdc::SCHEME_LOOP, VTX_BOUNDARY_EDGE_ONLY, default creasing: those
// of reference::loop_subdivide (include/rxmesh/reference/loop_subdivision.h).
// The result's faces are renumbered to our order (face f of a level becomes
// faces 4f .. 4f+3 of the next: the corners at its vertices 0, 1, 2, then
// the middle, each starting at the same corner as ours); its vertices keep
// OpenSubdiv's numbering (compare with common/face_corners.h).
#pragma once

#include <cstdint>
#include <vector>

namespace rxmesh::bench {

//! Wall times (std::chrono::steady_clock) of the phases of one call; the
//! output arrays are allocated outside the timed phases.
struct OsdLoopTimes
{
    double refine_ms        = 0;  //!< Far::TopologyRefiner creation + RefineUniform (serial)
    double primvar_ms       = 0;  //!< threads == 1: PrimvarRefiner::Interpolate, all levels
    double stencil_build_ms = 0;  //!< threads > 1: Far::StencilTableFactory::Create
    double stencil_eval_ms  = 0;  //!< threads > 1: OmpEvaluator::EvalStencils, level by level
    double faces_ms         = 0;  //!< copying the last level's faces out, in our order
};

//! The last level: 3 floats per vertex in OpenSubdiv's order, 3 indices per
//! face in our order.
struct OsdLoopResult
{
    std::vector<float>         positions;
    std::vector<std::uint32_t> faces;
};

//! False when built without OpenSubdiv.
bool osd_available();

//! `levels` (1 .. 15) levels of uniform Loop refinement of a triangle mesh
//! (3 floats per vertex, 3 indices per face). threads == 1: Far::PrimvarRefiner
//! level by level; threads > 1: a Far::StencilTable of all levels, not
//! factorized (a level's stencils read the previous level), evaluated one
//! level at a time by Osd::OmpEvaluator on `threads` OpenMP threads (set
//! process-wide). `times` may be null.
//! \throw std::runtime_error for invalid arguments, a mesh OpenSubdiv rejects
//!        (with its message), or a build without OpenSubdiv.
OsdLoopResult osd_loop_subdivide(const std::vector<float>&         positions,
                                 const std::vector<std::uint32_t>& faces, int levels, int threads,
                                 OsdLoopTimes* times);

}  // namespace rxmesh::bench
