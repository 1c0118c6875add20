// The serial oracle's judgement of triangle shape (the GPU's is
// geometry/triangle_shape.h and algo/detail/fan_shape.cuh), in double: the cosine of a
// triangle's smallest angle, the sliver guard, and what a collapse or a
// vertex move of an EditableMesh does to the faces around it.
#pragma once

#include <array>
#include <cstdint>

#include "rxmesh/reference/editable_mesh.h"

namespace rxmesh::reference {

using P3 = std::array<double, 3>;

inline P3     minus3(const P3& a, const P3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline double dot3(const P3& a, const P3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
//! cross(q - p, r - p): twice the area of (p, q, r) along its normal.
inline P3 area_vector(const P3& p, const P3& q, const P3& r)
{
    const P3 u = minus3(q, p), w = minus3(r, p);
    return {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
}

//! The cosine of the smallest angle of (p, q, r); 1 with a zero-length edge.
double smallest_angle_cosine(const P3& p, const P3& q, const P3& r);

//! New faces' smallest angle at least the threshold, or at least the
//! replaced faces' (cosines: the largest cosine is the smallest angle).
struct AngleGuard
{
    double cos_limit = 2;  // above 1: off

    //! degrees 0: off.
    explicit AngleGuard(double degrees);
    bool on() const { return cos_limit <= 1; }
    bool allows(double before, double after) const
    {
        return !on() || after <= cos_limit || after <= before;
    }
};

struct FanShape
{
    double before = -1, after = -1;  // the largest smallest-angle cosine replaced / made
    bool   folds  = false;           // a face made degenerates or turns over
    //! Collapses: the sum over the faces replaced of area x the squared
    //! distance of x from the face's plane (how far the surface moves).
    double error = 0;
};

//! Collapsing (a, b) with the survivor at x: every face of a and b before
//! (the edge's own faces go), the others with either end at x after.
FanShape collapse_shape(const EditableMesh& m, std::uint32_t a, std::uint32_t b, const P3& x);
//! Moving v to x: its faces before and after; a face folds when it degenerates
//! or turns against the fan's area vector before the move, having been with
//! it (a move may mend a folded fan).
FanShape move_shape(const EditableMesh& m, std::uint32_t v, const P3& x);

}  // namespace rxmesh::reference
