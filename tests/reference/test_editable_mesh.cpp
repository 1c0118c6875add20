// The serial reference of changing topology (reference/editable_mesh.h):
// hand-built cases whose answers are worked out by hand, and randomized
// rounds checked after every operation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/editable_mesh.h"

namespace {

using rxmesh::Triangle;
using rxmesh::TriangleSoup;
using rxmesh::Vec3f;
using rxmesh::reference::EditableMesh;

EditableMesh make(const TriangleSoup& s) { return EditableMesh(s.positions, s.faces); }

//! Faces rotated to start at their least vertex, sorted: a mesh's faces as
//! a set, winding kept.
std::vector<Triangle> canonical(std::vector<Triangle> faces)
{
    for (Triangle& t : faces) std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
    std::sort(faces.begin(), faces.end());
    return faces;
}

//! The unit square as two triangles (0, 1, 2), (0, 2, 3), normals +z.
TriangleSoup square()
{
    TriangleSoup s;
    s.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    s.faces     = {{0, 1, 2}, {0, 2, 3}};
    return s;
}

TriangleSoup tetrahedron()
{
    TriangleSoup s;
    s.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    s.faces     = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
    return s;
}

TEST(ReferenceEditable, FlipOnASquare)
{
    EditableMesh m = make(square());
    ASSERT_TRUE(m.flip(0, 2));
    // the other diagonal, (1, 3), both faces counter-clockwise seen from +z
    // like the square's: (0, 1, 3) and (1, 2, 3)
    EXPECT_EQ(canonical(m.compact().faces), canonical({{0, 1, 3}, {1, 2, 3}}));
    EXPECT_TRUE(m.validate());
    EXPECT_EQ(m.euler_characteristic(), 1);
    ASSERT_TRUE(m.flip(1, 3));  // and back
    EXPECT_EQ(canonical(m.compact().faces), canonical(square().faces));
}

TEST(ReferenceEditable, FlipsThatWouldBreakTheMeshAreRefused)
{
    EditableMesh m = make(square());
    EXPECT_FALSE(m.flip(0, 1));  // a boundary edge
    EXPECT_FALSE(m.flip(1, 3));  // not an edge
    EditableMesh t = make(tetrahedron());
    EXPECT_FALSE(t.flip(0, 1));  // (2, 3) is an edge already
    // a non-convex quad: the flipped faces would turn over
    TriangleSoup dart = square();
    dart.positions[2] = {0.2f, 0.2f, 0.f};
    EditableMesh d    = make(dart);
    EXPECT_FALSE(d.flip(0, 2));
    EXPECT_EQ(canonical(d.compact().faces), canonical(dart.faces));
}

TEST(ReferenceEditable, SplitOnABoundaryEdge)
{
    EditableMesh m = make(square());
    const auto   v = m.split(0, 1, {0.5f, 0.f, 0.f});
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(*v, 4u);
    EXPECT_EQ(canonical(m.compact().faces), canonical({{0, 4, 2}, {4, 1, 2}, {0, 2, 3}}));
    EXPECT_TRUE(m.is_boundary_vertex(4));
    EXPECT_EQ(m.euler_characteristic(), 1);
    EXPECT_TRUE(m.is_manifold());
}

TEST(ReferenceEditable, SplitOfAnInteriorEdge)
{
    EditableMesh m = make(square());
    const auto   v = m.split(0, 2, {0.5f, 0.5f, 0.f});
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(m.num_faces(), 4u);
    EXPECT_EQ(m.num_edges(), 8u);
    EXPECT_EQ(canonical(m.compact().faces),
              canonical({{0, 1, 4}, {4, 1, 2}, {0, 4, 3}, {4, 2, 3}}));
    EXPECT_FALSE(m.is_boundary_vertex(4));
}

TEST(ReferenceEditable, CollapseRefusedByTheLinkCondition)
{
    EditableMesh t = make(tetrahedron());
    for (const auto& e : t.edges())
        EXPECT_FALSE(t.collapse(e[0], e[1], t.position(e[0]))) << e[0] << " " << e[1];
    EXPECT_EQ(t.num_faces(), 4u);
    // both ends on the boundary, the edge inside: would pinch the boundary
    TriangleSoup strip;
    strip.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 1, 0}};
    strip.faces     = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}};
    EditableMesh s  = make(strip);
    EXPECT_FALSE(s.collapse(1, 4, {1.f, 0.5f, 0.f}));
    EXPECT_TRUE(s.collapse(0, 3, {0.f, 0.5f, 0.f}));  // a boundary edge collapses
    EXPECT_TRUE(s.validate());
    EXPECT_TRUE(s.is_manifold());
}

TEST(ReferenceEditable, CollapseOfAValenceThreeVertexUndoesItsSplit)
{
    const TriangleSoup ico = rxmesh::generate::icosphere(0);
    EditableMesh       m   = make(ico);
    const Triangle     f   = ico.faces[0];
    // a vertex in face 0: three faces around it (a 1-to-3 split done by hand)
    TriangleSoup with_centre = ico;
    with_centre.positions.push_back({0.f, 0.f, 0.f});
    const std::uint32_t c = std::uint32_t(ico.positions.size());
    for (int k = 0; k < 3; ++k)
        with_centre.positions[c][k] =
            (ico.positions[f[0]][k] + ico.positions[f[1]][k] + ico.positions[f[2]][k]) / 3.f;
    with_centre.faces[0] = {f[0], f[1], c};
    with_centre.faces.push_back({f[1], f[2], c});
    with_centre.faces.push_back({f[2], f[0], c});
    EditableMesh w = make(with_centre);
    EXPECT_EQ(w.euler_characteristic(), 2);
    ASSERT_TRUE(w.collapse(f[0], c, w.position(f[0])));
    std::vector<std::uint32_t> map;
    const TriangleSoup         out = w.compact(&map);
    EXPECT_EQ(map.size(), ico.positions.size());  // c is gone, the others keep their ids
    EXPECT_EQ(canonical(out.faces), canonical(ico.faces));
    EXPECT_EQ(w.euler_characteristic(), 2);
}

TEST(ReferenceEditable, NonManifoldEdgesAndVerticesAreRefused)
{
    EditableMesh fin         = make(rxmesh::generate::fin(3));  // three faces on one edge
    bool         refused_all = false;
    for (const auto& e : fin.edges())
        if (fin.edge_faces(e[0], e[1]).size() == 3) {
            EXPECT_FALSE(fin.flip(e[0], e[1]));
            EXPECT_FALSE(fin.split(e[0], e[1], fin.position(e[0])).has_value());
            EXPECT_FALSE(fin.collapse(e[0], e[1], fin.position(e[0])));
            refused_all = true;
        }
    EXPECT_TRUE(refused_all);
    const TriangleSoup bow   = rxmesh::generate::bowtie();  // two fans at one vertex
    EditableMesh       b     = make(bow);
    std::uint32_t      pinch = ~0u;
    for (std::uint32_t v = 0; v < bow.positions.size(); ++v)
        if (!b.is_manifold_vertex(v)) pinch = v;
    ASSERT_NE(pinch, ~0u);
    for (const auto& e : b.edges()) {
        if (e[0] == pinch || e[1] == pinch) {
            EXPECT_FALSE(b.collapse(e[0], e[1], b.position(e[0])));
        }
    }
}

TEST(ReferenceEditable, CollapseThatWouldTurnAFaceOverIsRefused)
{
    const TriangleSoup g = rxmesh::generate::grid(4, 4);
    EditableMesh       m = make(g);
    // an interior edge: collapsing to its midpoint is fine, far away is not
    std::array<std::uint32_t, 2> interior{};
    for (const auto& e : m.edges())
        if (!m.is_boundary_vertex(e[0]) && !m.is_boundary_vertex(e[1])) interior = e;
    const Vec3f a = m.position(interior[0]), b = m.position(interior[1]);
    const Vec3f far = {a[0] + 10 * (b[0] - a[0]), a[1] + 10 * (b[1] - a[1]), a[2]};
    EXPECT_FALSE(m.collapse(interior[0], interior[1], far));
    EXPECT_EQ(m.num_faces(), g.faces.size());
    const Vec3f mid = {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
    EXPECT_TRUE(m.collapse(interior[0], interior[1], mid));
    EXPECT_EQ(m.num_faces(), g.faces.size() - 2);
}

//! Random flips, splits at midpoints and collapses to midpoints on a closed
//! mesh: after every operation the mesh is valid, manifold and of genus 0.
TEST(ReferenceEditable, RandomOperationsKeepAValidSphere)
{
    EditableMesh m = make(rxmesh::generate::icosphere(1));
    std::mt19937 rng(12);
    int          applied = 0;
    for (int round = 0; round < 600; ++round) {
        const auto es = m.edges();
        ASSERT_FALSE(es.empty());
        const auto  e = es[rng() % es.size()];
        const Vec3f a = m.position(e[0]), b = m.position(e[1]);
        const Vec3f mid = {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
        const int   op  = int(rng() % 3);
        bool        ok  = false;
        if (op == 0)
            ok = m.flip(e[0], e[1]);
        else if (op == 1)
            ok = m.split(e[0], e[1], mid).has_value();
        else if (m.num_faces() > 8)
            ok = m.collapse(e[0], e[1], mid);
        applied += ok;
        std::string why;
        ASSERT_TRUE(m.validate(&why)) << "round " << round << ": " << why;
        ASSERT_TRUE(m.is_manifold()) << "round " << round;
        ASSERT_EQ(m.euler_characteristic(), 2) << "round " << round;
    }
    EXPECT_GT(applied, 300);
}

TEST(ReferenceEditable, BadInputIsAnError)
{
    EXPECT_THROW(EditableMesh({{0, 0, 0}}, {{0, 0, 0}}), rxmesh::InvalidInputError);
    EXPECT_THROW(EditableMesh({{0, 0, 0}}, {{0, 1, 2}}), rxmesh::InvalidInputError);
}

}  // namespace

TEST(ReferenceEditable, CollapseRefusedWhenItWouldStrandAVertex)
{
    // a lone triangle: the link condition holds, but the collapse would leave
    // two vertices without a face
    rxmesh::reference::EditableMesh lone({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}});
    EXPECT_FALSE(lone.collapse(0, 1, {0.5f, 0.f, 0.f}));
    EXPECT_EQ(lone.last_refusal(), "strands a vertex");
    EXPECT_EQ(lone.num_faces(), 1u);
    // beside another component: still refused, the other one untouched
    rxmesh::reference::EditableMesh two({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 0, 0}, {6, 0, 0},
                                         {5, 1, 0}},
                                        {{0, 1, 2}, {3, 4, 5}});
    EXPECT_FALSE(two.collapse(3, 5, {5.f, 0.5f, 0.f}));
    EXPECT_EQ(two.num_faces(), 2u);
    EXPECT_TRUE(two.validate());
}
