#include "rxmesh/solver/ordering.h"

#include <algorithm>
#include <future>
#include <iterator>
#include <numeric>
#include <string>
#include <thread>
#include <utility>

#include "pattern_checks.h"
#include "rxmesh/core/error.h"

namespace rxmesh {

namespace detail {

void require_square(const HostCsr& A, const char* what)
{
    if (A.row_offsets.size() != A.num_rows + 1 || A.row_offsets.back() != A.columns.size())
        throw InvalidInputError(std::string(what) + ": the matrix's row offsets do not match its " +
                                std::to_string(A.num_rows) + " rows and " +
                                std::to_string(A.columns.size()) + " entries");
    for (const std::uint64_t c : A.columns)
        if (c >= A.num_rows)
            throw InvalidInputError(std::string(what) + ": column " + std::to_string(c) +
                                    " of a square matrix of " + std::to_string(A.num_rows) +
                                    " rows");
}

}  // namespace detail

namespace {

//! The recursion of geometric_nested_dissection over one vertex set.
class Dissection
{
   public:
    //! `parallel_depth`: the levels of the recursion whose second half is
    //! ordered on a thread of its own (with its own scratch marks: the two
    //! halves share the separator's vertices as neighbours).
    Dissection(const HostCsr& A, const std::vector<Vec3f>& positions, std::uint32_t leaf,
               int parallel_depth)
        : m_A(A),
          m_positions(positions),
          m_leaf(std::max<std::uint32_t>(leaf, 1)),
          m_parallel_depth(parallel_depth),
          m_side(A.num_rows, kOutside),
          m_local(A.num_rows, 0),
          m_cores(std::max(1u, std::thread::hardware_concurrency()))
    {
    }

    //! Two parts and the separator between them.
    struct Cut
    {
        std::vector<std::uint32_t> parts[2], separator;
    };

    //! `set` in nested-dissection order: each half, then the separator.
    //! Every cut leaves at most 70% of its set to each part (the median
    //! half where the ratio cut does not apply), so the depth is at most
    //! log(n) / log(1 / 0.7) + 1, about 2 log2(n).
    //! The order does not depend on the threads.
    std::vector<std::uint32_t> order(std::vector<std::uint32_t> set, int depth = 0)
    {
        if (set.size() <= m_leaf) return order_leaf(std::move(set));
        Cut chosen;
        if (set.size() >= kRatioSplitMin && ratio_cut(set, chosen, depth)) {
            set = {};
            return order_halves_then(chosen, depth);
        }
        // else the median cut across each axis; the one whose separator is
        // smallest (near the top, the axes on threads of their own, with
        // their own marks)
        Cut              cuts[3];
        const bool       parallel = depth < m_parallel_depth && set.size() >= kParallelSet;
        std::future<Cut> others[2];
        for (int axis = 1; parallel && axis < 3; ++axis)
            others[axis - 1] = std::async(std::launch::async, [&, axis] {
                Dissection scratch(m_A, m_positions, m_leaf, 0);
                return scratch.median_cut(set, axis);
            });
        for (int axis = 0; axis < 3; ++axis)
            cuts[axis] = parallel && axis > 0 ? others[axis - 1].get() : median_cut(set, axis);
        int best = 0;
        for (int axis = 1; axis < 3; ++axis)
            if (cuts[axis].separator.size() < cuts[best].separator.size()) best = axis;
        set = {};
        return order_halves_then(cuts[best], depth);
    }

    //! Each part of `cut` in nested-dissection order, then its separator
    //! (near the top, the second part on a thread of its own).
    std::vector<std::uint32_t> order_halves_then(Cut& cut, int depth)
    {
        std::vector<std::uint32_t>(&parts)[2] = cut.parts;
        std::vector<std::uint32_t>& separator = cut.separator;
        std::vector<std::uint32_t>  out, second;
        if (depth < m_parallel_depth && parts[1].size() >= kParallelSet) {
            std::future<std::vector<std::uint32_t>> other =
                std::async(std::launch::async, [&, half = std::move(parts[1])]() mutable {
                    Dissection sub(m_A, m_positions, m_leaf, m_parallel_depth);
                    return sub.order(std::move(half), depth + 1);
                });
            out    = order(std::move(parts[0]), depth + 1);
            second = other.get();
        } else {
            out    = order(std::move(parts[0]), depth + 1);
            second = order(std::move(parts[1]), depth + 1);
        }
        out.insert(out.end(), second.begin(), second.end());
        std::sort(separator.begin(), separator.end());
        out.insert(out.end(), separator.begin(), separator.end());
        return out;
    }

    //! `set` cut at the median of `axis` into two parts less the separator;
    //! the marks are reset after.
    Cut median_cut(const std::vector<std::uint32_t>& set, int axis)
    {
        Cut c;
        c.separator = median_cut(set, axis, c.parts);
        for (const std::uint32_t v : set) m_side[v] = kOutside;
        return c;
    }

    //! Cuts `set` at the median of `axis` into cut[0] and cut[1], less the
    //! separator it returns; m_side marks the parts (kSeparator its vertices).
    std::vector<std::uint32_t> median_cut(std::vector<std::uint32_t> set, int axis,
                                          std::vector<std::uint32_t> (&cut)[2])
    {
        const auto middle = set.begin() + set.size() / 2;
        std::nth_element(set.begin(), middle, set.end(), [&](std::uint32_t a, std::uint32_t b) {
            return m_positions[a][axis] < m_positions[b][axis] ||
                   (m_positions[a][axis] == m_positions[b][axis] && a < b);
        });
        cut[0].assign(set.begin(), middle);
        cut[1].assign(middle, set.end());
        for (int s = 0; s < 2; ++s)
            for (const std::uint32_t v : cut[s]) m_side[v] = std::uint8_t(s);
        const std::vector<std::uint32_t> edge[2] = {boundary(cut[0], 0), boundary(cut[1], 1)};
        return cover_separator(cut, edge);
    }

   private:
    //! Bins of the coordinate along an axis that ratio_cut weighs.
    static constexpr std::uint32_t kBins = 1024;
    //! Smaller sets are cut at the median: their separators are short
    //! whatever the plane, and weighing the bins would cost more.
    static constexpr std::size_t kRatioSplitMin = 512;

    //! Cuts `set` by the plane across an axis, between two bins of its
    //! coordinate, with the smallest ratio cut |cut edges| n / (n0 n1) among
    //! the planes of every axis with 30% to 70% of the set on each side: a
    //! plane through a narrow part of a curved surface (a neck, a limb) is
    //! taken over a median plane across its widest part. One pass over the
    //! set's edges weighs the three axes; then the separator of the chosen
    //! plane's cut, its marks reset. False, with `cut` untouched, where no
    //! axis spreads the set over such a plane.
    bool ratio_cut(const std::vector<std::uint32_t>& set, Cut& cut, int depth)
    {
        float lo[3], scale[3];
        for (int a = 0; a < 3; ++a) {
            float low = m_positions[set[0]][a], high = low;
            for (const std::uint32_t v : set) {
                low  = std::min(low, m_positions[v][a]);
                high = std::max(high, m_positions[v][a]);
            }
            lo[a]    = low;
            scale[a] = high > low ? float(kBins / (double(high) - double(low))) : 0.f;
        }
        for (const std::uint32_t v : set) m_side[v] = 0;  // members, for the edge scan
        // a large set's vertices in chunks on the cores this level of the
        // recursion leaves it (integer sums: the same counts in any order)
        const std::size_t chunks = std::clamp<std::size_t>(
            std::min<std::size_t>(m_cores >> std::min(depth, 30), set.size() / kScanChunk), 1, 64);
        std::vector<std::future<Weights>> others;
        for (std::size_t c = 1; c < chunks; ++c)
            others.push_back(std::async(std::launch::async, [&, c] {
                Weights w;
                weigh(set, c * set.size() / chunks, (c + 1) * set.size() / chunks, lo, scale, w);
                return w;
            }));
        Weights mine;
        weigh(set, 0, set.size() / chunks, lo, scale, mine);
        for (auto& f : others) {
            const Weights w = f.get();
            for (std::size_t i = 0; i < w.count.size(); ++i) mine.count[i] += w.count[i];
            for (std::size_t i = 0; i < w.delta.size(); ++i) mine.delta[i] += w.delta[i];
        }
        const std::vector<std::uint64_t>& count = mine.count;
        const std::vector<std::int64_t>&  delta = mine.delta;  // edges crossing: prefix sums
        for (const std::uint32_t v : set) m_side[v] = kOutside;
        const double  n         = double(set.size());
        int           axis      = -1;
        std::uint32_t best      = 0;
        double        best_cost = 0;
        for (int a = 0; a < 3; ++a) {
            if (scale[a] == 0.f) continue;
            std::int64_t  crossing = 0;
            std::uint64_t left     = 0;
            for (std::uint32_t t = 1; t < kBins; ++t) {
                crossing += delta[a * (kBins + 1) + t];
                left += count[a * kBins + t - 1];
                if (double(left) < 0.3 * n || double(left) > 0.7 * n) continue;
                const double cost = double(crossing) * n / (double(left) * (n - double(left)));
                if (axis < 0 || cost < best_cost) axis = a, best = t, best_cost = cost;
            }
        }
        if (axis < 0) return false;
        for (const std::uint32_t v : set) {
            const int side = bin_of(v, axis, lo, scale) < best ? 0 : 1;
            cut.parts[side].push_back(v);
            m_side[v] = std::uint8_t(side);
        }
        const std::vector<std::uint32_t> edge[2] = {boundary(cut.parts[0], 0),
                                                    boundary(cut.parts[1], 1)};
        cut.separator                            = cover_separator(cut.parts, edge);
        for (const std::uint32_t v : set) m_side[v] = kOutside;
        return true;
    }

    //! A ratio cut's histograms: vertices per bin, and the prefix-sum deltas
    //! of the edges crossing each plane, for the three axes.
    struct Weights
    {
        std::vector<std::uint64_t> count = std::vector<std::uint64_t>(3 * kBins, 0);
        std::vector<std::int64_t>  delta = std::vector<std::int64_t>(3 * (kBins + 1), 0);
    };
    //! Sets of this many vertices per core are weighed on cores of their own.
    static constexpr std::size_t kScanChunk = 65536;

    std::uint32_t bin_of(std::uint32_t v, int a, const float (&lo)[3], const float (&scale)[3]) const
    {
        return std::min<std::uint32_t>(kBins - 1,
                                       std::uint32_t((m_positions[v][a] - lo[a]) * scale[a]));
    }

    //! set[begin, end)'s vertices and their edges to later members (marked 0
    //! in m_side, which this only reads) into w.
    void weigh(const std::vector<std::uint32_t>& set, std::size_t begin, std::size_t end,
               const float (&lo)[3], const float (&scale)[3], Weights& w) const
    {
        for (std::size_t i = begin; i < end; ++i) {
            const std::uint32_t v = set[i];
            std::uint32_t       bv[3];
            for (int a = 0; a < 3; ++a) ++w.count[a * kBins + (bv[a] = bin_of(v, a, lo, scale))];
            for (std::uint64_t k = m_A.row_offsets[v]; k < m_A.row_offsets[v + 1]; ++k) {
                const std::uint32_t c = m_A.columns[k];
                if (m_side[c] != 0 || c <= v) continue;  // each edge once
                for (int a = 0; a < 3; ++a) {
                    const std::uint32_t bc = bin_of(c, a, lo, scale);
                    if (bc == bv[a]) continue;
                    ++w.delta[a * (kBins + 1) + std::min(bc, bv[a]) + 1];
                    --w.delta[a * (kBins + 1) + std::max(bc, bv[a]) + 1];
                }
            }
        }
    }

    // m_side's marks besides a part's 0 and 1; kLeaf and kOutsideSeen only
    // while a leaf is ordered
    static constexpr std::uint8_t kOutside = 2, kSeparator = 3, kLeaf = 4, kOutsideSeen = 5;
    //! A half this small is ordered on the thread at hand: a thread's own
    //! scratch marks (5 bytes per row of A) would cost more than it saves.
    static constexpr std::size_t kParallelSet = 20000;

    //! The vertices of `part` (side s) with a neighbour on the other side.
    std::vector<std::uint32_t> boundary(const std::vector<std::uint32_t>& part, int s) const
    {
        std::vector<std::uint32_t> out;
        for (const std::uint32_t v : part)
            for (std::uint64_t k = m_A.row_offsets[v]; k < m_A.row_offsets[v + 1]; ++k)
                if (m_side[m_A.columns[k]] == 1 - s) {
                    out.push_back(v);
                    break;
                }
        return out;
    }

    //! The least vertex separator of the cut's edges (a minimum vertex
    //! cover of the bipartite graph of edges between the two parts: König's
    //! theorem, from a maximum matching), removed from its parts; never larger
    //! than either one-sided separator, since each of those is a cover too.
    std::vector<std::uint32_t> cover_separator(std::vector<std::uint32_t> (&parts)[2],
                                               const std::vector<std::uint32_t> (&b)[2])
    {
        for (int s = 0; s < 2; ++s)
            for (std::uint32_t i = 0; i < b[s].size(); ++i) m_local[b[s][i]] = i;
        const std::vector<std::vector<std::uint32_t>> adj = cut_edges(b[0]);
        std::vector<std::int64_t>  match0(b[0].size(), -1), match1(b[1].size(), -1);
        std::vector<std::uint32_t> seen(b[1].size(), 0);
        for (std::uint32_t u = 0; u < b[0].size(); ++u)
            augment(adj, u, u + 1, match0, match1, seen);
        // König: Z = what alternating paths from the unmatched side-0 vertices
        // reach; the cover is side 0 outside Z and side 1 inside it
        std::vector<char>          z0(b[0].size(), 0), z1(b[1].size(), 0);
        std::vector<std::uint32_t> queue;
        for (std::uint32_t u = 0; u < b[0].size(); ++u)
            if (match0[u] < 0) z0[u] = 1, queue.push_back(u);
        for (std::size_t head = 0; head < queue.size(); ++head)
            for (const std::uint32_t w : adj[queue[head]])
                if (!z1[w]) {
                    z1[w]        = 1;  // w is matched, else the matching had a longer path
                    const auto u = std::uint32_t(match1[w]);
                    if (!z0[u]) z0[u] = 1, queue.push_back(u);
                }
        std::vector<std::uint32_t> separator;
        for (std::uint32_t u = 0; u < b[0].size(); ++u)
            if (!z0[u]) separator.push_back(b[0][u]);
        for (std::uint32_t w = 0; w < b[1].size(); ++w)
            if (z1[w]) separator.push_back(b[1][w]);
        for (const std::uint32_t v : separator) m_side[v] = kSeparator;
        for (auto& part : parts)
            part.erase(std::remove_if(part.begin(), part.end(),
                                      [&](std::uint32_t v) { return m_side[v] == kSeparator; }),
                       part.end());
        return separator;
    }

    //! For each side-0 boundary vertex, its side-1 neighbours (local ids).
    std::vector<std::vector<std::uint32_t>> cut_edges(const std::vector<std::uint32_t>& b0) const
    {
        std::vector<std::vector<std::uint32_t>> adj(b0.size());
        for (std::uint32_t u = 0; u < b0.size(); ++u)
            for (std::uint64_t k = m_A.row_offsets[b0[u]]; k < m_A.row_offsets[b0[u] + 1]; ++k)
                if (m_side[m_A.columns[k]] == 1) adj[u].push_back(m_local[m_A.columns[k]]);
        return adj;
    }

    //! One augmenting path from side-0 vertex `root` (Kuhn), depth first
    //! with an explicit stack; `stamp` marks the side-1 vertices this search
    //! has tried. Each vertex is tried once per search, so it ends.
    static void augment(const std::vector<std::vector<std::uint32_t>>& adj, std::uint32_t root,
                        std::uint32_t stamp, std::vector<std::int64_t>& match0,
                        std::vector<std::int64_t>& match1, std::vector<std::uint32_t>& seen)
    {
        // stack[i]: a side-0 vertex and its next edge; via[i]: the side-1
        // vertex whose partner stack[i] is (i > 0)
        std::vector<std::pair<std::uint32_t, std::size_t>> stack{{root, 0}};
        std::vector<std::uint32_t>                         via{0};
        while (!stack.empty()) {
            auto& [u, next] = stack.back();
            if (next == adj[u].size()) {
                stack.pop_back(), via.pop_back();
                continue;
            }
            const std::uint32_t w = adj[u][next++];
            if (seen[w] == stamp) continue;
            seen[w] = stamp;
            if (match1[w] >= 0) {
                stack.push_back({std::uint32_t(match1[w]), 0}), via.push_back(w);
                continue;
            }
            // free: flip the path's edges, from the top down
            std::uint32_t free = w;
            for (std::size_t i = stack.size(); i-- > 0;) {
                match1[free]           = stack[i].first;
                match0[stack[i].first] = free;
                free                   = via[i];
            }
            return;
        }
    }

    //! A leaf's order: minimum degree on its elimination graph, where a
    //! vertex's degree counts its neighbours outside the leaf too (they are
    //! separator vertices, eliminated later, and every one of them is a
    //! nonzero of its column of L); ties go to the input's order.
    std::vector<std::uint32_t> order_leaf(std::vector<std::uint32_t> leaf)
    {
        std::vector<std::uint32_t> out;
        std::sort(leaf.begin(), leaf.end());
        const std::uint32_t m = std::uint32_t(leaf.size());
        for (std::uint32_t i = 0; i < m; ++i) m_local[leaf[i]] = i, m_side[leaf[i]] = kLeaf;
        // local ids: the leaf 0..m-1, then its outside neighbours
        std::vector<std::vector<std::uint32_t>> adj(m);
        std::vector<std::uint32_t>              outside;
        for (std::uint32_t i = 0; i < m; ++i)
            for (std::uint64_t k = m_A.row_offsets[leaf[i]]; k < m_A.row_offsets[leaf[i] + 1];
                 ++k) {
                const std::uint32_t c = m_A.columns[k];
                if (c == leaf[i]) continue;
                if (m_side[c] != kLeaf && m_side[c] != kOutsideSeen) {
                    m_side[c]  = kOutsideSeen;
                    m_local[c] = m + std::uint32_t(outside.size());
                    outside.push_back(c);
                }
                adj[i].push_back(m_local[c]);
            }
        for (auto& a : adj) {
            std::sort(a.begin(), a.end());
            a.erase(std::unique(a.begin(), a.end()), a.end());
        }
        std::vector<char> done(m, 0);
        for (std::uint32_t step = 0; step < m; ++step) {
            std::uint32_t best = m;
            for (std::uint32_t i = 0; i < m; ++i)
                if (!done[i] && (best == m || adj[i].size() < adj[best].size())) best = i;
            done[best] = 1;
            out.push_back(leaf[best]);
            eliminate(adj, best, m);
        }
        for (const std::uint32_t v : leaf) m_side[v] = kOutside;
        for (const std::uint32_t v : outside) m_side[v] = kOutside;
        return out;
    }

    //! Removes leaf vertex v from the elimination graph: its neighbours in
    //! the leaf lose it and gain each other (edges between two outside
    //! vertices change no leaf degree and are not kept).
    static void eliminate(std::vector<std::vector<std::uint32_t>>& adj, std::uint32_t v,
                          std::uint32_t m)
    {
        const std::vector<std::uint32_t> ring = std::move(adj[v]);
        adj[v].clear();
        for (const std::uint32_t a : ring) {
            if (a >= m) continue;
            std::vector<std::uint32_t> merged;
            merged.reserve(adj[a].size() + ring.size());
            std::set_union(adj[a].begin(), adj[a].end(), ring.begin(), ring.end(),
                           std::back_inserter(merged));
            merged.erase(std::remove_if(merged.begin(), merged.end(),
                                        [&](std::uint32_t x) { return x == a || x == v; }),
                         merged.end());
            adj[a] = std::move(merged);
        }
    }

    const HostCsr&             m_A;
    const std::vector<Vec3f>&  m_positions;
    std::uint32_t              m_leaf;
    int                        m_parallel_depth;
    std::vector<std::uint8_t>  m_side;
    std::vector<std::uint32_t> m_local;  // a vertex's index in the set at hand
    std::uint32_t              m_cores;  // the machine's, shared by the recursion's levels
};

}  // namespace

Permutation Permutation::identity(std::uint32_t n)
{
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    return from_new_to_old(std::move(order));
}

Permutation Permutation::from_new_to_old(std::vector<std::uint32_t> new_to_old)
{
    Permutation p;
    p.old_to_new.assign(new_to_old.size(), ~0u);
    for (std::uint32_t k = 0; k < new_to_old.size(); ++k) {
        const std::uint32_t old = new_to_old[k];
        if (old >= new_to_old.size() || p.old_to_new[old] != ~0u)
            throw InvalidInputError("Permutation: entry " + std::to_string(k) + " (" +
                                    std::to_string(old) + ") is out of range or repeated");
        p.old_to_new[old] = k;
    }
    p.new_to_old = std::move(new_to_old);
    return p;
}

Permutation geometric_nested_dissection(const HostCsr& A, const std::vector<Vec3f>& positions,
                                        const NestedDissectionOptions& options)
{
    detail::require_square(A, "geometric_nested_dissection");
    if (positions.size() != A.num_rows)
        throw InvalidInputError("geometric_nested_dissection: " + std::to_string(positions.size()) +
                                " positions for " + std::to_string(A.num_rows) + " rows");
    std::vector<std::uint32_t> all(A.num_rows);
    std::iota(all.begin(), all.end(), 0u);
    // 2^depth threads at most, about one per core
    int depth = 0;
    while ((2u << depth) <= std::max(1u, std::thread::hardware_concurrency())) ++depth;
    Dissection d(A, positions, options.leaf_size, depth);
    return Permutation::from_new_to_old(d.order(std::move(all)));
}

SymbolicFactor symbolic_factor(const HostCsr& A, const Permutation& p)
{
    detail::require_square(A, "symbolic_factor");
    if (p.size() != A.num_rows)
        throw InvalidInputError("symbolic_factor: a permutation of " + std::to_string(p.size()) +
                                " for " + std::to_string(A.num_rows) + " rows");
    const std::uint32_t n = p.size();
    SymbolicFactor      s;
    s.parent.assign(n, -1);
    s.column_counts.assign(n, 1);  // the diagonal
    // Row k of L is A's row k (permuted, columns i < k) closed under the
    // tree: every node on the path from such an i up to k (Liu). The forest
    // of columns < k grows as k does: a path that ends at a root makes k
    // that root's parent. The walk marks what row k reached, so each entry
    // of L is visited once: O(nnz(L)) in all.
    std::vector<std::int64_t> mark(n, -1);
    for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t row = p.new_to_old[k];
        mark[k]                 = k;
        for (std::uint64_t e = A.row_offsets[row]; e < A.row_offsets[row + 1]; ++e) {
            const std::int64_t i = p.old_to_new[A.columns[e]];
            if (i >= std::int64_t(k)) continue;
            for (std::int64_t j = i; mark[j] != std::int64_t(k); j = s.parent[j]) {
                mark[j] = k;
                ++s.column_counts[j];
                if (s.parent[j] == -1) s.parent[j] = k;  // j's subtree first meets k
            }
        }
    }
    for (const std::uint64_t c : s.column_counts) {
        s.factor_nonzeros += c;
        s.flops += double(c - 1) * double(c - 1);
    }
    return s;
}

}  // namespace rxmesh
