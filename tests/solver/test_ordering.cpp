// Orderings and the symbolic analysis of a sparse Cholesky factorization
// (solver/ordering.h) against the definition: elimination on a dense
// boolean pattern of P A P^T (L(i, j) for i > j is nonzero when A(i, j) is
// or when some k < j has L(i, k) and L(j, k)), on every mesh family and real
// meshes, in the natural order, a random one and nested dissection.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "mesh_families.h"
#include "rxmesh/core/error.h"
#include "rxmesh/solver/ordering.h"
#include "symbolic_oracle.h"
#include "test_data.h"

namespace rxmesh {
namespace {

using test::dense_symbolic;
using test::pattern_of;
using test::random_order;

void expect_same(const SymbolicFactor& got, const SymbolicFactor& want, const std::string& what)
{
    EXPECT_EQ(got.parent, want.parent) << what;
    EXPECT_EQ(got.column_counts, want.column_counts) << what;
    EXPECT_EQ(got.factor_nonzeros, want.factor_nonzeros) << what;
    EXPECT_EQ(got.flops, want.flops) << what;
}

void expect_permutation(const Permutation& p, std::uint32_t n, const std::string& what)
{
    ASSERT_EQ(p.size(), n) << what;
    std::vector<std::uint32_t> sorted = p.new_to_old;
    std::sort(sorted.begin(), sorted.end());
    for (std::uint32_t k = 0; k < n; ++k) {
        ASSERT_EQ(sorted[k], k) << what;
        ASSERT_EQ(p.old_to_new[p.new_to_old[k]], k) << what;
    }
}

//! Every ordering's analysis equals the definition on `soup`.
void check_mesh(const TriangleSoup& soup, const std::string& name, std::uint32_t leaf)
{
    const HostCsr       A  = pattern_of(soup);
    const std::uint32_t n  = std::uint32_t(A.num_rows);
    const Permutation   nd = geometric_nested_dissection(A, soup.positions, {leaf});
    expect_permutation(nd, n, name);
    const std::pair<const char*, Permutation> orders[] = {
        {"natural", Permutation::identity(n)}, {"random", random_order(n, 7)}, {"nested", nd}};
    for (const auto& [order, p] : orders)
        expect_same(symbolic_factor(A, p), dense_symbolic(A, p), name + ", " + order);
}

TEST(Ordering, SymbolicFactorIsTheDefinitionOnEveryFamily)
{
    const test::NamedMeshes meshes =
        test::joined({test::manifold_families(2, {10, 6}, {9, 8}, {8, 5}, 4),
                      test::irregular_families({3, 6}, 5, 80), test::repair_families(5)});
    for (const auto& [name, soup] : meshes)
        for (const std::uint32_t leaf : {1u, 8u, 64u}) check_mesh(soup, name, leaf);
}

TEST(Ordering, SymbolicFactorIsTheDefinitionOnRealMeshes)
{
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
    const int visited =
        test::for_each_real_mesh(1500, [&](const std::string& file, const TriangleSoup& soup) {
            check_mesh(soup, file, 16);
            return !::testing::Test::HasFailure();
        });
    EXPECT_GT(visited, 0);
}

TEST(Ordering, NestedDissectionCutsTheFillOfAGrid)
{
    // a 64 x 64 grid: the natural order is banded, about 64 entries per
    // column of L (n^1.5 entries, n^2 flops); nested dissection's (George
    // 1973: O(n log n) entries, O(n^1.5) flops) must at least halve both
    const TriangleSoup soup = generate::grid(64, 64);
    const HostCsr      A    = pattern_of(soup);
    const auto natural      = symbolic_factor(A, Permutation::identity(std::uint32_t(A.num_rows)));
    const auto nested       = symbolic_factor(A, geometric_nested_dissection(A, soup.positions));
    EXPECT_LT(2 * nested.factor_nonzeros, natural.factor_nonzeros)
        << nested.factor_nonzeros << " against " << natural.factor_nonzeros;
    EXPECT_LT(2 * nested.flops, natural.flops) << nested.flops << " against " << natural.flops;
}

TEST(Ordering, SeparatorsSplitTheMesh)
{
    // leaves of one vertex: every vertex is a separator of the set it was
    // in, or a leaf; the tree of the nested order must then be at most as
    // deep as the dissection (log2 n levels of separators, each a path in
    // the tree of at most its size), far below the natural order's n
    const TriangleSoup soup = generate::icosphere(4);
    const HostCsr      A    = pattern_of(soup);
    const auto         s = symbolic_factor(A, geometric_nested_dissection(A, soup.positions, {1}));
    std::uint32_t      deepest = 0;
    for (std::uint32_t k = 0; k < s.parent.size(); ++k) {
        std::uint32_t depth = 0;
        for (std::int64_t j = k; j >= 0; j = s.parent[j]) ++depth;
        deepest = std::max(deepest, depth);
    }
    EXPECT_LT(deepest, A.num_rows / 4) << "of " << A.num_rows;
}

//! The unit-square cells (i, j) of `cells`, two triangles each, on a
//! lattice (shared corners shared).
TriangleSoup lattice_region(const std::vector<std::pair<int, int>>& cells)
{
    TriangleSoup                                               m;
    std::vector<std::pair<std::pair<int, int>, std::uint32_t>> ids;
    auto                                                       id = [&](int x, int y) {
        for (const auto& [xy, v] : ids)
            if (xy == std::pair{x, y}) return v;
        ids.push_back({{x, y}, std::uint32_t(m.positions.size())});
        m.positions.push_back({float(x), float(y), 0.f});
        return ids.back().second;
    };
    for (const auto& [i, j] : cells) {
        const std::uint32_t a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
        m.faces.push_back({a, b, c});
        m.faces.push_back({a, c, d});
    }
    return m;
}

//! Two blobs joined by a neck two cells wide, the neck at two thirds of the
//! vertices along x: the first cut must be across the neck (a separator of
//! its three vertices), not the median plane across the larger blob (31).
//! The first separator is the top of the elimination tree: the path down
//! from the root until a node with two children.
TEST(Ordering, TheFirstCutIsAtANeck)
{
    std::vector<std::pair<int, int>> cells;
    for (int i = 0; i < 30; ++i)
        for (int j = 0; j < 30; ++j) cells.push_back({i, j});
    for (int i = 30; i < 40; ++i)
        for (int j = 14; j < 16; ++j) cells.push_back({i, j});
    for (int i = 40; i < 60; ++i)
        for (int j = 5; j < 25; ++j) cells.push_back({i, j});
    const TriangleSoup soup = lattice_region(cells);
    const HostCsr      A    = pattern_of(soup);
    const auto         s    = symbolic_factor(A, geometric_nested_dissection(A, soup.positions));
    std::vector<std::uint32_t> children(s.parent.size(), 0);
    std::int64_t               root = -1;
    for (std::size_t k = 0; k < s.parent.size(); ++k)
        if (s.parent[k] >= 0)
            ++children[s.parent[k]];
        else
            root = std::int64_t(k);
    ASSERT_GE(root, 0);
    std::uint32_t top = 1;  // the root, then down while a node has one child
    for (std::int64_t k = root; children[k] == 1; ++top)
        k = std::find(s.parent.begin(), s.parent.end(), k) - s.parent.begin();
    EXPECT_LE(top, 3u);
}

TEST(Ordering, BadInputIsRefused)
{
    const TriangleSoup soup = generate::grid(4, 4);
    const HostCsr      A    = pattern_of(soup);
    EXPECT_THROW(Permutation::from_new_to_old({0, 2, 2}), InvalidInputError);
    EXPECT_THROW(Permutation::from_new_to_old({0, 3, 1}), InvalidInputError);
    EXPECT_THROW(symbolic_factor(A, Permutation::identity(3)), InvalidInputError);
    std::vector<Vec3f> few(soup.positions.begin(), soup.positions.end() - 1);
    EXPECT_THROW(geometric_nested_dissection(A, few), InvalidInputError);
    HostCsr broken    = A;
    broken.columns[5] = std::uint64_t(A.num_rows);
    EXPECT_THROW(symbolic_factor(broken, Permutation::identity(std::uint32_t(A.num_rows))),
                 InvalidInputError);
    broken = A;
    broken.row_offsets.pop_back();
    EXPECT_THROW(geometric_nested_dissection(broken, soup.positions), InvalidInputError);
}

}  // namespace
}  // namespace rxmesh
