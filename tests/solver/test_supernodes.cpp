// The supernodal symbolic analysis (solver/supernodes.h) against the
// definition: each panel's rows are the union of its columns' rows in the
// dense boolean elimination of P A P^T (tests/common/symbolic_oracle.h), in
// the order the analysis returns, on every mesh family and real meshes, in
// the natural order, a random one and nested dissection; the trees, levels
// and amalgamation bounds against their definitions; larger meshes against
// symbolic_factor.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "mesh_families.h"
#include "rxmesh/core/error.h"
#include "rxmesh/solver/ordering.h"
#include "rxmesh/solver/supernodes.h"
#include "symbolic_oracle.h"
#include "test_data.h"

namespace rxmesh {
namespace {

using test::pattern_of;

using Pattern = std::vector<std::vector<char>>;  // Pattern[j][i]: column j, row i

//! The supernode holding column c.
std::uint32_t supernode_of(const SupernodalFactor& f, std::uint32_t c)
{
    return std::uint32_t(std::upper_bound(f.first_column.begin(), f.first_column.end(), c) -
                         f.first_column.begin()) -
           1;
}

std::vector<std::uint32_t> panel_rows(const SupernodalFactor& f, std::uint32_t s)
{
    return {f.rows.begin() + f.row_offsets[s], f.rows.begin() + f.row_offsets[s + 1]};
}

//! The entries on and below a panel's diagonal.
std::uint64_t panel_lower(std::uint64_t rows, std::uint64_t columns)
{
    return rows * columns - columns * (columns - 1) / 2;
}

//! The partition of the columns into consecutive runs of 1 to max_columns.
void expect_partition(const SupernodalFactor& f, std::uint32_t max_columns, const std::string& what)
{
    ASSERT_FALSE(f.first_column.empty()) << what;
    EXPECT_EQ(f.first_column.front(), 0u) << what;
    EXPECT_EQ(f.first_column.back(), f.num_columns) << what;
    ASSERT_EQ(f.parent.size(), f.num_supernodes()) << what;
    ASSERT_EQ(f.row_offsets.size(), f.num_supernodes() + 1) << what;
    EXPECT_EQ(f.row_offsets.back(), f.rows.size()) << what;
    for (std::uint32_t s = 0; s < f.num_supernodes(); ++s) {
        ASSERT_LT(f.first_column[s], f.first_column[s + 1]) << what << ", supernode " << s;
        EXPECT_LE(f.num_columns_of(s), max_columns) << what << ", supernode " << s;
    }
}

//! Each panel's rows: ascending, its columns first, and exactly the rows its
//! columns have in the dense pattern L; explicit zeros within the bound, and
//! none at all when the bound is 0 (each column's rows are then the panel's
//! from that column down).
void expect_rows(const SupernodalFactor& f, const Pattern& L, double max_extra_zeros,
                 const std::string& what)
{
    const std::uint32_t n = f.num_columns;
    for (std::uint32_t s = 0; s < f.num_supernodes(); ++s) {
        const std::string              at   = what + ", supernode " + std::to_string(s);
        const std::uint32_t            first = f.first_column[s], end = f.first_column[s + 1];
        const std::vector<std::uint32_t> rows = panel_rows(f, s);
        ASSERT_GE(rows.size(), end - first) << at;
        EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end())) << at;
        for (std::uint32_t c = first; c < end; ++c) EXPECT_EQ(rows[c - first], c) << at;
        std::vector<std::uint32_t> expected;
        std::uint64_t              nonzeros = 0;
        for (std::uint32_t i = first; i < n; ++i) {
            bool any = false;
            for (std::uint32_t j = first; j < end && j <= i; ++j)
                any = any || L[j][i], nonzeros += L[j][i];
            if (any) expected.push_back(i);
        }
        EXPECT_EQ(rows, expected) << at;
        const std::uint64_t lower = panel_lower(rows.size(), end - first);
        EXPECT_LE(double(lower - nonzeros), max_extra_zeros * double(lower)) << at;
        if (max_extra_zeros == 0) {
            for (std::uint32_t j = first; j < end; ++j)
                for (std::uint32_t k = j - first; k < rows.size(); ++k)
                    EXPECT_TRUE(L[j][rows[k]]) << at << ": column " << j << ", row " << rows[k];
        }
    }
}

//! parent[s]: the supernode of s's first row below its diagonal block.
void expect_tree(const SupernodalFactor& f, const std::string& what)
{
    for (std::uint32_t s = 0; s < f.num_supernodes(); ++s) {
        const std::vector<std::uint32_t> rows = panel_rows(f, s);
        const std::int64_t               want =
            rows.size() == f.num_columns_of(s) ? std::int64_t(-1)
                                               : std::int64_t(supernode_of(f, rows[f.num_columns_of(s)]));
        EXPECT_EQ(f.parent[s], want) << what << ", supernode " << s;
    }
}

//! Every supernode once, in the level of its height (leaves 0), ascending.
void expect_levels(const SupernodalFactor& f, const std::string& what)
{
    const std::uint32_t m = f.num_supernodes();
    ASSERT_FALSE(f.level_offsets.empty()) << what;
    EXPECT_EQ(f.level_offsets.front(), 0u) << what;
    ASSERT_EQ(f.level_offsets.back(), m) << what;
    ASSERT_EQ(f.level_supernodes.size(), m) << what;
    std::vector<std::int64_t> level(m, -1), height(m, 0);
    for (std::uint32_t l = 0; l < f.num_levels(); ++l) {
        EXPECT_LT(f.level_offsets[l], f.level_offsets[l + 1]) << what << ", level " << l;
        for (std::uint32_t k = f.level_offsets[l]; k < f.level_offsets[l + 1]; ++k) {
            const std::uint32_t s = f.level_supernodes[k];
            ASSERT_LT(s, m) << what;
            EXPECT_EQ(level[s], -1) << what << ": supernode " << s << " twice";
            level[s] = l;
            if (k > f.level_offsets[l]) {
                EXPECT_LT(f.level_supernodes[k - 1], s) << what;
            }
        }
    }
    for (std::uint32_t s = 0; s < m; ++s) {
        ASSERT_GE(level[s], 0) << what << ": supernode " << s << " in no level";
        if (f.parent[s] < 0) continue;
        ASSERT_GT(f.parent[s], std::int64_t(s)) << what;
        height[f.parent[s]] = std::max(height[f.parent[s]], height[s] + 1);
    }
    EXPECT_EQ(level, height) << what;
}

//! No two neighbours were left apart that could merge without a zero: the
//! first row below s is s + 1's first column, the widths fit, and s's rows
//! are its columns and s + 1's.
void expect_maximal(const SupernodalFactor& f, std::uint32_t max_columns, const std::string& what)
{
    for (std::uint32_t s = 0; s + 1 < f.num_supernodes(); ++s) {
        const std::vector<std::uint32_t> rows = panel_rows(f, s);
        const std::uint32_t              w    = f.num_columns_of(s);
        if (rows.size() == w || rows[w] != f.first_column[s + 1] ||
            w + f.num_columns_of(s + 1) > max_columns)
            continue;
        EXPECT_NE(rows.size(), w + f.num_rows_of(s + 1)) << what << ", supernodes " << s << ", "
                                                         << s + 1 << " merge without a zero";
    }
}

//! The figures: the panels' sizes; with no explicit zero, symbolic_factor's.
void expect_sizes(const SupernodalFactor& f, const SymbolicFactor& s, bool zero_free,
                  const std::string& what)
{
    std::uint64_t stored = 0, lower = 0, upper = 0;
    double        flops  = 0;
    for (std::uint32_t k = 0; k < f.num_supernodes(); ++k) {
        const std::uint64_t w = f.num_columns_of(k), r = f.num_rows_of(k);
        stored += w * r, lower += panel_lower(r, w), upper += w * (w - 1) / 2;
        for (std::uint64_t c = 0; c < w; ++c) flops += double(r - c - 1) * double(r - c - 1);
    }
    EXPECT_EQ(f.stored_values, stored) << what;
    EXPECT_EQ(f.factor_nonzeros, lower) << what;
    EXPECT_EQ(f.flops, flops) << what;
    EXPECT_GE(f.factor_nonzeros, s.factor_nonzeros) << what;
    if (!zero_free) return;
    EXPECT_EQ(f.stored_values - upper, s.factor_nonzeros) << what;
    EXPECT_EQ(f.factor_nonzeros, s.factor_nonzeros) << what;
    EXPECT_EQ(f.flops, s.flops) << what;
}

//! f's order is p's followed by a postorder: another order of the same fill.
void expect_same_fill(const SupernodalFactor& f, const Pattern& L, const SymbolicFactor& s,
                      const std::string& what)
{
    ASSERT_EQ(f.order.size(), f.num_columns) << what;
    for (std::uint32_t k = 0; k < f.num_columns; ++k)
        ASSERT_EQ(f.order.old_to_new[f.order.new_to_old[k]], k) << what;
    std::uint64_t nonzeros = 0;
    for (std::uint32_t j = 0; j < f.num_columns; ++j)
        for (std::uint32_t i = j; i < f.num_columns; ++i) nonzeros += L[j][i];
    EXPECT_EQ(nonzeros, s.factor_nonzeros) << what;
}

const SupernodeOptions kOptions[] = {{128, 0.0}, {}, {4, 0.5}, {3, 1.0}, {1, 0.0}};

std::string options_name(const SupernodeOptions& o)
{
    return "max_columns " + std::to_string(o.max_columns) + ", max_extra_zeros " +
           std::to_string(o.max_extra_zeros);
}

//! Every check on A in the order p, under each of kOptions.
void check_order(const HostCsr& A, const Permutation& p, const std::string& name)
{
    const SymbolicFactor s = symbolic_factor(A, p);
    for (const SupernodeOptions& options : kOptions) {
        const std::string      what = name + ", " + options_name(options);
        const SupernodalFactor f    = supernodal_factor(A, p, s, options);
        ASSERT_EQ(f.num_columns, A.num_rows) << what;
        expect_partition(f, options.max_columns, what);
        const Pattern L = test::dense_factor_pattern(A, f.order);
        expect_same_fill(f, L, s, what);
        expect_rows(f, L, options.max_extra_zeros, what);
        expect_tree(f, what);
        expect_levels(f, what);
        expect_sizes(f, s, options.max_extra_zeros == 0, what);
        if (options.max_extra_zeros == 0) expect_maximal(f, options.max_columns, what);
    }
}

void check_mesh(const TriangleSoup& soup, const std::string& name)
{
    const HostCsr       A = pattern_of(soup);
    const std::uint32_t n = std::uint32_t(A.num_rows);
    const std::pair<const char*, Permutation> orders[] = {
        {"natural", Permutation::identity(n)},
        {"random", test::random_order(n, 11)},
        {"nested", geometric_nested_dissection(A, soup.positions, {16})}};
    for (const auto& [order, p] : orders) check_order(A, p, name + ", " + order);
}

TEST(Supernodes, PanelsAreTheDenseEliminationOnEveryFamily)
{
    const test::NamedMeshes meshes = test::joined(
        {test::manifold_families(2, {10, 6}, {9, 8}, {8, 5}, 4),
         test::irregular_families({3, 6}, 5, 80), test::repair_families(5),
         {{"grid 24 x 20", generate::grid(24, 20)}}});
    for (const auto& [name, soup] : meshes) check_mesh(soup, name);
}

TEST(Supernodes, PanelsAreTheDenseEliminationOnRealMeshes)
{
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
    const int visited = test::for_each_real_mesh(1500, [&](const std::string& file,
                                                           const TriangleSoup& soup) {
        check_mesh(soup, file);
        return !::testing::Test::HasFailure();
    });
    EXPECT_GT(visited, 0);
}

//! A pattern from its entries below the diagonal (the upper ones mirrored).
HostCsr pattern_from(std::uint32_t n, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& lower)
{
    std::vector<std::vector<std::uint64_t>> rows(n);
    for (std::uint32_t i = 0; i < n; ++i) rows[i].push_back(i);
    for (const auto& [i, j] : lower) rows[i].push_back(j), rows[j].push_back(i);
    HostCsr A;
    A.num_rows = n;
    A.row_offsets.push_back(0);
    for (auto& row : rows) {
        std::sort(row.begin(), row.end());
        A.columns.insert(A.columns.end(), row.begin(), row.end());
        A.row_offsets.push_back(A.columns.size());
    }
    A.values.assign(A.columns.size(), 1.0);
    return A;
}

TEST(Supernodes, ADenseMatrixIsOneSupernodeCutToMaxColumns)
{
    std::vector<std::pair<std::uint32_t, std::uint32_t>> all;
    for (std::uint32_t i = 0; i < 10; ++i)
        for (std::uint32_t j = 0; j < i; ++j) all.push_back({i, j});
    const HostCsr          A = pattern_from(10, all);
    const Permutation      p = Permutation::identity(10);
    const SupernodalFactor f = supernodal_factor(A, p, symbolic_factor(A, p), {4, 0.0});
    EXPECT_EQ(f.first_column, (std::vector<std::uint32_t>{0, 4, 8, 10}));
    EXPECT_EQ(f.parent, (std::vector<std::int64_t>{1, 2, -1}));
    EXPECT_EQ(f.row_offsets, (std::vector<std::uint64_t>{0, 10, 16, 18}));
    EXPECT_EQ(f.stored_values, 10u * 4 + 6 * 4 + 2 * 2);
    EXPECT_EQ(f.factor_nonzeros, 55u);
    EXPECT_EQ(f.level_offsets, (std::vector<std::uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(f.order.new_to_old, p.new_to_old);
}

TEST(Supernodes, APathMergesOnlyAsTheOptionsAllow)
{
    // a path: every column of L has its diagonal and the next row, so no two
    // columns are a fundamental supernode; the last two merge without a
    // zero, and with zeros allowed runs of up to max_columns merge from the
    // top down: [6, 10) (its panel 4 rows), [2, 6) (5 rows), [0, 2) (3 rows)
    std::vector<std::pair<std::uint32_t, std::uint32_t>> path;
    for (std::uint32_t i = 1; i < 10; ++i) path.push_back({i, i - 1});
    const HostCsr        A = pattern_from(10, path);
    const Permutation    p = Permutation::identity(10);
    const SymbolicFactor s = symbolic_factor(A, p);
    const auto zero_free   = supernodal_factor(A, p, s, {128, 0.0});
    EXPECT_EQ(zero_free.first_column,
              (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 10}));
    EXPECT_EQ(zero_free.num_levels(), 9u);
    const auto relaxed = supernodal_factor(A, p, s, {4, 1.0});
    EXPECT_EQ(relaxed.first_column, (std::vector<std::uint32_t>{0, 2, 6, 10}));
    EXPECT_EQ(relaxed.rows,
              (std::vector<std::uint32_t>{0, 1, 2, 2, 3, 4, 5, 6, 6, 7, 8, 9}));
    EXPECT_EQ(relaxed.parent, (std::vector<std::int64_t>{1, 2, -1}));
    EXPECT_EQ(relaxed.factor_nonzeros, 5u + 14 + 10);
    // at most 40 % zeros: [6, 10) keeps 3 zeros of 10; [2, 6) would hold 6 of
    // 14, so 2 stays out and [3, 6) (3 of 9) forms; then [0, 3) (3 of 9)
    EXPECT_EQ(supernodal_factor(A, p, s, {4, 0.4}).first_column,
              (std::vector<std::uint32_t>{0, 3, 6, 10}));
}

TEST(Supernodes, AnEmptyMatrixHasNoSupernode)
{
    const HostCsr          A{0, {0}, {}, {}};
    const Permutation      p = Permutation::identity(0);
    const SupernodalFactor f = supernodal_factor(A, p, symbolic_factor(A, p));
    EXPECT_EQ(f.num_supernodes(), 0u);
    EXPECT_EQ(f.num_levels(), 0u);
    EXPECT_EQ(f.stored_values, 0u);
}

TEST(Supernodes, AmalgamationTradesZerosForFewerPanels)
{
    const TriangleSoup   soup = generate::grid(40, 40);
    const HostCsr        A    = pattern_of(soup);
    const Permutation    p    = geometric_nested_dissection(A, soup.positions);
    const SymbolicFactor s    = symbolic_factor(A, p);
    const auto           none = supernodal_factor(A, p, s, {128, 0.0});
    const auto           some = supernodal_factor(A, p, s, {32, 0.2});
    EXPECT_LT(some.num_supernodes(), none.num_supernodes());
    EXPECT_GT(some.factor_nonzeros, s.factor_nonzeros);  // zeros were added
    EXPECT_LE(double(some.factor_nonzeros - s.factor_nonzeros), 0.2 * double(some.factor_nonzeros));
    EXPECT_EQ(none.factor_nonzeros, s.factor_nonzeros);
    for (std::uint32_t k = 0; k < some.num_supernodes(); ++k) EXPECT_LE(some.num_columns_of(k), 32u);
}

//! A mesh too large for the dense definition, against symbolic_factor in
//! the analysis's order: each panel column's rows are at least its column
//! count, exactly it with no explicit zero.
void check_against_symbolic(const HostCsr& A, const Permutation& p, const std::string& what)
{
    const SymbolicFactor s = symbolic_factor(A, p);
    for (const SupernodeOptions& options : {SupernodeOptions{128, 0.0}, SupernodeOptions{}}) {
        const SupernodalFactor f  = supernodal_factor(A, p, s, options);
        const SymbolicFactor   in = symbolic_factor(A, f.order);
        const std::string      at = what + ", " + options_name(options);
        EXPECT_EQ(in.factor_nonzeros, s.factor_nonzeros) << at;
        expect_partition(f, options.max_columns, at);
        expect_tree(f, at);
        expect_levels(f, at);
        expect_sizes(f, s, options.max_extra_zeros == 0, at);
        for (std::uint32_t k = 0; k < f.num_supernodes(); ++k)
            for (std::uint32_t j = f.first_column[k]; j < f.first_column[k + 1]; ++j) {
                const std::uint64_t panel = f.num_rows_of(k) - (j - f.first_column[k]);
                if (options.max_extra_zeros == 0)
                    ASSERT_EQ(in.column_counts[j], panel) << at << ", column " << j;
                else
                    ASSERT_LE(in.column_counts[j], panel) << at << ", column " << j;
            }
    }
}

TEST(Supernodes, LargeMeshesAgreeWithTheSymbolicFactor)
{
    const TriangleSoup sphere = generate::icosphere(5);
    const HostCsr      A      = pattern_of(sphere);
    check_against_symbolic(A, Permutation::identity(std::uint32_t(A.num_rows)), "icosphere5, natural");
    check_against_symbolic(A, geometric_nested_dissection(A, sphere.positions), "icosphere5, nested");
    test::for_each_cgal_file({"meshes/armadillo.off"}, [&](const std::string& file,
                                                           const TriangleSoup& soup) {
        const HostCsr B = pattern_of(soup);
        check_against_symbolic(B, geometric_nested_dissection(B, soup.positions), file);
    });
}

TEST(Supernodes, BadInputIsRefused)
{
    const TriangleSoup   soup = generate::grid(6, 6);
    const HostCsr        A    = pattern_of(soup);
    const auto           n    = std::uint32_t(A.num_rows);
    const Permutation    p    = Permutation::identity(n);
    const SymbolicFactor s    = symbolic_factor(A, p);
    EXPECT_NO_THROW(supernodal_factor(A, p, s));
    HostCsr broken = A;
    broken.row_offsets.pop_back();
    EXPECT_THROW(supernodal_factor(broken, p, s), InvalidInputError);
    broken            = A;
    broken.columns[3] = n;
    EXPECT_THROW(supernodal_factor(broken, p, s), InvalidInputError);
    EXPECT_THROW(supernodal_factor(A, Permutation::identity(n - 1), s), InvalidInputError);
    SymbolicFactor bad = s;
    bad.parent.pop_back();
    EXPECT_THROW(supernodal_factor(A, p, bad), InvalidInputError);
    bad           = s;
    bad.parent[4] = 2;  // not a later column
    EXPECT_THROW(supernodal_factor(A, p, bad), InvalidInputError);
    bad                  = s;
    bad.column_counts[0] = 0;
    EXPECT_THROW(supernodal_factor(A, p, bad), InvalidInputError);
    bad                  = s;
    bad.column_counts[3] += 1;
    EXPECT_THROW(supernodal_factor(A, p, bad), InvalidInputError);
    // the factor of another order, or of another matrix of A's size
    EXPECT_THROW(supernodal_factor(A, p, symbolic_factor(A, test::random_order(n, 3))),
                 InvalidInputError);
    const HostCsr other = pattern_of(generate::torus(7, 7));  // 49 vertices too
    ASSERT_EQ(other.num_rows, A.num_rows);
    EXPECT_THROW(supernodal_factor(A, p, symbolic_factor(other, p)), InvalidInputError);
    EXPECT_THROW(supernodal_factor(A, p, s, {0, 0.0}), InvalidInputError);
    EXPECT_THROW(supernodal_factor(A, p, s, {128, -0.1}), InvalidInputError);
    EXPECT_THROW(supernodal_factor(A, p, s, {128, 1.5}), InvalidInputError);
    EXPECT_THROW(supernodal_factor(A, p, s, {128, std::numeric_limits<double>::quiet_NaN()}),
                 InvalidInputError);
}

}  // namespace
}  // namespace rxmesh
