// The 3-vector of positions and normals, on host and device, in float: the
// one geometry vocabulary of every layer (the algorithms' per-triangle terms
// build on it in geometry/operators.h; the changing-topology engine's user
// callbacks receive and return it).
#pragma once

#include <cmath>
#include <cstdint>

#include "rxmesh/core/macros.h"

namespace rxmesh {

struct Vec3
{
    float x = 0.f, y = 0.f, z = 0.f;

    RXMESH_HD float operator[](int d) const { return d == 0 ? x : (d == 1 ? y : z); }
};

RXMESH_HD inline Vec3 operator+(const Vec3& a, const Vec3& b)
{
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
RXMESH_HD inline Vec3 operator-(const Vec3& a, const Vec3& b)
{
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
RXMESH_HD inline Vec3 operator*(const Vec3& a, float s) { return {a.x * s, a.y * s, a.z * s}; }
RXMESH_HD inline Vec3 operator*(float s, const Vec3& a) { return a * s; }

RXMESH_HD inline float dot(const Vec3& a, const Vec3& b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
RXMESH_HD inline Vec3 cross(const Vec3& a, const Vec3& b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
RXMESH_HD inline float squared_norm(const Vec3& a) { return dot(a, a); }
RXMESH_HD inline float norm(const Vec3& a) { return sqrtf(dot(a, a)); }

//! a / |a|, or the zero vector for a zero (or non-finite-length) a.
RXMESH_HD inline Vec3 normalized_or_zero(const Vec3& a)
{
    const float l = norm(a);
    return a * (l > 0.f ? 1.f / l : 0.f);
}

//! The three values of element v in a flat array of 3 floats per element.
RXMESH_HD inline Vec3 load3(const float* values, std::uint64_t v)
{
    return {values[3 * v], values[3 * v + 1], values[3 * v + 2]};
}
RXMESH_HD inline void store3(float* values, std::uint64_t v, const Vec3& a)
{
    values[3 * v]     = a.x;
    values[3 * v + 1] = a.y;
    values[3 * v + 2] = a.z;
}

}  // namespace rxmesh
