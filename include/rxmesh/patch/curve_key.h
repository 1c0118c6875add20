// Position of a face on a 3D Hilbert curve through the mesh's bounding cube,
// shared by the GPU curve patcher and its CPU reference so that both order
// faces identically.
//
// The key of a face is the Hilbert index of its centroid quantized to a
// 2^16 grid per axis over the bounding cube (the longest side of the
// bounding box on every axis, so cells are cubes). The arithmetic is fixed
// (sum of the three corners left to right, minus 3 * lo, times a scale; no
// operation a compiler could fuse), so host and device get the same bits.
#pragma once

#include <cstdint>

#include "rxmesh/core/macros.h"

namespace rxmesh {

constexpr int kCurveBits = 16;  // grid cells per axis: 2^16

//! What maps a sum of three corners to grid cells: cell = (sum - lo3) * scale.
struct CurveFrame
{
    float lo3[3] = {0, 0, 0};  // 3 * the bounding box's lower corner
    float scale  = 1;          // 2^kCurveBits / (3 * the longest side)
};

//! The frame of a bounding box (lo, hi); a box of zero size gets scale 1.
inline CurveFrame make_curve_frame(const float lo[3], const float hi[3])
{
    CurveFrame frame;
    float      side = 0;
    for (int d = 0; d < 3; ++d) {
        frame.lo3[d] = 3.0f * lo[d];
        side         = side > hi[d] - lo[d] ? side : hi[d] - lo[d];
    }
    if (side > 0) frame.scale = static_cast<float>(double(1u << kCurveBits) / (3.0 * double(side)));
    return frame;
}

//! Hilbert index of grid point (x, y, z), `bits` bits per axis (John
//! Skilling's transpose form: undo the excess work per level, Gray-encode,
//! then interleave the bits, x first).
RXMESH_HD inline std::uint64_t hilbert_index_3d(std::uint32_t x, std::uint32_t y, std::uint32_t z,
                                                int bits)
{
    std::uint32_t       p[3] = {x, y, z};
    const std::uint32_t top  = 1u << (bits - 1);
    for (std::uint32_t q = top; q > 1; q >>= 1) {
        const std::uint32_t low = q - 1;
        for (int i = 0; i < 3; ++i) {
            if (p[i] & q) {
                p[0] ^= low;  // invert
            } else {
                const std::uint32_t t = (p[0] ^ p[i]) & low;  // exchange
                p[0] ^= t;
                p[i] ^= t;
            }
        }
    }
    p[1] ^= p[0];
    p[2] ^= p[1];
    std::uint32_t t = 0;
    for (std::uint32_t q = top; q > 1; q >>= 1)
        if (p[2] & q) t ^= q - 1;
    std::uint64_t key = 0;
    for (int b = bits - 1; b >= 0; --b)
        for (int i = 0; i < 3; ++i) key = (key << 1) | (((p[i] ^ t) >> b) & 1u);
    return key;
}

//! Grid cell of a centroid coordinate: the sum of three corner coordinates.
RXMESH_HD inline std::uint32_t curve_cell(float corner_sum, float lo3, float scale)
{
    const float t   = (corner_sum - lo3) * scale;
    const float max = float((1u << kCurveBits) - 1);
    return static_cast<std::uint32_t>(t > 0 ? (t < max ? t : max) : 0.0f);  // NaN -> 0
}

//! Hilbert key of the face with corners a, b, c (xyz each).
RXMESH_HD inline std::uint64_t face_curve_key(const float* a, const float* b, const float* c,
                                              const CurveFrame& frame)
{
    std::uint32_t cell[3];
    for (int d = 0; d < 3; ++d) {
        const float sum = (a[d] + b[d]) + c[d];
        cell[d]         = curve_cell(sum, frame.lo3[d], frame.scale);
    }
    return hilbert_index_3d(cell[0], cell[1], cell[2], kCurveBits);
}

}  // namespace rxmesh
