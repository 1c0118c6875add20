// Device walks over a ConnectivityView: edge lookup and the fan of faces
// around a manifold vertex. Every walk is bounded by the vertex's degree, so
// it ends even on a mesh whose flags are wrong.
#pragma once

#include <cstdint>

#include "rxmesh/core/search.cuh"
#include "rxmesh/dynamic/connectivity.h"

namespace rxmesh::dynamic_detail {

//! The edge (u, v), or kNoElement.
__device__ inline std::uint32_t find_edge(const ConnectivityView& c, std::uint32_t u,
                                          std::uint32_t v)
{
    const std::uint64_t key = c.edge_key(u, v);
    const std::uint32_t at  = detail::lower_bound_in(c.edge_keys, 0u, c.num_edges, key);
    return at < c.num_edges && c.edge_keys[at] == key ? at : kNoElement;
}

//! The corner (0, 1, 2) of v in face f; 3 when f does not hold v.
__device__ inline int corner_of(const ConnectivityView& c, std::uint32_t f, std::uint32_t v)
{
    for (int k = 0; k < 3; ++k)
        if (c.face_vertex(f, k) == v) return k;
    return 3;
}

__device__ inline bool face_holds(const ConnectivityView& c, std::uint32_t f, std::uint32_t v)
{
    return corner_of(c, f, v) < 3;
}

//! Whether face f walks a -> b.
__device__ inline bool face_walks(const ConnectivityView& c, std::uint32_t f, std::uint32_t a,
                                  std::uint32_t b)
{
    const int k = corner_of(c, f, a);
    return k < 3 && c.face_vertex(f, (k + 1) % 3) == b;
}

//! The vertex of f that is neither a nor b.
__device__ inline std::uint32_t third_vertex(const ConnectivityView& c, std::uint32_t f,
                                             std::uint32_t a, std::uint32_t b)
{
    for (int k = 0; k < 3; ++k) {
        const std::uint32_t v = c.face_vertex(f, k);
        if (v != a && v != b) return v;
    }
    return kNoElement;
}

//! The face across manifold edge e from face f, or kNoElement on the boundary.
__device__ inline std::uint32_t across(const ConnectivityView& c, std::uint32_t e, std::uint32_t f)
{
    if (c.edge_face_count(e) != 2) return kNoElement;
    const std::uint32_t g = c.edge_face(e, 0);
    return g == f ? c.edge_face(e, 1) : g;
}

//! The face of manifold vertex v that starts its fan: the one whose edge
//! (previous neighbour, v) is on the boundary, or its lowest face when the
//! fan is closed.
__device__ inline std::uint32_t fan_start(const ConnectivityView& c, std::uint32_t v)
{
    std::uint32_t f = c.vertex_face[v];
    if (f == kNoElement || !c.vertex_boundary(v)) return f;
    for (std::uint32_t step = 0; step <= c.vertex_degree[v]; ++step) {
        const int           k = corner_of(c, f, v);
        const std::uint32_t g = across(c, c.face_edges[3 * f + (k + 2) % 3], f);
        if (g == kNoElement) return f;
        f = g;
    }
    return f;  // unreachable on a consistent manifold vertex
}

//! Calls visit(f, x, y) for each face (v, x, y) of manifold vertex v's fan,
//! in order (each next face holds the edge (v, x) of the previous one);
//! returns the y of the first face, which closes the neighbour list of an
//! open fan. Stops early when visit returns false.
template <typename Visit>
__device__ std::uint32_t for_each_fan_face(const ConnectivityView& c, std::uint32_t v,
                                           Visit&& visit)
{
    const std::uint32_t first = fan_start(c, v);
    if (first == kNoElement) return kNoElement;
    const std::uint32_t first_y = c.face_vertex(first, (corner_of(c, first, v) + 2) % 3);
    std::uint32_t       f       = first;
    for (std::uint32_t step = 0; step < c.vertex_degree[v]; ++step) {
        const int           k = corner_of(c, f, v);
        const std::uint32_t x = c.face_vertex(f, (k + 1) % 3);
        if (!visit(f, x, c.face_vertex(f, (k + 2) % 3))) break;
        const std::uint32_t g = across(c, c.face_edges[3 * f + k], f);
        if (g == kNoElement || g == first) break;
        f = g;
    }
    return first_y;
}

//! Calls visit(u) for each neighbour u of manifold vertex v, once each.
template <typename Visit>
__device__ void for_each_neighbor(const ConnectivityView& c, std::uint32_t v, Visit&& visit)
{
    const std::uint32_t first_y = for_each_fan_face(c, v, [&](std::uint32_t, std::uint32_t x,
                                                              std::uint32_t) {
        visit(x);
        return true;
    });
    if (first_y != kNoElement && c.vertex_boundary(v)) visit(first_y);
}

}  // namespace rxmesh::dynamic_detail

namespace rxmesh::dynamic_detail {

//! An edge (a, b), a < b, with its faces: f0 walks a -> b when a face does
//! (else it is the edge's first face), f1 is another face; c and d their
//! third vertices (kNoElement where missing).
struct EdgeQuad
{
    std::uint32_t a, b, c, d, f0, f1, num_faces;
};

__device__ inline EdgeQuad edge_quad(const ConnectivityView& c, std::uint32_t e)
{
    EdgeQuad q{c.edge_first(e), c.edge_second(e), kNoElement, kNoElement,
               kNoElement,      kNoElement,       c.edge_face_count(e)};
    if (q.num_faces == 0) return q;
    const std::uint32_t g0 = c.edge_face(e, 0);
    const std::uint32_t g1 = q.num_faces > 1 ? c.edge_face(e, 1) : kNoElement;
    const bool          swap = g1 != kNoElement && !face_walks(c, g0, q.a, q.b) &&
                      face_walks(c, g1, q.a, q.b);
    q.f0 = swap ? g1 : g0;
    q.f1 = swap ? g0 : g1;
    q.c  = third_vertex(c, q.f0, q.a, q.b);
    if (q.f1 != kNoElement) q.d = third_vertex(c, q.f1, q.a, q.b);
    return q;
}

}  // namespace rxmesh::dynamic_detail
