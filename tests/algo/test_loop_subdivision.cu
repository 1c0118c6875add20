// Loop subdivision on the GPU (algo/loop_subdivision.cuh) against the serial
// double reference (same numbering: faces equal, positions within 1e-5 of
// the diagonal) and against OpenSubdiv's Far (positions matched through the
// documented order), levels 1-3, on generated meshes (closed, open, many
// components, non-manifold edges and vertices, isolated faces and vertices,
// high valence, sharp edges) and real ones (libcgal-demo); the invariants of
// the refined mesh; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "mesh_families.h"
#include "osd_oracle.h"
#include "rxmesh/algo/loop_subdivision.cuh"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/loop_subdivision.h"
#include "rxmesh/reference/topology.h"
#include "test_data.h"

namespace loop_test {

using namespace rxmesh;
using Pairs = std::vector<std::array<std::uint32_t, 2>>;

void expect_positions_near(const std::vector<Vec3f>& gpu, const std::vector<std::array<double, 3>>& ref,
                           double tol, const std::string& what)
{
    ASSERT_EQ(gpu.size(), ref.size()) << what;
    for (std::size_t v = 0; v < gpu.size(); ++v)
        for (int d = 0; d < 3; ++d)
            ASSERT_NEAR(gpu[v][d], ref[v][d], tol) << what << ", vertex " << v << " coordinate " << d;
}

//! GPU levels 1..levels against the reference (faces equal, positions
//! near) and, where given, OpenSubdiv.
void expect_matches(const TriangleSoup& soup, int levels, const std::string& name,
                    const Pairs& sharp = {}, bool with_osd = true)
{
    SCOPED_TRACE(name);
    const double diag = bounding_box_diagonal(soup.positions);
    std::vector<std::vector<std::array<double, 3>>> osd;
    if (with_osd && test::osd_oracle_available())
        osd = test::osd_levels_in_our_numbering(soup, levels, sharp);
    for (int l = 1; l <= levels; ++l) {
        LoopOptions opt;
        opt.sharp_edges                = sharp;
        const TriangleSoup        gpu  = loop_subdivide(soup, l, opt);
        const reference::LoopMesh ref  = reference::loop_subdivide(soup.positions, soup.faces, l, sharp);
        const std::string         what = name + " level " + std::to_string(l);
        ASSERT_EQ(gpu.faces, ref.faces) << what;
        expect_positions_near(gpu.positions, ref.positions, 1e-5 * diag, what + " (reference)");
        if (!osd.empty())
            expect_positions_near(gpu.positions, osd[l - 1], 1e-5 * diag, what + " (OpenSubdiv)");
    }
}

TEST(GpuLoop, ClosedOpenAndManyComponents)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // 40 components: two levels only
    for (const auto& [name, soup] : test::manifold_families(2, {12, 7}, {6, 5}, {9, 4}, 40))
        expect_matches(soup, name == "components" ? 2 : 3, name);
}

TEST(GpuLoop, NonManifoldIsolatedAndHighValence)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // the fan of valence 300: two levels only
    for (const auto& [name, soup] : test::irregular_families({3, 7}, 5, 300))
        expect_matches(soup, name == "fan300" ? 2 : 3, name);
    TriangleSoup lonely = generate::torus(6, 4);
    lonely.positions.push_back({5, 5, 5});  // a vertex of no face: kept
    lonely.positions.insert(lonely.positions.begin() + 0, lonely.positions.back());
    for (auto& f : lonely.faces)
        for (auto& v : f)
            ++v;  // vertex 0 is unused too
    expect_matches(lonely, 3, "isolated vertices");
}

TEST(GpuLoop, SharpEdges)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    Pairs ring;
    for (std::uint32_t i = 0; i < 8; ++i)
        ring.push_back({i, (i + 1) % 8});  // the ring j = 0 of the torus: vertices j * 8 + i
    expect_matches(generate::torus(8, 5), 3, "torus with a crease loop", ring);
    expect_matches(generate::grid(5, 5), 3, "grid with a crease corner and darts",
                   {{7, 8}, {8, 9}, {8, 14}, {14, 20}});
}

TEST(GpuLoop, RealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    if (test::cgal_data_dir().empty())
        GTEST_SKIP() << "libcgal-demo's meshes are not installed";
    const int checked = test::for_each_cgal_file(
        {"meshes/elephant.off", "meshes/fandisk.off", "meshes/cross.off",
         "meshes/mech-holes-shark.off", "meshes/sphere.off"},
        [](const std::string& file, const TriangleSoup& soup) {
            expect_matches(soup, 2, file, {}, soup.faces.size() < 20000);
        });
    EXPECT_GE(checked, 3);
}

TEST(GpuLoop, ClosedMeshInvariants)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup s = generate::torus(10, 6);
    const auto         t0 = reference::build_topology(std::uint32_t(s.positions.size()), s.faces);
    const long         chi = long(s.positions.size()) - long(t0.ev.size()) + long(s.faces.size());
    std::size_t        V = s.positions.size(), E = t0.ev.size(), F = s.faces.size();
    for (int l = 1; l <= 3; ++l) {
        const TriangleSoup r = loop_subdivide(s, l);
        EXPECT_EQ(r.positions.size(), V + E);
        EXPECT_EQ(r.faces.size(), 4 * F);
        const auto t = reference::build_topology(std::uint32_t(r.positions.size()), r.faces);
        for (std::uint32_t e = 0; e < t.ev.size(); ++e)
            ASSERT_EQ(t.ef.row_size(e), 2u) << "level " << l << ": a closed mesh stays closed";
        EXPECT_EQ(long(r.positions.size()) - long(t.ev.size()) + long(r.faces.size()), chi);
        V = r.positions.size(), E = t.ev.size(), F = r.faces.size();
    }
}

TEST(GpuLoop, SphereLimitStaysNearTheSphere)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup r = loop_subdivide(generate::icosphere(2), 4);
    for (const auto& q : r.positions) {
        const double radius = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2]);
        ASSERT_GT(radius, 0.97);  // Loop shrinks a polyhedron inscribed in the sphere a little
        ASSERT_LT(radius, 1.0 + 1e-6);
    }
}

TEST(GpuLoop, DeterministicAcrossBlockSizes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup s = generate::components(7, 2);
    LoopOptions        a, b;
    a.block_threads = 64, b.block_threads = 512;
    const TriangleSoup ra = loop_subdivide(s, 3, a), rb = loop_subdivide(s, 3, b);
    EXPECT_EQ(ra.faces, rb.faces);
    EXPECT_EQ(ra.positions, rb.positions);  // bit for bit: no atomics, fixed order
}

TEST(GpuLoop, LevelZeroAndMeshWithoutFaces)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup s = generate::fin(3);
    const TriangleSoup r = loop_subdivide(s, 0);
    EXPECT_EQ(r.positions, s.positions);
    EXPECT_EQ(r.faces, s.faces);
    TriangleSoup points;
    points.positions = {{1, 2, 3}, {4, 5, 6}};
    const TriangleSoup p = loop_subdivide(points, 2);
    EXPECT_EQ(p.positions, points.positions);
    EXPECT_TRUE(p.faces.empty());
}

TEST(GpuLoop, TimesAndPeakBytes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup         s = generate::icosphere(3);
    LoopOptions                opt;
    opt.time_levels = true;
    std::vector<float>         pos;
    std::vector<std::uint32_t> faces;
    for (const auto& p : s.positions)
        pos.insert(pos.end(), p.begin(), p.end());
    for (const auto& f : s.faces)
        faces.insert(faces.end(), f.begin(), f.end());
    const auto d_pos = DeviceBuffer<float>::from_host(pos);
    const auto d_faces = DeviceBuffer<std::uint32_t>::from_host(faces);
    const LoopMesh   m = loop_subdivide({d_pos.data(), std::uint32_t(s.positions.size())},
                                        {d_faces.data(), std::uint32_t(s.faces.size())}, 3, opt);
    const LoopReport& r = m.report;
    ASSERT_EQ(r.level_ms.size(), 3u);
    EXPECT_GE(r.setup_ms, 0.f);
    EXPECT_EQ(m.positions.size(), 3u * r.num_vertices);
    EXPECT_EQ(m.faces.size(), 3u * r.num_faces);
    // the result alone: 12 bytes per vertex and per face
    EXPECT_GE(r.peak_bytes, 12 * (std::size_t(r.num_vertices) + r.num_faces));
    const auto t = reference::build_topology(std::uint32_t(s.positions.size()), s.faces);
    const auto counts = loop::level_counts({s.positions.size(), t.ev.size(), s.faces.size()}, 3);
    EXPECT_EQ(r.num_vertices, counts[3].V);
    EXPECT_EQ(r.num_faces, counts[3].F);
}

TEST(GpuLoop, BadInputThrows)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    TriangleSoup out_of_range = generate::fin(3);
    out_of_range.faces[1][2]  = 99;
    EXPECT_THROW(loop_subdivide(out_of_range, 1), InvalidInputError);
    TriangleSoup repeated = generate::fin(3);
    repeated.faces[0][1]  = repeated.faces[0][0];
    EXPECT_THROW(loop_subdivide(repeated, 1), InvalidInputError);
    EXPECT_THROW(loop_subdivide(generate::fin(3), -1), InvalidInputError);
    LoopOptions not_an_edge;
    not_an_edge.sharp_edges = {{0, 0}};
    EXPECT_THROW(loop_subdivide(generate::icosphere(1), 1, not_an_edge), InvalidInputError);
    // ids would pass 32 bits
    EXPECT_THROW(loop_subdivide(generate::icosphere(2), 14), InvalidInputError);
}

TEST(GpuLoop, RefusesWhatDoesNotFitNamingTheBytes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const auto counts = loop::level_counts({1000, 3000, 2000}, 4);
    try {
        loop::require_fits(counts, false, 0, std::size_t(1) << 20);
        FAIL() << "no DeviceMemoryError";
    } catch (const DeviceMemoryError& e) {
        const std::string need = loop::mib(loop::peak_bytes(counts, false, 0));
        EXPECT_NE(std::string(e.what()).find(need), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(loop::require_fits(counts, false, 0, std::size_t(1) << 30));
}

}  // namespace loop_test
