// What a collapse does to the faces around it, for the edge callbacks of
// the changing-topology engine (simplification; the remesher reads the same
// faces for its other tests in one walk of its own, src/algo/remesh.cu):
// the shape of the faces it replaces and of those it makes
// (geometry/triangle_shape.h), and whether one of them would degenerate or turn
// over (the engine refuses such a collapse; a callback that chooses between
// positions asks first).
//
//   const FanShape s = collapse_shape(e, x);
//   if (s.folds || !guard.allows(s.before, s.after)) return {};
#pragma once

#include "rxmesh/geometry/triangle_shape.h"
#include "rxmesh/dynamic/dynamic_pass.cuh"

namespace rxmesh {

struct FanShape
{
    float before = -1.f;    // the largest smallest-angle cosine of the faces replaced
    float after  = -1.f;    // ... of the faces made
    bool  folds  = false;   // a face made is degenerate or turned against its old self
};

namespace fan_detail {

//! Face (p, y, z) becomes (x, y, z).
__device__ inline void add_moved_face(FanShape& s, const Vec3& p, const Vec3& x, const Vec3& y,
                                      const Vec3& z)
{
    const Vec3 n0 = cross(y - p, z - p), n1 = cross(y - x, z - x);
    s.folds       = s.folds || !(squared_norm(n1) > 0.f) || !(dot(n0, n1) > 0.f);
    s.after       = fmaxf(s.after, smallest_angle_cosine(x, y, z));
}

}  // namespace fan_detail

//! Collapsing edge (e.a, e.b) with the survivor at x: the faces of both ends
//! before (the edge's own faces included: they go), and the others with
//! either end at x. Manifold ends only (a non-manifold one visits nothing).
__device__ inline FanShape collapse_shape(const EdgeContext& e, const Vec3& x)
{
    FanShape s;
    for (const VertexId moved : {e.a, e.b}) {
        const VertexId other = moved == e.a ? e.b : e.a;
        const Vec3     p     = e.position(moved);
        vertex_context(e, moved).for_each_face([&](FaceId, VertexId y, VertexId z) {
            const Vec3 py = e.position(y), pz = e.position(z);
            s.before      = fmaxf(s.before, smallest_angle_cosine(p, py, pz));
            if (y != other && z != other) fan_detail::add_moved_face(s, p, x, py, pz);
        });
    }
    return s;
}

}  // namespace rxmesh
