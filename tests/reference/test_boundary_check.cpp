// reference::check_boundary on hand-made outputs: it must pass what keeps
// the boundary and fail each way of losing it (a moved boundary, a lost or
// new loop), so the remesh tests that rely on it can fail.
#include <gtest/gtest.h>

#include <cmath>

#include "rxmesh/core/error.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/boundary_check.h"

using namespace rxmesh;
using namespace rxmesh::reference;

namespace {

//! The index of grid(n, n)'s vertex (i, j).
std::uint32_t grid_vertex(int n, int i, int j) { return std::uint32_t(j * (n + 1) + i); }

}  // namespace

TEST(ReferenceBoundaryCheck, SameMeshPasses)
{
    const TriangleSoup g = generate::grid(8, 8);
    const auto         r = check_boundary(g, g, 1e-3);
    EXPECT_TRUE(r.ok()) << r.first;
    EXPECT_EQ(r.input_boundary_vertices, 32u);
    EXPECT_EQ(r.output_boundary_vertices, 32u);
    EXPECT_EQ(r.input_loops, 1u);
    EXPECT_EQ(r.output_loops, 1u);
    EXPECT_EQ(r.max_distance, 0.0);
}

TEST(ReferenceBoundaryCheck, ClosedMeshHasNoBoundary)
{
    const TriangleSoup s = generate::icosphere(2);
    const auto         r = check_boundary(s, s, 1e-3);
    EXPECT_TRUE(r.ok()) << r.first;
    EXPECT_EQ(r.input_loops, 0u);
    EXPECT_EQ(r.input_boundary_vertices, 0u);
}

TEST(ReferenceBoundaryCheck, CoarserBoundaryOnTheSameLinePasses)
{
    // grid(2, 2)'s boundary lies on grid(8, 8)'s (the unit square's sides)
    const auto r = check_boundary(generate::grid(8, 8), generate::grid(2, 2), 1e-3);
    EXPECT_TRUE(r.ok()) << r.first;
    EXPECT_EQ(r.output_boundary_vertices, 8u);
    EXPECT_LT(r.max_distance, 1e-6);
}

TEST(ReferenceBoundaryCheck, MovedBoundaryVertexFails)
{
    const int          n  = 8;
    const TriangleSoup in = generate::grid(n, n);
    TriangleSoup       out = in;
    out.positions[grid_vertex(n, 4, 0)][1] = -0.05f;  // off the side y = 0
    EXPECT_FALSE(check_boundary(in, out, 0.01).ok());
    const auto loose = check_boundary(in, out, 0.1);  // within a looser tolerance
    EXPECT_TRUE(loose.ok()) << loose.first;
    EXPECT_NEAR(loose.max_distance, 0.05, 1e-6);
    // an interior vertex may move anywhere
    TriangleSoup inside = in;
    inside.positions[grid_vertex(n, 4, 4)][2] = 1.f;
    EXPECT_TRUE(check_boundary(in, inside, 0.01).ok());
}

TEST(ReferenceBoundaryCheck, CutOffCornerFails)
{
    // the corner (1, 1) replaced by the diagonal of its quad: the boundary
    // moves by sqrt(2)/2 of a cell there, and corner (1, 1) is far from it
    const int          n  = 4;
    const TriangleSoup in = generate::grid(n, n);
    TriangleSoup       out;
    out.positions = in.positions;
    for (const Triangle& t : in.faces) {
        bool corner = false;
        for (std::uint32_t v : t) corner = corner || v == grid_vertex(n, n, n);
        if (!corner) out.faces.push_back(t);
    }
    const auto r = check_boundary(in, out, 0.1);
    EXPECT_FALSE(r.ok());
    EXPECT_GT(r.max_distance, 0.1);
    EXPECT_NE(r.first.find("farther than"), std::string::npos) << r.first;
}

TEST(ReferenceBoundaryCheck, LoopCountMustMatch)
{
    const TriangleSoup g = generate::grid(8, 8);
    TriangleSoup       holed;  // one inner face pair gone: a second loop
    holed.positions = g.positions;
    for (std::size_t f = 0; f < g.faces.size(); ++f)
        if (f / 2 != 3 * 8 + 3) holed.faces.push_back(g.faces[f]);
    const auto r = check_boundary(g, holed, 0.5);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.output_loops, 2u);
    EXPECT_NE(r.first.find("loops"), std::string::npos) << r.first;
    EXPECT_FALSE(check_boundary(holed, g, 0.5).ok());
    EXPECT_EQ(check_boundary(generate::cylinder(8, 3), generate::cylinder(8, 3), 0.01).input_loops,
              2u);
}

TEST(ReferenceBoundaryCheck, LongDiagonalSegmentsAreFound)
{
    // one triangle with sides much longer than the tolerance: every sample
    // of the other side still finds its segment
    TriangleSoup t;
    t.positions = {{0, 0, 0}, {10, 3, 1}, {2, 9, -4}};
    t.faces     = {{0, 1, 2}};
    const auto r = check_boundary(t, t, 0.01);
    EXPECT_TRUE(r.ok()) << r.first;
    EXPECT_EQ(r.max_distance, 0.0);
}

TEST(ReferenceBoundaryCheck, BadToleranceThrows)
{
    const TriangleSoup g = generate::grid(2, 2);
    EXPECT_THROW(check_boundary(g, g, 0), InvalidInputError);
    EXPECT_THROW(check_boundary(g, g, NAN), InvalidInputError);
}
