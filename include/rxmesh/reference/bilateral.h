// Reference bilateral mesh denoising (Fleishman, Drori, Cohen-Or, "Bilateral
// mesh denoising", SIGGRAPH 2003), serial, in double: the oracle of the GPU
// version. One iteration is Jacobi: every vertex reads the previous
// positions p and moves along its normal. For vertex i:
//
//   n_i   = normalize(sum over the faces (i, q, r) around i, corners in
//           winding order starting at i, of cross(q - p_i, r - p_i))
//           (the area-weighted face normals; the cross product is the same
//           from every corner of a face);
//   sc2   = sigma_c^2 = min over the one-ring neighbours j of |p_j - p_i|^2;
//   N(i)  = the vertices that a breadth-first search over the vertex-vertex
//           graph from i reaches entering v only if |p_v - p_i|^2 <= 4 sc2
//           (|p_v - p_i| <= 2 sigma_c, compared squared so that sigma_c is
//           never rounded by a square root); i is in N(i);
//   for j in N(i): t = |p_j - p_i|, h_j = dot(p_j - p_i, n_i);
//   sigma_s = max(1e-12, sqrt(max(0, mean(h^2) - mean(|h|)^2))), means over
//           all of N(i), i included (h_i = 0);
//   w_j   = exp(-t^2 / (2 sc2)) exp(-h_j^2 / (2 sigma_s^2));
//   p_i'  = p_i + n_i (sum w_j h_j) / (sum w_j).
//
// A vertex keeps its position when it has no neighbour (isolated or unused
// by any face), when its normal sum is zero, or when sc2 == 0 (a zero-length
// edge: the weights are undefined). The nearest neighbour is within
// 2 sigma_c, so N(i) has at least two vertices and sum w >= w_i = 1.
// Faces that repeat a vertex are skipped (the importer drops them too).
#pragma once

#include <array>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

//! One Jacobi iteration as above; positions in double (3 per vertex), faces
//! as given (any mesh: boundaries, non-manifold, several components).
//! \throw InvalidInputError for a face index >= positions.size().
std::vector<std::array<double, 3>> bilateral_iteration(
    const std::vector<std::array<double, 3>>& positions, const std::vector<Triangle>& faces);

//! `iterations` iterations (>= 0) from float positions; double positions out.
//! \throw InvalidInputError as bilateral_iteration, or for iterations < 0.
std::vector<std::array<double, 3>> bilateral_denoise(const std::vector<Vec3f>&    positions,
                                                     const std::vector<Triangle>& faces,
                                                     int                          iterations);

}  // namespace rxmesh::reference
