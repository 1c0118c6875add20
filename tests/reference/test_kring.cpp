// Tests of reference::kring and reference::grow: rings worked out by hand on
// a grid, and every ring index against an all-pairs shortest path
// (Floyd-Warshall) over the faces' edges, computed here without
// build_topology.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rxmesh/io/generate.h"
#include "rxmesh/reference/kring.h"
#include "rxmesh/reference/topology.h"

namespace {

using rxmesh::Triangle;
using rxmesh::TriangleSoup;
using Rings   = std::vector<std::vector<std::uint32_t>>;
namespace gen = rxmesh::generate;
namespace ref = rxmesh::reference;

constexpr int kFar = std::numeric_limits<int>::max() / 4;  // "no path"

ref::Csr vv_of(const TriangleSoup& m)
{
    return ref::build_topology(static_cast<std::uint32_t>(m.positions.size()), m.faces).vv;
}

//! Hop distances between all pairs over the faces' edges, skipping the
//! vertices in `removed` (no path enters them; their own rows stay kFar).
std::vector<std::vector<int>> floyd_warshall(const TriangleSoup&               m,
                                             const std::vector<std::uint32_t>& removed = {})
{
    const std::size_t n    = m.positions.size();
    auto              gone = [&](std::uint32_t v) {
        return std::find(removed.begin(), removed.end(), v) != removed.end();
    };
    std::vector<std::vector<int>> d(n, std::vector<int>(n, kFar));
    for (std::uint32_t v = 0; v < n; ++v)
        if (!gone(v))
            d[v][v] = 0;
    for (const Triangle& t : m.faces)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t[k], b = t[(k + 1) % 3];
            if (!gone(a) && !gone(b))
                d[a][b] = d[b][a] = 1;
        }
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
    return d;
}

//! The ring index of every vertex (-1 where in no ring), checking that no
//! vertex is in two rings and that rings are sorted and non-empty.
std::vector<int> ring_index(const Rings& rings, std::size_t n)
{
    std::vector<int> index(n, -1);
    for (std::size_t r = 0; r < rings.size(); ++r) {
        EXPECT_FALSE(rings[r].empty()) << "ring " << r;
        EXPECT_TRUE(std::is_sorted(rings[r].begin(), rings[r].end())) << "ring " << r;
        for (const std::uint32_t v : rings[r]) {
            EXPECT_EQ(index[v], -1) << "vertex " << v << " in two rings";
            index[v] = int(r);
        }
    }
    return index;
}

//! Every vertex's ring index is its distance from `from` in `dist` when
//! that is <= max_rings, and it is in no ring otherwise; the number of
//! rings is min(eccentricity, max_rings) + 1.
void expect_rings_are_distances(const Rings& rings, const std::vector<int>& dist, int max_rings,
                                const std::string& what)
{
    const std::vector<int> index = ring_index(rings, dist.size());
    int                    ecc   = 0;
    for (std::size_t v = 0; v < dist.size(); ++v) {
        if (dist[v] < kFar)
            ecc = std::max(ecc, dist[v]);
        const int expected = dist[v] <= max_rings ? dist[v] : -1;
        EXPECT_EQ(index[v], expected) << what << ", vertex " << v;
    }
    EXPECT_EQ(rings.size(), std::size_t(std::min(ecc, max_rings) + 1)) << what;
}

TEST(KRing, GridCentreByHand)
{
    // grid(4, 4): vertex (i, j) has id 5 j + i; the quads are split along
    // (i, j)-(i+1, j+1), so the neighbours are (i+-1, j), (i, j+-1),
    // (i+1, j+1), (i-1, j-1): a hexagonal lattice, 6 d vertices at distance
    // d while the grid holds them. From the centre (2, 2) = 12 the distance
    // to offset (dx, dy) is max(|dx|, |dy|) when dx, dy have the same sign
    // and |dx| + |dy| otherwise: rings of 1, 6, 12, then the offsets
    // (2, -1), (1, -2), (-2, 1), (-1, 2) at 3 and (2, -2), (-2, 2) at 4.
    const ref::Csr vv    = vv_of(gen::grid(4, 4));
    const Rings    rings = ref::kring(vv, 12, 10);
    ASSERT_EQ(rings.size(), 5u);
    EXPECT_EQ(rings[0], (std::vector<std::uint32_t>{12}));
    EXPECT_EQ(rings[1], (std::vector<std::uint32_t>{6, 7, 11, 13, 17, 18}));
    EXPECT_EQ(rings[2].size(), 12u);
    EXPECT_EQ(rings[3], (std::vector<std::uint32_t>{3, 9, 15, 21}));
    EXPECT_EQ(rings[4], (std::vector<std::uint32_t>{4, 20}));
    // k cuts the search: exactly k + 1 rings, the same ones
    const Rings two = ref::kring(vv, 12, 2);
    ASSERT_EQ(two.size(), 3u);
    EXPECT_EQ(two[2], rings[2]);
    EXPECT_EQ(ref::kring(vv, 12, 0), (Rings{{12}}));
}

TEST(KRing, RingIndexIsGraphDistance)
{
    const std::vector<std::pair<std::string, TriangleSoup>> meshes = {
        {"grid(3, 2)", gen::grid(3, 2)},
        {"fin(3)", gen::fin(3)},
        {"bowtie", gen::bowtie()},
        {"fan(5)", gen::fan(5)},
        {"cylinder(4, 2)", gen::cylinder(4, 2)},
        {"two icosahedra", gen::components(2, 0)},
        {"isolated faces", gen::isolated_faces(3)}};
    for (const auto& [name, m] : meshes) {
        const ref::Csr vv   = vv_of(m);
        const auto     dist = floyd_warshall(m);
        for (std::uint32_t v = 0; v < m.positions.size(); ++v)
            for (const int k : {0, 1, 2, 100})
                expect_rings_are_distances(
                    ref::kring(vv, v, k), dist[v], k,
                    name + " from " + std::to_string(v) + ", k " + std::to_string(k));
    }
}

TEST(KRing, UnusedVertexHasOnlyItself)
{
    TriangleSoup m = gen::grid(1, 1);
    m.positions.push_back({5.f, 5.f, 5.f});  // vertex 4: in no face
    EXPECT_EQ(ref::kring(vv_of(m), 4, 3), (Rings{{4}}));
}

TEST(KRing, InvalidArgumentsThrow)
{
    const ref::Csr vv = vv_of(gen::grid(2, 2));  // 9 vertices
    EXPECT_THROW(ref::kring(vv, 9, 1), std::invalid_argument);
    EXPECT_THROW(ref::kring(vv, 0, -1), std::invalid_argument);
    EXPECT_THROW(ref::grow(
                     vv, 0, [](std::uint32_t) { return true; }, -1),
                 std::invalid_argument);
}

TEST(KRingGrow, RejectedVertexBlocksPaths)
{
    // From the corner (0, 0) = 0 of grid(4, 4) without (1, 1) = 6: the centre
    // (2, 2) = 12 is at 3 (0 -> 1 -> 7 -> 12) instead of 2 (0 -> 6 -> 12).
    const TriangleSoup m     = gen::grid(4, 4);
    const ref::Csr     vv    = vv_of(m);
    const Rings        rings = ref::grow(
               vv, 0, [](std::uint32_t u) { return u != 6; }, 100);
    const std::vector<int> index = ring_index(rings, m.positions.size());
    EXPECT_EQ(index[6], -1);
    EXPECT_EQ(index[12], 3);
    EXPECT_EQ(ref::kring(vv, 0, 100)[2], (std::vector<std::uint32_t>{2, 7, 10, 11, 12}));
    expect_rings_are_distances(rings, floyd_warshall(m, {6})[0], 100, "without vertex 6");
}

TEST(KRingGrow, RejectedColumnDisconnects)
{
    // column i = 2 of grid(4, 4) separates i <= 1 from i >= 3
    const TriangleSoup m     = gen::grid(4, 4);
    const Rings        rings = ref::grow(
               vv_of(m), 0, [](std::uint32_t u) { return u % 5 != 2; }, 100);
    const std::vector<int> index = ring_index(rings, m.positions.size());
    for (std::uint32_t v = 0; v < m.positions.size(); ++v)
        EXPECT_EQ(index[v] >= 0, v % 5 <= 1) << "vertex " << v;
    expect_rings_are_distances(rings, floyd_warshall(m, {2, 7, 12, 17, 22})[0], 100,
                               "without column 2");
}

TEST(KRingGrow, StartAlwaysInAndMaxRings)
{
    const TriangleSoup m  = gen::grid(4, 4);
    const ref::Csr     vv = vv_of(m);
    // the start is in even when accept rejects everything, itself included
    EXPECT_EQ(ref::grow(
                  vv, 12, [](std::uint32_t) { return false; }, 5),
              (Rings{{12}}));
    const auto all = [](std::uint32_t) { return true; };
    EXPECT_EQ(ref::grow(vv, 12, all, 1), ref::kring(vv, 12, 1));
    EXPECT_EQ(ref::grow(vv, 12, all, 0), (Rings{{12}}));
}

}  // namespace
