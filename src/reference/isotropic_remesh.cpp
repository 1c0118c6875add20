#include "rxmesh/reference/isotropic_remesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "rxmesh/core/error.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/reference/surface_distance.h"

namespace rxmesh::reference {
namespace {

Point3 at(const EditableMesh& m, std::uint32_t v)
{
    return {m.position(v)[0], m.position(v)[1], m.position(v)[2]};
}
double dist(const Point3& a, const Point3& b)
{
    return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                     (a[2] - b[2]) * (a[2] - b[2]));
}
Vec3f midpoint(const EditableMesh& m, std::uint32_t a, std::uint32_t b)
{
    const Vec3f &p = m.position(a), &q = m.position(b);
    return {(p[0] + q[0]) * 0.5f, (p[1] + q[1]) * 0.5f, (p[2] + q[2]) * 0.5f};
}
Point3 to_point(const Vec3f& v) { return {v[0], v[1], v[2]}; }

std::uint32_t third(const Triangle& t, std::uint32_t a, std::uint32_t b)
{
    for (std::uint32_t v : t)
        if (v != a && v != b) return v;
    return ~0u;
}

bool movable(const EditableMesh& m, std::uint32_t v)
{
    return m.vertex_alive(v) && !m.vertex_faces(v).empty() && !m.is_boundary_vertex(v) &&
           m.is_manifold_vertex(v);
}

}  // namespace

std::uint32_t split_long_edges(EditableMesh& m, double target_length)
{
    const double  high  = 4.0 / 3.0 * target_length;
    std::uint32_t total = 0;
    for (int sweep = 0; sweep < 64; ++sweep) {  // each sweep halves what it splits
        std::uint32_t splits = 0;
        for (const auto& [a, b] : m.edges())
            if (dist(at(m, a), at(m, b)) > high && m.split(a, b, midpoint(m, a, b))) ++splits;
        total += splits;
        if (splits == 0) break;
    }
    return total;
}

std::uint32_t collapse_short_edges(EditableMesh& m, double target_length)
{
    const double low = 0.8 * target_length, high = 4.0 / 3.0 * target_length;
    std::vector<std::tuple<double, std::uint32_t, std::uint32_t>> order;
    for (const auto& [a, b] : m.edges()) order.emplace_back(dist(at(m, a), at(m, b)), a, b);
    std::sort(order.begin(), order.end());
    std::uint32_t collapses = 0;
    for (const auto& [length, a, b] : order) {
        if (!m.vertex_alive(a) || !m.vertex_alive(b) || m.edge_faces(a, b).empty()) continue;
        if (dist(at(m, a), at(m, b)) >= low) continue;
        if (m.is_boundary_vertex(a) || m.is_boundary_vertex(b)) continue;  // the boundary stays
        const Vec3f p = midpoint(m, a, b);
        bool        keeps_short = true;
        for (std::uint32_t v : {a, b})
            for (std::uint32_t x : m.neighbors(v))
                if (x != a && x != b && dist(to_point(p), at(m, x)) > high) keeps_short = false;
        if (keeps_short && m.collapse(a, b, p)) ++collapses;
    }
    return collapses;
}

std::uint32_t equalize_valences(EditableMesh& m)
{
    auto deviation = [&](std::uint32_t v, int change) {
        const int target = m.is_boundary_vertex(v) ? 4 : 6;
        return std::abs(int(m.neighbors(v).size()) + change - target);
    };
    std::uint32_t flips = 0;
    for (const auto& [a, b] : m.edges()) {
        const auto fs = m.edge_faces(a, b);
        if (fs.size() != 2) continue;
        const std::uint32_t c = third(m.face(fs[0]), a, b), d = third(m.face(fs[1]), a, b);
        const int before = deviation(a, 0) + deviation(b, 0) + deviation(c, 0) + deviation(d, 0);
        const int after = deviation(a, -1) + deviation(b, -1) + deviation(c, 1) + deviation(d, 1);
        if (after < before && m.flip(a, b)) ++flips;
    }
    return flips;
}

void tangential_smoothing(EditableMesh& m)
{
    std::vector<std::pair<std::uint32_t, Vec3f>> moves;  // all read the old positions
    for (std::uint32_t v = 0; v < m.num_vertex_slots(); ++v) {
        if (!movable(m, v)) continue;
        const Point3 p = at(m, v);
        Point3       centroid = {0, 0, 0}, normal = {0, 0, 0};
        const auto   ring     = m.neighbors(v);
        for (std::uint32_t u : ring)
            for (int d = 0; d < 3; ++d) centroid[d] += at(m, u)[d] / double(ring.size());
        for (std::uint32_t f : m.vertex_faces(v)) {
            const Triangle& t = m.face(f);
            const Point3 a = at(m, t[0]), b = at(m, t[1]), c = at(m, t[2]);
            const Point3 e0 = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            const Point3 e1 = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            normal[0] += e0[1] * e1[2] - e0[2] * e1[1];
            normal[1] += e0[2] * e1[0] - e0[0] * e1[2];
            normal[2] += e0[0] * e1[1] - e0[1] * e1[0];
        }
        const double length = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] +
                                        normal[2] * normal[2]);
        Point3 u = {centroid[0] - p[0], centroid[1] - p[1], centroid[2] - p[2]};
        if (length > 0) {
            const double along = (u[0] * normal[0] + u[1] * normal[1] + u[2] * normal[2]) / length;
            for (int d = 0; d < 3; ++d) u[d] -= along * normal[d] / length;
        }
        moves.push_back({v, {float(p[0] + u[0]), float(p[1] + u[1]), float(p[2] + u[2])}});
    }
    for (const auto& [v, q] : moves) m.move(v, q);
}

void project_to_surface(EditableMesh& m, const TriangleSoup& surface)
{
    for (std::uint32_t v = 0; v < m.num_vertex_slots(); ++v) {
        if (!movable(m, v)) continue;
        const Point3 q = closest_point_on_mesh(at(m, v), surface).point;
        m.move(v, {float(q[0]), float(q[1]), float(q[2])});
    }
}

TriangleSoup isotropic_remesh(const TriangleSoup& input, const RemeshOptions& options,
                              RemeshReport* report)
{
    EditableMesh m(input.positions, input.faces);
    RemeshReport r;
    r.target_length = options.target_length == 0 ? mean_edge_length(input.positions, input.faces) : options.target_length;
    if (!(r.target_length > 0) || !std::isfinite(r.target_length))
        throw InvalidInputError("isotropic_remesh: the target edge length " +
                                std::to_string(r.target_length) + " is not positive");
    for (int it = 0; it < options.iterations; ++it) {
        r.splits += split_long_edges(m, r.target_length);
        r.collapses += collapse_short_edges(m, r.target_length);
        r.flips += equalize_valences(m);
        tangential_smoothing(m);
        if (!input.faces.empty()) project_to_surface(m, input);
    }
    if (report) *report = r;
    return m.compact();
}

MeshQuality mesh_quality(const TriangleSoup& mesh, double target_length)
{
    MeshQuality q;
    q.faces = std::uint32_t(mesh.faces.size());
    q.mean_edge = mean_edge_length(mesh.positions, mesh.faces);
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    q.min_angle_degrees = 180;
    for (const Triangle& t : mesh.faces)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t[k], b = t[(k + 1) % 3], c = t[(k + 2) % 3];
            edges.insert({std::min(a, b), std::max(a, b)});
            const Point3 pa = to_point(mesh.positions[a]), pb = to_point(mesh.positions[b]),
                         pc = to_point(mesh.positions[c]);
            const double lb = dist(pa, pb), lc = dist(pa, pc);
            if (lb == 0 || lc == 0) {
                q.min_angle_degrees = 0;
                continue;
            }
            const double cosine = ((pb[0] - pa[0]) * (pc[0] - pa[0]) + (pb[1] - pa[1]) * (pc[1] - pa[1]) +
                                   (pb[2] - pa[2]) * (pc[2] - pa[2])) / (lb * lc);
            q.min_angle_degrees = std::min(q.min_angle_degrees,
                                           std::acos(std::clamp(cosine, -1.0, 1.0)) * 180 / M_PI);
        }
    std::uint32_t in_band = 0;
    for (const auto& [a, b] : edges) {
        const double l = dist(to_point(mesh.positions[a]), to_point(mesh.positions[b]));
        in_band += l >= 0.8 * target_length && l <= 4.0 / 3.0 * target_length;
    }
    q.share_in_band = edges.empty() ? 0 : double(in_band) / double(edges.size());
    // valences from the edges (no per-vertex scans: this runs on large meshes)
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> uses;
    for (const Triangle& t : mesh.faces)
        for (int k = 0; k < 3; ++k)
            ++uses[{std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])}];
    std::vector<std::uint32_t> valence(mesh.positions.size(), 0);
    std::vector<bool>          boundary(mesh.positions.size(), false);
    for (const auto& [e, n] : uses) {
        ++valence[e.first], ++valence[e.second];
        if (n == 1) boundary[e.first] = boundary[e.second] = true;
    }
    for (std::size_t v = 0; v < valence.size(); ++v) {
        if (valence[v] == 0 || boundary[v]) continue;
        if (q.interior_valences.size() <= valence[v]) q.interior_valences.resize(valence[v] + 1, 0);
        ++q.interior_valences[valence[v]];
    }
    if (mesh.faces.empty()) q.min_angle_degrees = 0;
    return q;
}

}  // namespace rxmesh::reference
