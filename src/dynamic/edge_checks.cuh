// The engine's rules, on the device, the same as reference::EditableMesh's
// (reference/editable_mesh.h): which operations are refused, which vertices
// an operation claims against concurrent ones, and how it rewrites faces.
// Geometric tests run in double with explicitly rounded operations (no fused
// multiply-add), so they give the reference's answers bit for bit.
#pragma once

#include <cstdint>

#include "rxmesh/dynamic/edge_op.h"
#include "rxmesh/dynamic/fan.cuh"

namespace rxmesh::dynamic_detail {

struct Vec3d
{
    double x, y, z;
};

__device__ inline Vec3d triangle_normal(const Vec3& p, const Vec3& q, const Vec3& r)
{
    const Vec3d u = {__dsub_rn(q.x, p.x), __dsub_rn(q.y, p.y), __dsub_rn(q.z, p.z)};
    const Vec3d w = {__dsub_rn(r.x, p.x), __dsub_rn(r.y, p.y), __dsub_rn(r.z, p.z)};
    return {__dsub_rn(__dmul_rn(u.y, w.z), __dmul_rn(u.z, w.y)),
            __dsub_rn(__dmul_rn(u.z, w.x), __dmul_rn(u.x, w.z)),
            __dsub_rn(__dmul_rn(u.x, w.y), __dmul_rn(u.y, w.x))};
}

__device__ inline double dot_rn(const Vec3d& a, const Vec3d& b)
{
    return __dadd_rn(__dadd_rn(__dmul_rn(a.x, b.x), __dmul_rn(a.y, b.y)), __dmul_rn(a.z, b.z));
}

//! Non-degenerate and turned the same way as `reference`.
__device__ inline bool agrees(const Vec3d& n, const Vec3d& reference)
{
    return dot_rn(n, n) > 0 && dot_rn(n, reference) > 0;
}

__device__ inline bool flip_allowed(const ConnectivityView& c, std::uint32_t e)
{
    const EdgeQuad q = edge_quad(c, e);
    if (q.num_faces != 2 || !c.edge_manifold(e) || q.c == q.d) return false;
    for (std::uint32_t v : {q.a, q.b, q.c, q.d})
        if (!c.vertex_manifold(v)) return false;
    // (c, d) must not exist yet: a walk over c's neighbours, since flip
    // passes update the edge table in place and leave its keys unsorted
    bool exists = false;
    for_each_neighbor(c, q.c, [&](std::uint32_t u) { exists = exists || u == q.d; });
    if (exists) return false;
    const Vec3  pa = c.position(q.a), pb = c.position(q.b), pc = c.position(q.c),
               pd = c.position(q.d);
    const Vec3d n0 = triangle_normal(pa, pb, pc), n1 = triangle_normal(pb, pa, pd);
    const Vec3d sum = {__dadd_rn(n0.x, n1.x), __dadd_rn(n0.y, n1.y), __dadd_rn(n0.z, n1.z)};
    return agrees(triangle_normal(pc, pa, pd), sum) && agrees(triangle_normal(pd, pb, pc), sum);
}

__device__ inline bool split_allowed(const ConnectivityView& c, std::uint32_t e)
{
    return c.edge_manifold(e) && c.vertex_manifold(c.edge_first(e)) &&
           c.vertex_manifold(c.edge_second(e));
}

//! The common neighbours of a and b are exactly the third vertices of the
//! edge's faces (and the boundary counts as a common neighbour exactly when
//! the edge is on it), and no face (c, d, a) sits beside a face (c, d, b).
__device__ inline bool link_condition(const ConnectivityView& c, const EdgeQuad& q)
{
    std::uint32_t commons = 0;
    for_each_neighbor(c, q.b, [&](std::uint32_t u) {
        commons += u != q.a && find_edge(c, q.a, u) != kNoElement;
    });
    if (commons != q.num_faces) return false;
    if (q.num_faces == 2 && c.vertex_boundary(q.a) && c.vertex_boundary(q.b)) return false;
    if (q.num_faces != 2) return true;
    const std::uint32_t cd = find_edge(c, q.c, q.d);
    if (cd == kNoElement) return true;
    bool with_a = false, with_b = false;
    for (std::uint32_t i = 0; i < c.edge_face_count(cd); ++i) {
        with_a = with_a || face_holds(c, c.edge_face(cd, i), q.a);
        with_b = with_b || face_holds(c, c.edge_face(cd, i), q.b);
    }
    return !(with_a && with_b);
}

//! Whether face f keeps a non-degenerate normal turned its way when vertex
//! `moved` (a, or b merging into a) goes to p.
__device__ inline bool keeps_orientation(const ConnectivityView& c, std::uint32_t f,
                                         std::uint32_t moved, const Vec3& p)
{
    Vec3 before[3], after[3];
    for (int k = 0; k < 3; ++k) {
        const std::uint32_t v = c.face_vertex(f, k);
        before[k]             = c.position(v);
        after[k]              = v == moved ? p : before[k];
    }
    return agrees(triangle_normal(after[0], after[1], after[2]),
                  triangle_normal(before[0], before[1], before[2]));
}

__device__ inline bool collapse_allowed(const ConnectivityView& c, std::uint32_t e,
                                        const Vec3& p)
{
    const EdgeQuad q = edge_quad(c, e);
    if (!c.edge_manifold(e) || !c.vertex_manifold(q.a) || !c.vertex_manifold(q.b)) return false;
    if (!link_condition(c, q)) return false;
    // an opposite vertex, or a itself, must keep a face (no lone triangle or
    // ear collapses into a stranded vertex)
    if (c.vertex_degree[q.c] < 2 || (q.d != kNoElement && c.vertex_degree[q.d] < 2)) return false;
    if (c.vertex_degree[q.a] + c.vertex_degree[q.b] == 2 * q.num_faces) return false;
    bool ok = true;
    for (std::uint32_t moved : {q.a, q.b}) {
        const std::uint32_t other = moved == q.a ? q.b : q.a;
        for_each_fan_face(c, moved, [&](std::uint32_t f, std::uint32_t x, std::uint32_t y) {
            if (x != other && y != other) ok = keeps_orientation(c, f, moved, p);
            return ok;
        });
        if (!ok) return false;
    }
    return true;
}

//! The slots an operation on edge e claims against concurrent ones: it
//! calls exclusive(x) for what it changes and shared(x) for what it only
//! reads; two operations conflict when one's exclusive claims meet the
//! other's claims of either kind (read-read overlap is allowed). Slot ids
//! are vertices, except for splits, which claim faces.
//! - flip: a, b, c, d exclusive (the table is updated in place: their
//!   degrees and fans change);
//! - split: the edge's faces exclusive (it rewrites only them and appends;
//!   the table is rebuilt after the pass), so splits around one vertex of
//!   high valence go together;
//! - collapse: a and b exclusive, their other neighbours shared: another
//!   collapse may read them (its checks see the same neighbourhoods, since
//!   only a moves and only faces at a and b change) but not move or remove
//!   them.
template <typename Exclusive, typename Shared>
__device__ void for_each_claim(const ConnectivityView& c, EdgeOpKind kind, std::uint32_t e,
                               Exclusive&& exclusive, Shared&& shared)
{
    const EdgeQuad q = edge_quad(c, e);
    if (kind == EdgeOpKind::Split) {
        for (std::uint32_t i = 0; i < q.num_faces; ++i) exclusive(c.edge_face(e, i));
        return;
    }
    exclusive(q.a);
    exclusive(q.b);
    if (kind == EdgeOpKind::Flip) {
        for (std::uint32_t i = 0; i < q.num_faces; ++i)
            exclusive(third_vertex(c, c.edge_face(e, i), q.a, q.b));
        return;
    }
    const auto other = [&](std::uint32_t u) {
        if (u != q.a && u != q.b) shared(u);
    };
    for_each_neighbor(c, q.a, other);
    for_each_neighbor(c, q.b, other);
}

}  // namespace rxmesh::dynamic_detail
