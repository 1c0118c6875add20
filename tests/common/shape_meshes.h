// Generated meshes whose faces' shapes the remeshing, simplification and
// changing-topology tests need, shared by the CPU and GPU tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "rxmesh/io/generate.h"

namespace rxmesh::test {

//! The unit corner tetrahedron, closed and consistently oriented: every edge
//! collapse would break the link condition.
inline TriangleSoup tetrahedron()
{
    TriangleSoup t;
    t.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    t.faces     = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
    return t;
}

//! A grid stretched 10:1: every face a needle of about 5.7 degrees.
inline TriangleSoup needle_grid()
{
    TriangleSoup g = generate::grid(20, 20);
    for (Vec3f& p : g.positions) p[0] *= 10.f;
    return g;
}

//! An open cone of height 3 over an uneven unit ring, with a ring of
//! interior vertices at height 2.7 (radius 0.1): its apex is sharp (every
//! face normal about 72 degrees from the axis), the inner ring is not.
inline TriangleSoup cone(int n)
{
    TriangleSoup c;
    c.positions.push_back({0.f, 0.f, 3.f});
    for (const float r : {0.1f, 1.f})
        for (int k = 0; k < n; ++k) {
            const double t = 2 * 3.14159265358979323846 * (k + 0.3 * std::sin(3.0 * k)) / n;
            c.positions.push_back({float(r * std::cos(t)), float(r * std::sin(t)), 3.f - 3.f * r});
        }
    const auto u = std::uint32_t(n);
    for (std::uint32_t k = 0; k < u; ++k) {
        const std::uint32_t i0 = 1 + k, i1 = 1 + (k + 1) % u, o0 = i0 + u, o1 = i1 + u;
        c.faces.push_back({0, i0, i1});
        c.faces.push_back({i0, o0, o1});
        c.faces.push_back({i0, o1, i1});
    }
    return c;
}

struct GuardCase
{
    const char*  name;
    TriangleSoup soup;
    double       scale;  // L / the mean edge length
};

//! The meshes the sliver guard's postconditions are tested on: closed,
//! flat, needles, high valence, open and noisy.
inline std::vector<GuardCase> guard_cases()
{
    return {{"noisy sphere", generate::noisy(generate::icosphere(3), 0.4f, 11), 1.6},
            {"flat grid", generate::grid(16, 12), 1.6},
            {"needles", needle_grid(), 1.0},
            {"high valence", generate::fan(100), 1.0},
            {"noisy open grid", generate::noisy(generate::grid(20, 14), 0.4f, 12), 1.6}};
}

}  // namespace rxmesh::test
