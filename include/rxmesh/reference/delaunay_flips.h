// Serial Delaunay edge flips (Lawson) on a compact indexed halfedge mesh, in
// the same rule as algo/delaunay.cuh: the serial CPU counterpart of the GPU
// engine, timed by bench_delaunay and run by rxmesh-delaunay --device cpu.
// OpenMesh and CGAL are not installed on the benchmark machine, so the CPU
// implementation is ours; it is written for speed (no per-call scans) but
// decides exactly what the GPU engine decides:
//
// - an interior edge (a, b) with third vertices c and d is flipped when
//   cot(alpha) + cot(beta) < -tolerance, in float, with geometry/operators.h's
//   cotangent() (the GPU's expression);
// - a flip is refused (reference::EditableMesh::flip's rules) when c == d,
//   when the edge (c, d) exists (found by walking c's one-ring), when a, b,
//   c or d is a non-manifold vertex, or when a new face (c, a, d), (d, b, c)
//   is degenerate or turned against the old faces' summed normal (double).
//
// Lawson's algorithm: every interior edge on a stack; pop one, flip it when
// it is not locally Delaunay and the flip is allowed, then push its
// quadrilateral's four outer edges (those not on the stack already).
//
//   reference::LawsonMesh mesh(soup);
//   const reference::LawsonStats s = mesh.flip_all(1e-5f, max_flips);
//   const TriangleSoup flipped = mesh.to_soup();
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::reference {

struct LawsonStats
{
    std::uint64_t flips = 0;
    std::uint64_t pops  = 0;  //!< edges taken off the stack (tests of the rule)
    //! The stack emptied (false: stopped at the flip limit).
    bool converged = true;
};

//! A triangle mesh as halfedges: halfedge h of face f is 3 f + k at the
//! start; flips rewire next and vertex in place, so the halfedges of a face
//! are found through next, not by index.
class LawsonMesh
{
   public:
    //! \throw InvalidInputError for a face naming a vertex out of range or
    //!        repeating one (the halfedges assume neither).
    explicit LawsonMesh(const TriangleSoup& soup);

    //! Lawson's flips until the stack is empty or `max_flips` were applied.
    LawsonStats flip_all(float tolerance, std::uint64_t max_flips);

    //! The vertices (unchanged, in input order) and the current faces.
    TriangleSoup to_soup() const;

    //! Bytes of the arrays (positions and connectivity).
    std::size_t bytes() const;

    std::size_t num_halfedges() const { return m_vertex.size(); }

   private:
    static constexpr std::uint32_t kBoundary    = ~0u;      // no opposite halfedge
    static constexpr std::uint32_t kNonManifold = ~0u - 1;  // more than two faces, or two
                                                            // walking the edge the same way

    std::uint32_t origin(std::uint32_t h) const { return m_vertex[m_next[m_next[h]]]; }
    bool          interior(std::uint32_t h) const { return m_opposite[h] < kNonManifold; }
    void          pair_halfedges();
    void          mark_manifold_vertices();
    //! Calls visit(h) for every halfedge h leaving v in one face each, over
    //! v's fan from m_out[v] (both ways when it is open); returns how many.
    template <typename Visit>
    std::uint32_t for_each_fan_halfedge(std::uint32_t v, Visit&& visit) const;
    bool          has_edge(std::uint32_t c, std::uint32_t d) const;
    bool          non_delaunay(std::uint32_t h, float tolerance) const;
    bool          flip_allowed(std::uint32_t h) const;
    void          flip(std::uint32_t h);

    std::vector<Vec3f>         m_positions;
    std::vector<std::uint32_t> m_next, m_opposite;
    std::vector<std::uint32_t> m_vertex;    // the vertex h points to
    std::vector<std::uint32_t> m_out;       // per vertex: a halfedge leaving it, kBoundary if none
    std::vector<std::uint8_t>  m_manifold;  // per vertex
};

}  // namespace rxmesh::reference
