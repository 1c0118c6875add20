#include "rxmesh/reference/vertex_normals.h"

#include <array>
#include <cmath>

namespace rxmesh::reference {

std::array<double, 3> max_weight_contribution(const Vec3f& v, const Vec3f& a, const Vec3f& b)
{
    const double e1[3] = {double(a[0]) - v[0], double(a[1]) - v[1], double(a[2]) - v[2]};
    const double e2[3] = {double(b[0]) - v[0], double(b[1]) - v[1], double(b[2]) - v[2]};
    const double l1    = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2];
    const double l2    = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
    if (l1 == 0.0 || l2 == 0.0)
        return {0.0, 0.0, 0.0};
    const double w = 1.0 / (l1 * l2);
    return {(e1[1] * e2[2] - e1[2] * e2[1]) * w, (e1[2] * e2[0] - e1[0] * e2[2]) * w,
            (e1[0] * e2[1] - e1[1] * e2[0]) * w};
}

std::vector<Vec3f> vertex_normals(const std::vector<Vec3f>&    positions,
                                  const std::vector<Triangle>& faces)
{
    std::vector<std::array<double, 3>> sum(positions.size(), {0.0, 0.0, 0.0});
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k) {
            const auto c = max_weight_contribution(positions[t[k]], positions[t[(k + 1) % 3]],
                                                   positions[t[(k + 2) % 3]]);
            for (int d = 0; d < 3; ++d)
                sum[t[k]][d] += c[d];
        }
    std::vector<Vec3f> out(positions.size(), Vec3f{0.f, 0.f, 0.f});
    for (std::size_t v = 0; v < sum.size(); ++v) {
        const double l =
            std::sqrt(sum[v][0] * sum[v][0] + sum[v][1] * sum[v][1] + sum[v][2] * sum[v][2]);
        if (l > 0.0)
            out[v] = {float(sum[v][0] / l), float(sum[v][1] / l), float(sum[v][2] / l)};
    }
    return out;
}

}  // namespace rxmesh::reference
