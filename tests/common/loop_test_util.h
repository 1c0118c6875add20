// Shared by the Loop subdivision tests (reference and GPU).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::test {

//! Length of the bounding box's diagonal (the tests' unit of tolerance).
inline double bbox_diagonal(const std::vector<Vec3f>& p)
{
    double s = 0;
    for (int d = 0; d < 3; ++d) {
        const auto [lo, hi] = std::minmax_element(
            p.begin(), p.end(), [d](const Vec3f& a, const Vec3f& b) { return a[d] < b[d]; });
        s += double((*hi)[d] - (*lo)[d]) * ((*hi)[d] - (*lo)[d]);
    }
    return std::sqrt(s);
}

}  // namespace rxmesh::test
