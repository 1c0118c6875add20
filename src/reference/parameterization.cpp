#include "rxmesh/reference/parameterization.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "rxmesh/reference/solve_spd.h"
#include "rxmesh/reference/sparse_operators.h"

namespace rxmesh::reference {

namespace {

[[noreturn]] void refuse(const std::string& what)
{
    throw std::invalid_argument("reference parameterization: " + what);
}

std::uint64_t edge_key(std::uint32_t a, std::uint32_t b)
{
    return (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
}

//! Whether triangle (a, b, c) has an area as the cotangents see it (twice
//! its area above FLT_MIN, reference::cotangent's rule).
bool has_area(const Vec3f& a, const Vec3f& b, const Vec3f& c)
{
    const double e0[3] = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
    const double e1[3] = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
    const double x = e0[1] * e1[2] - e0[2] * e1[1], y = e0[2] * e1[0] - e0[0] * e1[2],
                 z = e0[0] * e1[1] - e0[1] * e1[0];
    return std::sqrt(x * x + y * y + z * z) > double(FLT_MIN);
}

double distance(const Vec3f& a, const Vec3f& b)
{
    const double x = double(a[0]) - b[0], y = double(a[1]) - b[1], z = double(a[2]) - b[2];
    return std::sqrt(x * x + y * y + z * z);
}

//! Union-find root with path halving.
std::uint32_t find(std::vector<std::uint32_t>& parent, std::uint32_t v)
{
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
}

//! Directed boundary edges i -> j (next[i] = j), after the edge checks.
std::vector<std::uint32_t> boundary_successors(std::uint32_t n, const std::vector<Triangle>& faces,
                                               std::uint64_t& num_edges)
{
    struct Use
    {
        std::uint32_t count = 0, from = 0, to = 0;  // the first face's direction
    };
    std::unordered_map<std::uint64_t, Use> edges;
    for (std::size_t f = 0; f < faces.size(); ++f) {
        const Triangle& t = faces[f];
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
            refuse("face " + std::to_string(f) + " repeats a vertex");
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t[k], b = t[(k + 1) % 3];
            Use&                u = edges[edge_key(a, b)];
            if (u.count == 1 && u.from == a)
                refuse("the faces across edge " + std::to_string(a) + "-" + std::to_string(b) +
                       " have opposite orientations");
            if (u.count == 2)
                refuse("edge " + std::to_string(a) + "-" + std::to_string(b) +
                       " belongs to more than two faces");
            if (u.count++ == 0) u.from = a, u.to = b;
        }
    }
    num_edges = edges.size();
    std::vector<std::uint32_t> next(n, ~0u);
    for (const auto& [key, u] : edges) {
        if (u.count != 1) continue;
        if (next[u.from] != ~0u)
            refuse("vertex " + std::to_string(u.from) + " is on more than two boundary edges");
        next[u.from] = u.to;
    }
    return next;
}

void require_one_component(std::uint32_t n, const std::vector<Triangle>& faces)
{
    std::vector<std::uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0u);
    std::vector<bool> used(n, false);
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k) {
            used[t[k]]                 = true;
            parent[find(parent, t[k])] = find(parent, t[(k + 1) % 3]);
        }
    for (std::uint32_t v = 0; v < n; ++v)
        if (!used[v]) refuse("vertex " + std::to_string(v) + " belongs to no face");
    for (std::uint32_t v = 1; v < n; ++v)
        if (find(parent, v) != find(parent, 0))
            refuse("the mesh has more than one component (vertices 0 and " + std::to_string(v) +
                   " are not connected)");
}

//! The weighted graph Laplacian: cotangent (reference/sparse_operators.h)
//! or uniform (1 per edge), positive semi-definite.
CsrMatrix weighted_laplacian(const std::vector<Vec3f>&    positions,
                             const std::vector<Triangle>& faces, ParamWeights weights)
{
    CsrMatrix L = cotangent_laplacian(positions, faces);
    if (weights == ParamWeights::cotangent) return L;
    for (std::uint32_t i = 0; i < L.size; ++i) {
        std::uint64_t diagonal = 0;
        for (std::uint64_t k = L.row_offsets[i]; k < L.row_offsets[i + 1]; ++k)
            if (L.columns[k] == i)
                diagonal = k;
            else
                L.values[k] = -1.0;
        L.values[diagonal] = double(L.row_offsets[i + 1] - L.row_offsets[i] - 1);
    }
    return L;
}

//! A from rows of (column, value) maps.
CsrMatrix from_rows(const std::vector<std::map<std::uint32_t, double>>& rows)
{
    CsrMatrix A;
    A.size = std::uint32_t(rows.size());
    A.row_offsets.assign(1, 0);
    for (const auto& row : rows) {
        for (const auto& [c, v] : row) A.columns.push_back(c), A.values.push_back(v);
        A.row_offsets.push_back(A.columns.size());
    }
    return A;
}

//! x with x[fixed] = value: A's fixed rows and columns become the identity
//! and the rest of the system moves their values to the right-hand side.
std::vector<double> solve_with_fixed(const CsrMatrix& A, const std::vector<bool>& is_fixed,
                                     const std::vector<double>& value)
{
    CsrMatrix           B = A;
    std::vector<double> b(A.size, 0.0);
    for (std::uint32_t i = 0; i < A.size; ++i)
        for (std::uint64_t k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k) {
            const std::uint32_t j = A.columns[k];
            if (is_fixed[i] || is_fixed[j]) {
                if (!is_fixed[i]) b[i] -= A.values[k] * value[j];
                B.values[k] = i == j ? 1.0 : 0.0;
            }
        }
    for (std::uint32_t i = 0; i < A.size; ++i)
        if (is_fixed[i]) b[i] = value[i];
    return solve_spd(B, b);
}

}  // namespace

std::vector<std::uint32_t> disk_boundary(const std::vector<Vec3f>&    positions,
                                         const std::vector<Triangle>& faces)
{
    const std::uint32_t n = std::uint32_t(positions.size());
    if (faces.empty()) refuse("the mesh has no face");
    for (std::size_t f = 0; f < faces.size(); ++f)
        for (std::uint32_t v : faces[f])
            if (v >= n) refuse("face " + std::to_string(f) + " names a missing vertex");
    std::uint64_t                    edges = 0;
    const std::vector<std::uint32_t> next  = boundary_successors(n, faces, edges);
    require_one_component(n, faces);
    std::vector<std::uint32_t> loop;
    std::vector<bool>          seen(n, false);
    int                        loops = 0;
    for (std::uint32_t s = 0; s < n; ++s) {
        if (next[s] == ~0u || seen[s]) continue;
        ++loops;
        std::vector<std::uint32_t> walk;
        for (std::uint32_t v = s; !seen[v]; v = next[v]) {
            if (next[v] == ~0u) refuse("the boundary is not closed at vertex " + std::to_string(v));
            seen[v] = true;
            walk.push_back(v);
        }
        if (loop.empty()) loop = walk;
    }
    if (loops == 0) refuse("the mesh has no boundary (closed): not a disk");
    if (loops > 1) refuse("the mesh has " + std::to_string(loops) + " boundary loops, not one");
    const long long euler = (long long)n - (long long)edges + (long long)faces.size();
    if (euler != 1)
        refuse("the Euler characteristic V - E + F is " + std::to_string(euler) +
               ", not 1: not a disk");
    return loop;
}

std::vector<Vec2d> harmonic_extension(const std::vector<Vec3f>&         positions,
                                      const std::vector<Triangle>&      faces,
                                      const std::vector<std::uint32_t>& fixed,
                                      const std::vector<Vec2d>& at, ParamWeights weights)
{
    const std::uint32_t n = std::uint32_t(positions.size());
    if (fixed.size() != at.size()) refuse("fixed vertices and their values differ in number");
    std::vector<bool>   is_fixed(n, false);
    std::vector<double> u(n, 0.0), v(n, 0.0);
    for (std::size_t k = 0; k < fixed.size(); ++k) {
        if (fixed[k] >= n) refuse("fixed vertex " + std::to_string(fixed[k]) + " is out of range");
        if (is_fixed[fixed[k]]) refuse("vertex " + std::to_string(fixed[k]) + " is fixed twice");
        is_fixed[fixed[k]] = true;
        u[fixed[k]]        = at[k][0];
        v[fixed[k]]        = at[k][1];
    }
    const CsrMatrix           L  = weighted_laplacian(positions, faces, weights);
    const std::vector<double> su = solve_with_fixed(L, is_fixed, u);
    const std::vector<double> sv = solve_with_fixed(L, is_fixed, v);
    std::vector<Vec2d>        uv(n);
    for (std::uint32_t i = 0; i < n; ++i) uv[i] = {su[i], sv[i]};
    return uv;
}

std::vector<Vec2d> tutte(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                         ParamWeights weights)
{
    const std::vector<std::uint32_t> loop = disk_boundary(positions, faces);
    std::vector<double>              arc(loop.size() + 1, 0.0);
    for (std::size_t k = 0; k < loop.size(); ++k)
        arc[k + 1] = arc[k] + distance(positions[loop[k]], positions[loop[(k + 1) % loop.size()]]);
    if (!(arc.back() > 0)) refuse("the boundary has no length");
    std::vector<Vec2d> at(loop.size());
    const double       two_pi = 2 * std::acos(-1.0);
    for (std::size_t k = 0; k < loop.size(); ++k) {
        const double angle = two_pi * arc[k] / arc.back();
        at[k]              = {std::cos(angle), std::sin(angle)};
    }
    return harmonic_extension(positions, faces, loop, at, weights);
}

std::vector<Vec2d> lscm(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                        const std::vector<std::uint32_t>& pins_in, const std::vector<Vec2d>& at_in)
{
    const std::uint32_t              n    = std::uint32_t(positions.size());
    const std::vector<std::uint32_t> loop = disk_boundary(positions, faces);
    std::vector<std::uint32_t>       pins = pins_in;
    std::vector<Vec2d>               at   = at_in;
    if (pins.empty()) {
        const auto farthest_from = [&](std::uint32_t a) {
            return *std::max_element(loop.begin(), loop.end(),
                                     [&](std::uint32_t x, std::uint32_t y) {
                                         return distance(positions[a], positions[x]) <
                                                distance(positions[a], positions[y]);
                                     });
        };
        const std::uint32_t first = farthest_from(loop[0]);
        pins                      = {first, farthest_from(first)};
        at                        = {Vec2d{0, 0}, Vec2d{1, 0}};
    }
    if (pins.size() != 2 || at.size() != 2) refuse("LSCM takes two pins and their two points");
    if (pins[0] >= n || pins[1] >= n) refuse("a pin is out of range");
    if (pins[0] == pins[1]) refuse("the two pins are one vertex");
    if (at[0] == at[1]) refuse("the two pins are at one point");
    // Q = blockdiag(L, L) - 2 M, u_i at 2 i and v_i at 2 i + 1: E_C = x^T Q x / 2,
    // E_D = (u^T L u + v^T L v) / 2 and the signed area A = x^T M x, summed
    // per face of positive area over its edges i -> j: 1/2 (u_i v_j - u_j v_i).
    // Each face then adds its own conformal energy, >= 0 (Levy et al.'s
    // per-triangle form); a degenerate face has no cotangent weights, and its
    // area terms alone would make Q indefinite. On a mesh without one this
    // is the boundary loop's sum: an interior edge's terms cancel.
    const CsrMatrix                              L = cotangent_laplacian(positions, faces);
    std::vector<std::map<std::uint32_t, double>> rows(2 * std::size_t(n));
    for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint64_t k = L.row_offsets[i]; k < L.row_offsets[i + 1]; ++k) {
            rows[2 * i][2 * L.columns[k]] += L.values[k];
            rows[2 * i + 1][2 * L.columns[k] + 1] += L.values[k];
        }
    for (const Triangle& t : faces) {
        if (!has_area(positions[t[0]], positions[t[1]], positions[t[2]])) continue;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t i = t[k], j = t[(k + 1) % 3];
            rows[2 * i][2 * j + 1] -= 0.5;
            rows[2 * j + 1][2 * i] -= 0.5;
            rows[2 * j][2 * i + 1] += 0.5;
            rows[2 * i + 1][2 * j] += 0.5;
        }
    }
    std::vector<bool>   is_fixed(2 * std::size_t(n), false);
    std::vector<double> value(2 * std::size_t(n), 0.0);
    for (int p = 0; p < 2; ++p)
        for (int c = 0; c < 2; ++c) {
            is_fixed[2 * pins[p] + c] = true;
            value[2 * pins[p] + c]    = at[p][c];
        }
    const std::vector<double> x = solve_with_fixed(from_rows(rows), is_fixed, value);
    std::vector<Vec2d>        uv(n);
    for (std::uint32_t i = 0; i < n; ++i) uv[i] = {x[2 * i], x[2 * i + 1]};
    return uv;
}

std::vector<double> uv_signed_areas(const std::vector<Vec2d>&    uv,
                                    const std::vector<Triangle>& faces)
{
    std::vector<double> out;
    out.reserve(faces.size());
    for (const Triangle& t : faces) {
        const Vec2d &a = uv[t[0]], &b = uv[t[1]], &c = uv[t[2]];
        out.push_back((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
    }
    return out;
}

}  // namespace rxmesh::reference
