// The device side of TriangleBvh: closest(p) for user kernels.
#pragma once

#include <cfloat>

#include "rxmesh/spatial/bvh.h"
#include "rxmesh/spatial/triangle_distance.h"

namespace rxmesh::spatial_detail {

__device__ inline float box_distance2(const Vec3& p, const BvhBox& b)
{
    float d2 = 0.f;
    for (int d = 0; d < 3; ++d) {
        const float x   = p[d];
        const float out = x < b.lo[d] ? b.lo[d] - x : (x > b.hi[d] ? x - b.hi[d] : 0.f);
        d2 += out * out;
    }
    return d2;
}

__device__ inline const BvhBox& box_of(const TriangleBvhView& v, std::uint32_t node)
{
    return (node & kBvhLeafBit) ? v.leaf_box[node & ~kBvhLeafBit] : v.node_box[node];
}

}  // namespace rxmesh::spatial_detail

namespace rxmesh {

//! The nearest point of the mesh to p (the lowest face among equals).
__device__ inline ClosestHit bvh_closest(const TriangleBvhView& v, const Vec3& p)
{
    using namespace spatial_detail;
    ClosestHit    best;
    float         best2 = FLT_MAX;
    std::uint32_t stack[64];  // Karras trees over 30-bit codes and 32-bit ties: depth < 64
    int           top = 0;
    stack[top++]      = v.num_faces == 1 ? kBvhLeafBit : 0u;
    while (top > 0) {
        const std::uint32_t node = stack[--top];
        if (box_distance2(p, box_of(v, node)) > best2) continue;
        if (node & kBvhLeafBit) {
            const std::uint32_t f = v.leaf_face[node & ~kBvhLeafBit];
            const Vec3          q = closest_point_on_triangle(
                p, load3(v.positions, v.faces[3 * f]), load3(v.positions, v.faces[3 * f + 1]),
                load3(v.positions, v.faces[3 * f + 2]));
            const float d2 = squared_norm(q - p);
            if (d2 < best2 || (d2 == best2 && f < best.face)) {
                best2      = d2;
                best.point = q;
                best.face  = f;
            }
            continue;
        }
        const std::uint32_t l = v.children[2 * node], r = v.children[2 * node + 1];
        const float         dl = box_distance2(p, box_of(v, l)), dr = box_distance2(p, box_of(v, r));
        // the farther goes first on the stack, so the nearer is visited first
        if (top + 2 > 64) break;  // unreachable for a well-formed tree; keeps the loop bounded
        stack[top++] = dl <= dr ? r : l;
        stack[top++] = dl <= dr ? l : r;
    }
    best.distance = sqrtf(best2);
    return best;
}

}  // namespace rxmesh
