// A CGAL Surface_mesh from a TriangleSoup and back (host code; include after
// CGAL's Surface_mesh header), for the CGAL baselines.
#pragma once

#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::bench {

//! Vertices in input order, then the faces CGAL accepts.
template <typename Mesh>
Mesh surface_mesh_of(const TriangleSoup& soup)
{
    using Point = typename Mesh::Point;
    Mesh                                     m;
    std::vector<typename Mesh::Vertex_index> vh;
    vh.reserve(soup.positions.size());
    for (const auto& p : soup.positions) vh.push_back(m.add_vertex(Point(p[0], p[1], p[2])));
    for (const auto& t : soup.faces) m.add_face(vh[t[0]], vh[t[1]], vh[t[2]]);
    return m;
}

//! The mesh after collect_garbage(): vertices and faces densely numbered.
template <typename Mesh>
TriangleSoup soup_of_surface_mesh(Mesh& m)
{
    m.collect_garbage();
    TriangleSoup out;
    for (const auto v : m.vertices()) {
        const auto& p = m.point(v);
        out.positions.push_back({float(p.x()), float(p.y()), float(p.z())});
    }
    for (const auto f : m.faces()) {
        Triangle t;
        int      k = 0;
        for (const auto v : m.vertices_around_face(m.halfedge(f))) t[k++] = std::uint32_t(v.idx());
        out.faces.push_back(t);
    }
    return out;
}

}  // namespace rxmesh::bench
