// Reference of geodesic distance by the heat method (Crane, Weischedel,
// Wardetzky 2013), serial, in double: the oracle of algo/heat_geodesic.h,
// which follows the same steps with the same operators
// (reference/sparse_operators.h):
//   t = time_factor x h^2, h the mean edge length (each edge once);
//   (M + t L) u = s delta_sources, M the lumped mixed Voronoi mass, s = 1;
//   while a vertex of a component with a source has heat at most kHeatFloor
//   (underflow), s is raised so the largest heat is kHeatTop, then t x=
//   kTimeStepRaise (algo/heat_underflow.h's rule);
//   X = -grad u / |grad u| per face, u over its largest corner (0 where a face is degenerate or
//   grad u flat: below 1e-10 of its terms, a direction made of rounding noise); L phi = -div X with
//   the smallest vertex of each connected component (over the faces' edges) fixed at 0; distance =
//   phi - the smallest phi among the component's sources, +inf on a component without a source and
//   at a vertex whose row of M + t L is all zero (no face of positive area).
// Both systems are solved exactly (up to rounding) by a Cholesky factor of
// their envelope after a reverse Cuthill-McKee order: obviously correct and
// fine for the tests' meshes, and a clear refusal where the envelope would
// not fit (kMaxEnvelope). An iterative solve would not do: far from the
// sources u is below any residual tolerance, and its direction is all the
// method reads.
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/algo/heat_underflow.h"  // the underflow rule: algo/heat_geodesic.h's
#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/reference/solve_spd.h"  // solve_spd, the solve of both systems
#include "rxmesh/reference/sparse_operators.h"

namespace rxmesh::reference {

using rxmesh::kHeatFloor;
using rxmesh::kMaxTimeStepRaises;
using rxmesh::kTimeStepRaise;

struct HeatGeodesic
{
    std::vector<double> distance;               // per vertex; +inf where unreachable
    double              time_step         = 0;  // the one used (raised where the heat underflowed)
    double              mean_edge_length  = 0;
    std::uint32_t       time_step_raises  = 0;
    double              heat_scale        = 1;  // the right-hand side's (rescaled for underflow)
    std::uint32_t       heat_rescales     = 0;
    std::uint32_t       low_heat_vertices = 0;  // after the last pass: unreliable distances
};

//! \throw std::invalid_argument for no source, a source out of range, a
//!        time_factor that is not > 0 and finite, a mesh without an edge,
//!        an envelope over kMaxEnvelope or a system that is not positive
//!        definite (naming the row).
HeatGeodesic heat_geodesic(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                           const std::vector<std::uint32_t>& sources, double time_factor = 1.0);

}  // namespace rxmesh::reference
