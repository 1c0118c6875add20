// A point set's axis-aligned bounding box, and its diagonal's length: the
// unit in which the apps, tests and benchmarks state position tolerances.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh {

//! Axis-aligned bounding box (lo, hi) of `num_points` points stored as
//! x, y, z triples. \pre num_points > 0.
inline void bounding_box(const float* xyz, std::size_t num_points, float lo[3], float hi[3])
{
    for (int d = 0; d < 3; ++d) lo[d] = hi[d] = xyz[d];
    for (std::size_t i = 1; i < num_points; ++i)
        for (int d = 0; d < 3; ++d) {
            lo[d] = std::min(lo[d], xyz[3 * i + d]);
            hi[d] = std::max(hi[d], xyz[3 * i + d]);
        }
}

//! Diagonal of the bounding box of `num_points` points stored as x, y, z
//! triples (0 for no points).
inline double bounding_box_diagonal(const float* xyz, std::size_t num_points)
{
    if (num_points == 0) return 0;
    float lo[3], hi[3];
    bounding_box(xyz, num_points, lo, hi);
    double s = 0;
    for (int d = 0; d < 3; ++d) s += (double(hi[d]) - lo[d]) * (double(hi[d]) - lo[d]);
    return std::sqrt(s);
}

inline double bounding_box_diagonal(const std::vector<Vec3f>& points)
{
    static_assert(sizeof(Vec3f) == 3 * sizeof(float), "Vec3f is three packed floats");
    return points.empty() ? 0 : bounding_box_diagonal(points.front().data(), points.size());
}

}  // namespace rxmesh
