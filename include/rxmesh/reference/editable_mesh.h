// A serial triangle mesh whose topology changes: edge flip, edge split, edge
// collapse and vertex move, each refused (the mesh left unchanged) when it
// would break the mesh. The oracle of the GPU engine of issue 29: simple and
// obviously correct rather than fast (every query scans the faces).
//
// Rules (the GPU engine must refuse and apply exactly the same):
// - an operation touching a non-manifold edge (more than two faces, or two
//   faces walking it the same way) or a non-manifold vertex (its faces not
//   one fan) is refused;
// - flip(a, b): the edge's two faces (a, b, c), (b, a, d) become (c, a, d),
//   (d, b, c); refused on a boundary edge, when c == d, when the edge (c, d)
//   exists already, or when a new face would turn against the old ones;
// - split(a, b, p): a new vertex m at p; each face (a, b, c) of the edge
//   becomes (a, m, c), (m, b, c); boundary edges split too;
// - collapse(a, b, p): b merges into a, which moves to p; refused unless the
//   link condition holds (the common neighbours of a and b are exactly the
//   third vertices of the edge's faces, the boundary counting as one more
//   vertex), when an opposite vertex or the merged vertex would be left
//   without a face (a lone triangle, an ear), or when a face would
//   degenerate or turn over;
// - deleted faces and vertices are marked, never reused; compact() gives a
//   dense mesh and the map to the surviving vertices.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

class EditableMesh
{
   public:
    //! \throw InvalidInputError for an index out of range or a face that
    //!        repeats a vertex.
    EditableMesh(std::vector<Vec3f> positions, std::vector<Triangle> faces);

    std::uint32_t num_vertices() const;  // alive ones
    std::uint32_t num_faces() const;     // alive ones
    std::uint32_t num_edges() const;     // distinct edges of alive faces
    //! V - E + F over the alive elements, isolated vertices included.
    std::int64_t euler_characteristic() const;

    bool vertex_alive(std::uint32_t v) const
    {
        return v < m_vertex_alive.size() && m_vertex_alive[v];
    }
    const Vec3f& position(std::uint32_t v) const { return m_positions[v]; }
    //! The alive faces holding both a and b.
    std::vector<std::uint32_t> edge_faces(std::uint32_t a, std::uint32_t b) const;
    //! Every distinct edge of the alive faces, smaller id first, sorted.
    std::vector<std::array<std::uint32_t, 2>> edges() const;
    bool                                      is_manifold_vertex(std::uint32_t v) const;
    //! At most two faces, walking it in opposite directions when two.
    bool is_manifold_edge(std::uint32_t a, std::uint32_t b) const;
    bool is_boundary_vertex(std::uint32_t v) const;

    bool flip(std::uint32_t a, std::uint32_t b);
    //! The new vertex, or nothing when refused.
    std::optional<std::uint32_t> split(std::uint32_t a, std::uint32_t b, const Vec3f& p);
    bool                         collapse(std::uint32_t a, std::uint32_t b, const Vec3f& p);
    //! Why the last refused collapse was refused, in words.
    const std::string& last_refusal() const { return m_last_refusal; }
    void                         move(std::uint32_t v, const Vec3f& p) { m_positions[v] = p; }

    //! Every alive face has three distinct alive vertices and no two alive
    //! faces have the same vertex set; `why` names the first violation.
    bool validate(std::string* why = nullptr) const;
    //! Every edge and every vertex of an alive face is manifold.
    bool is_manifold() const;

    //! The alive mesh, densely numbered in id order; vertex_map[new] = old.
    TriangleSoup compact(std::vector<std::uint32_t>* vertex_map = nullptr) const;

    // ---- slot access, for algorithms written on top (remeshing, simplification) ----
    std::uint32_t   num_vertex_slots() const { return std::uint32_t(m_positions.size()); }
    std::uint32_t   num_face_slots() const { return std::uint32_t(m_faces.size()); }
    bool            face_alive(std::uint32_t f) const { return m_face_alive[f]; }
    const Triangle& face(std::uint32_t f) const { return m_faces[f]; }
    //! The alive faces holding v, in slot order.
    std::vector<std::uint32_t> vertex_faces(std::uint32_t v) const;
    //! The alive vertices sharing an alive face with v, sorted.
    std::vector<std::uint32_t> neighbors(std::uint32_t v) const;

   private:
    //! The alive neighbours of v, sorted; with kBoundary when v is on the boundary.
    std::vector<std::uint32_t> link(std::uint32_t v) const;
    bool                       link_condition(std::uint32_t a, std::uint32_t b) const;
    //! Whether face f, rewritten as `after` with vertex `moved` at p, stays
    //! non-degenerate and turned the way it was.
    bool keeps_orientation(std::uint32_t f, const Triangle& after, std::uint32_t moved,
                           const Vec3f& p) const;
    //! Face f becomes t (its vertices' face lists follow).
    void set_face(std::uint32_t f, const Triangle& t);
    void add_face(const Triangle& t);
    void kill_face(std::uint32_t f);

    std::vector<Vec3f>    m_positions;
    std::vector<Triangle> m_faces;
    std::vector<bool>     m_vertex_alive, m_face_alive;
    //! The alive faces of each vertex slot, in no order.
    std::vector<std::vector<std::uint32_t>> m_vertex_faces;
    std::string           m_last_refusal;
};

}  // namespace rxmesh::reference
