// The "stage the corners, add if owned" step of a face's contribution to an
// accumulate<Op::FV> (query/accumulate.cuh): the face's three staged corner
// positions, and the value of each corner this call sums (sums.owns(k)),
// computed from (corner, next corner, previous corner) in winding order.
//
//   struct MaxFaceContribution {
//       __device__ void operator()(FaceId, const RowView<VertexId>&,
//                                  const StagedRow<float, 3>& x,
//                                  const VertexSums<float, 3>& sums) const
//       {
//           add_owned_corners(x, sums, [](const Vec3& v, const Vec3& a, const Vec3& b) {
//               return max_weighted_normal(v, a, b);
//           });
//       }
//   };
#pragma once

#include <cuda_runtime.h>

#include "rxmesh/algo/geometry.h"
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

}  // namespace rxmesh
