// The shape of a triangle as the remesher and the simplifier judge it, on
// host and device, in float: the cosine of its smallest angle, and the
// guard that refuses an operation whose new faces have an angle smaller than
// a threshold unless the faces it replaces had one as small already.
//
//   const AngleGuard guard = AngleGuard::from_degrees(20);
//   float before = smallest_angle_cosine(p, q, r);          // -> 1: a sliver
//   float after  = smallest_angle_cosine(x, q, r);
//   if (!guard.allows(before, after)) refuse();
//
// Cosines, not angles: the smallest angle is the one with the largest
// cosine, so comparing cosines needs no acos on the device.
#pragma once

#include <cmath>

#include "rxmesh/core/macros.h"
#include "rxmesh/core/vec3.h"

namespace rxmesh {

//! The cosine of the smallest angle of triangle (p, q, r): the largest of
//! its corners' cosines; 1 (an angle of 0) when an edge has zero length.
RXMESH_HD inline float smallest_angle_cosine(const Vec3& p, const Vec3& q, const Vec3& r)
{
    const Vec3  e[3] = {q - p, r - q, p - r};
    const float l[3] = {squared_norm(e[0]), squared_norm(e[1]), squared_norm(e[2])};
    if (!(l[0] > 0.f && l[1] > 0.f && l[2] > 0.f)) return 1.f;
    float largest = -1.f;
    for (int k = 0; k < 3; ++k) {  // the corner between edge k and the one before it
        const int   j      = (k + 2) % 3;
        const float cosine = -dot(e[k], e[j]) / sqrtf(l[k] * l[j]);
        largest            = cosine > largest ? cosine : largest;
    }
    return largest > 1.f ? 1.f : largest;
}

//! No new face below the threshold angle unless the old ones were already
//! as bad: an operation goes when its new faces' smallest angle is at least
//! the threshold, or at least the smallest angle of the faces it replaces.
struct AngleGuard
{
    float cos_limit = 2.f;  // above 1: off

    //! degrees in [0, 60); 0: off.
    static AngleGuard from_degrees(double degrees)
    {
        return degrees > 0 ? AngleGuard{float(std::cos(degrees * 3.14159265358979323846 / 180))}
                           : AngleGuard{};
    }
    RXMESH_HD bool on() const { return cos_limit <= 1.f; }
    //! before, after: the largest smallest_angle_cosine over the faces
    //! replaced and over the faces made.
    RXMESH_HD bool allows(float before, float after) const
    {
        return !on() || after <= cos_limit || after <= before;
    }
};

}  // namespace rxmesh
