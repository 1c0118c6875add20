#include "rxmesh/reference/loop_subdivision.h"

#include <cmath>
#include <string>
#include <unordered_map>

#include "rxmesh/core/error.h"
#include "rxmesh/reference/topology.h"

namespace rxmesh::reference {
namespace {

using Point = std::array<double, 3>;

void add(Point& to, const Point& p, double w)
{
    for (int d = 0; d < 3; ++d)
        to[d] += w * p[d];
}

std::uint64_t pair_key(std::uint32_t a, std::uint32_t b)
{
    return (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
}

//! One level's incidences, looked up through a map from vertex pairs to the
//! level's edge ids.
struct Level
{
    std::vector<LoopEdge>                   ev;
    std::vector<std::array<std::uint32_t, 3>> fe;  // face edge j = (f_j, f_{j+1})
    std::vector<std::vector<std::uint32_t>>   ef, ve;
    std::vector<std::uint8_t>                 sharp;

    bool is_crease(std::uint32_t e) const
    {
        return ef[e].size() != 2 || (!sharp.empty() && sharp[e]);
    }
};

//! \throw InvalidInputError for a face index out of range or a face that
//! repeats a vertex.
void check_faces(const LoopMesh& m)
{
    const auto V = std::uint32_t(m.positions.size());
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
        const Triangle& t = m.faces[f];
        for (std::uint32_t v : t)
            if (v >= V)
                throw InvalidInputError("loop_subdivide: face " + std::to_string(f) + " has vertex " +
                                        std::to_string(v) + " of " + std::to_string(V));
        if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0])
            throw InvalidInputError("loop_subdivide: face " + std::to_string(f) + " repeats a vertex");
    }
}

Level build_level(const LoopMesh& m)
{
    const auto V = std::uint32_t(m.positions.size());
    check_faces(m);
    Level t;
    t.ev = loop_level_edges(m);
    std::unordered_map<std::uint64_t, std::uint32_t> id;
    for (std::uint32_t e = 0; e < t.ev.size(); ++e)
        if (!id.emplace(pair_key(t.ev[e][0], t.ev[e][1]), e).second)
            throw InvalidInputError("loop_subdivide: edge " + std::to_string(e) + " is listed twice");
    t.ef.resize(t.ev.size());
    t.ve.resize(V);
    for (std::uint32_t f = 0; f < m.faces.size(); ++f) {
        std::array<std::uint32_t, 3> fe{};
        for (int j = 0; j < 3; ++j) {
            const auto it = id.find(pair_key(m.faces[f][j], m.faces[f][(j + 1) % 3]));
            if (it == id.end())
                throw InvalidInputError("loop_subdivide: an edge of face " + std::to_string(f) +
                                        " is not in the edge list");
            fe[j] = it->second;
            t.ef[it->second].push_back(f);
        }
        t.fe.push_back(fe);
    }
    for (std::uint32_t e = 0; e < t.ev.size(); ++e) {
        if (t.ef[e].empty())
            throw InvalidInputError("loop_subdivide: edge " + std::to_string(e) + " has no face");
        t.ve[t.ev[e][0]].push_back(e);
        t.ve[t.ev[e][1]].push_back(e);
    }
    t.sharp = m.sharp;
    if (!t.sharp.empty() && t.sharp.size() != t.ev.size())
        throw InvalidInputError("loop_subdivide: " + std::to_string(t.sharp.size()) +
                                " sharpness flags for " + std::to_string(t.ev.size()) + " edges");
    return t;
}

//! The vertex of face f opposite to edge (a, b).
std::uint32_t opposite(const Triangle& f, std::uint32_t a, std::uint32_t b)
{
    for (std::uint32_t v : f)
        if (v != a && v != b)
            return v;
    return f[0];  // not reached for a face of the edge
}

Point edge_point(const LoopMesh& m, const Level& t, std::uint32_t e)
{
    const auto [a, b] = t.ev[e];
    Point p{0, 0, 0};
    if (t.is_crease(e)) {
        add(p, m.positions[a], 0.5), add(p, m.positions[b], 0.5);
        return p;
    }
    add(p, m.positions[a], 3.0 / 8), add(p, m.positions[b], 3.0 / 8);
    for (std::uint32_t f : t.ef[e])
        add(p, m.positions[opposite(m.faces[f], a, b)], 1.0 / 8);
    return p;
}

Point vertex_point(const LoopMesh& m, const Level& t, std::uint32_t v)
{
    const Point&               x = m.positions[v];
    const auto                 n = std::uint32_t(t.ve[v].size());
    std::vector<std::uint32_t> neighbours, crease_neighbours;
    for (std::uint32_t e : t.ve[v]) {
        const std::uint32_t u = t.ev[e][0] == v ? t.ev[e][1] : t.ev[e][0];
        neighbours.push_back(u);
        if (t.is_crease(e))
            crease_neighbours.push_back(u);
    }
    if (n == 0 || crease_neighbours.size() > 2)
        return x;  // isolated, or a corner
    Point p{0, 0, 0};
    if (crease_neighbours.size() == 2) {
        add(p, x, 3.0 / 4);
        add(p, m.positions[crease_neighbours[0]], 1.0 / 8);
        add(p, m.positions[crease_neighbours[1]], 1.0 / 8);
        return p;
    }
    const double beta = loop_beta(n);
    add(p, x, 1.0 - n * beta);
    for (std::uint32_t u : neighbours)
        add(p, m.positions[u], beta);
    return p;
}

//! The refined level's edges and sharp flags, in the documented order.
void refine_edges(const LoopMesh& m, const Level& t, LoopMesh& out)
{
    const auto V = std::uint32_t(m.positions.size());
    const auto E = std::uint32_t(t.ev.size());
    for (std::uint32_t e = 0; e < E; ++e) {
        out.edges.push_back({t.ev[e][0], V + e});
        out.edges.push_back({V + e, t.ev[e][1]});
    }
    for (const auto& fe : t.fe)
        for (int j = 0; j < 3; ++j)
            out.edges.push_back({V + fe[j], V + fe[(j + 1) % 3]});
    if (t.sharp.empty())
        return;
    for (std::uint32_t e = 0; e < E; ++e)
        out.sharp.insert(out.sharp.end(), 2, t.sharp[e]);
    out.sharp.resize(out.edges.size(), 0);
}

}  // namespace

double loop_beta(std::uint32_t n)
{
    if (n == 0)
        return 0;
    const double c = 3.0 / 8 + 0.25 * std::cos(2 * M_PI / n);
    return (5.0 / 8 - c * c) / n;
}

std::vector<LoopEdge> loop_level_edges(const LoopMesh& mesh)
{
    if (!mesh.edges.empty() || mesh.faces.empty())
        return mesh.edges;
    return build_topology(std::uint32_t(mesh.positions.size()), mesh.faces).ev;
}

LoopMesh loop_subdivide_once(const LoopMesh& mesh)
{
    const auto  V = std::uint32_t(mesh.positions.size());
    const Level t = build_level(mesh);
    const auto  E = std::uint32_t(t.ev.size());
    LoopMesh    out;
    out.positions.resize(std::size_t(V) + E);
    for (std::uint32_t v = 0; v < V; ++v)
        out.positions[v] = vertex_point(mesh, t, v);
    for (std::uint32_t e = 0; e < E; ++e)
        out.positions[V + e] = edge_point(mesh, t, e);
    out.faces.reserve(4 * mesh.faces.size());
    for (std::uint32_t f = 0; f < mesh.faces.size(); ++f) {
        const Triangle& v = mesh.faces[f];
        const Triangle  M{V + t.fe[f][0], V + t.fe[f][1], V + t.fe[f][2]};
        for (int i = 0; i < 3; ++i)
            out.faces.push_back({v[i], M[i], M[(i + 2) % 3]});
        out.faces.push_back(M);
    }
    refine_edges(mesh, t, out);
    return out;
}

LoopMesh loop_level0(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                     const std::vector<LoopEdge>& sharp_edges)
{
    LoopMesh m;
    m.faces = faces;
    for (const Vec3f& p : positions)
        m.positions.push_back({p[0], p[1], p[2]});
    if (sharp_edges.empty())
        return m;
    m.edges = loop_level_edges(m);
    std::unordered_map<std::uint64_t, std::uint32_t> id;
    for (std::uint32_t e = 0; e < m.edges.size(); ++e)
        id.emplace(pair_key(m.edges[e][0], m.edges[e][1]), e);
    m.sharp.assign(m.edges.size(), 0);
    for (const LoopEdge& s : sharp_edges) {
        const auto it = id.find(pair_key(s[0], s[1]));
        if (it == id.end())
            throw InvalidInputError("loop_subdivide: sharp edge (" + std::to_string(s[0]) + ", " +
                                    std::to_string(s[1]) + ") is not an edge of the mesh");
        m.sharp[it->second] = 1;
    }
    return m;
}

LoopMesh loop_subdivide(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                        int levels, const std::vector<LoopEdge>& sharp_edges)
{
    if (levels < 0)
        throw InvalidInputError("loop_subdivide: levels must be >= 0, got " +
                                std::to_string(levels));
    LoopMesh m = loop_level0(positions, faces, sharp_edges);
    for (int l = 0; l < levels; ++l)
        m = loop_subdivide_once(m);
    return m;
}

}  // namespace rxmesh::reference
