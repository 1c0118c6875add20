// Serial geometry of the remeshing and simplification references: the
// closest point of a triangle, of a whole triangle mesh (brute force: every
// triangle), and sampled Hausdorff distances between two meshes. Double
// precision; obviously correct rather than fast (the GPU BVH is tested
// against closest_point_on_mesh).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

using Point3 = std::array<double, 3>;

//! The point of triangle (a, b, c) nearest to p (degenerate triangles: the
//! nearest point of their edges).
Point3 closest_point_on_triangle(const Point3& p, const Point3& a, const Point3& b,
                                 const Point3& c);

struct ClosestPoint
{
    Point3        point    = {0, 0, 0};
    double        distance = 0;
    std::uint32_t face     = ~0u;  // the lowest face id among the nearest
};

//! \throw InvalidInputError when the mesh has no face.
ClosestPoint closest_point_on_mesh(const Point3& p, const TriangleSoup& mesh);

struct HausdorffDistance
{
    double from_a = 0;  // max over samples of a of the distance to b
    double from_b = 0;  // max over samples of b of the distance to a
    double symmetric() const { return from_a > from_b ? from_a : from_b; }
};

//! Samples: every vertex used by a face, and the centroid and edge midpoints
//! of every face.
HausdorffDistance hausdorff(const TriangleSoup& a, const TriangleSoup& b);

//! The sample points of hausdorff(), in that order.
std::vector<Point3> hausdorff_samples(const TriangleSoup& mesh);

}  // namespace rxmesh::reference
