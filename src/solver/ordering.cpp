#include "rxmesh/solver/ordering.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "rxmesh/core/error.h"

namespace rxmesh {
namespace {

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

//! The recursion of geometric_nested_dissection over one vertex set.
class Dissection
{
   public:
    Dissection(const HostCsr& A, const std::vector<Vec3f>& positions, std::uint32_t leaf)
        : m_A(A), m_positions(positions), m_leaf(std::max<std::uint32_t>(leaf, 1)),
          m_side(A.num_rows, kOutside)
    {
        m_order.reserve(A.num_rows);
    }

    //! Appends `set` in nested-dissection order: each half, then the separator.
    //! Every call at least halves its set, so the depth is at most log2(n) + 1.
    void order(std::vector<std::uint32_t> set)
    {
        if (set.size() <= m_leaf) {
            std::sort(set.begin(), set.end());  // the input's own order
            m_order.insert(m_order.end(), set.begin(), set.end());
            return;
        }
        // the median cut along each axis; the one whose separator is smallest
        std::vector<std::uint32_t> parts[2], separator;
        for (int axis = 0; axis < 3; ++axis) {
            std::vector<std::uint32_t> cut[2];
            std::vector<std::uint32_t> sep = median_cut(set, axis, cut);
            if (axis == 0 || sep.size() < separator.size()) {
                separator = std::move(sep);
                parts[0] = std::move(cut[0]), parts[1] = std::move(cut[1]);
            }
            for (const std::uint32_t v : set) m_side[v] = kOutside;
        }
        set = {};
        order(std::move(parts[0]));
        order(std::move(parts[1]));
        std::sort(separator.begin(), separator.end());
        m_order.insert(m_order.end(), separator.begin(), separator.end());
    }

    std::vector<std::uint32_t> take() { return std::move(m_order); }

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
        return smaller_separator(cut);
    }

   private:
    static constexpr std::uint8_t kOutside = 2, kSeparator = 3;

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

    //! The smaller one-sided separator, removed from its part (no edge then
    //! joins what is left of the two parts).
    std::vector<std::uint32_t> smaller_separator(std::vector<std::uint32_t> (&parts)[2])
    {
        std::vector<std::uint32_t> b[2] = {boundary(parts[0], 0), boundary(parts[1], 1)};
        const int s = b[1].size() < b[0].size() ? 1 : 0;
        for (const std::uint32_t v : b[s]) m_side[v] = kSeparator;
        auto& part = parts[s];
        part.erase(std::remove_if(part.begin(), part.end(),
                                  [&](std::uint32_t v) { return m_side[v] == kSeparator; }),
                   part.end());
        return std::move(b[s]);
    }

    const HostCsr&             m_A;
    const std::vector<Vec3f>&  m_positions;
    std::uint32_t              m_leaf;
    std::vector<std::uint8_t>  m_side;
    std::vector<std::uint32_t> m_order;
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
    require_square(A, "geometric_nested_dissection");
    if (positions.size() != A.num_rows)
        throw InvalidInputError("geometric_nested_dissection: " +
                                std::to_string(positions.size()) + " positions for " +
                                std::to_string(A.num_rows) + " rows");
    std::vector<std::uint32_t> all(A.num_rows);
    std::iota(all.begin(), all.end(), 0u);
    Dissection d(A, positions, options.leaf_size);
    d.order(std::move(all));
    return Permutation::from_new_to_old(d.take());
}

SymbolicFactor symbolic_factor(const HostCsr& A, const Permutation& p)
{
    require_square(A, "symbolic_factor");
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
