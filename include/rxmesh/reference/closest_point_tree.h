// A serial bounding-box tree over a mesh's triangles for closest-point
// queries: the exact answer of reference::closest_point_on_mesh (the same
// distance and the same lowest face among equals) without visiting every
// triangle, so that Hausdorff distances of large meshes (the remeshing and
// simplification benchmarks' quality figures) take seconds, not hours.
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/reference/surface_distance.h"

namespace rxmesh::reference {

class ClosestPointTree
{
   public:
    //! \throw InvalidInputError when the mesh has no face.
    explicit ClosestPointTree(const TriangleSoup& mesh);

    ClosestPoint closest(const Point3& p) const;

   private:
    struct Node
    {
        Point3        lo, hi;
        std::uint32_t first = 0, count = 0;  // leaf: faces order[first, first + count)
        std::uint32_t left = 0, right = 0;   // inner node (count == 0)
    };
    std::uint32_t build(std::uint32_t first, std::uint32_t count);

    std::vector<Point3>        m_corners;  // 3 per face
    std::vector<Point3>        m_centroids;
    std::vector<std::uint32_t> m_order;    // face ids, grouped by leaf
    std::vector<Node>          m_nodes;
};

//! hausdorff() with the tree: the same samples, the same result.
HausdorffDistance hausdorff_fast(const TriangleSoup& a, const TriangleSoup& b);

}  // namespace rxmesh::reference
