// The global incidence validate() checks a patch store against, computed from
// the faces alone. Private to the patch layer: the library must not be built
// on reference/ (the test oracle that checks it), so this is a second,
// independent construction, limited to what validate() needs.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::detail {

constexpr std::uint32_t kNoEdge = ~0u;

//! One row of a Relation, for range-for.
struct RowRange
{
    const std::uint32_t* first;
    const std::uint32_t* last;

    const std::uint32_t* begin() const { return first; }
    const std::uint32_t* end() const { return last; }
    bool                 empty() const { return first == last; }
};

//! CSR relation; every row is sorted ascending and holds no repeats, so
//! violations found by walking a row are reported in a stable order.
struct Relation
{
    std::vector<std::uint32_t> offsets;  // rows + 1 entries
    std::vector<std::uint32_t> indices;

    RowRange operator[](std::uint32_t r) const
    {
        return {indices.data() + offsets[r], indices.data() + offsets[r + 1]};
    }
};

struct Incidence
{
    //! The unique undirected edges (a, b), a < b, sorted; an edge's id is
    //! its position.
    std::vector<std::array<std::uint32_t, 2>> edges;
    //! Per face (v0, v1, v2): the ids of edges (v0,v1), (v1,v2), (v2,v0).
    std::vector<std::array<std::uint32_t, 3>> face_edges;
    Relation vertex_faces, vertex_edges, vertex_vertices, edge_faces;
    Relation face_faces;  // faces sharing an edge, the face itself excluded

    //! Id of the edge {a, b}, or kNoEdge when no face has it.
    std::uint32_t find_edge(std::uint32_t a, std::uint32_t b) const;
};

//! \throw InvalidInputError when a face index is >= num_vertices or a face
//!        repeats a vertex (the message names the face).
Incidence build_incidence(std::uint32_t num_vertices, const std::vector<Triangle>& faces);

}  // namespace rxmesh::detail
