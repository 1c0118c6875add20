// What the OpenMesh CPU baselines share (host code; include after
// OpenMesh's TriMesh header): an OpenMesh mesh from a TriangleSoup and back;
// their timing helpers are cpu_baseline.h's.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "cpu_baseline.h"
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

//! The mesh as a soup, vertices and faces in OpenMesh's order (after a
//! garbage_collection(), dense).
template <typename Mesh>
TriangleSoup soup_of(const Mesh& m)
{
    TriangleSoup out;
    for (const auto v : m.vertices()) {
        const auto& p = m.point(v);
        out.positions.push_back({float(p[0]), float(p[1]), float(p[2])});
    }
    for (const auto f : m.faces()) {
        Triangle t;
        int      k = 0;
        for (const auto v : m.fv_range(f)) t[k++] = std::uint32_t(v.idx());
        out.faces.push_back(t);
    }
    return out;
}

}  // namespace rxmesh::bench
