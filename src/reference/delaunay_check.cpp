#include "rxmesh/reference/delaunay_check.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "rxmesh/reference/editable_mesh.h"

namespace rxmesh::reference {
namespace {

//! cot of the angle at k of triangle (k, i, j) in double: dot(e0, e1) /
//! |cross(e0, e1)| with e0 = i - k, e1 = j - k (geometry/operators.h's
//! cotangent); 0 for a degenerate triangle.
double cotangent(const Vec3f& k, const Vec3f& i, const Vec3f& j)
{
    const double e0[3] = {double(i[0]) - k[0], double(i[1]) - k[1], double(i[2]) - k[2]};
    const double e1[3] = {double(j[0]) - k[0], double(j[1]) - k[1], double(j[2]) - k[2]};
    const double c[3]  = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                          e0[0] * e1[1] - e0[1] * e1[0]};
    const double n     = std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    return n > 0 ? (e0[0] * e1[0] + e0[1] * e1[1] + e0[2] * e1[2]) / n : 0.0;
}

std::string number(double x)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.9g", x);
    return b;
}

//! (1): the first problem of the faces, empty when none.
std::string check_faces(const TriangleSoup& input, const TriangleSoup& output)
{
    if (output.faces.size() != input.faces.size())
        return "the output has " + std::to_string(output.faces.size()) + " faces, the input " +
               std::to_string(input.faces.size());
    const std::size_t     V = output.positions.size();
    std::vector<Triangle> keys(output.faces.size());
    for (std::size_t f = 0; f < output.faces.size(); ++f) {
        const Triangle& t = output.faces[f];
        for (std::uint32_t v : t)
            if (v >= V)
                return "face " + std::to_string(f) + " names vertex " + std::to_string(v) + " of " +
                       std::to_string(V);
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
            return "face " + std::to_string(f) + " repeats a vertex";
        keys[f] = t;
        std::sort(keys[f].begin(), keys[f].end());
    }
    std::sort(keys.begin(), keys.end());
    const auto twin = std::adjacent_find(keys.begin(), keys.end());
    if (twin != keys.end())
        return "two faces have the vertices " + std::to_string((*twin)[0]) + ", " +
               std::to_string((*twin)[1]) + ", " + std::to_string((*twin)[2]);
    return {};
}

//! (2): the first vertex that differs from the input's, empty when none.
std::string check_positions(const TriangleSoup& input, const TriangleSoup& output)
{
    if (output.positions.size() != input.positions.size())
        return "the output has " + std::to_string(output.positions.size()) +
               " vertices, the input " + std::to_string(input.positions.size());
    for (std::size_t v = 0; v < input.positions.size(); ++v)
        if (std::memcmp(input.positions[v].data(), output.positions[v].data(), sizeof(Vec3f)))
            return "vertex " + std::to_string(v) + " is not the input's vertex " +
                   std::to_string(v) + " (position changed or vertices reordered)";
    return {};
}

//! Whether EditableMesh refuses flip(a, b) of the whole mesh, decided on a
//! copy of only the faces at a, b, c and d (c, d: the edge's third
//! vertices). That is every face flip reads: the edge's faces and those of
//! (c, d) hold a or c, and the manifold tests of a, b, c and d read only the
//! faces at those vertices. So the answer is the whole mesh's, at the cost
//! of four one-rings instead of a scan of every face per call.
class LocalFlips
{
   public:
    explicit LocalFlips(const TriangleSoup& mesh) : m_mesh(mesh)
    {
        m_offsets.assign(mesh.positions.size() + 1, 0);
        for (const Triangle& t : mesh.faces)
            for (std::uint32_t v : t) ++m_offsets[v + 1];
        for (std::size_t v = 0; v < mesh.positions.size(); ++v) m_offsets[v + 1] += m_offsets[v];
        m_faces.resize(m_offsets.back());
        std::vector<std::uint32_t> next(m_offsets.begin(), m_offsets.end() - 1);
        for (std::uint32_t f = 0; f < mesh.faces.size(); ++f)
            for (std::uint32_t v : mesh.faces[f]) m_faces[next[v]++] = f;
    }

    bool refused(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) const
    {
        std::vector<std::uint32_t> faces;
        for (std::uint32_t v : {a, b, c, d})
            faces.insert(faces.end(), m_faces.begin() + m_offsets[v],
                         m_faces.begin() + m_offsets[v + 1]);
        std::sort(faces.begin(), faces.end());
        faces.erase(std::unique(faces.begin(), faces.end()), faces.end());
        std::vector<std::uint32_t> vertices;
        for (std::uint32_t f : faces)
            vertices.insert(vertices.end(), m_mesh.faces[f].begin(), m_mesh.faces[f].end());
        std::sort(vertices.begin(), vertices.end());
        vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
        auto local = [&](std::uint32_t v) {
            return std::uint32_t(std::lower_bound(vertices.begin(), vertices.end(), v) -
                                 vertices.begin());
        };
        std::vector<Vec3f> positions;
        for (std::uint32_t v : vertices) positions.push_back(m_mesh.positions[v]);
        std::vector<Triangle> triangles;
        for (std::uint32_t f : faces) {
            const Triangle& t = m_mesh.faces[f];
            triangles.push_back({local(t[0]), local(t[1]), local(t[2])});
        }
        EditableMesh copy(std::move(positions), std::move(triangles));
        return !copy.flip(local(a), local(b));
    }

   private:
    const TriangleSoup&        m_mesh;
    std::vector<std::uint32_t> m_offsets, m_faces;  // the faces at each vertex
};

//! Every corner's edge (t[k], t[k + 1]) as (key, 3 f + k), sorted: the key,
//! (smaller vertex, larger vertex), groups the faces of an edge.
std::vector<std::pair<std::uint64_t, std::uint32_t>> sorted_halfedges(
    const std::vector<Triangle>& faces)
{
    std::vector<std::pair<std::uint64_t, std::uint32_t>> out(3 * faces.size());
    for (std::uint32_t f = 0; f < faces.size(); ++f)
        for (std::uint32_t k = 0; k < 3; ++k) {
            const std::uint32_t a = faces[f][k], b = faces[f][(k + 1) % 3];
            out[3 * f + k] = {(std::uint64_t(std::min(a, b)) << 32) | std::max(a, b), 3 * f + k};
        }
    std::sort(out.begin(), out.end());
    return out;
}

//! (3) on the interior edge (a, b) with third vertices c and d.
void check_edge(const TriangleSoup& mesh, const LocalFlips& flips, double bound,
                const std::array<std::uint32_t, 4>& abcd, DelaunayCheck& r)
{
    const auto [a, b, c, d] = abcd;
    const auto&  p          = mesh.positions;
    const double s          = cotangent(p[c], p[a], p[b]) + cotangent(p[d], p[a], p[b]);
    ++r.interior_edges;
    r.min_cot_sum = std::min(r.min_cot_sum, s);
    if (s >= -bound) return;
    ++r.non_delaunay;
    if (flips.refused(a, b, c, d)) {
        ++r.refused;
        return;
    }
    ++r.violations;
    if (r.first.empty())
        r.first = "edge (" + std::to_string(a) + ", " + std::to_string(b) +
                  ") is not locally Delaunay (cot(alpha) + cot(beta) = " + number(s) + " < -" +
                  number(bound) + ") and the reference allows its flip";
}

void check_edges(const TriangleSoup& mesh, double bound, DelaunayCheck& r)
{
    const auto       he = sorted_halfedges(mesh.faces);
    const LocalFlips flips(mesh);
    auto             corner = [&](std::uint32_t h, std::uint32_t step) {
        return mesh.faces[h / 3][(h % 3 + step) % 3];
    };
    for (std::size_t i = 0; i < he.size();) {
        std::size_t j = i + 1;
        while (j < he.size() && he[j].first == he[i].first) ++j;
        const std::uint32_t h = he[i].second, g = he[j - 1].second;
        if (j - i == 2 && corner(h, 0) == corner(g, 1))  // opposite directions
            check_edge(mesh, flips, bound, {corner(h, 0), corner(h, 1), corner(h, 2), corner(g, 2)},
                       r);
        else
            ++r.other_edges;
        i = j;
    }
}

}  // namespace

DelaunayCheck check_delaunay_flips(const TriangleSoup& input, const TriangleSoup& output,
                                   double bound)
{
    DelaunayCheck r;
    r.first = check_faces(input, output);
    if (r.first.empty()) r.first = check_positions(input, output);
    if (r.first.empty()) check_edges(output, bound, r);
    return r;
}

}  // namespace rxmesh::reference
