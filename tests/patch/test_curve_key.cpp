// The Hilbert key of the curve patcher: a bijection of the grid onto
// [0, 8^bits) whose consecutive indices are face-adjacent cells (the defining
// property of a Hilbert curve), and the centroid quantization.
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <vector>

#include "rxmesh/patch/curve_key.h"

namespace {

struct Cell
{
    int x = -1, y = -1, z = -1;
};

void expect_hilbert_walk(int bits)
{
    const int         side = 1 << bits;
    std::vector<Cell> at(std::size_t(side) * side * side);
    for (int x = 0; x < side; ++x)
        for (int y = 0; y < side; ++y)
            for (int z = 0; z < side; ++z) {
                const std::uint64_t h = rxmesh::hilbert_index_3d(x, y, z, bits);
                ASSERT_LT(h, at.size());
                ASSERT_EQ(at[h].x, -1) << "index " << h << " taken twice";
                at[h] = {x, y, z};
            }
    for (std::size_t h = 1; h < at.size(); ++h) {
        const int step = std::abs(at[h].x - at[h - 1].x) + std::abs(at[h].y - at[h - 1].y) +
                         std::abs(at[h].z - at[h - 1].z);
        EXPECT_EQ(step, 1) << "bits " << bits << ", index " << h;
    }
    EXPECT_EQ(rxmesh::hilbert_index_3d(0, 0, 0, bits), 0u);
}

}  // namespace

TEST(CurveKey, HilbertIndexWalksTheGridOneCellAtATime)
{
    for (int bits = 1; bits <= 5; ++bits) expect_hilbert_walk(bits);
}

TEST(CurveKey, CentroidsQuantizeInsideTheGrid)
{
    const float              lo[3] = {-1, 0, 2}, hi[3] = {1, 4, 3};  // longest side 4
    const rxmesh::CurveFrame frame = rxmesh::make_curve_frame(lo, hi);
    const float              max   = float((1u << rxmesh::kCurveBits) - 1);
    // the lower corner is cell 0, the upper end of the longest side the last cell
    EXPECT_EQ(rxmesh::curve_cell(3 * lo[1], frame.lo3[1], frame.scale), 0u);
    EXPECT_EQ(rxmesh::curve_cell(3 * hi[1], frame.lo3[1], frame.scale), std::uint32_t(max));
    // halfway along the longest side: cell 2^15; cells are cubes, so the same
    // distance on a shorter axis gives the same cell
    EXPECT_EQ(rxmesh::curve_cell(3 * 2.0f, frame.lo3[1], frame.scale), 1u << 15);
    EXPECT_EQ(rxmesh::curve_cell(3 * 1.0f, frame.lo3[0], frame.scale), 1u << 15);
    // outside the box (rounding) and NaN clamp to the grid
    EXPECT_EQ(rxmesh::curve_cell(3 * lo[0] - 1, frame.lo3[0], frame.scale), 0u);
    EXPECT_EQ(rxmesh::curve_cell(3 * 100.0f, frame.lo3[0], frame.scale), std::uint32_t(max));
    EXPECT_EQ(rxmesh::curve_cell(std::numeric_limits<float>::quiet_NaN(), 0, 1), 0u);
    // a box of zero size: every face in cell 0
    const rxmesh::CurveFrame point = rxmesh::make_curve_frame(lo, lo);
    EXPECT_EQ(rxmesh::curve_cell(3 * lo[2], point.lo3[2], point.scale), 0u);
}
