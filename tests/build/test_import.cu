// GPU import pipeline (reindex + topology + stats) against the CPU reference
// on generated and real meshes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "mesh_families.h"
#include "rxmesh/build/import.h"
#include "rxmesh/build/reindex.h"
#include "rxmesh/build/topology.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/topology.h"
#include "test_data.h"

namespace {

using rxmesh::Triangle;
using rxmesh::TriangleSoup;
using rxmesh::Vec3f;

std::vector<Triangle> as_triangles(const std::vector<std::uint32_t>& flat)
{
    std::vector<Triangle> t(flat.size() / 3);
    std::memcpy(t.data(), flat.data(), flat.size() * sizeof(std::uint32_t));
    return t;
}

std::vector<Vec3f> as_vec3(const std::vector<float>& flat)
{
    std::vector<Vec3f> p(flat.size() / 3);
    std::memcpy(p.data(), flat.data(), flat.size() * sizeof(float));
    return p;
}

bool bit_equal(const Vec3f& a, const Vec3f& b)
{
    return std::memcmp(a.data(), b.data(), sizeof(Vec3f)) == 0;
}

std::array<std::uint32_t, 3> bits(const Vec3f& p)
{
    std::array<std::uint32_t, 3> b;
    std::memcpy(b.data(), p.data(), sizeof(Vec3f));
    return b;
}

void expect_csr_equal(const rxmesh::DeviceCsr&      gpu,
                      const rxmesh::reference::Csr& cpu,
                      const char*                   name,
                      const std::string&            mesh)
{
    EXPECT_EQ(gpu.offsets.to_host(), cpu.offsets) << name << " offsets differ on " << mesh;
    EXPECT_EQ(gpu.indices.to_host(), cpu.indices) << name << " indices differ on " << mesh;
}

//! Full check of one soup, with and without welding.
void check_pipeline(const TriangleSoup& soup, const std::string& name)
{
    for (bool weld : {false, true}) {
        SCOPED_TRACE(name + (weld ? " (weld)" : " (no weld)"));
        rxmesh::ImportOptions options;
        options.weld = weld;
        rxmesh::ImportedMesh gpu = rxmesh::import_mesh(soup, options);

        // --- reindex against the serial std::map version ---
        const auto cpu = rxmesh::reference::reindex(soup.positions, soup.faces, weld);
        ASSERT_EQ(gpu.num_vertices, cpu.positions.size());
        ASSERT_EQ(gpu.num_faces, cpu.faces.size());
        EXPECT_EQ(gpu.dropped_faces, cpu.dropped_faces);

        const auto positions  = as_vec3(gpu.positions.to_host());
        const auto faces      = as_triangles(gpu.faces.to_host());
        const auto old_to_new = gpu.old_to_new.to_host();
        ASSERT_EQ(old_to_new.size(), soup.positions.size());
        for (std::size_t v = 0; v < old_to_new.size(); ++v) {
            const bool cpu_used = cpu.old_to_new[v] != ~0u;
            ASSERT_EQ(old_to_new[v] != ~0u, cpu_used) << "vertex " << v;
            if (cpu_used) {
                ASSERT_LT(old_to_new[v], positions.size());
                ASSERT_TRUE(bit_equal(positions[old_to_new[v]], soup.positions[v]))
                    << "vertex " << v << " moved to a different position";
            }
        }
        // kept faces are the input's non-degenerate faces, in input order
        std::size_t kept = 0;
        for (const Triangle& t : soup.faces) {
            Triangle m{old_to_new[t[0]], old_to_new[t[1]], old_to_new[t[2]]};
            if (m[0] == m[1] || m[1] == m[2] || m[0] == m[2])
                continue;
            ASSERT_LT(kept, faces.size());
            ASSERT_EQ(faces[kept], m) << "face " << kept;
            ++kept;
        }
        EXPECT_EQ(kept, faces.size());
        if (weld) {
            std::set<std::array<std::uint32_t, 3>> unique;
            for (const Vec3f& p : positions)
                unique.insert(bits(p));
            EXPECT_EQ(unique.size(), positions.size()) << "welded vertices are not unique";
        }

        // --- topology against the reference built on the same faces ---
        const auto ref = rxmesh::reference::build_topology(gpu.num_vertices, faces);
        const auto& t  = gpu.topology;
        ASSERT_EQ(t.num_edges, ref.ev.size());
        std::vector<std::uint32_t> ev_ref, fe_ref;
        for (const auto& e : ref.ev)
            ev_ref.insert(ev_ref.end(), e.begin(), e.end());
        for (const auto& f : ref.fe)
            fe_ref.insert(fe_ref.end(), f.begin(), f.end());
        EXPECT_EQ(t.ev.to_host(), ev_ref);
        EXPECT_EQ(t.fe.to_host(), fe_ref);
        expect_csr_equal(t.ef, ref.ef, "EF", name);
        expect_csr_equal(t.ff, ref.ff, "FF", name);
        expect_csr_equal(t.vv, ref.vv, "VV", name);
        expect_csr_equal(t.ve, ref.ve, "VE", name);
        expect_csr_equal(t.vf, ref.vf, "VF", name);

        // --- statistics: GPU == CPU on the same faces, and == the fully
        //     independent CPU path (reference reindex + topology) ---
        const rxmesh::MeshStats gpu_stats = rxmesh::compute_stats(t, gpu.faces.data());
        const rxmesh::MeshStats ref_stats = rxmesh::reference::compute_stats(ref, faces);
        const auto cpu_topo  = rxmesh::reference::build_topology(
            static_cast<std::uint32_t>(cpu.positions.size()), cpu.faces);
        const rxmesh::MeshStats cpu_stats =
            rxmesh::reference::compute_stats(cpu_topo, cpu.faces);
        EXPECT_TRUE(gpu_stats == ref_stats);
        EXPECT_TRUE(gpu_stats == cpu_stats);
        // A vertex used only by a face that was dropped as degenerate keeps
        // its id (as in the reference); otherwise every vertex is referenced.
        if (gpu.dropped_faces == 0)
            EXPECT_EQ(gpu_stats.vertices, gpu.num_vertices) << "reindex left unused vertices";
    }
}

TriangleSoup wald_example()
{
    // The paper's example: A,B,C',X,D',C'',E,F,Y,D'' with X, Y unused.
    TriangleSoup s;
    const Vec3f A{0, 0, 0}, B{1, 0, 0}, C{1, 1, 0}, X{9, 9, 9}, D{0, 1, 0},
        E{2, 1, 0}, F{2, 2, 0}, Y{8, 8, 8};
    s.positions = {A, B, C, X, D, C, E, F, Y, D};
    s.faces     = {{0, 1, 2}, {0, 2, 4}, {5, 6, 7}, {5, 7, 9}};
    return s;
}

//! import_mesh refuses `soup` with an InvalidInputError that names `needle`.
void expect_import_refused(const TriangleSoup& soup, const rxmesh::ImportOptions& options,
                           const std::string& needle)
{
    try {
        rxmesh::import_mesh(soup, options);
        FAIL() << "expected InvalidInputError";
    } catch (const rxmesh::InvalidInputError& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

}  // namespace

TEST(GpuImport, GeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    namespace g = rxmesh::generate;
    using namespace rxmesh::test;
    const NamedMeshes meshes =
        joined({{{"icosphere0", g::icosphere(0)}},
                manifold_families(4, {24, 16}, {31, 17}, {20, 9}, 25),
                irregular_families({3, 4}, 50, 2500), repair_families(40),
                {{"refined_torus", g::refine(g::torus(10, 7))}, {"wald", wald_example()}}});
    for (const auto& [name, soup] : meshes)
        check_pipeline(soup, name);
}

TEST(GpuImport, WaldExampleWeldsToSixVertices)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    rxmesh::ImportOptions options;
    options.weld = true;
    const auto mesh = rxmesh::import_mesh(wald_example(), options);
    EXPECT_EQ(mesh.num_vertices, 6u);  // A B C D E F
    EXPECT_EQ(mesh.num_faces, 4u);
    EXPECT_EQ(mesh.topology.num_edges, 9u);  // AB BC CA CD DA CE EF FC FD
}

TEST(GpuImport, QuadGridReindexMatchesClosedForm)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // 2D positions with 4-corner elements, as in the paper's benchmark.
    const int n = 64;
    std::vector<float>         pos;
    std::vector<std::uint32_t> quads;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const std::uint32_t base = static_cast<std::uint32_t>(pos.size() / 2);
            const float c[5][2] = {{float(i), float(j)}, {float(i + 1), float(j)},
                                   {float(i + 1), float(j + 1)}, {float(i), float(j + 1)},
                                   {i + 0.5f, j + 0.5f}};
            for (auto& p : c)
                pos.insert(pos.end(), {p[0], p[1]});
            quads.insert(quads.end(), {base, base + 1, base + 2, base + 3});
        }
    auto d_pos   = rxmesh::DeviceBuffer<float>::from_host(pos);
    auto d_quads = rxmesh::DeviceBuffer<std::uint32_t>::from_host(quads);
    auto r = rxmesh::reindex<2, 4>(d_pos.data(), pos.size() / 2, d_quads.data(), n * n);
    EXPECT_EQ(r.num_vertices, std::size_t(n + 1) * (n + 1));
    EXPECT_EQ(r.num_elements, std::size_t(n) * n);
    EXPECT_EQ(r.dropped_elements, 0u);
    // every quad's corners still sit at their original positions
    const auto new_pos = r.positions.to_host();
    const auto new_idx = r.indices.to_host();
    for (std::size_t c = 0; c < new_idx.size(); ++c) {
        const std::size_t old = quads[c];
        ASSERT_EQ(new_pos[2 * new_idx[c]], pos[2 * old]);
        ASSERT_EQ(new_pos[2 * new_idx[c] + 1], pos[2 * old + 1]);
    }
}

TEST(GpuImport, OutOfRangeIndexIsAnError)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    TriangleSoup s = rxmesh::generate::icosphere(1);
    s.faces[17][1] = static_cast<std::uint32_t>(s.positions.size());
    expect_import_refused(s, {}, "element 17");
}

TEST(GpuImport, FaceAdjacencyBeyondThirtyTwoBitOffsetsIsRefused)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // 65537 faces on one edge: 65537 x 65536 ordered pairs, just past 2^32;
    // refused before the pairs are allocated (about 69 GB)
    expect_import_refused(rxmesh::generate::fin(65537), {}, "4295032832");
}

TEST(GpuImport, NonFinitePositionIsAnError)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (bool weld : {false, true}) {
        TriangleSoup s    = rxmesh::generate::grid(4, 4);
        s.positions[7][2] = std::numeric_limits<float>::quiet_NaN();
        rxmesh::ImportOptions options;
        options.weld = weld;
        expect_import_refused(s, options, "vertex 7");
    }
}

TEST(GpuImport, EmptyMeshGivesEmptyTopology)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    TriangleSoup s;
    s.positions = {{0, 0, 0}, {1, 0, 0}};
    const auto mesh = rxmesh::import_mesh(s);
    EXPECT_EQ(mesh.num_vertices, 0u);
    EXPECT_EQ(mesh.num_faces, 0u);
    EXPECT_EQ(mesh.topology.num_edges, 0u);
    const auto stats = rxmesh::compute_stats(mesh.topology, mesh.faces.data());
    EXPECT_EQ(stats.components, 0u);
}

TEST(GpuImport, BuildTopologyRejectsRepeatedVertex)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    auto faces = rxmesh::DeviceBuffer<std::uint32_t>::from_host({0, 1, 2, 2, 3, 2});
    EXPECT_THROW(rxmesh::build_topology(faces.data(), 2, 4), rxmesh::InvalidInputError);
}

TEST(GpuImport, RealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
    // at most 2M faces: the O(n log n) CPU oracle stays quick
    const int checked = rxmesh::test::for_each_real_mesh(
        {2'000'000, true}, [](const std::string& file, const TriangleSoup& soup) {
            check_pipeline(soup, file);
        });
    std::printf("checked %d real meshes\n", checked);
    EXPECT_GT(checked, 100);
}
