// Reference UV parameterizations of a disk-topology mesh, serial, in double:
// the oracle of rxmesh-param (issue 54). Every solve is the envelope
// Cholesky of reference/heat_geodesic.h (solve_spd).
//
//   const auto loop = reference::disk_boundary(soup.positions, soup.faces);
//   const auto t    = reference::tutte(soup.positions, soup.faces);   // convex: no flip
//   const auto c    = reference::lscm(soup.positions, soup.faces);    // free boundary
//
// Fixed boundary (Tutte 1963, Floater 1997): the boundary loop on the unit
// circle by arc length (chords), each interior vertex the weighted mean of
// its neighbours: uniform weights (Tutte's barycentric embedding: no face
// flips for a convex boundary) or cotangent weights (the harmonic map; a
// flat mesh's linear functions are reproduced exactly, but an obtuse mesh
// may flip faces). Free boundary (least-squares conformal maps, Levy et al.
// 2002, as the quadratic form E_D - A of Mullen et al. 2008): two boundary
// vertices pinned, the conformal energy minimised; a flat mesh is mapped
// onto itself up to a similarity.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

using Vec2d = std::array<double, 2>;

//! The one boundary loop of a disk, in the faces' orientation (each
//! boundary edge i -> j as a face has it). \throw std::invalid_argument
//! naming what is wrong: a face repeating a vertex, an edge of more than two
//! faces or two faces of opposite orientation across an edge, a vertex on
//! more than two boundary edges, more than one component, a vertex of no
//! face, no boundary or more than one loop, or an Euler characteristic
//! V - E + F other than 1 (a disk with handles).
std::vector<std::uint32_t> disk_boundary(const std::vector<Vec3f>&    positions,
                                         const std::vector<Triangle>& faces);

enum class ParamWeights
{
    uniform,    // Tutte: every neighbour alike
    cotangent,  // harmonic: (cot a + cot b) / 2
};

//! The fixed-boundary map: `boundary` (a loop) on the unit circle by arc
//! length, starting at (1, 0) and turning counter-clockwise. \throw
//! std::invalid_argument as disk_boundary, or when the weights make the
//! interior system singular (cotangent weights on degenerate faces).
std::vector<Vec2d> tutte(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                         ParamWeights weights = ParamWeights::uniform);

//! The weighted-mean extension of fixed values: `fixed` lists vertices and
//! `at` their UVs; every other vertex gets the weighted mean of its
//! neighbours. \throw std::invalid_argument for a vertex listed twice or out
//! of range, or a singular system (a component with no fixed vertex).
std::vector<Vec2d> harmonic_extension(const std::vector<Vec3f>&         positions,
                                      const std::vector<Triangle>&      faces,
                                      const std::vector<std::uint32_t>& fixed,
                                      const std::vector<Vec2d>& at, ParamWeights weights);

//! The least-squares conformal map with `pins` (two vertices) at `at`; by
//! default two far-apart boundary vertices (the farthest from the loop's
//! first vertex, then the farthest from that one) at (0, 0) and (1, 0). \throw
//! std::invalid_argument as disk_boundary, for pins that are not two distinct vertices at two
//! distinct points, or a singular system.
std::vector<Vec2d> lscm(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                        const std::vector<std::uint32_t>& pins = {},
                        const std::vector<Vec2d>&         at   = {});

//! Twice the signed area of each face in the UV plane (positive: the face
//! keeps its orientation).
std::vector<double> uv_signed_areas(const std::vector<Vec2d>&    uv,
                                    const std::vector<Triangle>& faces);

}  // namespace rxmesh::reference
