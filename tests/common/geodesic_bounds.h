// What the geodesic tests, reference and GPU, bound distances with: the
// first-order discretisation bound of PTP, and an icosphere of radius R with
// its great-circle arcs and the figures the bounds on it need.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "rxmesh/io/generate.h"

namespace rxmesh::test {

//! The discretisation bound on the grid and the sphere, for a vertex at
//! distance r from the source on a mesh of longest edge h (a first-order
//! estimate). Given exact times at a and b, the planar update is off by the
//! curvature 1 / r of the circular front across ab: <= l^2 / (2 r) for
//! |ab| = l <= h. The accepted update is a convex combination of ta and tb
//! (weights >= 0, sum 1), so earlier errors carry over without growth and
//! the local ones add up along the updates back to the source, whose
//! distances fall by about h / 2 or more per step (the grid's legs are
//! h / sqrt(2)): sum_k h^2 / (2 (k h / 2)) = sum_k h / k <= h (1 + ln(r / h)).
//! Float storage (the GPU's) adds about 1e-7 r, far below it.
inline double discretisation_bound(double r, double h)
{
    return h * (1 + std::log(std::max(r, h) / h));
}

//! An icosphere scaled to radius `radius`, with its longest edge (h) and
//! the least distance of a face's plane from the centre (rho), in double.
struct ScaledIcosphere
{
    TriangleSoup mesh;
    double       radius;
    double       longest_edge = 0;
    double       least_plane_distance;

    //! The great-circle arc from vertex a to vertex b, R theta.
    double arc(std::uint32_t a, std::uint32_t b) const
    {
        const Vec3f &s = mesh.positions[a], &p = mesh.positions[b];
        const double dot = double(s[0]) * p[0] + double(s[1]) * p[1] + double(s[2]) * p[2];
        const double cx  = double(s[1]) * p[2] - double(s[2]) * p[1];
        const double cy  = double(s[2]) * p[0] - double(s[0]) * p[2];
        const double cz  = double(s[0]) * p[1] - double(s[1]) * p[0];
        return radius * std::atan2(std::sqrt(cx * cx + cy * cy + cz * cz), dot);
    }
};

//! generate::icosphere(level) scaled by `radius` (a power of two keeps it
//! exact).
inline ScaledIcosphere scaled_icosphere(int level, double radius)
{
    ScaledIcosphere sphere{generate::icosphere(level), radius, 0, radius};
    for (Vec3f& p : sphere.mesh.positions)
        for (float& x : p)
            x *= float(radius);
    const auto& pos = sphere.mesh.positions;
    for (const Triangle& t : sphere.mesh.faces) {
        const Vec3f &a = pos[t[0]], &b = pos[t[1]], &c = pos[t[2]];
        const double u[3] = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
        const double w[3] = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
        const double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                             u[0] * w[1] - u[1] * w[0]};
        const double len  = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        sphere.least_plane_distance = std::min(
            sphere.least_plane_distance, std::abs(n[0] * a[0] + n[1] * a[1] + n[2] * a[2]) / len);
        for (int k = 0; k < 3; ++k) {
            const Vec3f &p = pos[t[k]], &q = pos[t[(k + 1) % 3]];
            const double d[3] = {double(p[0]) - q[0], double(p[1]) - q[1], double(p[2]) - q[2]};
            sphere.longest_edge =
                std::max(sphere.longest_edge, std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
        }
    }
    return sphere;
}

}  // namespace rxmesh::test
