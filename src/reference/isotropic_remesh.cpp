#include "rxmesh/reference/isotropic_remesh.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <memory>
#include <set>
#include <string>
#include <tuple>

#include "rxmesh/core/error.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/reference/surface_distance.h"
#include "rxmesh/reference/triangle_shape.h"

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

//! A bound on the sweeps of a step (the GPU's max_passes_per_step): each
//! sweep of collapses removes vertices, each flip lowers the valence excess
//! or mends a sliver, so steps end by themselves long before.
constexpr int kMaxSweeps = 200;

bool movable(const EditableMesh& m, std::uint32_t v)
{
    return m.vertex_alive(v) && !m.vertex_faces(v).empty() && !m.is_boundary_vertex(v) &&
           m.is_manifold_vertex(v);
}

Vec3f  to_vec3f(const Point3& p) { return {float(p[0]), float(p[1]), float(p[2])}; }

//! How far v's faces turn from their mean: the smallest cosine between a
//! face's unit normal and the mean of them (1 for a flat fan; faces of zero
//! area are left out).
double sharpness_cosine(const EditableMesh& m, std::uint32_t v)
{
    Point3              mean = {0, 0, 0};
    std::vector<Point3> normals;
    for (std::uint32_t f : m.vertex_faces(v)) {
        const Triangle& t = m.face(f);
        Point3          n = area_vector(at(m, t[0]), at(m, t[1]), at(m, t[2]));
        const double    l = std::sqrt(dot3(n, n));
        if (!(l > 0)) continue;
        for (int d = 0; d < 3; ++d) n[d] /= l, mean[d] += n[d];
        normals.push_back(n);
    }
    const double l      = std::sqrt(dot3(mean, mean));
    double       lowest = 1;
    for (const Point3& n : normals) lowest = std::min(lowest, l > 0 ? dot3(n, mean) / l : -1.0);
    return lowest;
}

//! Whether v is sharp: the unit normal of one of its faces is more than
//! kSharpVertexDegrees from the mean of them (a tip, a crease, a corner; or
//! a folded fan, which smoothing could not tell from a tip).
bool sharp_vertex(const EditableMesh& m, std::uint32_t v)
{
    return !(sharpness_cosine(m, v) >= std::cos(kSharpVertexDegrees * M_PI / 180));
}

//! Whether boundary vertex v is a corner of the boundary: its two boundary
//! edges meet at less than kBoundaryCornerDegrees (or it has not exactly
//! two, or one has zero length). Removing a corner would move the boundary.
bool boundary_corner(const EditableMesh& m, std::uint32_t v)
{
    std::vector<std::uint32_t> ends;
    for (std::uint32_t u : m.neighbors(v))
        if (m.edge_faces(v, u).size() == 1) ends.push_back(u);
    if (ends.size() != 2) return true;
    const Point3 p = at(m, v), x = minus3(at(m, ends[0]), p), y = minus3(at(m, ends[1]), p);
    const double l = std::sqrt(dot3(x, x) * dot3(y, y));
    return !(l > 0) || dot3(x, y) > std::cos(kBoundaryCornerDegrees * M_PI / 180) * l;
}

//! Which ends of (a, b) may survive the collapse on the boundary: a
//! boundary edge keeps an end when the other is no corner; an interior edge
//! with one boundary end keeps that end; a chord none. {true, true} inside.
std::array<bool, 2> boundary_survivors(const EditableMesh& m, std::uint32_t a, std::uint32_t b)
{
    const bool on_a = m.is_boundary_vertex(a), on_b = m.is_boundary_vertex(b);
    if (!on_a && !on_b) return {true, true};
    if (m.edge_faces(a, b).size() != 1) return {on_a && !on_b, on_b && !on_a};
    return {!boundary_corner(m, b), !boundary_corner(m, a)};
}

//! Where collapsing (a, b) puts the survivor: an endpoint (CGAL's rule: the
//! survivor stays on the surface) among those `allowed` (the boundary's
//! rule), the sharp one when only one is sharp (a tip stays a tip), the
//! clearly sharper one when both are (near the tip of a thin part every
//! vertex is sharp), that keeps every neighbour within `high`, folds
//! nothing and passes the guard; the better-shaped first (a on a tie);
//! nothing when neither does.
std::optional<Point3> collapse_position(const EditableMesh& m, std::uint32_t a, std::uint32_t b,
                                        double high, const AngleGuard& guard,
                                        std::array<bool, 2> allowed)
{
    std::vector<std::uint32_t> ring = m.neighbors(a);
    for (std::uint32_t u : m.neighbors(b)) ring.push_back(u);
    const double limit = std::cos(kSharpVertexDegrees * M_PI / 180);
    const double cos_a = sharpness_cosine(m, a), cos_b = sharpness_cosine(m, b);
    const bool   sharp_a = !(cos_a >= limit), sharp_b = !(cos_b >= limit);
    if (sharp_a != sharp_b) allowed[sharp_a ? 1 : 0] = false;  // keep the sharp end
    else if (sharp_a && std::abs(cos_a - cos_b) > kSharperCosineMargin)
        allowed[cos_a < cos_b ? 1 : 0] = false;  // the tip of a thin part
    std::optional<Point3> best;
    double                best_after = 2;
    for (int k = 0; k < 2; ++k) {
        if (!allowed[k]) continue;
        const Point3 x = at(m, k == 0 ? a : b);
        bool         near = true;
        for (std::uint32_t u : ring)
            if (u != a && u != b && dist(x, at(m, u)) > high) near = false;
        if (!near) continue;
        const FanShape s = collapse_shape(m, a, b, x);
        if (s.folds || !guard.allows(s.before, s.after) || !(s.after < best_after)) continue;
        best = x, best_after = s.after;
    }
    return best;
}

//! Flipping (a, b) to (c, d): the two faces' shape before and after, and
//! whether the new diagonal makes the pair flatter (the dot product of the
//! two faces' area vectors does not shrink: no flip across a ridge, CGAL's test).
struct FlipShape
{
    double before = -1, after = -1;
    bool   flattens = false;
};

FlipShape flip_shape(const EditableMesh& m, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                     std::uint32_t d)
{
    const Point3 pa = at(m, a), pb = at(m, b), pc = at(m, c), pd = at(m, d);
    FlipShape    s;
    s.before = std::max(smallest_angle_cosine(pa, pb, pc), smallest_angle_cosine(pb, pa, pd));
    s.after  = std::max(smallest_angle_cosine(pc, pa, pd), smallest_angle_cosine(pd, pb, pc));
    s.flattens = dot3(area_vector(pc, pa, pd), area_vector(pd, pb, pc)) >=
                 dot3(area_vector(pa, pb, pc), area_vector(pb, pa, pd));
    return s;
}

//! Step 4's move of v: to its neighbours' centroid within its tangent plane
//! (the area-weighted normal's).
Point3 tangential_move(const EditableMesh& m, std::uint32_t v)
{
    const Point3 p = at(m, v);
    Point3       centroid = {0, 0, 0}, normal = {0, 0, 0};
    const auto   ring     = m.neighbors(v);
    for (std::uint32_t u : ring)
        for (int d = 0; d < 3; ++d) centroid[d] += at(m, u)[d] / double(ring.size());
    for (std::uint32_t f : m.vertex_faces(v)) {
        const Triangle& t = m.face(f);
        const Point3    n = area_vector(at(m, t[0]), at(m, t[1]), at(m, t[2]));
        for (int d = 0; d < 3; ++d) normal[d] += n[d];
    }
    const double length = std::sqrt(dot3(normal, normal));
    Point3       u      = minus3(centroid, p);
    if (length > 0) {
        const double along = dot3(u, normal) / length;
        for (int d = 0; d < 3; ++d) u[d] -= along * normal[d] / length;
    }
    return u;
}

//! Whether v may move to q: none of its faces folds, and the guard holds.
bool move_allowed(const EditableMesh& m, std::uint32_t v, const Point3& q, const AngleGuard& guard)
{
    const FanShape s = move_shape(m, v, q);
    return !s.folds && guard.allows(s.before, s.after);
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

std::optional<Vec3f> short_edge_collapse(const EditableMesh& m, std::uint32_t a, std::uint32_t b,
                                         double target_length, double min_angle_degrees)
{
    if (!m.vertex_alive(a) || !m.vertex_alive(b) || m.edge_faces(a, b).empty()) return {};
    if (!(dist(at(m, a), at(m, b)) < 0.8 * target_length)) return {};
    if (!m.is_manifold_vertex(a) || !m.is_manifold_vertex(b)) return {};
    const std::array<bool, 2> allowed = boundary_survivors(m, a, b);
    if (!allowed[0] && !allowed[1]) return {};
    const auto p = collapse_position(m, a, b, 4.0 / 3.0 * target_length,
                                     AngleGuard(min_angle_degrees), allowed);
    if (!p) return {};
    return to_vec3f(*p);
}

bool flip_wanted(const EditableMesh& m, std::uint32_t a, std::uint32_t b, double min_angle_degrees)
{
    const auto fs = m.edge_faces(a, b);
    if (fs.size() != 2) return false;
    auto deviation = [&](std::uint32_t v, int change) {
        const int target = m.is_boundary_vertex(v) ? 4 : 6;
        return std::abs(int(m.neighbors(v).size()) + change - target);
    };
    const std::uint32_t c = third(m.face(fs[0]), a, b), d = third(m.face(fs[1]), a, b);
    const FlipShape     shape = flip_shape(m, a, b, c, d);
    const AngleGuard    guard(min_angle_degrees);
    if (!shape.flattens || !guard.allows(shape.before, shape.after)) return false;
    const int  before = deviation(a, 0) + deviation(b, 0) + deviation(c, 0) + deviation(d, 0);
    const int  after  = deviation(a, -1) + deviation(b, -1) + deviation(c, 1) + deviation(d, 1);
    const bool mends  = guard.on() && shape.before > guard.cos_limit && shape.after < shape.before;
    return after < before || mends;
}

std::uint32_t collapse_short_edges(EditableMesh& m, double target_length,
                                   double min_angle_degrees)
{
    std::uint32_t collapses = 0;
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {  // each sweep removes vertices
        std::vector<std::tuple<double, std::uint32_t, std::uint32_t>> order;
        for (const auto& [a, b] : m.edges()) order.emplace_back(dist(at(m, a), at(m, b)), a, b);
        std::sort(order.begin(), order.end());
        std::uint32_t done = 0;
        for (const auto& [length, a, b] : order) {
            const auto p = short_edge_collapse(m, a, b, target_length, min_angle_degrees);
            if (p && m.collapse(a, b, *p)) ++done;
        }
        collapses += done;
        if (done == 0) break;
    }
    return collapses;
}

std::uint32_t equalize_valences(EditableMesh& m, double min_angle_degrees)
{
    std::uint32_t flips = 0;
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {  // each flip lowers the excess or mends
        std::uint32_t done = 0;
        for (const auto& [a, b] : m.edges())
            if (flip_wanted(m, a, b, min_angle_degrees) && m.flip(a, b)) ++done;
        flips += done;
        if (done == 0) break;
    }
    return flips;
}

//! Smoothing's shortest move before it gives up (then it only projects).
constexpr double kSmallestStep = 1.0 / 8;

void tangential_smoothing(EditableMesh& m, const ClosestPointTree* surface,
                          double min_angle_degrees)
{
    const AngleGuard guard(min_angle_degrees);
    std::vector<std::pair<std::uint32_t, Vec3f>> moves;  // all read the old positions
    for (std::uint32_t v = 0; v < m.num_vertex_slots(); ++v) {
        if (!movable(m, v)) continue;
        // a sharp vertex is only projected: smoothing would round it off
        const Point3 p = at(m, v);
        const Point3 u = sharp_vertex(m, v) ? Point3{0, 0, 0} : tangential_move(m, v);
        for (double step = 1;; step = step > kSmallestStep ? step / 2 : 0) {  // shorter, then none
            Point3 q = {p[0] + step * u[0], p[1] + step * u[1], p[2] + step * u[2]};
            if (surface) q = surface->closest(q).point;
            if (move_allowed(m, v, q, guard)) {
                moves.push_back({v, to_vec3f(q)});
                break;
            }
            if (step == 0) break;
        }
    }
    for (const auto& [v, q] : moves) m.move(v, q);
}

void project_to_surface(EditableMesh& m, const ClosestPointTree& surface)
{
    for (std::uint32_t v = 0; v < m.num_vertex_slots(); ++v) {
        if (!movable(m, v)) continue;
        const Point3 q = surface.closest(at(m, v)).point;
        m.move(v, {float(q[0]), float(q[1]), float(q[2])});
    }
}

void project_to_surface(EditableMesh& m, const TriangleSoup& surface)
{
    project_to_surface(m, ClosestPointTree(surface));
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
    std::unique_ptr<ClosestPointTree> surface;  // built once: the input never changes
    if (options.project && !input.faces.empty())
        surface = std::make_unique<ClosestPointTree>(input);
    for (int it = 0; it < options.iterations; ++it) {
        r.splits += split_long_edges(m, r.target_length);
        r.collapses += collapse_short_edges(m, r.target_length, options.min_angle_degrees);
        r.flips += equalize_valences(m, options.min_angle_degrees);
        tangential_smoothing(m, surface.get(), options.min_angle_degrees);
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
    std::uint32_t slivers = 0;
    for (const Triangle& t : mesh.faces) {
        double smallest = 180;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t[k], b = t[(k + 1) % 3], c = t[(k + 2) % 3];
            edges.insert({std::min(a, b), std::max(a, b)});
            const Point3 pa = to_point(mesh.positions[a]), pb = to_point(mesh.positions[b]),
                         pc = to_point(mesh.positions[c]);
            const double lb = dist(pa, pb), lc = dist(pa, pc);
            if (lb == 0 || lc == 0) {
                smallest = 0;
                continue;
            }
            const double cosine = ((pb[0] - pa[0]) * (pc[0] - pa[0]) + (pb[1] - pa[1]) * (pc[1] - pa[1]) +
                                   (pb[2] - pa[2]) * (pc[2] - pa[2])) / (lb * lc);
            smallest = std::min(smallest, std::acos(std::clamp(cosine, -1.0, 1.0)) * 180 / M_PI);
        }
        q.min_angle_degrees = std::min(q.min_angle_degrees, smallest);
        slivers += smallest < 5;
    }
    q.share_below_5_degrees = mesh.faces.empty() ? 0 : double(slivers) / double(mesh.faces.size());
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
