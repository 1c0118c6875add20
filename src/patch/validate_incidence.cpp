// build_incidence(): one sort of the face sides gives the edges, the face ->
// edge map and the edge -> face rows at once; every other relation is a
// sorted list of (row, column) pairs turned into CSR. Serial and simple on
// purpose: validate() is a checker, its cost is dominated by the checks.
#include "validate_incidence.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

#include "rxmesh/core/error.h"

namespace rxmesh::detail {
namespace {

using u32  = std::uint32_t;
using Pair = std::pair<u32, u32>;

//! The CSR of (row, column) `pairs`: sorts them and drops repeats.
Relation relation_of(u32 num_rows, std::vector<Pair>& pairs)
{
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    Relation r;
    r.offsets.assign(std::size_t(num_rows) + 1, 0);
    r.indices.reserve(pairs.size());
    for (const auto& [row, column] : pairs) {
        ++r.offsets[row + 1];
        r.indices.push_back(column);
    }
    std::partial_sum(r.offsets.begin(), r.offsets.end(), r.offsets.begin());
    return r;
}

//! The faces are the caller's input, not the store: invalid ones are an
//! error, not a violation.
void check_faces(u32 num_vertices, const std::vector<Triangle>& faces)
{
    // edge ids are < 3 * faces and must fit in 32 bits
    if (faces.size() > std::size_t(0xFFFFFFFFu) / 3)
        throw InvalidInputError("validate: too many faces (" + std::to_string(faces.size()) +
                                ")");
    for (std::size_t f = 0; f < faces.size(); ++f) {
        const Triangle& t = faces[f];
        for (int k = 0; k < 3; ++k)
            if (t[k] >= num_vertices)
                throw InvalidInputError("validate: face " + std::to_string(f) + " corner " +
                                        std::to_string(k) + " references vertex " +
                                        std::to_string(t[k]) + " but there are only " +
                                        std::to_string(num_vertices) + " vertices");
        if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0])
            throw InvalidInputError("validate: face " + std::to_string(f) +
                                    " repeats a vertex (" + std::to_string(t[0]) + ", " +
                                    std::to_string(t[1]) + ", " + std::to_string(t[2]) + ")");
    }
}

}  // namespace

u32 Incidence::find_edge(u32 a, u32 b) const
{
    const std::array<u32, 2> key = {std::min(a, b), std::max(a, b)};
    const auto               it  = std::lower_bound(edges.begin(), edges.end(), key);
    if (it == edges.end() || *it != key)
        return kNoEdge;
    return static_cast<u32>(it - edges.begin());
}

Incidence build_incidence(u32 num_vertices, const std::vector<Triangle>& faces)
{
    check_faces(num_vertices, faces);
    const auto num_faces = static_cast<u32>(faces.size());

    // One record (min, max, face, side) per face side. Sorted, the runs of
    // equal (min, max) are the edges in id order, each listing its faces in
    // ascending order.
    std::vector<std::array<u32, 4>> sides;
    sides.reserve(std::size_t(3) * num_faces);
    for (u32 f = 0; f < num_faces; ++f)
        for (u32 k = 0; k < 3; ++k) {
            const u32 a = faces[f][k], b = faces[f][(k + 1) % 3];
            sides.push_back({std::min(a, b), std::max(a, b), f, k});
        }
    std::sort(sides.begin(), sides.end());

    Incidence m;
    m.face_edges.resize(num_faces);
    std::vector<Pair> edge_faces, face_faces, vertex_faces, vertex_edges, vertex_vertices;
    for (std::size_t i = 0, j = 0; i < sides.size(); i = j) {
        const auto e = static_cast<u32>(m.edges.size());
        m.edges.push_back({sides[i][0], sides[i][1]});
        for (j = i; j < sides.size() && sides[j][0] == sides[i][0] && sides[j][1] == sides[i][1];
             ++j) {
            m.face_edges[sides[j][2]][sides[j][3]] = e;
            edge_faces.emplace_back(e, sides[j][2]);
        }
        // the faces of an edge are pairwise adjacent (a face has distinct
        // sides, so a run never holds one face twice)
        for (std::size_t x = i; x < j; ++x)
            for (std::size_t y = i; y < j; ++y)
                if (x != y)
                    face_faces.emplace_back(sides[x][2], sides[y][2]);
    }
    for (u32 f = 0; f < num_faces; ++f)
        for (const u32 v : faces[f])
            vertex_faces.emplace_back(v, f);
    for (u32 e = 0; e < m.edges.size(); ++e) {
        const u32 a = m.edges[e][0], b = m.edges[e][1];
        vertex_edges.emplace_back(a, e);
        vertex_edges.emplace_back(b, e);
        vertex_vertices.emplace_back(a, b);
        vertex_vertices.emplace_back(b, a);
    }
    const auto num_edges = static_cast<u32>(m.edges.size());
    m.edge_faces         = relation_of(num_edges, edge_faces);
    m.face_faces         = relation_of(num_faces, face_faces);
    m.vertex_faces       = relation_of(num_vertices, vertex_faces);
    m.vertex_edges       = relation_of(num_vertices, vertex_edges);
    m.vertex_vertices    = relation_of(num_vertices, vertex_vertices);
    return m;
}

}  // namespace rxmesh::detail
