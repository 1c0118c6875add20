// One level of the GPU Loop subdivision (algo/loop_subdivision.cuh): what a
// level keeps in device memory, and the kernels that compute the next level
// from it.
//
// A level's topology is derived from the coarse level's directly, in the
// numbering of reference/loop_subdivision.h (coarse edge e gives edges 2e and
// 2e + 1, face f gives faces 4f .. 4f + 3 and interior edges 2E + 3f + j), so
// no level after the first sorts anything. Each thread writes what its face,
// edge or vertex gives the next level at positions it can compute, so every
// array is written once, without atomics, and the result is deterministic.
//
// Per level (ids 32-bit):
//   fv     3 per face: the corners;
//   fe     3 per face: (edge << 1) | flip, face edge j = (f_j, f_{j+1}); flip
//          when the edge is stored as (f_{j+1}, f_j);
//   frank  3 per face: the face's rank among the faces of face edge j (the
//          order fixes where the face writes the next level's rows);
//   ev     2 per edge; efoff  E + 1: the faces of edge e are ranks
//          0 .. efoff[e+1] - efoff[e] - 1;
//   opp    2 per edge: the third vertex of the faces of rank 0 and 1;
//   sharp  1 byte per edge (user creases), or none;
//   vvoff  V + 1, vv 2E: each vertex's neighbours, bit 31 set when the edge
//          to the neighbour is a crease; eslot 2 per edge: where the edge
//          appears in the rows of its two ends.
// The next level's rows: a coarse vertex keeps its row (same offsets, the
// neighbour along edge e becomes V + e); the vertex of edge e gets the row
// at 2E + 2e + 2 efoff[e]: its two ends, then two entries per face of e in
// rank order (that face's other two edge vertices).
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/core/macros.h"

namespace rxmesh::loop {

constexpr std::uint32_t kCreaseBit = 1u << 31;

struct Level
{
    std::uint32_t V = 0, E = 0, F = 0;
    DeviceBuffer<float>         pos;  // 3 per vertex
    DeviceBuffer<std::uint32_t> fv, fe, frank, ev, efoff, opp, vvoff, vv, eslot;
    DeviceBuffer<std::uint8_t>  sharp;
    //! Only on the level two before the last (algo/detail/loop_last.cuh): the faces
    //! of rank 0 and 1 of each edge, (face << 2) | slot; each row slot's edge.
    DeviceBuffer<std::uint32_t> ef, ve;

    std::size_t bytes() const
    {
        return pos.size() * 4 +
               (fv.size() + fe.size() + frank.size() + ev.size() + efoff.size() + opp.size() +
                vvoff.size() + vv.size() + eslot.size() + ef.size() + ve.size()) *
                   4 +
               sharp.size();
    }
};

//! Read-only device view of a level.
struct LevelView
{
    std::uint32_t        V, E, F;
    const float*         pos;
    const std::uint32_t *fv, *fe, *frank, *ev, *efoff, *opp, *vvoff, *vv, *eslot;
    const std::uint8_t*  sharp;  // nullptr: no sharp edge
};

//! What the next level is written to; the topology pointers are nullptr
//! when only positions (level L - 1, algo/detail/loop_last.cuh) or positions and
//! faces (a single level from level 0) are wanted.
struct NextView
{
    float*         pos;
    std::uint32_t *fv, *fe, *frank, *ev, *efoff, *opp, *vvoff, *vv, *eslot;
    std::uint8_t*  sharp;
};

inline LevelView view(const Level& l)
{
    return {l.V,          l.E,           l.F,          l.pos.data(),   l.fv.data(),
            l.fe.data(),  l.frank.data(), l.ev.data(),  l.efoff.data(), l.opp.data(),
            l.vvoff.data(), l.vv.data(), l.eslot.data(),
            l.sharp.size() ? l.sharp.data() : nullptr};
}

struct Float3
{
    float x, y, z;
};

__host__ __device__ inline Float3 load3(const float* p, std::uint32_t v)
{
    return {p[3 * std::uint64_t(v)], p[3 * std::uint64_t(v) + 1], p[3 * std::uint64_t(v) + 2]};
}

__host__ __device__ inline void store3(float* p, std::uint64_t v, Float3 x)
{
    p[3 * v] = x.x, p[3 * v + 1] = x.y, p[3 * v + 2] = x.z;
}

__host__ __device__ inline Float3 axpy(float a, Float3 x, Float3 y)
{
    return {fmaf(a, x.x, y.x), fmaf(a, x.y, y.y), fmaf(a, x.z, y.z)};
}

__host__ __device__ inline Float3 plus(Float3 a, Float3 b)
{
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}

//! Grid-stride over tiles of blockDim.x items: item(i, slot) writes item
//! i's W values of the output to its slot in shared memory, then the block
//! copies the tile to out[W * first item ...] in consecutive words. Items
//! written straight from each thread would store W words at a stride of W,
//! and the stores of a warp would touch every line of the tile W times.
//! Dynamic shared memory: W * sizeof(T) * blockDim.x bytes.
template <int W, typename T, typename Item>
__device__ void staged_items(std::uint64_t n, T* out, Item&& item)
{
    extern __shared__ __align__(16) unsigned char stage_bytes[];
    T* stage = reinterpret_cast<T*>(stage_bytes);
    const std::uint64_t step = std::uint64_t(gridDim.x) * blockDim.x;
    for (std::uint64_t begin = blockIdx.x * std::uint64_t(blockDim.x); begin < n; begin += step) {
        if (begin + threadIdx.x < n)
            item(begin + threadIdx.x, stage + W * threadIdx.x);
        __syncthreads();
        const std::uint64_t count = W * min(std::uint64_t(blockDim.x), n - begin);
        for (std::uint64_t k = threadIdx.x; k < count; k += blockDim.x)
            out[W * begin + k] = stage[k];
        __syncthreads();
    }
}

__host__ __device__ inline bool is_crease(const LevelView& l, std::uint32_t e)
{
    return l.efoff[e + 1] - l.efoff[e] != 2 || (l.sharp != nullptr && l.sharp[e] != 0);
}

//! Loop's beta(n) = (1/n) (5/8 - (3/8 + 1/4 cos(2 pi / n))^2).
__host__ __device__ inline float loop_beta(std::uint32_t n)
{
#if defined(__CUDA_ARCH__)
    const float c = 0.375f + 0.25f * cospif(2.f / float(n));
#else
    const float c = 0.375f + 0.25f * float(std::cos(2.0 * M_PI / n));
#endif
    return (0.625f - c * c) / float(n);
}

//! Vertex points (reference/loop_subdivision.h gives the rules); a coarse
//! vertex keeps its row offsets in the next level.
//! `out`: where the vertex point's 3 floats go.
__host__ __device__ inline void vertex_point(const LevelView& l, const NextView& n, std::uint32_t v,
                                             float* out_pos)
{
    const std::uint32_t begin = l.vvoff[v], end = l.vvoff[v + 1];
    const Float3        x     = load3(l.pos, v);
    Float3              sum{0, 0, 0}, crease_sum{0, 0, 0};
    std::uint32_t       creases = 0;
    for (std::uint32_t i = begin; i < end; ++i) {
        const std::uint32_t u = l.vv[i];
        RXMESH_DEVICE_CHECK((u & ~kCreaseBit) < l.V);
        const Float3        p = load3(l.pos, u & ~kCreaseBit);
        sum                   = plus(sum, p);
        if (u & kCreaseBit)
            crease_sum = plus(crease_sum, p), ++creases;
    }
    const std::uint32_t valence = end - begin;
    Float3              out     = x;  // isolated, or a corner (> 2 creases)
    if (creases == 2) {
        out = axpy(0.75f, x, {0.125f * crease_sum.x, 0.125f * crease_sum.y, 0.125f * crease_sum.z});
    } else if (creases < 2 && valence > 0) {
        const float beta = loop_beta(valence);
        out = axpy(1.f - float(valence) * beta, x, {beta * sum.x, beta * sum.y, beta * sum.z});
    }
    store3(out_pos, 0, out);
    if (n.vvoff != nullptr)
        n.vvoff[v] = begin;
}

static __global__ void vertex_points(LevelView l, NextView n)
{
    staged_items<3>(l.V, n.pos, [&](std::uint64_t v, float* out) {
        vertex_point(l, n, std::uint32_t(v), out);
    });
}

//! Edge points: crease edges (one face, three or more, or sharp) at the
//! midpoint, the others at 3/8 (a + b) + 1/8 (c + d).
__host__ __device__ inline Float3 edge_point(const LevelView& l, std::uint32_t e, bool crease)
{
    const Float3 a = load3(l.pos, l.ev[2 * e]), b = load3(l.pos, l.ev[2 * e + 1]);
    const Float3 ab = plus(a, b);
    if (crease)
        return {0.5f * ab.x, 0.5f * ab.y, 0.5f * ab.z};
    const Float3 cd = plus(load3(l.pos, l.opp[2 * e]), load3(l.pos, l.opp[2 * e + 1]));
    return axpy(0.375f, ab, {0.125f * cd.x, 0.125f * cd.y, 0.125f * cd.z});
}

//! Row start, in the next level, of the vertex of coarse edge e.
__host__ __device__ inline std::uint32_t edge_vertex_row(const LevelView& l, std::uint32_t e)
{
    return 2 * l.E + 2 * e + 2 * l.efoff[e];
}

//! What coarse edge e gives the next level's topology: its two halves and
//! the rows entries along them.
__host__ __device__ inline void edge_children(const LevelView& l, const NextView& n, std::uint32_t e,
                                     bool crease)
{
    const std::uint32_t a = l.ev[2 * e], b = l.ev[2 * e + 1], mid = l.V + e;
    const std::uint32_t nf = l.efoff[e + 1] - l.efoff[e], row = edge_vertex_row(l, e);
    RXMESH_DEVICE_CHECK(std::uint64_t(row) + 2 + 2 * nf <= 2 * (2 * std::uint64_t(l.E) + 3 * l.F));
    const std::uint32_t bit = crease ? kCreaseBit : 0u;
    n.ev[4 * e] = a, n.ev[4 * e + 1] = mid, n.ev[4 * e + 2] = mid, n.ev[4 * e + 3] = b;
    n.efoff[2 * e]     = 2 * l.efoff[e];
    n.efoff[2 * e + 1] = 2 * l.efoff[e] + nf;
    if (n.sharp != nullptr)
        n.sharp[2 * e] = n.sharp[2 * e + 1] = l.sharp != nullptr ? l.sharp[e] : 0;
    n.vvoff[mid]  = row;
    n.vv[row]     = a | bit;
    n.vv[row + 1] = b | bit;
    n.vv[l.eslot[2 * e]]     = mid | bit;
    n.vv[l.eslot[2 * e + 1]] = mid | bit;
    if (n.eslot != nullptr) {
        n.eslot[4 * e]     = l.eslot[2 * e];
        n.eslot[4 * e + 1] = row;
        n.eslot[4 * e + 2] = row + 1;
        n.eslot[4 * e + 3] = l.eslot[2 * e + 1];
    }
}

__host__ __device__ inline void edge_item(const LevelView& l, const NextView& n, std::uint32_t e,
                                          float* out_pos)
{
    const bool crease = is_crease(l, e);
    store3(out_pos, 0, edge_point(l, e, crease));
    if (n.ev != nullptr)
        edge_children(l, n, e, crease);
}

//! The ends of the next level's offset arrays (one thread writes them).
__host__ __device__ inline void row_ends(const LevelView& l, const NextView& n)
{
    const std::uint32_t E2 = 2 * l.E + 3 * l.F;
    n.vvoff[l.V + l.E] = 2 * E2;
    n.efoff[E2]        = 12 * l.F;  // three edges per face of 4F faces
}

static __global__ void edge_points(LevelView l, NextView n)
{
    staged_items<3>(l.E, n.pos + 3 * std::uint64_t(l.V), [&](std::uint64_t e, float* out) {
        edge_item(l, n, std::uint32_t(e), out);
    });
    if (n.ev != nullptr && blockIdx.x == 0 && threadIdx.x == 0)
        row_ends(l, n);
}

//! A coarse face's corners, edges (with flips) and ranks.
struct FaceRecord
{
    std::uint32_t v[3], e[3], flip[3], rank[3], M[3];
};

__host__ __device__ inline FaceRecord load_face(const LevelView& l, std::uint32_t f, bool ranks)
{
    FaceRecord r;
    for (int j = 0; j < 3; ++j) {
        const std::uint32_t fe = l.fe[3 * std::uint64_t(f) + j];
        r.v[j]    = l.fv[3 * std::uint64_t(f) + j];
        r.e[j]    = fe >> 1;
        r.flip[j] = fe & 1u;
        r.rank[j] = ranks ? l.frank[3 * std::uint64_t(f) + j] : 0u;
        r.M[j]    = l.V + r.e[j];
        RXMESH_DEVICE_CHECK(r.v[j] < l.V && r.e[j] < l.E);
        RXMESH_DEVICE_CHECK(!ranks || r.rank[j] < l.efoff[r.e[j] + 1] - l.efoff[r.e[j]]);
    }
    return r;
}

//! The four faces of coarse face f: the corners (f_i, M_i, M_{i-1}), then
//! the middle (M_0, M_1, M_2).
__host__ __device__ inline void child_faces(const FaceRecord& r, std::uint32_t* out)
{
    for (int i = 0; i < 3; ++i) {
        out[3 * i]     = r.v[i];
        out[3 * i + 1] = r.M[i];
        out[3 * i + 2] = r.M[(i + 2) % 3];
    }
    out[9] = r.M[0], out[10] = r.M[1], out[11] = r.M[2];
}

//! Halves of face edge j: the one at f_j and the one at f_{j+1}.
__host__ __device__ inline std::uint32_t half_at_start(const FaceRecord& r, int j)
{
    return 2 * r.e[j] + r.flip[j];
}
__host__ __device__ inline std::uint32_t half_at_end(const FaceRecord& r, int j)
{
    return 2 * r.e[j] + 1 - r.flip[j];
}

//! The child faces' edges and ranks. Corner i: (f_i, M_i) is the half of
//! edge i at f_i, (M_i, M_{i-1}) interior edge i - 1 reversed (the corner
//! face is its rank 1), (M_{i-1}, f_i) the half of edge i - 1 at f_i;
//! a half keeps its coarse edge's direction, so its flip. Middle: interior
//! edges 0, 1, 2 forward, rank 0.
__host__ __device__ inline void child_face_edges(const LevelView& l, const FaceRecord& r, std::uint32_t f,
                                                 std::uint32_t* fe, std::uint32_t* frank)
{
    const std::uint32_t interior = 2 * l.E + 3 * f;
    for (int i = 0; i < 3; ++i) {
        const int p = (i + 2) % 3;
        fe[3 * i]     = (half_at_start(r, i) << 1) | r.flip[i];
        fe[3 * i + 1] = ((interior + p) << 1) | 1u;
        fe[3 * i + 2] = (half_at_end(r, p) << 1) | r.flip[p];
        fe[9 + i]     = (interior + i) << 1;
        if (frank != nullptr) {
            frank[3 * i]     = r.rank[i];
            frank[3 * i + 1] = 1;
            frank[3 * i + 2] = r.rank[p];
            frank[9 + i]     = 0;
        }
    }
}

//! Interior edge k = (M_k, M_{k+1}): not sharp, two faces (the middle, rank
//! 0, and the corner at f_{k+1}, rank 1); its slots in the rows of M_k
//! and M_{k+1}, which face f fills (other two edge vertices, next first).
__host__ __device__ inline void interior_edges(const LevelView& l, const NextView& n, const FaceRecord& r,
                                      std::uint32_t f)
{
    const std::uint32_t interior = 2 * l.E + 3 * f;
    std::uint32_t       row[3];
    for (int j = 0; j < 3; ++j)
        row[j] = edge_vertex_row(l, r.e[j]) + 2 + 2 * r.rank[j];
    for (int k = 0; k < 3; ++k) {
        const int           k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        const std::uint32_t e  = interior + k;
        n.ev[2 * e] = r.M[k], n.ev[2 * e + 1] = r.M[k1];
        n.efoff[e]  = 6 * l.F + 2 * (3 * f + k);  // after the halves: 2 x 3F
        n.opp[2 * e] = r.M[k2], n.opp[2 * e + 1] = r.v[k1];
        if (n.sharp != nullptr)
            n.sharp[e] = 0;
        n.vv[row[k]]     = r.M[k1];
        n.vv[row[k] + 1] = r.M[k2];
        if (n.eslot != nullptr)
            n.eslot[2 * e] = row[k], n.eslot[2 * e + 1] = row[k1] + 1;
    }
}

//! Third vertices of the halves' faces, at the coarse face's rank: the half
//! at f_j lies in corner j (third vertex M_{j-1}), the half at f_{j+1} in
//! corner j + 1 (third vertex M_{j+1}). Ranks past 1 belong to creases,
//! which need no third vertex.
__host__ __device__ inline void half_opposites(const NextView& n, const FaceRecord& r)
{
    for (int j = 0; j < 3; ++j) {
        if (r.rank[j] > 1)
            continue;
        n.opp[2 * half_at_start(r, j) + r.rank[j]] = r.M[(j + 2) % 3];
        n.opp[2 * half_at_end(r, j) + r.rank[j]]   = r.M[(j + 1) % 3];
    }
}

//! Where a face writes the 12 values per face of its four faces: their
//! vertices, edges and ranks (the last two: nullptr when not kept).
struct ChildFaceSlots
{
    std::uint32_t *fv, *fe, *frank;
};

__host__ __device__ inline void face_item(const LevelView& l, const NextView& n, std::uint32_t f,
                                          ChildFaceSlots out)
{
    const bool       topology = n.fe != nullptr;
    const FaceRecord r        = load_face(l, f, topology);
    child_faces(r, out.fv);
    if (!topology)
        return;
    child_face_edges(l, r, f, out.fe, out.frank);
    interior_edges(l, n, r, f);
    half_opposites(n, r);
}

//! How many of fv, fe, frank the next level keeps (what face_children
//! stages through shared memory: 12 words per face and thread each).
__host__ __device__ inline int staged_face_arrays(const NextView& n)
{
    return n.fe == nullptr ? 1 : n.frank == nullptr ? 2 : 3;
}

//! The faces' 12-word outputs go through shared memory (staged_items' reason).
static __global__ void face_children(LevelView l, NextView n)
{
    extern __shared__ __align__(16) unsigned char stage_bytes[];
    auto* const         stage  = reinterpret_cast<std::uint32_t*>(stage_bytes);
    const int           arrays = staged_face_arrays(n);
    std::uint32_t*      dst[3] = {n.fv, n.fe, n.frank};
    const std::uint64_t tile = 12ull * blockDim.x, step = std::uint64_t(gridDim.x) * blockDim.x;
    for (std::uint64_t begin = blockIdx.x * std::uint64_t(blockDim.x); begin < l.F; begin += step) {
        std::uint32_t* mine = stage + 12 * threadIdx.x;
        if (begin + threadIdx.x < l.F)
            face_item(l, n, std::uint32_t(begin + threadIdx.x),
                      {mine, arrays > 1 ? mine + tile : nullptr, arrays > 2 ? mine + 2 * tile : nullptr});
        __syncthreads();
        const std::uint64_t count = 12 * min(std::uint64_t(blockDim.x), l.F - begin);
        for (int a = 0; a < arrays; ++a)
            for (std::uint64_t k = threadIdx.x; k < count; k += blockDim.x)
                dst[a][12 * begin + k] = stage[a * tile + k];
        __syncthreads();
    }
}

}  // namespace rxmesh::loop
