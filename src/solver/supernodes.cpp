#include "rxmesh/solver/supernodes.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

#include "pattern_checks.h"
#include "rxmesh/core/error.h"

namespace rxmesh {
namespace {

//! Lists of several nodes as CSR: node v's are list[offsets[v] .. offsets[v + 1]).
struct Lists
{
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint32_t> list;

    std::uint64_t count(std::uint32_t v) const { return offsets[v + 1] - offsets[v]; }
};

//! A forest's children lists, each in the order `visit` names its nodes.
Lists children_of(const std::vector<std::int64_t>& parent, const std::vector<std::uint32_t>& visit)
{
    Lists children{std::vector<std::uint64_t>(parent.size() + 1, 0), {}};
    for (const std::int64_t q : parent)
        if (q >= 0) ++children.offsets[q + 1];
    std::partial_sum(children.offsets.begin(), children.offsets.end(), children.offsets.begin());
    children.list.resize(children.offsets.back());
    std::vector<std::uint64_t> next(children.offsets.begin(), children.offsets.end() - 1);
    for (const std::uint32_t v : visit)
        if (parent[v] >= 0) children.list[next[parent[v]]++] = v;
    return children;
}

//! 0, 1, ..., n - 1.
std::vector<std::uint32_t> iota_of(std::uint32_t n)
{
    std::vector<std::uint32_t> all(n);
    std::iota(all.begin(), all.end(), 0u);
    return all;
}

//! The elimination tree and column counts renumbered by a postorder.
struct PostorderedTree
{
    Permutation                order;   // p, then the postorder
    std::vector<std::uint32_t> source;  // source[k]: p's column that is column k
    std::vector<std::int64_t>  parent;
    std::vector<std::uint64_t> counts;
};

void require_tree(const SymbolicFactor& s, std::uint32_t n)
{
    if (s.parent.size() != n || s.column_counts.size() != n)
        throw InvalidInputError("supernodal_factor: a symbolic factor of " +
                                std::to_string(s.parent.size()) + " columns for " +
                                std::to_string(n) + " rows");
    for (std::uint32_t j = 0; j < n; ++j) {
        if (s.parent[j] != -1 && (s.parent[j] <= std::int64_t(j) || s.parent[j] >= n))
            throw InvalidInputError("supernodal_factor: the parent " + std::to_string(s.parent[j]) +
                                    " of column " + std::to_string(j) +
                                    " is not a later column or -1");
        if (s.column_counts[j] == 0 || s.column_counts[j] > n - j)
            throw InvalidInputError("supernodal_factor: column " + std::to_string(j) + " counts " +
                                    std::to_string(s.column_counts[j]) + " entries, not 1 to " +
                                    std::to_string(n - j));
    }
}

void require_options(const SupernodeOptions& options)
{
    if (options.max_columns == 0)
        throw InvalidInputError("supernodal_factor: max_columns is 0; a supernode has a column");
    if (!(options.max_extra_zeros >= 0 && options.max_extra_zeros <= 1))
        throw InvalidInputError("supernodal_factor: max_extra_zeros " +
                                std::to_string(options.max_extra_zeros) + " is not a share in [0, 1]");
}

//! A postorder of s's tree (source columns in their new order): each node's
//! children by ascending column count, so that the last one, which ends right
//! before its parent and is the only one amalgamation can merge into it, is
//! the one whose structure is the nearest to the parent's.
std::vector<std::uint32_t> postorder(const SymbolicFactor& s)
{
    const auto n = std::uint32_t(s.parent.size());
    // the columns by ascending count, ties by column: a counting sort
    std::vector<std::uint32_t> start;
    for (const std::uint64_t c : s.column_counts) {
        if (c + 2 > start.size()) start.resize(c + 2, 0);
        ++start[c + 1];
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<std::uint32_t> by_count(n);
    for (std::uint32_t v = 0; v < n; ++v) by_count[start[s.column_counts[v]]++] = v;
    const Lists                                          children = children_of(s.parent, by_count);
    std::vector<std::uint32_t>                          post;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> stack;  // a node and its next child
    post.reserve(n);
    for (std::uint32_t root = 0; root < n; ++root) {
        if (s.parent[root] != -1) continue;
        stack.push_back({root, children.offsets[root]});
        while (!stack.empty()) {
            const auto [v, next] = stack.back();
            if (next == children.offsets[v + 1]) {
                post.push_back(v);
                stack.pop_back();
                continue;
            }
            ++stack.back().second;
            const std::uint32_t child = children.list[next];
            stack.push_back({child, children.offsets[child]});
        }
    }
    return post;
}

PostorderedTree postordered(const Permutation& p, const SymbolicFactor& s)
{
    PostorderedTree t;
    t.source = postorder(s);
    const auto                 n = std::uint32_t(t.source.size());
    std::vector<std::uint32_t> position(n), new_to_old(n);
    for (std::uint32_t k = 0; k < n; ++k) position[t.source[k]] = k;
    t.parent.resize(n);
    t.counts.resize(n);
    for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t j = t.source[k];
        new_to_old[k]         = p.new_to_old[j];
        t.parent[k]           = s.parent[j] < 0 ? -1 : std::int64_t(position[s.parent[j]]);
        t.counts[k]           = s.column_counts[j];
    }
    t.order = Permutation::from_new_to_old(std::move(new_to_old));
    return t;
}

//! The first column of each fundamental supernode, cut to max_columns,
//! then the number of columns.
std::vector<std::uint32_t> fundamental_supernodes(const PostorderedTree& t,
                                                  std::uint32_t          max_columns)
{
    const auto                 n = std::uint32_t(t.parent.size());
    const Lists                children = children_of(t.parent, iota_of(n));
    std::vector<std::uint32_t> first;
    for (std::uint32_t j = 0; j < n; ++j) {
        const bool joins = j > 0 && t.parent[j - 1] == j && children.count(j) == 1 &&
                           t.counts[j] + 1 == t.counts[j - 1] && j - first.back() < max_columns;
        if (!joins) first.push_back(j);
    }
    first.push_back(n);
    return first;
}

//! column_supernode[j]: the supernode that holds column j.
std::vector<std::uint32_t> column_supernodes(const std::vector<std::uint32_t>& first)
{
    std::vector<std::uint32_t> of(first.back());
    for (std::uint32_t s = 0; s + 1 < first.size(); ++s)
        std::fill(of.begin() + first[s], of.begin() + first[s + 1], s);
    return of;
}

//! The supernodal tree: the parent of s holds the tree parent of s's last
//! column (that column's first row below the diagonal).
std::vector<std::int64_t> supernode_parents(const std::vector<std::uint32_t>& first,
                                            const std::vector<std::int64_t>&  column_parent)
{
    const std::vector<std::uint32_t> of = column_supernodes(first);
    std::vector<std::int64_t>        parent(first.size() - 1);
    for (std::uint32_t s = 0; s < parent.size(); ++s) {
        const std::int64_t q = column_parent[first[s + 1] - 1];
        parent[s]            = q < 0 ? -1 : std::int64_t(of[q]);
    }
    return parent;
}

//! A panel's shape: its columns, its rows, and the true entries of L in it.
struct Panel
{
    std::uint64_t columns = 0, rows = 0, nonzeros = 0;

    //! The entries on and below its diagonal.
    std::uint64_t lower() const { return rows * columns - columns * (columns - 1) / 2; }
    std::uint64_t zeros() const { return lower() - nonzeros; }
};

//! Fundamental supernode j's panel: no zero, its rows its first column's.
Panel fundamental_panel(const std::vector<std::uint32_t>& first,
                        const std::vector<std::uint64_t>& counts, std::uint32_t j)
{
    Panel panel{first[j + 1] - first[j], counts[first[j]], 0};
    for (std::uint32_t c = first[j]; c < first[j + 1]; ++c) panel.nonzeros += counts[c];
    return panel;
}

//! Relaxed amalgamation over the fundamental supernodes, from the last one
//! down: j joins the group that starts right after it when the group's first
//! supernode is j's parent and the merged panel keeps within the options.
//! j's rows below its columns are then among the group's (its parent's
//! rows, the group's columns included), so the merged panel has j's columns
//! more rows than the group. Returns the groups' first columns, then n.
std::vector<std::uint32_t> amalgamate(const std::vector<std::uint32_t>& first,
                                      const std::vector<std::int64_t>&  parent,
                                      const std::vector<std::uint64_t>& counts,
                                      const SupernodeOptions&           options)
{
    const auto m = std::uint32_t(first.size() - 1);
    if (m == 0) return first;
    std::vector<std::uint32_t> kept{first[m]};
    Panel                      group = fundamental_panel(first, counts, m - 1);
    for (std::uint32_t j = m - 1; j-- > 0;) {
        const Panel own = fundamental_panel(first, counts, j);
        const Panel merged{own.columns + group.columns, own.columns + group.rows,
                           own.nonzeros + group.nonzeros};
        const bool  fits = parent[j] == std::int64_t(j) + 1 && merged.columns <= options.max_columns &&
                          double(merged.zeros()) <= options.max_extra_zeros * double(merged.lower());
        if (fits) {
            group = merged;
        } else {
            kept.push_back(first[j + 1]);
            group = own;
        }
    }
    kept.push_back(0);
    std::reverse(kept.begin(), kept.end());
    return kept;
}

//! Each supernode's rows: its columns, then the union of A's rows below them
//! (A's entries in its columns, read from their rows: the pattern is
//! symmetric) and its children's rows below them (children come first:
//! parent[s] > s).
void build_rows(SupernodalFactor& f, const HostCsr& A, const Permutation& order)
{
    const std::uint32_t       m = f.num_supernodes();
    const Lists               children = children_of(f.parent, iota_of(m));
    std::vector<std::int64_t> mark(f.num_columns, -1);
    f.row_offsets.assign(1, 0);
    f.row_offsets.reserve(std::size_t(m) + 1);
    for (std::uint32_t s = 0; s < m; ++s) {
        const std::uint32_t end = f.first_column[s + 1];
        for (std::uint32_t c = f.first_column[s]; c < end; ++c) f.rows.push_back(c);
        const std::size_t below = f.rows.size();
        auto              add   = [&](std::uint32_t r) {
            if (r >= end && mark[r] != s) mark[r] = s, f.rows.push_back(r);
        };
        for (std::uint32_t c = f.first_column[s]; c < end; ++c) {
            const std::uint32_t row = order.new_to_old[c];
            for (std::uint64_t e = A.row_offsets[row]; e < A.row_offsets[row + 1]; ++e)
                add(order.old_to_new[A.columns[e]]);
        }
        for (std::uint64_t e = children.offsets[s]; e < children.offsets[s + 1]; ++e) {
            const std::uint32_t c = children.list[e];
            for (std::uint64_t r = f.row_offsets[c] + f.num_columns_of(c); r < f.row_offsets[c + 1];
                 ++r)
                add(f.rows[r]);
        }
        std::sort(f.rows.begin() + below, f.rows.end());
        f.row_offsets.push_back(f.rows.size());
    }
}

//! Column k's parent in the numbering of p (-1 for a root).
std::int64_t parent_in_p(const PostorderedTree& t, std::uint32_t k)
{
    return t.parent[k] < 0 ? -1 : std::int64_t(t.source[t.parent[k]]);
}

//! The panels against the symbolic factor they were built from: each
//! panel's last column is a column of L whose rows are the panel's below
//! its diagonal block, and no column of L has more rows than its panel.
void require_match(const SupernodalFactor& f, const PostorderedTree& t)
{
    for (std::uint32_t s = 0; s < f.num_supernodes(); ++s) {
        const std::uint32_t last  = f.first_column[s + 1] - 1;
        const std::uint64_t below = f.num_rows_of(s) - f.num_columns_of(s);
        const std::int64_t  first_below =
            below == 0 ? -1 : std::int64_t(f.rows[f.row_offsets[s] + f.num_columns_of(s)]);
        bool matches = t.counts[last] == below + 1 && t.parent[last] == first_below;
        for (std::uint32_t c = f.first_column[s]; c <= last; ++c)
            matches = matches && t.counts[c] <= f.num_rows_of(s) - (c - f.first_column[s]);
        if (!matches)
            throw InvalidInputError(
                "supernodal_factor: the symbolic factor is not A's in the order p (its column " +
                std::to_string(t.source[last]) + " of " + std::to_string(t.counts[last]) +
                " entries and parent " + std::to_string(parent_in_p(t, last)) +
                " against A's supernode of " + std::to_string(f.num_rows_of(s)) + " rows)");
    }
}

void count_sizes(SupernodalFactor& f)
{
    for (std::uint32_t s = 0; s < f.num_supernodes(); ++s) {
        const Panel panel{f.num_columns_of(s), f.num_rows_of(s), 0};
        f.stored_values += panel.rows * panel.columns;
        f.factor_nonzeros += panel.lower();
        for (std::uint64_t c = 0; c < panel.columns; ++c) {
            const double below = double(panel.rows - c - 1);
            f.flops += below * below;
        }
    }
}

//! The supernodes grouped by height (a counting sort; ascending in a level).
void build_levels(SupernodalFactor& f)
{
    const std::uint32_t        m = f.num_supernodes();
    std::vector<std::uint32_t> height(m, 0);
    for (std::uint32_t s = 0; s < m; ++s)
        if (f.parent[s] >= 0) height[f.parent[s]] = std::max(height[f.parent[s]], height[s] + 1);
    const std::uint32_t levels = m == 0 ? 0 : *std::max_element(height.begin(), height.end()) + 1;
    f.level_offsets.assign(levels + 1, 0);
    for (const std::uint32_t h : height) ++f.level_offsets[h + 1];
    std::partial_sum(f.level_offsets.begin(), f.level_offsets.end(), f.level_offsets.begin());
    std::vector<std::uint32_t> next(f.level_offsets.begin(), f.level_offsets.end() - 1);
    f.level_supernodes.resize(m);
    for (std::uint32_t s = 0; s < m; ++s) f.level_supernodes[next[height[s]]++] = s;
}

}  // namespace

SupernodalFactor supernodal_factor(const HostCsr& A, const Permutation& p, const SymbolicFactor& s,
                                   const SupernodeOptions& options)
{
    detail::require_square(A, "supernodal_factor");
    if (p.size() != A.num_rows)
        throw InvalidInputError("supernodal_factor: a permutation of " + std::to_string(p.size()) +
                                " for " + std::to_string(A.num_rows) + " rows");
    require_tree(s, p.size());
    require_options(options);
    PostorderedTree                  t           = postordered(p, s);
    const std::vector<std::uint32_t> fundamental = fundamental_supernodes(t, options.max_columns);
    SupernodalFactor                 f;
    f.num_columns  = p.size();
    f.first_column = amalgamate(fundamental, supernode_parents(fundamental, t.parent), t.counts,
                                options);
    f.parent       = supernode_parents(f.first_column, t.parent);
    build_rows(f, A, t.order);
    require_match(f, t);
    count_sizes(f);
    build_levels(f);
    f.order = std::move(t.order);
    return f;
}

}  // namespace rxmesh
