#include "rxmesh/reference/delaunay_flips.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "rxmesh/geometry/operators.h"
#include "rxmesh/core/error.h"

namespace rxmesh::reference {
namespace {

Vec3 vec(const Vec3f& p) { return {p[0], p[1], p[2]}; }

using Vec3d = std::array<double, 3>;

//! (q - p) x (r - p) in double, as reference::EditableMesh computes it.
Vec3d normal(const Vec3f& p, const Vec3f& q, const Vec3f& r)
{
    const double u[3] = {double(q[0]) - p[0], double(q[1]) - p[1], double(q[2]) - p[2]};
    const double w[3] = {double(r[0]) - p[0], double(r[1]) - p[1], double(r[2]) - p[2]};
    return {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
}

double dot(const Vec3d& a, const Vec3d& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

//! The halfedge build indexes per-vertex arrays with the corners and pairs
//! halfedges by their ends: a corner out of range or repeated would break it.
void require_valid_faces(const TriangleSoup& soup)
{
    for (std::size_t f = 0; f < soup.faces.size(); ++f) {
        const Triangle& t = soup.faces[f];
        for (std::uint32_t v : t)
            if (v >= soup.positions.size())
                throw InvalidInputError("LawsonMesh: face " + std::to_string(f) + " names vertex " +
                                        std::to_string(v) + " of " +
                                        std::to_string(soup.positions.size()));
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
            throw InvalidInputError("LawsonMesh: face " + std::to_string(f) + " repeats a vertex");
    }
}

}  // namespace

LawsonMesh::LawsonMesh(const TriangleSoup& soup)
    : m_positions(soup.positions),
      m_next(3 * soup.faces.size()),
      m_opposite(3 * soup.faces.size(), kBoundary),
      m_vertex(3 * soup.faces.size()),
      m_out(soup.positions.size(), kBoundary),
      m_manifold(soup.positions.size(), 1)
{
    require_valid_faces(soup);
    for (std::uint32_t f = 0; f < soup.faces.size(); ++f)
        for (std::uint32_t k = 0; k < 3; ++k) {
            const std::uint32_t h   = 3 * f + k;
            m_vertex[h]             = soup.faces[f][(k + 1) % 3];
            m_next[h]               = 3 * f + (k + 1) % 3;
            m_out[soup.faces[f][k]] = h;
        }
    pair_halfedges();
    mark_manifold_vertices();
}

//! Halfedges grouped by edge: two walking it in opposite directions are
//! each other's opposite; one alone is a boundary; any other group is
//! non-manifold (never flipped, and its vertices are non-manifold).
void LawsonMesh::pair_halfedges()
{
    std::vector<std::pair<std::uint64_t, std::uint32_t>> keys(m_vertex.size());
    for (std::uint32_t h = 0; h < m_vertex.size(); ++h) {
        const std::uint32_t a = origin(h), b = m_vertex[h];
        keys[h] = {(std::uint64_t(std::min(a, b)) << 32) | std::max(a, b), h};
    }
    std::sort(keys.begin(), keys.end());
    for (std::size_t i = 0; i < keys.size();) {
        std::size_t j = i + 1;
        while (j < keys.size() && keys[j].first == keys[i].first) ++j;
        const std::uint32_t h = keys[i].second, g = keys[j - 1].second;
        if (j - i == 2 && origin(h) == m_vertex[g]) {
            m_opposite[h] = g;
            m_opposite[g] = h;
        } else if (j - i > 1) {
            for (std::size_t k = i; k < j; ++k) {
                const std::uint32_t x = keys[k].second;
                m_opposite[x]         = kNonManifold;
                m_manifold[origin(x)] = m_manifold[m_vertex[x]] = 0;
            }
        }
        i = j;
    }
}

template <typename Visit>
std::uint32_t LawsonMesh::for_each_fan_halfedge(std::uint32_t v, Visit&& visit) const
{
    const std::uint32_t start = m_out[v];
    if (start == kBoundary) return 0;
    std::uint32_t count = 0, h = start;
    do {  // forward: the next halfedge leaving v is next(opposite(h))
        visit(h);
        ++count;
        if (!interior(h)) break;
        h = m_next[m_opposite[h]];
    } while (h != start && count <= m_vertex.size());
    if (h == start && interior(h)) return count;  // a closed fan
    h = start;
    for (;;) {  // backward: opposite(previous(h)) leaves v too
        const std::uint32_t in = m_next[m_next[h]];
        if (!interior(in) || count > m_vertex.size()) return count;
        h = m_opposite[in];
        visit(h);
        ++count;
    }
}

//! A manifold vertex: every edge at it manifold (pair_halfedges) and its
//! faces one fan, i.e. the fan walk from m_out[v] meets all of them.
void LawsonMesh::mark_manifold_vertices()
{
    std::vector<std::uint32_t> degree(m_out.size(), 0);
    for (std::uint32_t h = 0; h < m_vertex.size(); ++h) ++degree[m_vertex[h]];
    for (std::uint32_t v = 0; v < m_out.size(); ++v)
        if (m_manifold[v] && degree[v] > 0)
            m_manifold[v] = for_each_fan_halfedge(v, [](std::uint32_t) {}) == degree[v];
}

//! Whether a face at c holds d; c is manifold, so its fan holds every face at c.
bool LawsonMesh::has_edge(std::uint32_t c, std::uint32_t d) const
{
    bool found = false;
    for_each_fan_halfedge(
        c, [&](std::uint32_t h) { found = found || m_vertex[h] == d || m_vertex[m_next[h]] == d; });
    return found;
}

//! h = a -> b in face (a, b, c); its opposite's face is (b, a, d).
bool LawsonMesh::non_delaunay(std::uint32_t h, float tolerance) const
{
    const std::uint32_t a = origin(h), b = m_vertex[h], c = m_vertex[m_next[h]];
    const std::uint32_t d  = m_vertex[m_next[m_opposite[h]]];
    const Vec3          pa = vec(m_positions[a]), pb = vec(m_positions[b]);
    const float s = cotangent(vec(m_positions[c]), pa, pb) + cotangent(vec(m_positions[d]), pa, pb);
    return s < -tolerance;
}

bool LawsonMesh::flip_allowed(std::uint32_t h) const
{
    const std::uint32_t a = origin(h), b = m_vertex[h], c = m_vertex[m_next[h]];
    const std::uint32_t d = m_vertex[m_next[m_opposite[h]]];
    if (c == d) return false;
    for (std::uint32_t v : {a, b, c, d})
        if (!m_manifold[v]) return false;
    if (has_edge(c, d)) return false;
    const auto& p  = m_positions;
    const Vec3d n0 = normal(p[a], p[b], p[c]), n1 = normal(p[b], p[a], p[d]);
    const Vec3d sum = {n0[0] + n1[0], n0[1] + n1[1], n0[2] + n1[2]};
    for (const Vec3d& n : {normal(p[c], p[a], p[d]), normal(p[d], p[b], p[c])})
        if (!(dot(n, n) > 0) || !(dot(n, sum) > 0)) return false;
    return true;
}

//! Faces (a, b, c) [h0 = a->b, h1 = b->c, h2 = c->a] and (b, a, d) [g0 =
//! b->a, g1 = a->d, g2 = d->b] become (c, a, d) [h2, g1, h0 = d->c] and
//! (d, b, c) [g2, h1, g0 = c->d]: only next and vertex change.
void LawsonMesh::flip(std::uint32_t h0)
{
    const std::uint32_t h1 = m_next[h0], h2 = m_next[h1];
    const std::uint32_t g0 = m_opposite[h0], g1 = m_next[g0], g2 = m_next[g1];
    const std::uint32_t a = m_vertex[h2], b = m_vertex[h0], c = m_vertex[h1], d = m_vertex[g1];
    m_vertex[h0] = c;
    m_vertex[g0] = d;
    m_next[h2]   = g1;
    m_next[g1]   = h0;
    m_next[h0]   = h2;
    m_next[g2]   = h1;
    m_next[h1]   = g0;
    m_next[g0]   = g2;
    if (m_out[a] == h0) m_out[a] = g1;  // h0 no longer leaves a
    if (m_out[b] == g0) m_out[b] = h1;  // g0 no longer leaves b
}

LawsonStats LawsonMesh::flip_all(float tolerance, std::uint64_t max_flips)
{
    LawsonStats                s;
    std::vector<std::uint32_t> stack;
    std::vector<std::uint8_t>  queued(m_vertex.size(), 0);  // by an edge's smaller halfedge
    auto                       push = [&](std::uint32_t h) {
        if (!interior(h)) return;
        h = std::min(h, m_opposite[h]);
        if (!queued[h]) queued[h] = 1, stack.push_back(h);
    };
    for (std::uint32_t h = 0; h < m_vertex.size(); ++h) push(h);
    while (!stack.empty()) {
        const std::uint32_t h = stack.back();
        stack.pop_back();
        queued[h] = 0;
        ++s.pops;
        if (!non_delaunay(h, tolerance) || !flip_allowed(h)) continue;
        if (s.flips == max_flips) {
            s.converged = false;
            break;
        }
        const std::uint32_t                g     = m_opposite[h];
        const std::array<std::uint32_t, 4> outer = {m_next[h], m_next[m_next[h]], m_next[g],
                                                    m_next[m_next[g]]};
        flip(h);
        ++s.flips;
        for (std::uint32_t x : outer) push(x);
    }
    return s;
}

TriangleSoup LawsonMesh::to_soup() const
{
    TriangleSoup out;
    out.positions = m_positions;
    out.faces.reserve(m_vertex.size() / 3);
    std::vector<std::uint8_t> seen(m_vertex.size(), 0);
    for (std::uint32_t h = 0; h < m_vertex.size(); ++h) {
        if (seen[h]) continue;
        const std::uint32_t n = m_next[h], nn = m_next[n];
        seen[h] = seen[n] = seen[nn] = 1;
        out.faces.push_back({m_vertex[nn], m_vertex[h], m_vertex[n]});
    }
    return out;
}

std::size_t LawsonMesh::bytes() const
{
    return m_positions.size() * sizeof(Vec3f) +
           (m_next.size() + m_opposite.size() + m_vertex.size() + m_out.size()) *
               sizeof(std::uint32_t) +
           m_manifold.size();
}

}  // namespace rxmesh::reference
