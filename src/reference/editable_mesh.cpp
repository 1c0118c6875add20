#include "rxmesh/reference/editable_mesh.h"

#include <algorithm>
#include <set>

#include "rxmesh/core/error.h"

namespace rxmesh::reference {
namespace {

//! Stands for "the boundary" in a vertex's link (no real vertex has this id).
constexpr std::uint32_t kBoundary = ~0u;

bool holds(const Triangle& t, std::uint32_t v) { return t[0] == v || t[1] == v || t[2] == v; }

//! Whether t walks a -> b.
bool walks(const Triangle& t, std::uint32_t a, std::uint32_t b)
{
    for (int k = 0; k < 3; ++k)
        if (t[k] == a && t[(k + 1) % 3] == b) return true;
    return false;
}

std::uint32_t third(const Triangle& t, std::uint32_t a, std::uint32_t b)
{
    for (std::uint32_t v : t)
        if (v != a && v != b) return v;
    return kBoundary;
}

std::array<double, 3> normal(const Vec3f& p, const Vec3f& q, const Vec3f& r)
{
    const double u[3] = {double(q[0]) - p[0], double(q[1]) - p[1], double(q[2]) - p[2]};
    const double w[3] = {double(r[0]) - p[0], double(r[1]) - p[1], double(r[2]) - p[2]};
    return {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
}

double dot(const std::array<double, 3>& a, const std::array<double, 3>& b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

}  // namespace

EditableMesh::EditableMesh(std::vector<Vec3f> positions, std::vector<Triangle> faces)
    : m_positions(std::move(positions)),
      m_faces(std::move(faces)),
      m_vertex_alive(m_positions.size(), true),
      m_face_alive(m_faces.size(), true),
      m_vertex_faces(m_positions.size())
{
    for (std::size_t f = 0; f < m_faces.size(); ++f) {
        const Triangle& t = m_faces[f];
        for (std::uint32_t v : t)
            if (v >= m_positions.size())
                throw InvalidInputError("EditableMesh: face " + std::to_string(f) +
                                        " names vertex " + std::to_string(v) + " of " +
                                        std::to_string(m_positions.size()));
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
            throw InvalidInputError("EditableMesh: face " + std::to_string(f) +
                                    " repeats a vertex");
        for (std::uint32_t v : t) m_vertex_faces[v].push_back(std::uint32_t(f));
    }
}

void EditableMesh::kill_face(std::uint32_t f)
{
    for (std::uint32_t v : m_faces[f]) {
        auto& list = m_vertex_faces[v];
        list.erase(std::find(list.begin(), list.end(), f));
    }
    m_face_alive[f] = false;
}

void EditableMesh::set_face(std::uint32_t f, const Triangle& t)
{
    kill_face(f);
    m_faces[f]      = t;
    m_face_alive[f] = true;
    for (std::uint32_t v : t) m_vertex_faces[v].push_back(f);
}

void EditableMesh::add_face(const Triangle& t)
{
    const auto f = std::uint32_t(m_faces.size());
    m_faces.push_back(t);
    m_face_alive.push_back(true);
    for (std::uint32_t v : t) m_vertex_faces[v].push_back(f);
}

std::uint32_t EditableMesh::num_vertices() const
{
    return std::uint32_t(std::count(m_vertex_alive.begin(), m_vertex_alive.end(), true));
}

std::uint32_t EditableMesh::num_faces() const
{
    return std::uint32_t(std::count(m_face_alive.begin(), m_face_alive.end(), true));
}

std::vector<std::array<std::uint32_t, 2>> EditableMesh::edges() const
{
    std::set<std::array<std::uint32_t, 2>> out;
    for (std::size_t f = 0; f < m_faces.size(); ++f)
        if (m_face_alive[f])
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t a = m_faces[f][k], b = m_faces[f][(k + 1) % 3];
                out.insert({std::min(a, b), std::max(a, b)});
            }
    return {out.begin(), out.end()};
}

std::uint32_t EditableMesh::num_edges() const { return std::uint32_t(edges().size()); }

std::int64_t EditableMesh::euler_characteristic() const
{
    return std::int64_t(num_vertices()) - num_edges() + num_faces();
}

std::vector<std::uint32_t> EditableMesh::vertex_faces(std::uint32_t v) const
{
    if (v >= m_vertex_faces.size()) return {};
    std::vector<std::uint32_t> out = m_vertex_faces[v];
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::uint32_t> EditableMesh::edge_faces(std::uint32_t a, std::uint32_t b) const
{
    std::vector<std::uint32_t> out;
    for (std::uint32_t f : vertex_faces(a))
        if (holds(m_faces[f], b)) out.push_back(f);
    return out;
}

bool EditableMesh::is_manifold_edge(std::uint32_t a, std::uint32_t b) const
{
    const auto fs = edge_faces(a, b);
    if (fs.size() > 2) return false;
    return fs.size() < 2 || walks(m_faces[fs[0]], a, b) != walks(m_faces[fs[1]], a, b);
}

bool EditableMesh::is_boundary_vertex(std::uint32_t v) const
{
    for (std::uint32_t f : vertex_faces(v))
        for (std::uint32_t u : m_faces[f])
            if (u != v && edge_faces(v, u).size() == 1) return true;
    return false;
}

//! The faces of v form one fan: connected through the edges at v, each
//! of which is manifold.
bool EditableMesh::is_manifold_vertex(std::uint32_t v) const
{
    const auto fs = vertex_faces(v);
    if (fs.empty()) return true;
    std::vector<bool>        reached(fs.size(), false);
    std::vector<std::size_t> stack = {0};
    reached[0]                     = true;
    while (!stack.empty()) {  // each face is pushed at most once
        const Triangle& t = m_faces[fs[stack.back()]];
        stack.pop_back();
        for (std::uint32_t u : t) {
            if (u == v) continue;
            if (!is_manifold_edge(v, u)) return false;
            for (std::size_t i = 0; i < fs.size(); ++i)
                if (!reached[i] && holds(m_faces[fs[i]], u)) reached[i] = true, stack.push_back(i);
        }
    }
    return std::all_of(reached.begin(), reached.end(), [](bool r) { return r; });
}

std::vector<std::uint32_t> EditableMesh::neighbors(std::uint32_t v) const
{
    std::set<std::uint32_t> out;
    for (std::uint32_t f : vertex_faces(v))
        for (std::uint32_t u : m_faces[f])
            if (u != v) out.insert(u);
    return {out.begin(), out.end()};
}

std::vector<std::uint32_t> EditableMesh::link(std::uint32_t v) const
{
    std::vector<std::uint32_t> out = neighbors(v);  // sorted; kBoundary is the largest id
    if (is_boundary_vertex(v)) out.push_back(kBoundary);
    return out;
}

//! link(a) and link(b) share exactly the link of the edge (its faces' third
//! vertices, and the boundary for a boundary edge), and no edge: the
//! tetrahedron, whose two links share the edge of the two third vertices,
//! would collapse into two identical faces.
bool EditableMesh::link_condition(std::uint32_t a, std::uint32_t b) const
{
    const auto                 la = link(a), lb = link(b);
    std::vector<std::uint32_t> common;
    std::set_intersection(la.begin(), la.end(), lb.begin(), lb.end(), std::back_inserter(common));
    std::vector<std::uint32_t> edge_link;
    const auto                 fs = edge_faces(a, b);
    for (std::uint32_t f : fs) edge_link.push_back(third(m_faces[f], a, b));
    if (fs.size() == 1) edge_link.push_back(kBoundary);
    std::sort(edge_link.begin(), edge_link.end());
    if (common != edge_link) return false;
    for (std::size_t i = 0; i < common.size(); ++i)  // an edge in both links
        for (std::size_t j = i + 1; j < common.size(); ++j) {
            const std::uint32_t c = common[i], d = common[j];
            if (c == kBoundary || d == kBoundary) continue;
            bool with_a = false, with_b = false;
            for (std::uint32_t f : edge_faces(c, d)) {
                with_a = with_a || holds(m_faces[f], a);
                with_b = with_b || holds(m_faces[f], b);
            }
            if (with_a && with_b) return false;
        }
    return true;
}

bool EditableMesh::keeps_orientation(std::uint32_t f, const Triangle& after, std::uint32_t moved,
                                     const Vec3f& p) const
{
    auto at = [&](std::uint32_t v) -> const Vec3f& { return v == moved ? p : m_positions[v]; };
    const Triangle& t   = m_faces[f];
    const auto      old = normal(m_positions[t[0]], m_positions[t[1]], m_positions[t[2]]);
    const auto      now = normal(at(after[0]), at(after[1]), at(after[2]));
    return dot(now, now) > 0 && dot(old, now) > 0;
}

bool EditableMesh::flip(std::uint32_t a, std::uint32_t b)
{
    if (!vertex_alive(a) || !vertex_alive(b) || a == b) return false;
    const auto fs = edge_faces(a, b);
    if (fs.size() != 2 || !is_manifold_edge(a, b)) return false;
    const std::uint32_t f0 = walks(m_faces[fs[0]], a, b) ? fs[0] : fs[1], f1 = fs[0] ^ fs[1] ^ f0;
    const std::uint32_t c = third(m_faces[f0], a, b), d = third(m_faces[f1], a, b);
    if (c == d || !edge_faces(c, d).empty()) return false;
    for (std::uint32_t v : {a, b, c, d})
        if (!is_manifold_vertex(v)) return false;
    const Triangle              n0 = {c, a, d}, n1 = {d, b, c};
    const auto                  old  = normal(m_positions[a], m_positions[b], m_positions[c]);
    const auto                  old1 = normal(m_positions[b], m_positions[a], m_positions[d]);
    const std::array<double, 3> sum  = {old[0] + old1[0], old[1] + old1[1], old[2] + old1[2]};
    for (const Triangle& t : {n0, n1}) {
        const auto n = normal(m_positions[t[0]], m_positions[t[1]], m_positions[t[2]]);
        if (!(dot(n, n) > 0) || !(dot(n, sum) > 0))
            return false;  // degenerate, or turned against the old faces
    }
    set_face(f0, n0);
    set_face(f1, n1);
    return true;
}

std::optional<std::uint32_t> EditableMesh::split(std::uint32_t a, std::uint32_t b, const Vec3f& p)
{
    if (!vertex_alive(a) || !vertex_alive(b) || a == b) return std::nullopt;
    const auto fs = edge_faces(a, b);
    if (fs.empty() || !is_manifold_edge(a, b) || !is_manifold_vertex(a) || !is_manifold_vertex(b))
        return std::nullopt;
    const std::uint32_t m = std::uint32_t(m_positions.size());
    m_positions.push_back(p);
    m_vertex_alive.push_back(true);
    m_vertex_faces.emplace_back();
    for (std::uint32_t f : fs) {
        const bool          forward = walks(m_faces[f], a, b);
        const std::uint32_t s = forward ? a : b, e = forward ? b : a, c = third(m_faces[f], a, b);
        set_face(f, {s, m, c});  // the face walks s -> e -> c
        add_face({m, e, c});
    }
    return m;
}

bool EditableMesh::collapse(std::uint32_t a, std::uint32_t b, const Vec3f& p)
{
    auto refuse = [&](const char* why) {
        m_last_refusal = why;
        return false;
    };
    if (!vertex_alive(a) || !vertex_alive(b) || a == b) return refuse("not an edge");
    const auto fs = edge_faces(a, b);
    if (fs.empty() || !is_manifold_edge(a, b) || !is_manifold_vertex(a) || !is_manifold_vertex(b))
        return refuse("non-manifold");
    if (!link_condition(a, b)) return refuse("link condition");
    for (std::uint32_t f : fs)  // the opposite vertex must keep a face
        if (vertex_faces(third(m_faces[f], a, b)).size() < 2) return refuse("strands a vertex");
    if (vertex_faces(a).size() + vertex_faces(b).size() == 2 * fs.size())
        return refuse("strands a vertex");
    std::vector<std::pair<std::uint32_t, Triangle>> rewritten;
    for (std::uint32_t v : {a, b})
        for (std::uint32_t f : vertex_faces(v)) {
            if (holds(m_faces[f], a) && holds(m_faces[f], b)) continue;  // deleted
            if (v == a && holds(m_faces[f], b)) continue;
            Triangle t = m_faces[f];
            for (auto& u : t) u = u == b ? a : u;
            if (!keeps_orientation(f, t, a, p)) return refuse("a face degenerates or turns");
            if (v == b) rewritten.push_back({f, t});
        }
    for (std::uint32_t f : fs) kill_face(f);
    for (const auto& [f, t] : rewritten) set_face(f, t);
    m_positions[a]    = p;
    m_vertex_alive[b] = false;
    return true;
}

bool EditableMesh::validate(std::string* why) const
{
    auto fail = [&](const std::string& w) {
        if (why) *why = w;
        return false;
    };
    std::set<std::array<std::uint32_t, 3>> seen;
    for (std::size_t f = 0; f < m_faces.size(); ++f) {
        if (!m_face_alive[f]) continue;
        const Triangle& t = m_faces[f];
        for (std::uint32_t v : t)
            if (!vertex_alive(v)) return fail("face " + std::to_string(f) + " names a dead vertex");
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
            return fail("face " + std::to_string(f) + " repeats a vertex");
        std::array<std::uint32_t, 3> key = {t[0], t[1], t[2]};
        std::sort(key.begin(), key.end());
        if (!seen.insert(key).second)
            return fail("face " + std::to_string(f) + " repeats another face's vertices");
    }
    return true;
}

bool EditableMesh::is_manifold() const
{
    for (const auto& e : edges())
        if (!is_manifold_edge(e[0], e[1])) return false;
    for (std::uint32_t v = 0; v < m_positions.size(); ++v)
        if (vertex_alive(v) && !is_manifold_vertex(v)) return false;
    return true;
}

TriangleSoup EditableMesh::compact(std::vector<std::uint32_t>* vertex_map) const
{
    TriangleSoup               out;
    std::vector<std::uint32_t> to_new(m_positions.size(), kBoundary);
    for (std::uint32_t v = 0; v < m_positions.size(); ++v)
        if (vertex_alive(v)) {
            to_new[v] = std::uint32_t(out.positions.size());
            out.positions.push_back(m_positions[v]);
            if (vertex_map) vertex_map->push_back(v);
        }
    for (std::size_t f = 0; f < m_faces.size(); ++f)
        if (m_face_alive[f])
            out.faces.push_back(
                {to_new[m_faces[f][0]], to_new[m_faces[f][1]], to_new[m_faces[f][2]]});
    return out;
}

}  // namespace rxmesh::reference
