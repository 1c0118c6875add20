// The serial CPU baseline of the geodesic benchmark: the same algorithm as
// algo/geodesic.cuh (toplesets by breadth-first search, then the windowed
// Jacobi propagation with the same window rule, closing sweeps, float
// storage and double planar update), written for one core as a user would
// tune it: vertices visited in level order (a window is one contiguous range
// of them), each vertex's triangles stored next to it as the pairs of their
// other corners, so an update reads no face table. reference/geodesic.h is
// the simple double oracle; this is the fast serial version timed against
// the GPU.
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::baselines {

struct CpuPtpResult
{
    std::vector<float> distance;  // per vertex, +inf where unreachable
    std::uint32_t      levels     = 0;
    long               iterations = 0, sweeps = 0;
    bool               converged  = false;
};

CpuPtpResult cpu_ptp(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                     const std::vector<std::uint32_t>& sources, double tolerance);

}  // namespace rxmesh::baselines
