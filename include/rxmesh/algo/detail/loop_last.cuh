// The last two levels of the GPU Loop subdivision (algo/loop_subdivision.cuh)
// from the topology of the level two before the last ("the grandparent",
// level L - 2) and the positions of the level before the last (L - 1).
//
// Level L - 1's topology is never written: each of its elements is a child
// of a grandparent element, and what the last level needs of it follows from
// the grandparent's topology (same numbering as loop_level.cuh):
// - its faces: the four children of grandparent face g; the last level's
//   faces are their children, 16 per g (faces 16g .. 16g + 15);
// - its edges: the halves 2e, 2e + 1 of grandparent edge e, whose third
//   vertices are the other edge vertices of e's faces, and the interior
//   edges 2E + 3g + k of face g, whose ends and third vertices are g's;
// - its vertices: a grandparent vertex v has the edge vertices of its
//   edges as neighbours (its row, through `ve`); the vertex of grandparent
//   edge e has e's ends and, per face of e, that face's other two edge
//   vertices (valence 6 for an edge of two faces); a crease edge (any other
//   count, or sharp) makes it a crease vertex with e's ends as neighbours.
// Reading the grandparent (a sixteenth of the output's size) instead of
// level L - 1's topology (a quarter) and not writing the latter is what
// this buys; the arithmetic is the same as level by level.
#pragma once

#include <algorithm>

#include "rxmesh/algo/detail/loop_level.cuh"

namespace rxmesh::loop {

//! The grandparent, its links, and the positions of level L - 1.
struct LastView
{
    LevelView            g;        // the grandparent level (full topology)
    const std::uint32_t *ef, *ve;  // Level::ef, Level::ve
    const float*         pos1;     // positions of level L - 1
    std::uint32_t        V1;       // vertices of level L - 1 (g.V + g.E)
};

//! ef: per grandparent edge, its faces of rank 0 and 1 (ranks past 1 belong
//! to creases, which need no face); ~0u where there is none.
__host__ __device__ inline void face_links(const LevelView& g, std::uint32_t* ef, std::uint32_t f)
{
    for (int j = 0; j < 3; ++j) {
        const std::uint32_t e = g.fe[3 * std::uint64_t(f) + j] >> 1;
        const std::uint32_t r = g.frank[3 * std::uint64_t(f) + j];
        if (r < 2)
            ef[2 * std::uint64_t(e) + r] = (f << 2) | std::uint32_t(j);
    }
}

//! ve: the edge at each slot of the rows (where eslot says it is).
__host__ __device__ inline void row_links(const LevelView& g, std::uint32_t* ve, std::uint32_t e)
{
    ve[g.eslot[2 * std::uint64_t(e)]]     = e;
    ve[g.eslot[2 * std::uint64_t(e) + 1]] = e;
}

static __global__ void face_links_kernel(LevelView g, std::uint32_t* ef)
{
    RXMESH_FOR_EACH_ITEM(f, g.F)
    face_links(g, ef, std::uint32_t(f));
}

static __global__ void row_links_kernel(LevelView g, std::uint32_t* ve)
{
    RXMESH_FOR_EACH_ITEM(e, g.E)
    row_links(g, ve, std::uint32_t(e));
}

//! The record of child c (0..3) of face record r of level `l` (its corners,
//! edges and flips, as child_faces and child_face_edges give them), as a
//! face of the next level, whose vertex count is V1.
__host__ __device__ inline FaceRecord child_record(const LevelView& l, const FaceRecord& r, std::uint32_t f,
                                                   int c, std::uint32_t V1)
{
    std::uint32_t fv[12], fe[12];
    child_faces(r, fv);
    child_face_edges(l, r, f, fe, nullptr);
    FaceRecord out{};
    for (int j = 0; j < 3; ++j) {
        out.v[j]    = fv[3 * c + j];
        out.e[j]    = fe[3 * c + j] >> 1;
        out.flip[j] = fe[3 * c + j] & 1u;
        out.M[j]    = V1 + out.e[j];
    }
    return out;
}

//! The 16 faces of grandparent face f (48 ids): child c's children at
//! 12c .. 12c + 11.
__host__ __device__ inline void last_faces(const LastView& v, std::uint32_t f, std::uint32_t* out)
{
    const FaceRecord r = load_face(v.g, f, false);
    for (int c = 0; c < 4; ++c)
        child_faces(child_record(v.g, r, f, c, v.V1), out + 12 * c);
}

//! Edge point of a level L - 1 edge (a, b) with third vertices c, d.
__host__ __device__ inline Float3 smooth_edge_point(const float* p, std::uint32_t a, std::uint32_t b,
                                                    std::uint32_t c, std::uint32_t d)
{
    const Float3 ab = plus(load3(p, a), load3(p, b)), cd = plus(load3(p, c), load3(p, d));
    return axpy(0.375f, ab, {0.125f * cd.x, 0.125f * cd.y, 0.125f * cd.z});
}

__host__ __device__ inline Float3 crease_edge_point(const float* p, std::uint32_t a, std::uint32_t b)
{
    const Float3 ab = plus(load3(p, a), load3(p, b));
    return {0.5f * ab.x, 0.5f * ab.y, 0.5f * ab.z};
}

//! Edge points of the three interior edges of grandparent face f: edge k =
//! (M_k, M_{k+1}), third vertices M_{k+2} and f_{k+1} (9 floats).
__host__ __device__ inline void interior_points(const LastView& v, std::uint32_t f, float* out)
{
    const FaceRecord r = load_face(v.g, f, false);
    for (int k = 0; k < 3; ++k)
        store3(out + 3 * k, 0,
               smooth_edge_point(v.pos1, r.M[k], r.M[(k + 1) % 3], r.M[(k + 2) % 3], r.v[(k + 1) % 3]));
}

//! In the face of rank `rank` of grandparent edge e (two faces, not a
//! crease): the edge vertices of that face's other two edges, the one at
//! e's first end (ev[0]) first.
__host__ __device__ inline void other_edge_vertices(const LastView& v, std::uint32_t e, int rank,
                                                    std::uint32_t& at_first, std::uint32_t& at_second)
{
    const std::uint32_t link = v.ef[2 * std::uint64_t(e) + rank];
    RXMESH_DEVICE_CHECK(link != ~0u);  // an edge of two faces has both links
    const std::uint64_t f = link >> 2;
    const std::uint32_t j = link & 3u;
    const std::uint32_t fe_j = v.g.fe[3 * f + j];
    const std::uint32_t prev = v.g.V + (v.g.fe[3 * f + (j + 2) % 3] >> 1);  // at f_j
    const std::uint32_t next = v.g.V + (v.g.fe[3 * f + (j + 1) % 3] >> 1);  // at f_{j+1}
    const bool          flip = fe_j & 1u;  // e stored as (f_{j+1}, f_j)
    at_first  = flip ? next : prev;
    at_second = flip ? prev : next;
}

//! Edge points of the halves (a, m) and (m, b) of grandparent edge e
//! (6 floats): their third vertices lie in the corner children of e's faces.
__host__ __device__ inline void half_points(const LastView& v, std::uint32_t e, float* out)
{
    const std::uint32_t a = v.g.ev[2 * std::uint64_t(e)], b = v.g.ev[2 * std::uint64_t(e) + 1];
    const std::uint32_t m = v.g.V + e;
    if (is_crease(v.g, e)) {
        store3(out, 0, crease_edge_point(v.pos1, a, m));
        store3(out + 3, 0, crease_edge_point(v.pos1, m, b));
        return;
    }
    std::uint32_t first[2], second[2];
    for (int r = 0; r < 2; ++r)
        other_edge_vertices(v, e, r, first[r], second[r]);
    store3(out, 0, smooth_edge_point(v.pos1, a, m, first[0], first[1]));
    store3(out + 3, 0, smooth_edge_point(v.pos1, m, b, second[0], second[1]));
}

//! Loop's vertex rule from a vertex's valence, crease count and sums.
__host__ __device__ inline Float3 vertex_rule(Float3 x, std::uint32_t valence, std::uint32_t creases,
                                              Float3 sum, Float3 crease_sum)
{
    if (creases == 2)
        return axpy(0.75f, x, {0.125f * crease_sum.x, 0.125f * crease_sum.y, 0.125f * crease_sum.z});
    if (creases > 2 || valence == 0)
        return x;  // a corner, or isolated
    const float beta = loop_beta(valence);
    return axpy(1.f - float(valence) * beta, x, {beta * sum.x, beta * sum.y, beta * sum.z});
}

//! Vertex point of a grandparent vertex: its level L - 1 neighbours are the
//! vertices of the edges in its row.
__host__ __device__ inline Float3 old_vertex_point(const LastView& v, std::uint32_t u)
{
    Float3        sum{0, 0, 0}, crease_sum{0, 0, 0};
    std::uint32_t creases = 0;
    const std::uint32_t begin = v.g.vvoff[u], end = v.g.vvoff[u + 1];
    for (std::uint32_t i = begin; i < end; ++i) {
        const Float3 p = load3(v.pos1, v.g.V + v.ve[i]);
        sum            = plus(sum, p);
        if (v.g.vv[i] & kCreaseBit)
            crease_sum = plus(crease_sum, p), ++creases;
    }
    return vertex_rule(load3(v.pos1, u), end - begin, creases, sum, crease_sum);
}

//! Vertex point of the vertex of grandparent edge e.
__host__ __device__ inline Float3 edge_vertex_point(const LastView& v, std::uint32_t e)
{
    const std::uint32_t a = v.g.ev[2 * std::uint64_t(e)], b = v.g.ev[2 * std::uint64_t(e) + 1];
    const Float3        x = load3(v.pos1, v.g.V + e);
    const Float3        ends = plus(load3(v.pos1, a), load3(v.pos1, b));
    if (is_crease(v.g, e))
        return vertex_rule(x, 2, 2, ends, ends);
    Float3 sum = ends;
    for (int r = 0; r < 2; ++r) {
        std::uint32_t first, second;
        other_edge_vertices(v, e, r, first, second);
        sum = plus(sum, plus(load3(v.pos1, first), load3(v.pos1, second)));
    }
    return vertex_rule(x, 6, 0, sum, {0, 0, 0});
}

__host__ __device__ inline void last_vertex_point(const LastView& v, std::uint32_t u, float* out)
{
    store3(out, 0, u < v.g.V ? old_vertex_point(v, u) : edge_vertex_point(v, u - v.g.V));
}

static __global__ void last_faces_kernel(LastView v, std::uint32_t* faces)
{
    staged_items<48>(v.g.F, faces, [&](std::uint64_t f, std::uint32_t* out) {
        last_faces(v, std::uint32_t(f), out);
    });
}

static __global__ void interior_points_kernel(LastView v, float* pos)
{
    // after the vertices of level L - 1 and the halves of the grandparent's edges
    staged_items<9>(v.g.F, pos + 3 * (std::uint64_t(v.V1) + 2 * std::uint64_t(v.g.E)),
                    [&](std::uint64_t f, float* out) { interior_points(v, std::uint32_t(f), out); });
}

static __global__ void half_points_kernel(LastView v, float* pos)
{
    staged_items<6>(v.g.E, pos + 3 * std::uint64_t(v.V1),
                    [&](std::uint64_t e, float* out) { half_points(v, std::uint32_t(e), out); });
}

static __global__ void last_vertex_points_kernel(LastView v, float* pos)
{
    staged_items<3>(v.V1, pos, [&](std::uint64_t u, float* out) {
        last_vertex_point(v, std::uint32_t(u), out);
    });
}

}  // namespace rxmesh::loop

namespace rxmesh::loop {

inline unsigned last_grid(std::uint64_t n, int block)
{
    return unsigned(std::min<std::uint64_t>(std::max<std::uint64_t>((n + block - 1) / block, 1), 1u << 20));
}

//! Adds ef and ve to the grandparent `g` (viewed as `gv`, which gets them).
inline void add_links(Level& g, LevelView& gv, int block, cudaStream_t s)
{
    g.ef = DeviceBuffer<std::uint32_t>(2 * std::size_t(g.E), s);
    g.ve = DeviceBuffer<std::uint32_t>(2 * std::size_t(g.E), s);
    g.ef.memset(0xFF);
    face_links_kernel<<<last_grid(g.F, block), block, 0, s>>>(gv, g.ef.data());
    RXMESH_CHECK_LAUNCH();
    row_links_kernel<<<last_grid(g.E, block), block, 0, s>>>(gv, g.ve.data());
    RXMESH_CHECK_LAUNCH();
}

//! The last level from the grandparent and level L - 1's positions `pos1`:
//! faces (3 per face) and positions (3 per vertex) of `counts` into `last`.
inline void last_from_grandparent(const LevelView& gv, const Level& g, const float* pos1,
                                  std::uint32_t V1, std::uint64_t V, std::uint64_t F, int block,
                                  cudaStream_t s, Level& last)
{
    const LastView v{gv, g.ef.data(), g.ve.data(), pos1, V1};
    last.fv  = DeviceBuffer<std::uint32_t>(3 * F, s);
    last.pos = DeviceBuffer<float>(3 * V, s);
    const std::size_t faces_smem = 48 * sizeof(std::uint32_t) * block;
    detail::require_shared_memory<last_faces_kernel>(faces_smem);
    last_faces_kernel<<<last_grid(gv.F, block), block, faces_smem, s>>>(v, last.fv.data());
    RXMESH_CHECK_LAUNCH();
    last_vertex_points_kernel<<<last_grid(V1, block), block, 3 * sizeof(float) * block, s>>>(v, last.pos.data());
    RXMESH_CHECK_LAUNCH();
    half_points_kernel<<<last_grid(gv.E, block), block, 6 * sizeof(float) * block, s>>>(v, last.pos.data());
    RXMESH_CHECK_LAUNCH();
    interior_points_kernel<<<last_grid(gv.F, block), block, 9 * sizeof(float) * block, s>>>(v, last.pos.data());
    RXMESH_CHECK_LAUNCH();
}

}  // namespace rxmesh::loop
