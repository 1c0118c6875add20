// The "stage the corners, add if owned" step of a face's contribution to an
// accumulate<Op::FV> (query/accumulate.cuh): the face's three staged corner
// positions, and the value of each corner this call sums (sums.owns(k)),
// computed from (corner, next corner, previous corner) in winding order.
//
//   // vertex normals with Max's weights (algo/vertex_normals.cuh)
//   mesh.accumulate<Op::FV, float, 3>(VertexInput<float, 3>{positions},
//                                     FaceCornerContribution<MaxWeightedNormalTerm>{},
//                                     StoreUnitNormal{normals});
#pragma once

#include <cuda_runtime.h>

#include "rxmesh/geometry/operators.h"
#include "rxmesh/query/accumulate.cuh"

namespace rxmesh {

//! Corner k of a face's staged positions (3 values per vertex, or more:
//! the first three are the position).
template <int M>
__device__ inline Vec3 staged_corner(const StagedRow<float, M>& x, int k)
{
    static_assert(M >= 3, "the staged input holds a position first");
    return {x(k, 0), x(k, 1), x(k, 2)};
}

namespace detail {

__device__ inline void add_corner_value(const VertexSums<float, 3>& sums, int k, const Vec3& v)
{
    const float value[3] = {v.x, v.y, v.z};
    sums.add(k, value);
}
__device__ inline void add_corner_value(const VertexSums<float, 1>& sums, int k, float v)
{
    const float value[1] = {v};
    sums.add(k, value);
}

}  // namespace detail

//! For each corner k of the face that `sums` gathers for, adds
//! corner_value(p_k, p_{k+1}, p_{k+2}) (a Vec3 into 3 sums, a float into 1).
template <int M, typename Sums, typename CornerValue>
__device__ void add_owned_corners(const StagedRow<float, M>& x, const Sums& sums,
                                  const CornerValue& corner_value)
{
    const Vec3 p[3] = {staged_corner(x, 0), staged_corner(x, 1), staged_corner(x, 2)};
    for (int k = 0; k < 3; ++k)
        if (sums.owns(k))  // the other corners are summed by other calls
            detail::add_corner_value(sums, k, corner_value(p[k], p[(k + 1) % 3], p[(k + 2) % 3]));
}

//! accumulate<Op::FV>'s contribution of a face: add_owned_corners with
//! the corner term CornerValue (one of the terms below, or the user's).
template <typename CornerValue>
struct FaceCornerContribution
{
    CornerValue value{};
    template <int N>
    __device__ void operator()(FaceId, const RowView<VertexId>&, const StagedRow<float, 3>& x,
                               const VertexSums<float, N>& sums) const
    {
        add_owned_corners(x, sums, value);
    }
};

// The corner terms of geometry/operators.h as functors, (corner, next, previous).

//! Max's weighted normal term (vertex normals).
struct MaxWeightedNormalTerm
{
    __device__ Vec3 operator()(const Vec3& v, const Vec3& a, const Vec3& b) const
    {
        return max_weighted_normal(v, a, b);
    }
};
//! The face's area vector (area-weighted normals).
struct AreaVectorTerm
{
    __device__ Vec3 operator()(const Vec3& p, const Vec3& q, const Vec3& r) const
    {
        return face_area_vector(p, q, r);
    }
};
//! The corner's mixed Voronoi area (mean curvature flow's mass).
struct MixedVoronoiAreaTerm
{
    __device__ float operator()(const Vec3& i, const Vec3& q, const Vec3& r) const
    {
        return mixed_voronoi_area(i, q, r);
    }
};

}  // namespace rxmesh
