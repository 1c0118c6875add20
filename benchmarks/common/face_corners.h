// Comparing two triangle meshes whose vertex numberings differ but whose
// faces come in the same order (e.g. our Loop subdivision and OpenSubdiv's):
// positions are compared through the faces' corners. Header-only host C++,
// usable from .cu and .cpp files.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace rxmesh::bench {

//! Largest distance between corresponding face corners of two triangle
//! meshes (3 floats per vertex, 3 indices per face) that list the same
//! `num_faces` faces in the same order, each face possibly rotated (its
//! corners in the same cyclic order, starting at another corner): per face
//! the best of the 3 rotations, then the worst face. A NaN counts as +inf.
inline double max_face_corner_error(const float* pos_a, const std::uint32_t* faces_a,
                                    const float* pos_b, const std::uint32_t* faces_b,
                                    std::size_t num_faces)
{
    auto distance = [](const float* a, const float* b) {
        double sum = 0;
        for (int d = 0; d < 3; ++d)
            sum += (double(a[d]) - b[d]) * (double(a[d]) - b[d]);
        return std::sqrt(sum);
    };
    const double inf   = std::numeric_limits<double>::infinity();
    double       error = 0;
    for (std::size_t f = 0; f < num_faces; ++f) {
        const std::uint32_t* fa   = faces_a + 3 * f;
        const std::uint32_t* fb   = faces_b + 3 * f;
        double               best = inf;
        for (int r = 0; r < 3; ++r) {
            double worst = 0;
            for (int k = 0; k < 3; ++k) {
                const double d = distance(pos_a + 3 * std::size_t(fa[k]),
                                          pos_b + 3 * std::size_t(fb[(k + r) % 3]));
                worst          = std::max(worst, std::isnan(d) ? inf : d);
            }
            best = std::min(best, worst);
        }
        error = std::max(error, best);
    }
    return error;
}

//! The same for whole arrays; +inf when the face counts differ.
inline double max_face_corner_error(const std::vector<float>&         pos_a,
                                    const std::vector<std::uint32_t>& faces_a,
                                    const std::vector<float>&         pos_b,
                                    const std::vector<std::uint32_t>& faces_b)
{
    if (faces_a.size() != faces_b.size())
        return std::numeric_limits<double>::infinity();
    return max_face_corner_error(pos_a.data(), faces_a.data(), pos_b.data(), faces_b.data(),
                                 faces_a.size() / 3);
}

}  // namespace rxmesh::bench
