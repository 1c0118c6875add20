#include "rxmesh/reference/boundary_check.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rxmesh/core/error.h"

namespace rxmesh::reference {
namespace {

using P3 = std::array<double, 3>;

P3 point(const TriangleSoup& m, std::uint32_t v)
{
    return {m.positions[v][0], m.positions[v][1], m.positions[v][2]};
}

//! The boundary of a soup: its edges of exactly one face.
struct Boundary
{
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    std::uint64_t                                        vertices = 0, loops = 0;
};

Boundary boundary_of(const TriangleSoup& m)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> uses;
    for (const Triangle& t : m.faces)
        for (int k = 0; k < 3; ++k)
            ++uses[{std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])}];
    Boundary b;
    for (const auto& [e, n] : uses)
        if (n == 1) b.edges.push_back(e);
    // loops: connected pieces of the boundary edges (union-find over vertices)
    std::vector<std::uint32_t> parent(m.positions.size());
    std::iota(parent.begin(), parent.end(), 0u);
    auto find = [&](std::uint32_t v) {
        while (parent[v] != v) v = parent[v] = parent[parent[v]];
        return v;
    };
    std::vector<bool> on(m.positions.size(), false);
    for (const auto& [u, v] : b.edges) {
        on[u] = on[v] = true;
        parent[find(u)] = find(v);
    }
    for (std::uint32_t v = 0; v < on.size(); ++v)
        if (on[v]) ++b.vertices, b.loops += find(v) == v;
    return b;
}

double distance_to_segment(const P3& p, const P3& a, const P3& b)
{
    P3     ab, ap;
    double len2 = 0, t = 0;
    for (int d = 0; d < 3; ++d) ab[d] = b[d] - a[d], ap[d] = p[d] - a[d];
    for (int d = 0; d < 3; ++d) len2 += ab[d] * ab[d], t += ab[d] * ap[d];
    t = len2 > 0 ? std::clamp(t / len2, 0.0, 1.0) : 0.0;
    double s = 0;
    for (int d = 0; d < 3; ++d) s += (ap[d] - t * ab[d]) * (ap[d] - t * ab[d]);
    return std::sqrt(s);
}

//! The segments of one boundary in a uniform grid of cells 2 r wide: a
//! segment sits in every cell next to (or at) a point sampled along it
//! every r, so a point finds every segment within r of it in its own cell
//! (the sample nearest its closest point is within 1.5 r = 0.75 cells of it
//! on each axis), whatever the segment's length or direction.
class SegmentGrid
{
  public:
    SegmentGrid(const TriangleSoup& m, const Boundary& b, double r)
        : m_mesh(m), m_radius(r), m_cell(2 * r)
    {
        std::vector<std::uint64_t> cells;
        for (const auto& e : b.edges) {
            const P3     p = point(m, e.first), q = point(m, e.second);
            const double len = std::sqrt((q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]) +
                                         (q[2] - p[2]) * (q[2] - p[2]));
            const std::int64_t samples = std::int64_t(std::ceil(len / r)) + 1;
            cells.clear();
            for (std::int64_t i = 0; i <= samples; ++i) {
                const double t = double(i) / double(samples);
                const std::int64_t x = key(p[0] + t * (q[0] - p[0])), y = key(p[1] + t * (q[1] - p[1])),
                                   z = key(p[2] + t * (q[2] - p[2]));
                for (std::int64_t dx = -1; dx <= 1; ++dx)
                    for (std::int64_t dy = -1; dy <= 1; ++dy)
                        for (std::int64_t dz = -1; dz <= 1; ++dz)
                            cells.push_back(hash({x + dx, y + dy, z + dz}));
            }
            std::sort(cells.begin(), cells.end());
            cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
            for (std::uint64_t c : cells) m_cells[c].push_back(e);
        }
    }
    //! The distance from p to the nearest segment if within r; else +inf.
    double distance(const P3& p) const
    {
        const auto it = m_cells.find(hash({key(p[0]), key(p[1]), key(p[2])}));
        double     best = INFINITY;
        if (it == m_cells.end()) return best;
        for (const auto& [u, v] : it->second)
            best = std::min(best, distance_to_segment(p, point(m_mesh, u), point(m_mesh, v)));
        return best <= m_radius ? best : INFINITY;
    }

  private:
    std::int64_t key(double x) const { return std::int64_t(std::floor(x / m_cell)); }
    static std::uint64_t hash(const std::array<std::int64_t, 3>& k)
    {
        return std::uint64_t(k[0]) * 73856093u ^ std::uint64_t(k[1]) * 19349663u ^
               std::uint64_t(k[2]) * 83492791u;
    }
    const TriangleSoup&                                                                 m_mesh;
    double                                                                              m_radius, m_cell;
    std::unordered_map<std::uint64_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> m_cells;
};

std::string number(double x)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", x);
    return b;
}

//! Every vertex and edge midpoint of `from`'s boundary within tolerance of
//! `to`'s; records the largest distance and the first miss.
void sample_against(const TriangleSoup& from, const Boundary& fb, const TriangleSoup& to,
                    const Boundary& tb, double tolerance, const char* side, BoundaryCheck& r)
{
    const SegmentGrid grid(to, tb, tolerance);
    for (const auto& [u, v] : fb.edges) {
        const P3 p = point(from, u), q = point(from, v);
        const P3 mid = {(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2};
        for (const P3& x : {p, mid}) {
            const double d = grid.distance(x);
            r.max_distance = std::max(r.max_distance, d);
            if (d > tolerance && r.first.empty())
                r.first = std::string("the ") + side + " boundary edge (" + std::to_string(u) +
                          ", " + std::to_string(v) + ") is farther than " + number(tolerance) +
                          " from the other boundary";
        }
    }
}

}  // namespace

std::string BoundaryCheck::to_json() const
{
    return "{\"input_boundary_vertices\": " + std::to_string(input_boundary_vertices) +
           ", \"output_boundary_vertices\": " + std::to_string(output_boundary_vertices) +
           ", \"input_loops\": " + std::to_string(input_loops) +
           ", \"output_loops\": " + std::to_string(output_loops) +
           ", \"max_distance\": " + (std::isfinite(max_distance) ? number(max_distance) : "null") +
           ", \"ok\": " + (ok() ? "true" : "false") + "}";
}

BoundaryCheck check_boundary(const TriangleSoup& input, const TriangleSoup& output,
                             double tolerance)
{
    if (!(tolerance > 0) || !std::isfinite(tolerance))
        throw InvalidInputError("check_boundary: the tolerance " + number(tolerance) +
                                " is not positive and finite");
    const Boundary in = boundary_of(input), out = boundary_of(output);
    BoundaryCheck  r;
    r.input_boundary_vertices  = in.vertices;
    r.output_boundary_vertices = out.vertices;
    r.input_loops              = in.loops;
    r.output_loops             = out.loops;
    if (in.loops != out.loops)
        r.first = "the output's boundary has " + std::to_string(out.loops) +
                  " loops, the input's " + std::to_string(in.loops);
    sample_against(output, out, input, in, tolerance, "output's", r);
    sample_against(input, in, output, out, tolerance, "input's", r);
    return r;
}

}  // namespace rxmesh::reference
