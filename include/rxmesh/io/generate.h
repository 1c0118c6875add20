// Generated meshes: test inputs with known topology and the embedded default
// input of the apps and benchmarks. Every generator is deterministic.
// Faces are counter-clockwise seen from outside (from +z for planar ones),
// so every manifold surface is consistently oriented. Invalid arguments throw
// InvalidInputError.
#pragma once

#include <cstdint>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::generate {

//! Icosahedron refined `subdivisions` times 1-to-4, projected on the unit
//! sphere: 20*4^s faces, closed, genus 0.
TriangleSoup icosphere(int subdivisions);

//! The faces of icosphere(subdivisions) whose three vertices lie below
//! z = height (in (-1, 1)), the vertices renumbered compactly in the order
//! the faces first name them: a cap of the unit sphere, one boundary loop.
TriangleSoup sphere_cap(int subdivisions, float height);

//! Closed torus of nu x nv quads (2*nu*nv faces), genus 1. nu, nv >= 3.
TriangleSoup torus(int nu, int nv, float major_radius = 1.f, float minor_radius = 0.3f);

//! Open planar grid of nx x ny quads (2*nx*ny faces), one boundary loop.
TriangleSoup grid(int nx, int ny);

//! Open cylinder (tube) of nu x nv quads around its axis: two boundary loops.
TriangleSoup cylinder(int nu, int nv);

//! `count` disjoint copies of icosphere(subdivisions), offset along x.
TriangleSoup components(int count, int subdivisions);

//! Two triangles sharing one vertex only: one non-manifold vertex.
//! Vertex 0 is the shared vertex.
TriangleSoup bowtie();

//! `k` triangles sharing one edge (k >= 3 makes it non-manifold).
//! The shared edge is (0, 1); wing i has tip vertex 2 + i.
TriangleSoup fin(int k);

//! `count` triangles that share no vertex.
TriangleSoup isolated_faces(int count);

//! A small grid whose position list also holds degenerate triangles (a face
//! repeating a vertex is dropped by readers; this one keeps them in `faces`
//! on purpose so that pipelines can be tested on them).
//! It is grid(3, 3) (16 vertices, 18 faces) followed by
//! kDegenerateFaceCount faces over grid vertices that each repeat a vertex;
//! dropped_faces stays 0.
TriangleSoup with_degenerate_faces();

//! How many faces of with_degenerate_faces() repeat a vertex.
inline constexpr int kDegenerateFaceCount = 3;

//! A closed fan: `valence` triangles around one centre vertex (a cone with a
//! boundary rim), so the centre has the given valence.
//! Vertex 0 is the centre, 1..valence the rim. valence >= 3.
TriangleSoup fan(int valence);

//! The re-indexing paper's test: n x n quads, each stored with its own four
//! corner vertices (duplicated between neighbours) plus one unused centre
//! vertex, each quad split into two triangles.
//! Quad q = j * n + i owns vertices 5q .. 5q+4 (corners (i,j), (i+1,j),
//! (i+1,j+1), (i,j+1), then the centre) and faces 2q, 2q+1.
TriangleSoup duplicated_quad_grid(int n);

//! 1-to-4 midpoint subdivision; shared edge midpoints are shared vertices.
//! Keeps the input vertices (same ids) and appends the edge midpoints;
//! face f becomes faces 4f .. 4f+3 with the same winding.
TriangleSoup refine(const TriangleSoup& mesh);

//! The mesh with every vertex moved by a pseudo-random offset (uniform in
//! the cube [-1, 1]^3, deterministic for a seed) times `amplitude` times the
//! mean edge length: a noisy input for smoothing. amplitude >= 0.
TriangleSoup noisy(const TriangleSoup& mesh, float amplitude, std::uint32_t seed = 1);

//! The mesh with every vertex moved along its area-weighted vertex normal
//! (the unit sum of its faces' cross products) by a pseudo-random amount
//! uniform in [-1, 1] (deterministic for a seed, one draw per vertex in
//! order) times `amplitude` times the mean edge length: noise "along the
//! normals" for denoising tests. Vertices with a zero normal (unused ones
//! included) do not move.
//! \throw InvalidInputError for amplitude < 0 (or NaN) or a face index out
//!        of range.
TriangleSoup normal_noise(const TriangleSoup& mesh, float amplitude, std::uint32_t seed = 1);

}  // namespace rxmesh::generate
