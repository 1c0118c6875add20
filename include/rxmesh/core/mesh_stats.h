// MeshStats: the statistics rxmesh-info prints. The CPU reference and the
// GPU pipeline fill the same struct, so tests compare them with ==.
#pragma once

#include <cstdint>

namespace rxmesh {

struct MeshStats
{
    std::uint64_t vertices             = 0;  // referenced by a face
    std::uint64_t faces                = 0;
    std::uint64_t edges                = 0;  // unique undirected
    std::uint64_t boundary_edges       = 0;  // exactly 1 incident face
    std::uint64_t nonmanifold_edges    = 0;  // more than 2 incident faces
    //! Referenced vertices on a non-manifold edge, or whose incident faces,
    //! linked through edges incident to the vertex, form several fans.
    std::uint64_t nonmanifold_vertices = 0;
    std::uint64_t components           = 0;  // of the vertex-edge graph
    std::int64_t  euler                = 0;  // vertices - edges + faces

    bool operator==(const MeshStats& o) const
    {
        return vertices == o.vertices && faces == o.faces &&
               edges == o.edges && boundary_edges == o.boundary_edges &&
               nonmanifold_edges == o.nonmanifold_edges &&
               nonmanifold_vertices == o.nonmanifold_vertices &&
               components == o.components && euler == o.euler;
    }
    bool operator!=(const MeshStats& o) const { return !(*this == o); }
};

}  // namespace rxmesh
