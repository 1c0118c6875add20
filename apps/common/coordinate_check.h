// What the apps' --check measures of a result's positions against the serial
// reference's, vertex by vertex (rxmesh-bilateral, rxmesh-subdivide): the
// largest coordinate difference, where it is, and its message.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>

namespace rxmesh::app {

//! The largest difference of a result's coordinates from the reference's
//! so far, and its vertex (a NaN difference counts as the largest).
struct LargestDifference
{
    double      value  = 0;
    std::size_t vertex = 0;

    //! Counts vertex `v`: its coordinates `got[0..2]` against `want[0..2]`.
    template <typename Got, typename Want>
    void add(std::size_t v, const Got& got, const Want& want)
    {
        for (int d = 0; d < 3; ++d) {
            const double e = std::abs(double(got[d]) - want[d]);
            if (!(e <= value)) value = e, vertex = v;
        }
    }

    //! The difference over the bounding-box diagonal (itself without one).
    double over(double diagonal) const { return diagonal > 0 ? value / diagonal : value; }

    //! "vertex V is R x the bounding-box diagonal from the CPU reference
    //! (bound B)": --check's failure, `bound` as the app states it.
    std::string failure(double diagonal, const std::string& bound) const
    {
        return "vertex " + std::to_string(vertex) + " is " + std::to_string(over(diagonal)) +
               " x the bounding-box diagonal from the CPU reference (bound " + bound + ")";
    }
};

}  // namespace rxmesh::app
