// Expected MeshStats written as counts, the field-by-field comparison that
// names the field that differs, and the reference topology and stats of a
// soup: shared by the generator and the reference topology tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "rxmesh/core/mesh_stats.h"
#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/reference/topology.h"

namespace rxmesh::test {

//! The stats a test expects; euler follows from v, e and f.
inline MeshStats make_stats(std::uint64_t v, std::uint64_t f, std::uint64_t e,
                            std::uint64_t boundary, std::uint64_t nm_edges,
                            std::uint64_t nm_vertices, std::uint64_t components)
{
    MeshStats s;
    s.vertices             = v;
    s.faces                = f;
    s.edges                = e;
    s.boundary_edges       = boundary;
    s.nonmanifold_edges    = nm_edges;
    s.nonmanifold_vertices = nm_vertices;
    s.components           = components;
    s.euler = std::int64_t(v) - std::int64_t(e) + std::int64_t(f);
    return s;
}

//! Field by field, so a failure names the count that is off; then
//! operator== as well, so a field added to MeshStats is not missed.
inline void expect_stats(const MeshStats& got, const MeshStats& want)
{
    EXPECT_EQ(got.vertices, want.vertices);
    EXPECT_EQ(got.faces, want.faces);
    EXPECT_EQ(got.edges, want.edges);
    EXPECT_EQ(got.boundary_edges, want.boundary_edges);
    EXPECT_EQ(got.nonmanifold_edges, want.nonmanifold_edges);
    EXPECT_EQ(got.nonmanifold_vertices, want.nonmanifold_vertices);
    EXPECT_EQ(got.components, want.components);
    EXPECT_EQ(got.euler, want.euler);
    EXPECT_TRUE(got == want);
}

//! The reference topology of a soup, over all its vertices.
inline reference::Topology topology_of(const TriangleSoup& m)
{
    return reference::build_topology(static_cast<std::uint32_t>(m.positions.size()), m.faces);
}

inline MeshStats stats_of(const TriangleSoup& m)
{
    return reference::compute_stats(topology_of(m), m.faces);
}

}  // namespace rxmesh::test
