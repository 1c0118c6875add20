#include "rxmesh/reference/bilateral.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "rxmesh/core/error.h"
#include "rxmesh/reference/kring.h"
#include "rxmesh/reference/topology.h"

namespace rxmesh::reference {

namespace {

using P3 = std::array<double, 3>;

P3     sub(const P3& a, const P3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const P3& a, const P3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
P3     cross(const P3& a, const P3& b)
{
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

//! The faces that repeat no vertex, after checking every index.
std::vector<Triangle> proper_faces(std::size_t num_vertices, const std::vector<Triangle>& faces)
{
    std::vector<Triangle> kept;
    kept.reserve(faces.size());
    for (std::size_t f = 0; f < faces.size(); ++f) {
        const Triangle& t = faces[f];
        for (const std::uint32_t v : t)
            if (v >= num_vertices)
                throw InvalidInputError("reference::bilateral: face " + std::to_string(f) +
                                        " references vertex " + std::to_string(v) +
                                        " out of range");
        if (t[0] != t[1] && t[1] != t[2] && t[0] != t[2])
            kept.push_back(t);
    }
    return kept;
}

//! Per vertex, the unnormalized sum of cross(q - p, r - p) over its faces.
std::vector<P3> normal_sums(const std::vector<P3>& p, const std::vector<Triangle>& faces)
{
    std::vector<P3> sum(p.size(), P3{0, 0, 0});
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k) {
            const P3& pi = p[t[k]];
            const P3  c  = cross(sub(p[t[(k + 1) % 3]], pi), sub(p[t[(k + 2) % 3]], pi));
            for (int d = 0; d < 3; ++d)
                sum[t[k]][d] += c[d];
        }
    return sum;
}

//! The new position of vertex i (see the header); p[i] where it is kept.
P3 move_vertex(const std::vector<P3>& p, const Csr& vv, std::uint32_t i, const P3& normal_sum)
{
    const P3&    pi  = p[i];
    const double len = std::sqrt(dot(normal_sum, normal_sum));
    if (vv.row_size(i) == 0 || len == 0)
        return pi;
    const P3 n   = {normal_sum[0] / len, normal_sum[1] / len, normal_sum[2] / len};
    double   sc2 = std::numeric_limits<double>::infinity();
    for (std::uint32_t e = vv.offsets[i]; e < vv.offsets[i + 1]; ++e) {
        const P3 d = sub(p[vv.indices[e]], pi);
        sc2        = std::min(sc2, dot(d, d));
    }
    if (sc2 == 0)
        return pi;
    auto inside = [&](std::uint32_t v) {
        const P3 d = sub(p[v], pi);
        return dot(d, d) <= 4 * sc2;
    };
    std::vector<std::uint32_t> ball;
    for (const auto& ring : grow(vv, i, inside, std::numeric_limits<int>::max()))
        ball.insert(ball.end(), ring.begin(), ring.end());

    double sum_h2 = 0, sum_abs = 0;
    for (const std::uint32_t j : ball) {
        const double h = dot(sub(p[j], pi), n);
        sum_h2 += h * h;
        sum_abs += std::fabs(h);
    }
    const double cnt    = double(ball.size());
    const double mean_h = sum_abs / cnt;
    const double sigma_s =
        std::max(1e-12, std::sqrt(std::max(0.0, sum_h2 / cnt - mean_h * mean_h)));
    const double ss2    = sigma_s * sigma_s;
    double       sum_wh = 0, sum_w = 0;
    for (const std::uint32_t j : ball) {
        const P3     d = sub(p[j], pi);
        const double h = dot(d, n);
        const double w = std::exp(-dot(d, d) / (2 * sc2)) * std::exp(-h * h / (2 * ss2));
        sum_wh += w * h;
        sum_w += w;
    }
    const double step = sum_wh / sum_w;
    return {pi[0] + n[0] * step, pi[1] + n[1] * step, pi[2] + n[2] * step};
}

//! One iteration over faces that passed proper_faces and their topology.
std::vector<P3> iterate(const std::vector<P3>& p, const std::vector<Triangle>& kept,
                        const Topology& topo)
{
    const std::vector<P3> sums = normal_sums(p, kept);
    std::vector<P3>       out(p.size());
    for (std::uint32_t i = 0; i < p.size(); ++i)
        out[i] = move_vertex(p, topo.vv, i, sums[i]);
    return out;
}

}  // namespace

std::vector<std::array<double, 3>> bilateral_iteration(
    const std::vector<std::array<double, 3>>& positions, const std::vector<Triangle>& faces)
{
    const std::vector<Triangle> kept         = proper_faces(positions.size(), faces);
    const auto                  num_vertices = static_cast<std::uint32_t>(positions.size());
    return iterate(positions, kept, build_topology(num_vertices, kept));
}

std::vector<std::array<double, 3>> bilateral_denoise(const std::vector<Vec3f>&    positions,
                                                     const std::vector<Triangle>& faces,
                                                     int                          iterations)
{
    if (iterations < 0)
        throw InvalidInputError("reference::bilateral_denoise: iterations must be >= 0, got " +
                                std::to_string(iterations));
    const std::vector<Triangle> kept = proper_faces(positions.size(), faces);
    // the connectivity does not change between iterations: one topology
    const Topology  topo = build_topology(static_cast<std::uint32_t>(positions.size()), kept);
    std::vector<P3> p(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
        p[i] = {double(positions[i][0]), double(positions[i][1]), double(positions[i][2])};
    for (int it = 0; it < iterations; ++it)
        p = iterate(p, kept, topo);
    return p;
}

}  // namespace rxmesh::reference
