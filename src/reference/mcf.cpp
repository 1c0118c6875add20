#include "rxmesh/reference/mcf.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <utility>
#include <vector>

namespace rxmesh::reference {

namespace {

using V3 = std::array<double, 3>;

V3 sub(const Vec3f& a, const Vec3f& b)
{
    return {double(a[0]) - b[0], double(a[1]) - b[1], double(a[2]) - b[2]};
}
double dot(const V3& a, const V3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double cross_norm(const V3& a, const V3& b)
{
    const V3 c = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    return std::sqrt(dot(c, c));
}

bool repeats_vertex(const Triangle& t) { return t[0] == t[1] || t[1] == t[2] || t[0] == t[2]; }

std::array<std::uint32_t, 2> edge_key(std::uint32_t a, std::uint32_t b)
{
    return {std::min(a, b), std::max(a, b)};
}

}  // namespace

double cotangent(const Vec3f& k, const Vec3f& i, const Vec3f& j)
{
    const V3     e0 = sub(i, k), e1 = sub(j, k);
    const double c  = cross_norm(e0, e1);
    return c > FLT_MIN ? dot(e0, e1) / c : 0.0;
}

double mixed_area(const Vec3f& i, const Vec3f& q, const Vec3f& r)
{
    const V3     iq = sub(q, i), ir = sub(r, i);
    const double c  = cross_norm(iq, ir);
    if (!(c > FLT_MIN))
        return 0.0;
    if (dot(iq, ir) < 0)  // obtuse at i
        return c / 4;
    if (dot(sub(i, q), sub(r, q)) < 0 || dot(sub(i, r), sub(q, r)) < 0)
        return c / 8;
    return (dot(ir, ir) * cotangent(q, i, r) + dot(iq, iq) * cotangent(r, i, q)) / 8;
}

McfSystem mcf_system(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                     bool uniform)
{
    McfSystem s;
    // (edge, cotangent opposite it in one face), sorted by edge: equal edges
    // become adjacent, so summing runs of equal keys gives each edge's sum
    std::vector<std::pair<std::array<std::uint32_t, 2>, double>> sides;
    sides.reserve(3 * faces.size());
    s.area.assign(positions.size(), 0.0);
    s.in_face.assign(positions.size(), 0);
    for (const Triangle& t : faces) {
        if (repeats_vertex(t))
            continue;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t[k], b = t[(k + 1) % 3], o = t[(k + 2) % 3];
            sides.emplace_back(edge_key(a, b), cotangent(positions[o], positions[a], positions[b]));
            s.in_face[a] = 1;
            if (!uniform)
                s.area[a] += mixed_area(positions[a], positions[b], positions[o]);
        }
    }
    std::sort(sides.begin(), sides.end());
    for (std::size_t i = 0; i < sides.size();) {
        const auto e   = sides[i].first;
        double     sum = 0;
        for (; i < sides.size() && sides[i].first == e; ++i)
            sum += sides[i].second;
        s.edges.push_back(e);
        s.weight.push_back(uniform ? 1.0 : std::max(0.0, sum));
        if (uniform) {
            s.area[e[0]] += 0.5;
            s.area[e[1]] += 0.5;
        }
    }
    return s;
}

std::vector<double> laplacian_apply(const McfSystem& s, const std::vector<double>& x)
{
    std::vector<double> y(x.size(), 0.0);
    for (std::size_t e = 0; e < s.edges.size(); ++e) {
        const std::size_t i = s.edges[e][0], j = s.edges[e][1];
        for (int d = 0; d < 3; ++d) {
            const double t = s.weight[e] * (x[3 * i + d] - x[3 * j + d]);
            y[3 * i + d] += t;
            y[3 * j + d] -= t;
        }
    }
    return y;
}

CsrMatrix mcf_matrix(const McfSystem& s, double dt)
{
    const std::uint32_t n = std::uint32_t(s.area.size());
    std::vector<std::vector<std::pair<std::uint32_t, double>>> rows(n);
    std::vector<double> diagonal(n);
    for (std::uint32_t v = 0; v < n; ++v) diagonal[v] = 2 * s.area[v];
    for (std::size_t e = 0; e < s.edges.size(); ++e) {
        const auto [i, j] = s.edges[e];
        rows[i].push_back({j, -dt * s.weight[e]});
        rows[j].push_back({i, -dt * s.weight[e]});
        diagonal[i] += dt * s.weight[e];
        diagonal[j] += dt * s.weight[e];
    }
    CsrMatrix A;
    A.size = n;
    A.row_offsets.push_back(0);
    for (std::uint32_t v = 0; v < n; ++v) {
        rows[v].push_back({v, diagonal[v] == 0 ? 1.0 : diagonal[v]});
        std::sort(rows[v].begin(), rows[v].end());
        for (const auto& [c, value] : rows[v]) {
            A.columns.push_back(c);
            A.values.push_back(value);
        }
        A.row_offsets.push_back(A.columns.size());
    }
    return A;
}

std::vector<double> mcf_right_hand_side(const McfSystem& s, double dt,
                                        const std::vector<double>& x0)
{
    std::vector<double> diagonal(s.area.size());
    for (std::size_t v = 0; v < diagonal.size(); ++v) diagonal[v] = 2 * s.area[v];
    for (std::size_t e = 0; e < s.edges.size(); ++e)
        for (std::uint32_t end : s.edges[e]) diagonal[end] += dt * s.weight[e];
    std::vector<double> b(x0.size());
    for (std::size_t i = 0; i < b.size(); ++i)
        b[i] = (diagonal[i / 3] == 0 ? 1.0 : 2 * s.area[i / 3]) * x0[i];
    return b;
}

std::vector<double> mcf_apply(const McfSystem& s, double dt, const std::vector<double>& x)
{
    std::vector<double> y = laplacian_apply(s, x);
    for (std::size_t i = 0; i < y.size(); ++i)
        y[i] = 2 * s.area[i / 3] * x[i] + dt * y[i];
    return y;
}

double mean_edge_length(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces)
{
    std::vector<std::array<std::uint32_t, 2>> edges;
    edges.reserve(3 * faces.size());
    for (const Triangle& t : faces)
        if (!repeats_vertex(t))
            for (int k = 0; k < 3; ++k)
                edges.push_back(edge_key(t[k], t[(k + 1) % 3]));
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    if (edges.empty())
        return 0;
    double sum = 0;
    for (const auto& e : edges) {
        const V3 d = sub(positions[e[0]], positions[e[1]]);
        sum += std::sqrt(dot(d, d));
    }
    return sum / double(edges.size());
}

McfResidual mcf_residual(const McfSystem& s, double dt, const std::vector<double>& x0,
                         const std::vector<double>& x)
{
    const std::vector<double> lx = laplacian_apply(s, x), lx0 = laplacian_apply(s, x0);
    std::vector<double>       scale(x.size());  // (|A| |x|)_i
    for (std::size_t i = 0; i < x.size(); ++i)
        scale[i] = 2 * s.area[i / 3] * std::abs(x[i]);
    for (std::size_t e = 0; e < s.edges.size(); ++e)
        for (int d = 0; d < 3; ++d) {
            const std::size_t i = 3 * std::size_t(s.edges[e][0]) + d;
            const std::size_t j = 3 * std::size_t(s.edges[e][1]) + d;
            const double      t = dt * s.weight[e] * (std::abs(x[i]) + std::abs(x[j]));
            scale[i] += t;
            scale[j] += t;
        }
    double r2 = 0, i2 = 0, s2 = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double r = 2 * s.area[i / 3] * (x[i] - x0[i]) + dt * lx[i];
        r2 += r * r;
        i2 += dt * lx0[i] * dt * lx0[i];
        s2 += scale[i] * scale[i];
    }
    return {std::sqrt(r2), std::sqrt(i2), std::sqrt(s2)};
}

}  // namespace rxmesh::reference
