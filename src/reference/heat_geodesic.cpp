#include "rxmesh/reference/heat_geodesic.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace rxmesh::reference {

namespace {

using D3 = std::array<double, 3>;

D3     point(const Vec3f& p) { return {p[0], p[1], p[2]}; }
D3     minus(const D3& a, const D3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const D3& a, const D3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
D3     cross(const D3& a, const D3& b)
{
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
//! cot of the angle at k of triangle (k, i, j); 0 when degenerate.
double cot_at(const D3& k, const D3& i, const D3& j)
{
    const D3     e0 = minus(i, k), e1 = minus(j, k);
    const double c = std::sqrt(dot(cross(e0, e1), cross(e0, e1)));
    return c > 0 ? dot(e0, e1) / c : 0.0;
}
bool repeats_vertex(const Triangle& t) { return t[0] == t[1] || t[1] == t[2] || t[0] == t[2]; }

//! t = time_factor h^2 and h, h the mean length of L's edges (each once).
std::pair<double, double> time_step(const std::vector<Vec3f>& positions, const CsrMatrix& L,
                                    double time_factor)
{
    double        sum   = 0;
    std::uint64_t edges = 0;
    for (std::uint32_t i = 0; i < L.size; ++i)
        for (std::uint64_t k = L.row_offsets[i]; k < L.row_offsets[i + 1]; ++k)
            if (L.columns[k] > i) {
                const D3 d = minus(point(positions[L.columns[k]]), point(positions[i]));
                sum += std::sqrt(dot(d, d));
                ++edges;
            }
    if (edges == 0) throw std::invalid_argument("reference::heat_geodesic: the mesh has no edge");
    const double h = sum / double(edges);
    return {time_factor * h * h, h};
}

//! The smallest vertex of each vertex's component over A's pattern.
std::vector<std::uint32_t> component_roots(const CsrMatrix& A)
{
    std::vector<std::uint32_t> root(A.size, ~0u), stack;
    for (std::uint32_t s = 0; s < A.size; ++s) {
        if (root[s] != ~0u) continue;
        root[s] = s;
        stack.assign(1, s);
        while (!stack.empty()) {
            const std::uint32_t v = stack.back();
            stack.pop_back();
            for (std::uint64_t k = A.row_offsets[v]; k < A.row_offsets[v + 1]; ++k)
                if (root[A.columns[k]] == ~0u) {
                    root[A.columns[k]] = s;
                    stack.push_back(A.columns[k]);
                }
        }
    }
    return root;
}

//! Rows with every entry 0 get a 1 on the diagonal; returns which.
std::vector<bool> decouple_empty_rows(CsrMatrix& A)
{
    std::vector<bool> empty(A.size);
    for (std::uint32_t i = 0; i < A.size; ++i) {
        bool zero = true;
        for (std::uint64_t k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k)
            zero = zero && A.values[k] == 0.0;
        empty[i] = zero;
        if (zero)
            for (std::uint64_t k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k)
                if (A.columns[k] == i) A.values[k] = 1.0;
    }
    return empty;
}

//! -div of -grad u / |grad u| at every vertex (Crane et al. eqs. 3 and 4).
std::vector<double> negative_divergence_of_field(const std::vector<Vec3f>&    positions,
                                                 const std::vector<Triangle>& faces,
                                                 const std::vector<double>&   u)
{
    std::vector<double> b(positions.size(), 0.0);
    for (const Triangle& f : faces) {
        if (repeats_vertex(f)) continue;
        const D3 c[3]   = {point(positions[f[0]]), point(positions[f[1]]), point(positions[f[2]])};
        D3       n      = cross(minus(c[1], c[0]), minus(c[2], c[0]));
        const double a2 = std::sqrt(dot(n, n));
        D3           g{0, 0, 0};
        double       scale = 0;  // the terms' sizes: what rounding in g is relative to
        // X does not change when u is scaled: u over its largest corner keeps
        // g's square away from underflow where the heat is tiny
        const double top = std::max({std::abs(u[f[0]]), std::abs(u[f[1]]), std::abs(u[f[2]])});
        if (a2 > 0 && top > 0)
            for (int i = 0; i < 3; ++i) {
                const D3 e = minus(c[(i + 2) % 3], c[(i + 1) % 3]);
                const D3 t = cross({n[0] / a2, n[1] / a2, n[2] / a2}, e);
                for (int q = 0; q < 3; ++q) g[q] += u[f[i]] / top * t[q];
                scale += std::abs(u[f[i]] / top) * std::sqrt(dot(e, e));
            }
        // below 1e-10 of its terms, g is rounding noise (u equal at the
        // corners to ten digits, as on a face a symmetry makes a level set):
        // no direction
        const double len = std::sqrt(dot(g, g));
        const double s   = len > 1e-10 * scale && std::isfinite(len) ? -1.0 / len : 0.0;
        const D3     X{s * g[0], s * g[1], s * g[2]};
        for (int i = 0; i < 3; ++i) {
            const D3 &pi = c[i], &pj = c[(i + 1) % 3], &pk = c[(i + 2) % 3];
            b[f[i]] -= 0.5 * (cot_at(pk, pi, pj) * dot(minus(pj, pi), X) +
                              cot_at(pj, pi, pk) * dot(minus(pk, pi), X));
        }
    }
    return b;
}

//! M + t L.
CsrMatrix heat_system(const CsrMatrix& L, const std::vector<double>& mass, double t)
{
    CsrMatrix H = L;
    for (std::uint32_t i = 0; i < H.size; ++i)
        for (std::uint64_t k = H.row_offsets[i]; k < H.row_offsets[i + 1]; ++k)
            H.values[k] = t * H.values[k] + (H.columns[k] == i ? mass[i] : 0.0);
    return H;
}

//! The largest heat on a reached vertex, and how many reached vertices are
//! not above kHeatFloor.
std::pair<double, std::uint32_t> heat_range(const std::vector<double>& u,
                                            const std::vector<bool>&   reached)
{
    double        largest = 0;
    std::uint32_t low     = 0;
    for (std::size_t v = 0; v < u.size(); ++v) {
        if (!reached[v]) continue;
        largest = std::max(largest, u[v]);
        if (!(u[v] > kHeatFloor)) ++low;
    }
    return {largest, low};
}

}  // namespace

HeatGeodesic heat_geodesic(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                           const std::vector<std::uint32_t>& sources, double time_factor)
{
    if (sources.empty()) throw std::invalid_argument("reference::heat_geodesic: no source");
    for (std::uint32_t s : sources)
        if (s >= positions.size())
            throw std::invalid_argument("reference::heat_geodesic: source " + std::to_string(s) +
                                        " is out of range");
    if (!(time_factor > 0) || !std::isfinite(time_factor))
        throw std::invalid_argument("reference::heat_geodesic: time_factor must be > 0");
    const std::uint32_t n = std::uint32_t(positions.size());
    HeatGeodesic        out;
    CsrMatrix           L                         = cotangent_laplacian(positions, faces);
    std::tie(out.time_step, out.mean_edge_length) = time_step(positions, L, time_factor);
    const std::vector<double>        mass         = lumped_voronoi_mass(positions, faces);
    CsrMatrix                        H            = heat_system(L, mass, out.time_step);
    const std::vector<bool>          no_face      = decouple_empty_rows(H);
    const std::vector<std::uint32_t> root         = component_roots(L);
    const CsrMatrix                  laplacian    = L;
    for (std::uint32_t i = 0; i < n; ++i)  // the roots fixed at 0: row and column of I
        for (std::uint64_t k = L.row_offsets[i]; k < L.row_offsets[i + 1]; ++k)
            if (root[i] == i || root[L.columns[k]] == L.columns[k])
                L.values[k] = L.columns[k] == i ? 1.0 : 0.0;
    decouple_empty_rows(L);

    std::vector<bool> reached(n, false);  // on a component with a source, and on a face
    for (std::uint32_t s : sources) reached[root[s]] = true;
    for (std::uint32_t v = 0; v < n; ++v) reached[v] = reached[root[v]] && !no_face[v];
    std::vector<double> delta(n, 0.0);
    std::vector<double> u;
    for (std::uint32_t pass = 0; pass < kMaxHeatPasses; ++pass) {
        for (std::uint32_t s : sources) delta[s] = out.heat_scale;
        u                         = solve_spd(H, delta);
        const auto [largest, low] = heat_range(u, reached);
        out.low_heat_vertices     = low;
        const HeatStep step       = next_heat_step(largest, low, out.time_step_raises);
        if (step == HeatStep::done) break;
        if (step == HeatStep::rescale) {
            out.heat_scale = rescaled_heat(out.heat_scale, largest);
            ++out.heat_rescales;
            continue;
        }
        out.time_step *= kTimeStepRaise;
        H = heat_system(laplacian, mass, out.time_step);
        decouple_empty_rows(H);
        ++out.time_step_raises;
    }
    std::vector<double> b = negative_divergence_of_field(positions, faces, u);
    for (std::uint32_t i = 0; i < n; ++i)
        if (root[i] == i) b[i] = 0.0;
    const std::vector<double> phi = solve_spd(L, b);

    std::vector<double> shift(n, std::numeric_limits<double>::infinity());  // by root
    for (std::uint32_t s : sources) shift[root[s]] = std::min(shift[root[s]], phi[s]);
    out.distance.assign(n, std::numeric_limits<double>::infinity());
    for (std::uint32_t v = 0; v < n; ++v)
        if (std::isfinite(shift[root[v]]) && !no_face[v]) out.distance[v] = phi[v] - shift[root[v]];
    return out;
}

}  // namespace rxmesh::reference
