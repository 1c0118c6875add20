// The Delaunay flip rule for device code (the decision delaunay_flips,
// algo/delaunay.h, passes to DynamicMesh::flip_pass), for tests and tools
// that run it in passes of their own.
#pragma once

#include "rxmesh/algo/delaunay.h"
#include "rxmesh/dynamic/dynamic_pass.cuh"
#include "rxmesh/geometry/operators.h"

namespace rxmesh {

//! cot(alpha) + cot(beta) for an interior edge; +inf when it has no two faces.
RXMESH_HD inline float delaunay_cotangent_sum(const Vec3& a, const Vec3& b, const Vec3& c,
                                              const Vec3& d)
{
    return cotangent(c, a, b) + cotangent(d, a, b);
}

struct DelaunayDecide
{
    float tolerance;
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        if (e.num_faces != 2 || !e.manifold) return {};
        const float s = delaunay_cotangent_sum(e.position(e.a), e.position(e.b),
                                               e.position(e.c), e.position(e.d));
        return EdgeDecision{s < -tolerance, {}, s};
    }
};

}  // namespace rxmesh
