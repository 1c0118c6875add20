#include "rxmesh/reference/loop_subdivision.h"

#include <cmath>
#include <string>

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

//! The vertex of face f opposite to edge (a, b).
std::uint32_t opposite(const Triangle& f, std::uint32_t a, std::uint32_t b)
{
    for (std::uint32_t v : f)
        if (v != a && v != b)
            return v;
    return f[0];  // not reached for a face of the edge
}

bool is_crease(const Topology& t, std::uint32_t e)
{
    return t.ef.row_size(e) != 2;
}

Point edge_point(const LoopMesh& m, const Topology& t, std::uint32_t e)
{
    const auto [a, b] = t.ev[e];
    Point p{0, 0, 0};
    if (is_crease(t, e)) {
        add(p, m.positions[a], 0.5), add(p, m.positions[b], 0.5);
        return p;
    }
    add(p, m.positions[a], 3.0 / 8), add(p, m.positions[b], 3.0 / 8);
    for (std::uint32_t i = t.ef.offsets[e]; i < t.ef.offsets[e + 1]; ++i)
        add(p, m.positions[opposite(m.faces[t.ef.indices[i]], a, b)], 1.0 / 8);
    return p;
}

Point vertex_point(const LoopMesh& m, const Topology& t, std::uint32_t v)
{
    const Point&        x = m.positions[v];
    const std::uint32_t n = t.ve.row_size(v);
    std::vector<std::uint32_t> crease_neighbours;
    for (std::uint32_t i = t.ve.offsets[v]; i < t.ve.offsets[v + 1]; ++i) {
        const std::uint32_t e = t.ve.indices[i];
        if (is_crease(t, e))
            crease_neighbours.push_back(t.ev[e][0] == v ? t.ev[e][1] : t.ev[e][0]);
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
    for (std::uint32_t i = t.vv.offsets[v]; i < t.vv.offsets[v + 1]; ++i)
        add(p, m.positions[t.vv.indices[i]], beta);
    return p;
}

//! Edge id of (a, b) (a != b): its position among the sorted vertex pairs.
std::uint32_t edge_id(const Topology& t, std::uint32_t a, std::uint32_t b)
{
    const std::array<std::uint32_t, 2> key{std::min(a, b), std::max(a, b)};
    std::uint32_t lo = 0, hi = std::uint32_t(t.ev.size());
    while (lo < hi) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (t.ev[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

}  // namespace

double loop_beta(std::uint32_t n)
{
    if (n == 0)
        return 0;
    const double c = 3.0 / 8 + 0.25 * std::cos(2 * M_PI / n);
    return (5.0 / 8 - c * c) / n;
}

LoopMesh loop_subdivide_once(const LoopMesh& mesh)
{
    const auto     V = std::uint32_t(mesh.positions.size());
    const Topology t = build_topology(V, mesh.faces);  // checks indices and repeats
    const auto     E = std::uint32_t(t.ev.size());
    LoopMesh       out;
    out.positions.resize(std::size_t(V) + E);
    for (std::uint32_t v = 0; v < V; ++v)
        out.positions[v] = vertex_point(mesh, t, v);
    for (std::uint32_t e = 0; e < E; ++e)
        out.positions[V + e] = edge_point(mesh, t, e);
    out.faces.reserve(4 * mesh.faces.size());
    for (const Triangle& f : mesh.faces) {
        const std::uint32_t e01 = V + edge_id(t, f[0], f[1]), e12 = V + edge_id(t, f[1], f[2]),
                            e20 = V + edge_id(t, f[2], f[0]);
        out.faces.push_back({f[0], e01, e20});
        out.faces.push_back({f[1], e12, e01});
        out.faces.push_back({f[2], e20, e12});
        out.faces.push_back({e01, e12, e20});
    }
    return out;
}

LoopMesh loop_subdivide(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                        int levels)
{
    if (levels < 0)
        throw InvalidInputError("loop_subdivide: levels must be >= 0, got " +
                                std::to_string(levels));
    LoopMesh m;
    m.faces = faces;
    for (const Vec3f& p : positions)
        m.positions.push_back({p[0], p[1], p[2]});
    for (int l = 0; l < levels; ++l)
        m = loop_subdivide_once(m);
    return m;
}

}  // namespace rxmesh::reference
