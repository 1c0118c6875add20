// Serial reference of parallel toplesets propagation (PTP): toplesets by
// breadth-first search, the planar triangle update, and the windowed Jacobi
// iteration, step for step as include/rxmesh/reference/geodesic.h specifies.
#include "rxmesh/reference/geodesic.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "rxmesh/reference/topology.h"

namespace rxmesh::reference {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

//! Builds a Csr of `num_rows` rows from the (row, index) pairs produced by
//! `emit(push)`, which is called twice: once to count, once to fill.
template <typename Emit>
Csr build_csr(std::size_t num_rows, Emit emit)
{
    Csr csr;
    csr.offsets.assign(num_rows + 1, 0);
    emit([&](std::uint32_t row, std::uint32_t) { ++csr.offsets[row + 1]; });
    for (std::size_t r = 0; r < num_rows; ++r)
        csr.offsets[r + 1] += csr.offsets[r];
    csr.indices.resize(csr.offsets[num_rows]);
    std::vector<std::uint32_t> next(csr.offsets.begin(), csr.offsets.end() - 1);
    emit([&](std::uint32_t row, std::uint32_t index) { csr.indices[next[row]++] = index; });
    return csr;
}

bool repeats_vertex(const Triangle& t) { return t[0] == t[1] || t[1] == t[2] || t[0] == t[2]; }

//! Both directions of every face edge joining two distinct vertices. A face
//! that repeats a vertex still joins its distinct corners: (a, a, b) yields
//! the edge a-b (twice; duplicates do not change a breadth-first search).
Csr vertex_neighbours(std::size_t num_vertices, const std::vector<Triangle>& faces)
{
    return build_csr(num_vertices, [&](auto push) {
        for (const Triangle& t : faces)
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t a = t[k], b = t[(k + 1) % 3];
                if (a != b) {
                    push(a, b);
                    push(b, a);
                }
            }
    });
}

//! The faces incident to each vertex, leaving out faces that repeat a vertex:
//! they have no triangle for the planar update to cross.
Csr vertex_faces(std::size_t num_vertices, const std::vector<Triangle>& faces)
{
    return build_csr(num_vertices, [&](auto push) {
        for (std::size_t f = 0; f < faces.size(); ++f)
            if (!repeats_vertex(faces[f]))
                for (std::uint32_t v : faces[f])
                    push(v, std::uint32_t(f));
    });
}

void check_sources(std::size_t num_vertices, const std::vector<std::uint32_t>& sources,
                   const char* function)
{
    for (std::uint32_t s : sources)
        if (s >= num_vertices)
            throw std::invalid_argument(std::string(function) + ": source " + std::to_string(s) +
                                        " is out of range (" + std::to_string(num_vertices) +
                                        " vertices)");
}

using Vec3d = std::array<double, 3>;

Vec3d sub(const Vec3f& a, const Vec3f& b)
{
    return {double(a[0]) - b[0], double(a[1]) - b[1], double(a[2]) - b[2]};
}

double dot(const Vec3d& a, const Vec3d& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

//! The reached vertices grouped by level: row k holds the vertices of level k.
Csr vertices_by_level(const Toplesets& topo)
{
    return build_csr(topo.num_levels, [&](auto push) {
        for (std::size_t v = 0; v < topo.level.size(); ++v)
            if (topo.level[v] != kUnreached)
                push(topo.level[v], std::uint32_t(v));
    });
}

//! Everything one PTP iteration reads, fixed for the whole propagation.
struct PtpProblem
{
    const std::vector<Vec3f>&    positions;
    const std::vector<Triangle>& faces;
    Csr                          faces_of_vertex;
    Csr                          level_vertices;
    double                       tolerance;
};

//! min(D[v], the update of v from each of its faces), reading D only.
double relaxed_distance(const PtpProblem& pb, const std::vector<double>& d, std::uint32_t v)
{
    double best = d[v];
    for (std::uint32_t i = pb.faces_of_vertex.offsets[v]; i < pb.faces_of_vertex.offsets[v + 1];
         ++i) {
        const Triangle& t = pb.faces[pb.faces_of_vertex.indices[i]];
        // rotate the face so that v comes first; the update is symmetric in
        // its two other corners, so their order does not matter
        const int           k = t[0] == v ? 0 : (t[1] == v ? 1 : 2);
        const std::uint32_t a = t[(k + 1) % 3], b = t[(k + 2) % 3];
        best = std::min(best,
                        ptp_update(pb.positions[v], pb.positions[a], pb.positions[b], d[a], d[b]));
    }
    return best;
}

//! Updates every vertex of level k into `next` from `cur`; true when some
//! vertex changed by more than the tolerance, relative to its new value.
bool relax_level(const PtpProblem& pb, std::uint32_t k, const std::vector<double>& cur,
                 std::vector<double>& next)
{
    bool changed = false;
    for (std::uint32_t i = pb.level_vertices.offsets[k]; i < pb.level_vertices.offsets[k + 1];
         ++i) {
        const std::uint32_t v = pb.level_vertices.indices[i];
        next[v]               = relaxed_distance(pb, cur, v);
        // the inequality first: inf - inf is NaN, and an unchanged +inf is
        // no change
        if (next[v] != cur[v] && std::abs(next[v] - cur[v]) > pb.tolerance * next[v])
            changed = true;
    }
    return changed;
}

//! next = cur on the levels [first, last).
void copy_levels(const PtpProblem& pb, std::uint32_t first, std::uint32_t last,
                 const std::vector<double>& cur, std::vector<double>& next)
{
    for (std::uint32_t i = pb.level_vertices.offsets[first]; i < pb.level_vertices.offsets[last];
         ++i) {
        const std::uint32_t v = pb.level_vertices.indices[i];
        next[v]               = cur[v];
    }
}

struct Propagation
{
    int  iterations = 0;
    bool converged  = false;  // the window moved past the last level
};

//! The window iteration of the header; leaves the last written array in
//! `cur`.
Propagation propagate(const PtpProblem& pb, std::uint32_t num_levels, long max_iterations,
                      std::vector<double>& cur, std::vector<double>& next)
{
    std::uint32_t     start = 0, end = std::min<std::uint32_t>(1, num_levels), copy_from = 0;
    std::vector<bool> changed;
    int               iterations = 0;
    while (start < num_levels && iterations < max_iterations) {
        changed.assign(end - start, false);
        for (std::uint32_t k = start; k < end; ++k)
            changed[k - start] = relax_level(pb, k, cur, next);
        // the levels that left the window last time were written in one
        // array only; copying them once makes both arrays agree on them
        copy_levels(pb, copy_from, start, cur, next);
        copy_from                 = start;
        const std::uint32_t first = start;
        while (start < end && !changed[start - first])
            ++start;
        end = std::min(end + 1, num_levels);
        std::swap(cur, next);
        ++iterations;
    }
    if (start < num_levels)
        return {iterations, false};
    // the closing sweeps: every level, until none changes
    while (iterations < max_iterations) {
        bool any = false;
        for (std::uint32_t k = 0; k < num_levels; ++k)
            any = relax_level(pb, k, cur, next) || any;
        std::swap(cur, next);
        ++iterations;
        if (!any)
            return {iterations, true};
    }
    return {iterations, false};
}

}  // namespace

Toplesets toplesets(std::size_t num_vertices, const std::vector<Triangle>& faces,
                    const std::vector<std::uint32_t>& sources)
{
    check_sources(num_vertices, sources, "toplesets");
    const Csr neighbours = vertex_neighbours(num_vertices, faces);
    Toplesets topo;
    topo.level.assign(num_vertices, kUnreached);
    std::vector<std::uint32_t> queue;
    for (std::uint32_t s : sources)
        if (topo.level[s] == kUnreached) {  // a repeated source is queued once
            topo.level[s] = 0;
            queue.push_back(s);
        }
    // first-in first-out: levels leave the queue in increasing order, so
    // the first level given to a vertex is its hop distance
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const std::uint32_t v = queue[head];
        for (std::uint32_t i = neighbours.offsets[v]; i < neighbours.offsets[v + 1]; ++i) {
            const std::uint32_t w = neighbours.indices[i];
            if (topo.level[w] == kUnreached) {
                topo.level[w] = topo.level[v] + 1;
                queue.push_back(w);
            }
        }
    }
    topo.num_levels = queue.empty() ? 0 : topo.level[queue.back()] + 1;
    return topo;
}

double ptp_update(const Vec3f& v, const Vec3f& a, const Vec3f& b, double ta, double tb)
{
    const Vec3d  x0 = sub(a, v), x1 = sub(b, v);
    const double q00 = dot(x0, x0), q01 = dot(x0, x1), q11 = dot(x1, x1);
    // an infinite ta or tb gives +inf on its side, so the min picks the
    // finite side (or stays +inf)
    const double along_edges = std::min(ta + std::sqrt(q00), tb + std::sqrt(q11));
    const double det         = q00 * q11 - q01 * q01;
    if (std::isinf(ta) || std::isinf(tb) || det <= 1e-12 * q00 * q11)
        return along_edges;
    // Q^-1 = [q11, -q01; -q01, q00] / det
    const double ones_q_ones = (q11 - 2 * q01 + q00) / det;                  // 1^T Q^-1 1
    const double ones_q_t    = ((q11 - q01) * ta + (q00 - q01) * tb) / det;  // 1^T Q^-1 t
    const double t_q_t       = (q11 * ta * ta - 2 * q01 * ta * tb + q00 * tb * tb) / det;
    const double disc        = ones_q_t * ones_q_t - ones_q_ones * (t_q_t - 1);
    if (!(disc >= 0))
        return along_edges;
    const double p = (ones_q_t + std::sqrt(disc)) / ones_q_ones;
    // Q^-1 (t - p 1): the front's direction of travel in the basis X; both
    // negative means it reaches v having crossed the edge ab
    const double dir0 = (q11 * (ta - p) - q01 * (tb - p)) / det;
    const double dir1 = (q00 * (tb - p) - q01 * (ta - p)) / det;
    return dir0 < 0 && dir1 < 0 ? p : along_edges;
}

Geodesic geodesic_ptp(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                      const std::vector<std::uint32_t>& sources, double tolerance,
                      int max_iterations)
{
    if (sources.empty())
        throw std::invalid_argument("geodesic_ptp: no source");
    if (!(tolerance > 0))
        throw std::invalid_argument("geodesic_ptp: the tolerance must be > 0, got " +
                                    std::to_string(tolerance));
    check_sources(positions.size(), sources, "geodesic_ptp");

    Geodesic g;
    g.toplesets = toplesets(positions.size(), faces, sources);
    const PtpProblem pb{positions, faces, vertex_faces(positions.size(), faces),
                        vertices_by_level(g.toplesets), tolerance};

    std::vector<double> cur(positions.size(), kInf);
    for (std::uint32_t s : sources)
        cur[s] = 0;
    std::vector<double> next = cur;  // vertices outside the window: equal in both

    const long        num_levels = g.toplesets.num_levels;
    const long        limit      = max_iterations > 0 ? max_iterations : 8 * num_levels + 64;
    const Propagation run        = propagate(pb, g.toplesets.num_levels, limit, cur, next);
    g.iterations                 = run.iterations;
    g.converged                  = run.converged;
    g.distance                   = std::move(cur);
    return g;
}

}  // namespace rxmesh::reference
