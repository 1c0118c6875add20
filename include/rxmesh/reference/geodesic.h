// Reference of approximate geodesic distance by parallel toplesets
// propagation (PTP; Romero Calla, Fuentes Perez, Montenegro, "A minimalistic
// approach for fast computation of geodesic distances on triangular meshes",
// Computers & Graphics 84, 2019) with closing sweeps (below), serial, in
// double: the oracle of algo/geodesic.cuh, which follows the same steps.
//
// Toplesets: level(v) = hop distance from the nearest source along mesh
// edges (sources 0; kUnreached where no path exists). L = largest level + 1.
//
// Propagation, on two distance arrays (Jacobi): D = +inf, 0 at sources.
// Window of levels [start, end) = [0, 1), copy_from = 0. Iteration t:
//   - every vertex v with level in [start, end):
//       D'[v] = min(D[v], min over faces (v, a, b) incident to v of
//                          ptp_update(p_v, p_a, p_b, D[a], D[b]))
//   - every vertex with level in [copy_from, start): D'[v] = D[v] (levels
//     that left the window last time: both arrays then agree on them for
//     good); every other vertex keeps D'[v] (already equal to D[v]).
//   - level k in [start, end) changed at t when some vertex v of level k has
//     D'[v] != D[v] and |D'[v] - D[v]| > tolerance * D'[v].
//   - copy_from = start; start moves past every leading level in
//     [start, end) that did not change at t; end = min(end + 1, L);
//     swap D and D'.
// When start reaches L, closing sweeps update every reached vertex at once
// (Jacobi, window [0, L)) until an iteration changes no level; converged then.
// Why: a level leaves the window once an iteration leaves it unchanged, which
// can be before a shorter path through higher levels reached it (hop count
// and metric distance disagree on long thin triangles, or where two fronts
// meet); the sweeps settle the result at the update's fixed point, where
// every edge satisfies d_j <= d_i + |p_i - p_j| up to the tolerance. Small
// meshes need few of them, large ones many.
// Stops after max_iterations in total at the latest (then not converged).
// Faces that repeat a vertex are skipped (no triangle to cross).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

inline constexpr std::uint32_t kUnreached = ~0u;

struct Toplesets
{
    std::vector<std::uint32_t> level;  // per vertex; kUnreached when not reachable
    std::uint32_t              num_levels = 0;  // L
};

//! Breadth-first hop distance from the sources over the faces' edges.
//! \throw std::invalid_argument for a source >= num_vertices.
Toplesets toplesets(std::size_t num_vertices, const std::vector<Triangle>& faces,
                    const std::vector<std::uint32_t>& sources);

//! The distance at v from triangle (v, a, b) with distances ta at a and tb at
//! b: the planar Eikonal solution when both are finite, the triangle is not
//! degenerate and the front crosses it from inside; otherwise
//! min(ta + |a - v|, tb + |b - v|). With X = [a - v, b - v], Q = X^T X,
//! t = (ta, tb), 1 = (1, 1): the larger root p of
//!   (1^T Q^-1 1) p^2 - 2 (1^T Q^-1 t) p + t^T Q^-1 t - 1 = 0,
//! accepted when the discriminant is >= 0 and both components of
//! Q^-1 (t - p 1) are < 0 (the gradient points into the triangle from the
//! edge ab, so the front reaches v from inside). Degenerate: det Q <=
//! 1e-12 * (|a - v|^2 |b - v|^2).
double ptp_update(const Vec3f& v, const Vec3f& a, const Vec3f& b, double ta, double tb);

struct Geodesic
{
    std::vector<double> distance;  // per vertex; +inf where unreachable
    Toplesets           toplesets;
    int                 iterations = 0;
    bool                converged  = true;
};

//! PTP as described at the top of this file. max_iterations 0: no limit
//! beyond the default 8 L + 64.
//! \throw std::invalid_argument for a source out of range, no source, or a
//!        tolerance that is not > 0.
Geodesic geodesic_ptp(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                      const std::vector<std::uint32_t>& sources, double tolerance,
                      int max_iterations = 0);

}  // namespace rxmesh::reference
