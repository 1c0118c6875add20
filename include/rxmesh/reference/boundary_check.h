// The serial check of what a remesher did to the boundary (isotropic
// remeshing collapses and splits boundary edges, never moves a boundary
// vertex): the GPU and CPU remesh tests and rxmesh-remesh's --check.
//
//   const auto r = reference::check_boundary(input, output, 0.5 * L);
//   if (!r.ok()) fail(r.first);
//
// Passes when the output has as many boundary loops as the input and the
// two boundary polylines are within `tolerance` of each other both ways
// (measured at every boundary vertex and edge midpoint of each side against
// the other side's boundary edges). A boundary edge is an edge of exactly
// one face; edges of more than two faces are neither boundary nor tested.
#pragma once

#include <cstdint>
#include <string>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

struct BoundaryCheck
{
    std::uint64_t input_boundary_vertices  = 0;
    std::uint64_t output_boundary_vertices = 0;
    std::uint64_t input_loops = 0, output_loops = 0;  //!< connected pieces of the boundary
    //! The largest distance from a sample of one boundary to the other;
    //! above the tolerance it is only known to be above (then first says where).
    double max_distance = 0;
    //! The first failure, in words; empty when the output passes.
    std::string first;

    bool        ok() const { return first.empty(); }
    std::string to_json() const;
};

//! \throw InvalidInputError when tolerance is not positive and finite.
BoundaryCheck check_boundary(const TriangleSoup& input, const TriangleSoup& output,
                             double tolerance);

}  // namespace rxmesh::reference
