// The serial check of a Delaunay flip result (algo/delaunay.cuh), in double:
// rxmesh-delaunay's --check and bench_delaunay's verification of both the
// GPU's and the serial baseline's outputs.
//
//   const auto r = reference::check_delaunay_flips(input, output,
//                                                  reference::delaunay_check_bound(1e-5));
//   if (!r.ok()) fail(r.first);
//
// An interior edge (two faces walking it in opposite directions) passes
// when cot(alpha) + cot(beta) >= -bound, or when its flip is refused by the
// engine's rules (reference::EditableMesh::flip), which then counts it as
// "refused". Boundary and non-manifold edges are counted, not tested (the
// algorithm never flips them).
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

//! The bound check_delaunay_flips allows for DelaunayOptions::tolerance t:
//! 10 t + 1e-4, the room the GPU's float cotangents need on thin triangles.
inline double delaunay_check_bound(double tolerance) { return 10.0 * tolerance + 1e-4; }

struct DelaunayCheck
{
    std::uint64_t interior_edges = 0;  //!< two faces walking it in opposite directions
    std::uint64_t other_edges    = 0;  //!< boundary or non-manifold: not tested
    std::uint64_t non_delaunay   = 0;  //!< interior edges with cot sum < -bound
    std::uint64_t refused        = 0;  //!< of those, the ones whose flip EditableMesh refuses
    std::uint64_t violations     = 0;  //!< of those, the ones it would flip: failures
    //! The smallest cot(alpha) + cot(beta) over the interior edges (+inf when none).
    double min_cot_sum = std::numeric_limits<double>::infinity();
    //! The first failure, in words; empty when the output passes.
    std::string first;

    bool ok() const { return first.empty(); }
};

//! Checks `output`, the mesh after Delaunay flips of `input`:
//! (1) validity: every face names three distinct vertices in range, no two
//!     faces have the same vertex set, and there are as many faces as in
//!     the input (a flip rewrites two faces);
//! (2) the vertices are the input's: the same count and bit for bit the same
//!     positions, in order;
//! (3) every interior edge has cot(alpha) + cot(beta) >= -bound, computed in
//!     double, or reference::EditableMesh, given the output, refuses its flip.
//! The edges are checked only when (1) and (2) hold. Runs in O(F log F) plus
//! the size of the one-rings of the non-Delaunay edges.
DelaunayCheck check_delaunay_flips(const TriangleSoup& input, const TriangleSoup& output,
                                   double bound);

}  // namespace rxmesh::reference
