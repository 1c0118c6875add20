// rxmesh::bounding_box_diagonal: the tolerance unit of the apps, tests and
// benchmarks, checked on boxes whose diagonal is known.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "rxmesh/io/bounding_box.h"

namespace {

using rxmesh::bounding_box_diagonal;
using rxmesh::Vec3f;

TEST(BoundingBox, DiagonalOfKnownBoxes)
{
    EXPECT_EQ(bounding_box_diagonal(std::vector<Vec3f>{}), 0.0);
    EXPECT_EQ(bounding_box_diagonal(std::vector<Vec3f>{{5.f, -2.f, 7.f}}), 0.0);
    // a 3 x 4 x 12 box, corners given inside out of order, one point inside
    const std::vector<Vec3f> box{
        {1.f, 2.f, 3.f}, {2.f, 4.f, 9.f}, {4.f, 6.f, 15.f}, {1.f, 6.f, 3.f}};
    EXPECT_DOUBLE_EQ(bounding_box_diagonal(box), 13.0);
    // the same points as flat x, y, z triples
    EXPECT_DOUBLE_EQ(bounding_box_diagonal(box.front().data(), box.size()), 13.0);
    // all coordinates negative: the box is not anchored at the origin
    const std::vector<Vec3f> negative{{-10.f, -10.f, -10.f}, {-7.f, -6.f, -10.f}};
    EXPECT_DOUBLE_EQ(bounding_box_diagonal(negative), 5.0);
}

}  // namespace

TEST(BoundingBox, CornersOfThePointSet)
{
    const float xyz[] = {1, -2, 3, -4, 5, 0.5f, 2, 0, -6};
    float       lo[3], hi[3];
    rxmesh::bounding_box(xyz, 3, lo, hi);
    EXPECT_EQ(lo[0], -4.f);
    EXPECT_EQ(lo[1], -2.f);
    EXPECT_EQ(lo[2], -6.f);
    EXPECT_EQ(hi[0], 2.f);
    EXPECT_EQ(hi[1], 5.f);
    EXPECT_EQ(hi[2], 3.f);
}
