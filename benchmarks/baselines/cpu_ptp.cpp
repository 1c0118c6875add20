#include "cpu_ptp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "rxmesh/algo/detail/ptp_update.h"

namespace rxmesh::baselines {

namespace {

constexpr std::uint32_t kUnreached = ~0u;

//! Vertices in breadth-first order from the sources (so by level), with
//! each vertex's level and the offset of each level in that order.
struct LevelOrder
{
    std::vector<std::uint32_t> order, level, offsets;
};

//! Per vertex, in level order: the other two corners of each triangle (by
//! their rank in level order), in the face's winding from the vertex (faces
//! repeating a vertex left out).
struct Fans
{
    std::vector<std::uint32_t> offsets;
    std::vector<std::uint32_t> corners;  // 2 per entry
};

LevelOrder level_order(std::size_t V, const std::vector<Triangle>& faces,
                       const std::vector<std::uint32_t>& sources)
{
    std::vector<std::uint32_t> off(V + 1, 0), adj;
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k)
            if (t[k] != t[(k + 1) % 3]) {
                ++off[t[k] + 1];
                ++off[t[(k + 1) % 3] + 1];
            }
    for (std::size_t v = 0; v < V; ++v)
        off[v + 1] += off[v];
    adj.resize(off[V]);
    std::vector<std::uint32_t> next(off.begin(), off.end() - 1);
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t[k], b = t[(k + 1) % 3];
            if (a != b) {
                adj[next[a]++] = b;
                adj[next[b]++] = a;
            }
        }
    LevelOrder lo;
    lo.level.assign(V, kUnreached);
    for (std::uint32_t s : sources)
        if (lo.level[s] == kUnreached) {
            lo.level[s] = 0;
            lo.order.push_back(s);
        }
    for (std::size_t head = 0; head < lo.order.size(); ++head) {
        const std::uint32_t v = lo.order[head];
        for (std::uint32_t i = off[v]; i < off[v + 1]; ++i)
            if (lo.level[adj[i]] == kUnreached) {
                lo.level[adj[i]] = lo.level[v] + 1;
                lo.order.push_back(adj[i]);
            }
    }
    const std::uint32_t L = lo.order.empty() ? 0 : lo.level[lo.order.back()] + 1;
    lo.offsets.assign(L + 1, 0);
    for (std::uint32_t v : lo.order)
        ++lo.offsets[lo.level[v] + 1];
    for (std::uint32_t k = 0; k < L; ++k)
        lo.offsets[k + 1] += lo.offsets[k];
    return lo;
}

Fans fans_in_level_order(std::size_t V, const std::vector<Triangle>& faces, const LevelOrder& lo)
{
    std::vector<std::uint32_t> rank(V, kUnreached);
    for (std::uint32_t i = 0; i < lo.order.size(); ++i)
        rank[lo.order[i]] = i;
    Fans fan;
    fan.offsets.assign(lo.order.size() + 1, 0);
    const auto proper = [](const Triangle& t) { return t[0] != t[1] && t[1] != t[2] && t[0] != t[2]; };
    for (const Triangle& t : faces)
        if (proper(t))
            for (std::uint32_t v : t)
                if (rank[v] != kUnreached)
                    ++fan.offsets[rank[v] + 1];
    for (std::size_t i = 0; i < lo.order.size(); ++i)
        fan.offsets[i + 1] += fan.offsets[i];
    fan.corners.resize(2 * std::size_t(fan.offsets.back()));
    std::vector<std::uint32_t> next(fan.offsets.begin(), fan.offsets.end() - 1);
    for (const Triangle& t : faces)
        if (proper(t))
            for (int k = 0; k < 3; ++k)
                if (rank[t[k]] != kUnreached) {
                    const std::uint32_t e = next[rank[t[k]]]++;
                    fan.corners[2 * e]     = rank[t[(k + 1) % 3]];
                    fan.corners[2 * e + 1] = rank[t[(k + 2) % 3]];
                }
    return fan;
}

struct Window
{
    std::uint32_t start = 0, end = 1, copy_from = 0;
};

//! Everything in level order: vertex i is lo.order[i].
struct Ranked
{
    std::vector<Vec3f>         positions;
    std::vector<std::uint32_t> level;
};

Ranked ranked(const std::vector<Vec3f>& positions, const LevelOrder& lo)
{
    Ranked r;
    for (std::uint32_t v : lo.order) {
        r.positions.push_back(positions[v]);
        r.level.push_back(lo.level[v]);
    }
    return r;
}

//! One Jacobi iteration over the vertices of levels [copy_from, end) (ranks
//! [first, last)); true when a vertex changed by more than the tolerance.
bool relax(const Ranked& m, const Fans& fan, std::uint32_t first, std::uint32_t last,
           std::uint32_t start, float tol, long it, const float* in, float* out,
           std::vector<long>& changed_at)
{
    bool any = false;
    for (std::uint32_t v = first; v < last; ++v) {
        const std::uint32_t lv = m.level[v];
        if (lv < start) {  // left the window last iteration
            out[v] = in[v];
            continue;
        }
        float best = std::numeric_limits<float>::infinity();
        for (std::uint32_t e = fan.offsets[v]; e < fan.offsets[v + 1]; ++e) {
            const std::uint32_t p = fan.corners[2 * e], q = fan.corners[2 * e + 1];
            best = std::min(best, float(ptp_update(m.positions[v].data(), m.positions[p].data(),
                                                   m.positions[q].data(), in[p], in[q])));
        }
        const float cur = in[v], next = std::min(cur, best);
        out[v]                        = next;
        if (next != cur && std::fabs(next - cur) > tol * next) {
            changed_at[lv] = it;
            any            = true;
        }
    }
    return any;
}

}  // namespace

CpuPtpResult cpu_ptp(const std::vector<Vec3f>& positions, const std::vector<Triangle>& faces,
                     const std::vector<std::uint32_t>& sources, double tolerance)
{
    const std::size_t V   = positions.size();
    const LevelOrder  lo  = level_order(V, faces, sources);
    const Fans        fan = fans_in_level_order(V, faces, lo);
    const Ranked      m   = ranked(positions, lo);
    CpuPtpResult      r;
    r.levels              = std::uint32_t(lo.offsets.size() - 1);
    const std::uint32_t L = r.levels, n = std::uint32_t(lo.order.size());
    const float         inf = std::numeric_limits<float>::infinity();
    std::vector<float>  d[2] = {std::vector<float>(n, inf), std::vector<float>(n, inf)};
    for (std::uint32_t i = 0; i < n && m.level[i] == 0; ++i)  // the sources come first
        d[0][i] = d[1][i] = 0.f;
    std::vector<long> changed_at(L, -1);
    const long        max_it = 8 * long(L) + 64;
    Window            w;
    bool              sweeping = false;
    for (long it = 0; it < max_it && L > 0; ++it) {
        const bool any = relax(m, fan, lo.offsets[w.copy_from], lo.offsets[w.end], w.start,
                               float(tolerance), it, d[it & 1].data(), d[(it + 1) & 1].data(), changed_at);
        r.iterations = it + 1;
        if (sweeping) {
            ++r.sweeps;
            if (!any) {
                r.converged = true;
                break;
            }
            continue;
        }
        const std::uint32_t end = w.end;
        w.copy_from             = w.start;
        while (w.start < end && changed_at[w.start] != it)
            ++w.start;
        w.end = std::min(end + 1, L);
        if (w.start >= L) {  // from now on: sweeps over every level
            sweeping = true;
            w        = Window{0, L, 0};
        }
    }
    r.distance.assign(V, inf);  // back to the input's numbering
    for (std::uint32_t i = 0; i < n; ++i)
        r.distance[lo.order[i]] = d[r.iterations & 1][i];
    return r;
}

}  // namespace rxmesh::baselines
