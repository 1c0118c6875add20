// Reference topology: simple, serial, obviously-correct CPU code. It is the
// oracle of every GPU test and the CPU fallback of the apps.
//
// Canonical forms (the GPU pipeline produces exactly the same arrays):
// - edges are the unique undirected vertex pairs (a, b) with a < b, sorted
//   lexicographically; an edge's id is its position in that order;
// - fe holds, for face f = (v0, v1, v2), the ids of edges (v0,v1), (v1,v2),
//   (v2,v0) in that order, each as (edge_id << 1) | flip where flip is 1
//   when the face walks the edge from its larger to its smaller vertex;
// - every CSR row is sorted ascending and holds no repeats: ef (edge ->
//   faces), ff (face -> faces sharing at least one edge, itself excluded),
//   vv (vertex -> neighbours), ve (vertex -> edges), vf (vertex -> faces).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rxmesh/core/mesh_stats.h"
#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

struct Csr
{
    std::vector<std::uint32_t> offsets;  // rows + 1 entries
    std::vector<std::uint32_t> indices;

    std::uint32_t rows() const
    {
        return offsets.empty() ? 0u
                               : static_cast<std::uint32_t>(offsets.size() - 1);
    }
    std::uint32_t row_size(std::uint32_t r) const
    {
        return offsets[r + 1] - offsets[r];
    }
};

struct Topology
{
    std::uint32_t num_vertices = 0;  // size of the vertex index space
    std::vector<std::array<std::uint32_t, 2>> ev;
    std::vector<std::array<std::uint32_t, 3>> fe;
    Csr ef, ff, vv, ve, vf;
};

//! Builds the full topology of `faces` over vertex ids [0, num_vertices).
//! \pre every index < num_vertices and no face repeats a vertex
//! \throw InvalidInputError when the precondition is violated.
Topology build_topology(std::uint32_t                num_vertices,
                        const std::vector<Triangle>& faces);

//! The statistics rxmesh-info prints (definitions in core/mesh_stats.h).
using MeshStats = rxmesh::MeshStats;

//! Statistics of a topology built by build_topology from `faces`.
MeshStats compute_stats(const Topology& topo, const std::vector<Triangle>& faces);

//! Result of the reference re-indexing.
struct Reindexed
{
    std::vector<Vec3f>         positions;  // used, unique (when welding)
    std::vector<Triangle>      faces;      // non-degenerate faces, input order
    std::vector<std::uint32_t> old_to_new; // per input vertex; ~0u if dropped
    std::uint64_t dropped_faces = 0;       // faces that became degenerate
};

//! Serial std::map re-indexing: drops unused vertices and, when `weld`,
//! merges vertices with bit-identical positions. New vertex ids follow the
//! order of first use by the faces. Faces that repeat a vertex after welding
//! are dropped and counted.
Reindexed reindex(const std::vector<Vec3f>&    positions,
                  const std::vector<Triangle>& faces,
                  bool                         weld);

}  // namespace rxmesh::reference
