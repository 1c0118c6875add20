// The length of a point set's axis-aligned bounding-box diagonal: the unit
// in which the apps, tests and benchmarks state position tolerances.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh {

//! Diagonal of the bounding box of `num_points` points stored as x, y, z
//! triples (0 for no points).
inline double bounding_box_diagonal(const float* xyz, std::size_t num_points)
{
    if (num_points == 0)
        return 0;
    double lo[3], hi[3];
    for (int d = 0; d < 3; ++d)
        lo[d] = hi[d] = xyz[d];
    for (std::size_t i = 1; i < num_points; ++i)
        for (int d = 0; d < 3; ++d) {
            lo[d] = std::min(lo[d], double(xyz[3 * i + d]));
            hi[d] = std::max(hi[d], double(xyz[3 * i + d]));
        }
    double s = 0;
    for (int d = 0; d < 3; ++d)
        s += (hi[d] - lo[d]) * (hi[d] - lo[d]);
    return std::sqrt(s);
}

inline double bounding_box_diagonal(const std::vector<Vec3f>& points)
{
    static_assert(sizeof(Vec3f) == 3 * sizeof(float), "Vec3f is three packed floats");
    return points.empty() ? 0 : bounding_box_diagonal(points.front().data(), points.size());
}

}  // namespace rxmesh
