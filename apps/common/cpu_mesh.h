// The mesh of an app's CPU path (--device cpu): the input reindexed as
// RXMesh's build treats it (vertices no face uses dropped, --weld merging
// equal positions, faces that collapse dropped), for reference/, and the way
// back to one row per input vertex for -o; and what the CPU paths over it
// print, write and report alike.
#pragma once

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "app.h"
#include "rxmesh/io/io.h"
#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/reference/topology.h"

namespace rxmesh::app {

class CpuMesh
{
   public:
    CpuMesh(const TriangleSoup& soup, bool weld)
    {
        const auto start = std::chrono::steady_clock::now();
        m_mesh           = reference::reindex(soup.positions, soup.faces, weld);
        m_build_ms       = ms_since(start);
    }

    //! Milliseconds the reindexing took (the CPU path's "build" time).
    double build_ms() const { return m_build_ms; }

    const std::vector<Vec3f>&    positions() const { return m_mesh.positions; }
    const std::vector<Triangle>& faces() const { return m_mesh.faces; }
    std::size_t                  num_vertices() const { return m_mesh.positions.size(); }
    std::size_t                  num_faces() const { return m_mesh.faces.size(); }

    //! The mesh vertex input vertex `v` became; ~0u for one the mesh dropped.
    std::uint32_t mesh_id(std::uint32_t v) const { return m_mesh.old_to_new.at(v); }

    //! `values` (n per mesh vertex) as n per input vertex; a vertex the
    //! mesh dropped gets `dropped`, welded copies their vertex's values.
    template <typename T>
    std::vector<T> to_input_order(const std::vector<T>& values, int n, T dropped) const
    {
        const auto&    map = m_mesh.old_to_new;
        std::vector<T> out(std::size_t(n) * map.size(), dropped);
        for (std::size_t v = 0; v < map.size(); ++v)
            if (map[v] != ~0u)
                for (int k = 0; k < n; ++k)
                    out[std::size_t(n) * v + k] = values[std::size_t(n) * map[v] + k];
        return out;
    }

    //! Positions per mesh vertex as one per input vertex: a dropped vertex
    //! keeps its input position `input[v]`.
    std::vector<Vec3f> positions_to_input_order(const std::vector<Vec3f>& moved,
                                                const std::vector<Vec3f>& input) const
    {
        const auto&        map = m_mesh.old_to_new;
        std::vector<Vec3f> out(input);
        for (std::size_t v = 0; v < map.size(); ++v)
            if (map[v] != ~0u)
                out[v] = moved[map[v]];
        return out;
    }

   private:
    reference::Reindexed m_mesh;
    double               m_build_ms = 0;
};

//! The points' x, y, z values one after the other, as T.
template <typename T>
std::vector<T> flatten(const std::vector<Vec3f>& points)
{
    std::vector<T> out;
    out.reserve(3 * points.size());
    for (const Vec3f& p : points) out.insert(out.end(), p.begin(), p.end());
    return out;
}

//! Points computed in double (a serial reference's) rounded to float, as
//! the GPU stores them.
inline std::vector<Vec3f> rounded_to_float(const std::vector<std::array<double, 3>>& points)
{
    std::vector<Vec3f> out;
    out.reserve(points.size());
    for (const auto& p : points) out.push_back({float(p[0]), float(p[1]), float(p[2])});
    return out;
}

//! The 'displacement' property of a moving app's -o (the GPU path's too):
//! how far each input vertex is from its input position.
inline io::VertexScalar displacement_property(const std::vector<Vec3f>& moved,
                                              const std::vector<Vec3f>& input)
{
    io::VertexScalar d{"displacement", std::vector<float>(input.size())};
    for (std::size_t v = 0; v < input.size(); ++v) {
        double d2 = 0;
        for (int k = 0; k < 3; ++k)
            d2 += (double(moved[v][k]) - input[v][k]) * (double(moved[v][k]) - input[v][k]);
        d.values[v] = float(std::sqrt(d2));
    }
    return d;
}

//! The CPU path's mesh of the session's input (with --weld); --check is
//! refused first (Session::refuse_check_on_cpu).
inline CpuMesh cpu_mesh(const Session& s)
{
    s.refuse_check_on_cpu();
    return CpuMesh(s.input().soup, s.options().weld);
}

//! The header and "  V vertices, F faces" of `mesh`, then `more`.
inline void print_header(const Session& s, const CpuMesh& mesh, const std::string& more = "")
{
    s.print_header(mesh.num_vertices(), mesh.num_faces(), more);
}

//! The report's first keys and "mesh" for the CPU path over `mesh`.
inline Json report(const Session& s, const CpuMesh& mesh)
{
    return s.report(mesh.num_vertices(), mesh.num_faces());
}

//! Stages -o, when given, for a CPU path that moves the vertices: `moved`
//! (one per mesh vertex) in input order (a dropped vertex at its input
//! position), the input's faces and 'displacement', as the GPU path writes.
inline void write_moved_mesh(Session& s, const CpuMesh& mesh, const std::vector<Vec3f>& moved)
{
    const std::vector<Vec3f>& input = s.input().soup.positions;
    const std::vector<Vec3f>  out   = mesh.positions_to_input_order(moved, input);
    s.write_input_order(
        out, [&] { return std::vector<io::VertexScalar>{displacement_property(out, input)}; });
}

}  // namespace rxmesh::app
