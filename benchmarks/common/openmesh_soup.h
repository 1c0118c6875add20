// What the OpenMesh CPU baselines share (host code; include after
// OpenMesh's TriMesh header): building an OpenMesh mesh from a TriangleSoup,
// and their medians and wall-clock timings.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::bench {

//! Adds the soup to `m`: vertices in input order (OpenMesh keeps it), then
//! the faces OpenMesh accepts (a complex edge or vertex is refused).
//! \return the accepted faces; `rejected` counts the others.
template <typename Mesh>
std::vector<Triangle> add_soup(Mesh& m, const TriangleSoup& soup, std::uint64_t& rejected)
{
    m.reserve(soup.positions.size(), 3 * soup.faces.size() / 2, soup.faces.size());
    std::vector<typename Mesh::VertexHandle> vh(soup.positions.size());
    for (std::size_t i = 0; i < vh.size(); ++i)
        vh[i] = m.add_vertex(typename Mesh::Point(soup.positions[i][0], soup.positions[i][1],
                                                  soup.positions[i][2]));
    std::vector<Triangle> kept;
    kept.reserve(soup.faces.size());
    rejected = 0;
    for (const Triangle& f : soup.faces) {
        if (m.add_face(vh[f[0]], vh[f[1]], vh[f[2]]).is_valid())
            kept.push_back(f);
        else
            ++rejected;
    }
    return kept;
}

//! The upper median (0 for none).
inline double upper_median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

//! Wall-clock milliseconds of f().
template <typename F>
double wall_ms(F&& f)
{
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace rxmesh::bench
