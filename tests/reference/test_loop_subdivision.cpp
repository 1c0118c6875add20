// Reference Loop subdivision (reference/loop_subdivision.h): counts and
// invariants, values derived by hand, and agreement with OpenSubdiv's Far
// (uniform Loop refinement, boundary "edge only") on manifold and
// non-manifold meshes, vertices matched through the documented order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "mesh_families.h"
#include "osd_oracle.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/loop_subdivision.h"
#include "rxmesh/reference/topology.h"
#include "test_data.h"

namespace {

using namespace rxmesh;
using reference::LoopEdge;
using reference::LoopMesh;

long euler(const LoopMesh& m)
{
    const auto t = reference::build_topology(std::uint32_t(m.positions.size()), m.faces);
    return long(m.positions.size()) - long(t.ev.size()) + long(m.faces.size());
}

void expect_near(const std::array<double, 3>& a, const std::array<double, 3>& b, double tol,
                 const std::string& what)
{
    for (int d = 0; d < 3; ++d)
        EXPECT_NEAR(a[d], b[d], tol) << what << " coordinate " << d;
}

TEST(ReferenceLoop, CountsAndClosedMeshInvariants)
{
    for (const auto& soup : {generate::icosphere(1), generate::torus(6, 4)}) {
        LoopMesh m = reference::loop_subdivide(soup.positions, soup.faces, 0);
        const long chi = euler(m);
        for (int level = 1; level <= 3; ++level) {
            const auto t = reference::build_topology(std::uint32_t(m.positions.size()), m.faces);
            const LoopMesh next = reference::loop_subdivide_once(m);
            EXPECT_EQ(next.positions.size(), m.positions.size() + t.ev.size());
            EXPECT_EQ(next.faces.size(), 4 * m.faces.size());
            const auto nt = reference::build_topology(std::uint32_t(next.positions.size()), next.faces);
            for (std::uint32_t e = 0; e < nt.ev.size(); ++e)
                ASSERT_EQ(nt.ef.row_size(e), 2u) << "a closed mesh stays closed";
            EXPECT_EQ(euler(next), chi);
            m = next;
        }
    }
}

TEST(ReferenceLoop, BetaOfValenceThreeAndSix)
{
    EXPECT_DOUBLE_EQ(reference::loop_beta(3), 3.0 / 16);  // (1/3)(5/8 - (1/4)^2)
    EXPECT_NEAR(reference::loop_beta(6), 1.0 / 16, 1e-15);  // (1/6)(5/8 - (1/2)^2)
}

TEST(ReferenceLoop, TetrahedronByHand)
{
    // closed, every vertex of valence 3 (beta 3/16): vertex point
    // 7/16 v + 3/16 (sum of the other three); edge point 3/8 (a + b) + 1/8 (c + d)
    const std::vector<Vec3f>    p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const std::vector<Triangle> f = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
    const LoopMesh              m = reference::loop_subdivide(p, f, 1);
    ASSERT_EQ(m.positions.size(), 4u + 6u);
    expect_near(m.positions[0], {3.0 / 16, 3.0 / 16, 3.0 / 16}, 1e-15, "vertex 0");
    expect_near(m.positions[1], {7.0 / 16, 3.0 / 16, 3.0 / 16}, 1e-15, "vertex 1");
    // edges in sorted order: (0,1) is edge 0: 3/8 (v0 + v1) + 1/8 (v2 + v3)
    expect_near(m.positions[4], {3.0 / 8, 1.0 / 8, 1.0 / 8}, 1e-15, "edge (0, 1)");
    // face 0 = (0, 2, 1) -> (0, e02, e10), edges (0,1) = 0, (0,2) = 1, (1,2) = 3
    EXPECT_EQ(m.faces[0], (Triangle{0, 4 + 1, 4 + 0}));
    EXPECT_EQ(m.faces[3], (Triangle{4 + 1, 4 + 3, 4 + 0}));
}

TEST(ReferenceLoop, LoneTriangleUsesCreaseRules)
{
    // every edge a boundary (midpoint); every corner on two crease edges
    // (3/4 v + 1/8 of each neighbour), not a corner: "edge only"
    const std::vector<Vec3f> p = {{0, 0, 0}, {4, 0, 0}, {0, 8, 0}};
    const LoopMesh           m = reference::loop_subdivide(p, {{0, 1, 2}}, 1);
    expect_near(m.positions[0], {0.5, 1, 0}, 1e-15, "corner 0");
    expect_near(m.positions[1], {3, 1, 0}, 1e-15, "corner 1");
    expect_near(m.positions[3], {2, 0, 0}, 1e-15, "edge (0, 1)");
}

TEST(ReferenceLoop, CornersAndIsolatedVerticesStay)
{
    // the bowtie's shared vertex has four boundary edges: a corner
    TriangleSoup b = generate::bowtie();
    b.positions.push_back({9, 9, 9});  // no face: kept as it is
    const LoopMesh m = reference::loop_subdivide(b.positions, b.faces, 2);
    expect_near(m.positions[0], {b.positions[0][0], b.positions[0][1], b.positions[0][2]}, 1e-15,
                "corner");
    const std::size_t iso = b.positions.size() - 1;
    expect_near(m.positions[iso], {9, 9, 9}, 0, "isolated vertex");
}

TEST(ReferenceLoop, SphereLimitStaysNearTheSphere)
{
    const TriangleSoup s = generate::icosphere(2);
    const LoopMesh     m = reference::loop_subdivide(s.positions, s.faces, 3);
    for (const auto& q : m.positions) {
        const double r = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        ASSERT_GT(r, 0.97);  // Loop shrinks a polyhedron inscribed in the sphere a little
        ASSERT_LE(r, 1.0 + 1e-12);
    }
}

TEST(ReferenceLoop, BadInputThrows)
{
    EXPECT_THROW(reference::loop_subdivide({{0, 0, 0}}, {{0, 1, 2}}, 1), InvalidInputError);
    EXPECT_THROW(reference::loop_subdivide({{0, 0, 0}}, {}, -1), InvalidInputError);
}

TEST(ReferenceLoop, DerivedEdgesAreTheRefinedFacesEdges)
{
    // the documented order lists each edge of the refined faces exactly once
    const TriangleSoup s = generate::grid(4, 3);
    LoopMesh           m = reference::loop_subdivide(s.positions, s.faces, 0);
    for (int level = 1; level <= 3; ++level) {
        const auto     coarse = reference::loop_level_edges(m);
        const auto     V = std::uint32_t(m.positions.size()), E = std::uint32_t(coarse.size());
        const LoopMesh next   = reference::loop_subdivide_once(m);
        auto           sorted = next.edges;
        for (auto& e : sorted)
            e = {std::min(e[0], e[1]), std::max(e[0], e[1])};
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(sorted, reference::build_topology(std::uint32_t(next.positions.size()), next.faces).ev);
        EXPECT_EQ(next.edges[2 * 3], (LoopEdge{coarse[3][0], V + 3}));
        EXPECT_EQ(next.edges[2 * 3 + 1], (LoopEdge{V + 3, coarse[3][1]}));
        // face 1's interior edge 2 joins the vertices of its face edges 2 and 0
        EXPECT_EQ(next.edges[2 * E + 3 * 1 + 2], (LoopEdge{next.faces[4 + 3][2], next.faces[4 + 3][0]}));
        m = next;
    }
}

TEST(ReferenceLoop, SharpEdgesAreCreases)
{
    // a sharp edge inside a grid: its edge point is the midpoint, and its
    // interior end vertices (two sharp edges... here one: a dart) stay smooth
    const TriangleSoup s     = generate::grid(4, 4);
    LoopMesh           m     = reference::loop_subdivide(s.positions, s.faces, 0);
    m.edges                  = reference::loop_level_edges(m);
    const std::uint32_t V    = std::uint32_t(m.positions.size());
    std::uint32_t       pick = 0;
    const auto          t    = reference::build_topology(V, m.faces);
    while (t.ef.row_size(pick) != 2)
        ++pick;
    m.sharp.assign(m.edges.size(), 0);
    m.sharp[pick]       = 1;
    const LoopMesh next = reference::loop_subdivide_once(m);
    const auto [a, b]   = m.edges[pick];
    for (int d = 0; d < 3; ++d)
        EXPECT_DOUBLE_EQ(next.positions[V + pick][d], 0.5 * (m.positions[a][d] + m.positions[b][d]));
    EXPECT_EQ(next.sharp.size(), next.edges.size());
    EXPECT_EQ(next.sharp[2 * pick], 1);
    EXPECT_EQ(next.sharp[2 * pick + 1], 1);
    EXPECT_EQ(std::count(next.sharp.begin(), next.sharp.end(), 1), 2);
}

//! `sharp`: vertex pairs of infinitely sharp edges (ours: sharp flags).
void expect_same_as_opensubdiv(const TriangleSoup& soup, int levels, const std::string& name,
                               const std::vector<LoopEdge>& sharp = {})
{
    SCOPED_TRACE(name);
    const auto osd  = test::osd_levels_in_our_numbering(soup, levels, sharp);
    LoopMesh   ours = reference::loop_level0(soup.positions, soup.faces, sharp);
    const double diag = bounding_box_diagonal(soup.positions);
    for (int l = 1; l <= levels; ++l) {
        ours = reference::loop_subdivide_once(ours);
        ASSERT_EQ(osd[l - 1].size(), ours.positions.size()) << "level " << l;
        for (std::size_t v = 0; v < ours.positions.size(); ++v)
            for (int d = 0; d < 3; ++d)
                ASSERT_NEAR(osd[l - 1][v][d], ours.positions[v][d], 1e-5 * diag)
                    << "level " << l << ", vertex " << v;
    }
}

#define RXMESH_SKIP_WITHOUT_OSD()                                                             \
    do {                                                                                      \
        if (!test::osd_oracle_available())                                                    \
            GTEST_SKIP() << "OpenSubdiv (Debian libosd-dev) was not found at configure time"; \
    } while (0)

TEST(ReferenceLoop, MatchesOpenSubdivOnManifoldMeshes)
{
    RXMESH_SKIP_WITHOUT_OSD();
    // the components: two levels only
    for (const auto& [name, soup] : test::manifold_families(1, {8, 5}, {5, 4}, {6, 3}, 3))
        expect_same_as_opensubdiv(soup, name == "components" ? 2 : 3, name);
    expect_same_as_opensubdiv(generate::fan(9), 3, "fan (boundary rim)");
    const int checked = test::for_each_cgal_file(
        {"meshes/cross.off", "meshes/elephant.off", "meshes/fandisk.off"},
        [](const std::string& file, const TriangleSoup& soup) {
            expect_same_as_opensubdiv(soup, 2, file);
        });
    if (!test::cgal_data_dir().empty()) {
        EXPECT_GE(checked, 2);
    }
}

TEST(ReferenceLoop, MatchesOpenSubdivOnNonManifoldMeshes)
{
    RXMESH_SKIP_WITHOUT_OSD();
    // OpenSubdiv accepts them: edges of three or more faces are creases, a
    // vertex on more than two crease edges a corner, as in our rules
    expect_same_as_opensubdiv(generate::fin(3), 3, "fin of 3 (a non-manifold edge)");
    expect_same_as_opensubdiv(generate::fin(5), 3, "fin of 5");
    expect_same_as_opensubdiv(generate::bowtie(), 3, "bowtie (a non-manifold vertex)");
    expect_same_as_opensubdiv(generate::isolated_faces(4), 3, "isolated faces");
}

TEST(ReferenceLoop, MatchesOpenSubdivWithSharpEdges)
{
    RXMESH_SKIP_WITHOUT_OSD();
    // infinitely sharp edges: a crease loop around a torus and a crease
    // path ending inside a grid (darts at its ends, a corner where three meet)
    const TriangleSoup torus = generate::torus(8, 5);
    std::vector<LoopEdge> ring;
    for (std::uint32_t i = 0; i < 8; ++i)
        ring.push_back({i, (i + 1) % 8});  // the ring j = 0: vertex j * 8 + i
    const TriangleSoup grid = generate::grid(5, 5);
    expect_same_as_opensubdiv(torus, 3, "torus with a crease loop", ring);
    expect_same_as_opensubdiv(grid, 3, "grid with crease paths", {{7, 8}, {8, 9}, {8, 14}, {14, 20}});
}

}  // namespace
