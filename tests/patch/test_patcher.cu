// GPU patcher and patch store: contracts (validate), equality with the CPU
// reference construction, determinism, robustness on odd meshes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "mesh_families.h"
#include "rxmesh/build/import.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/patch/build_store.h"
#include "rxmesh/patch/patcher.h"
#include "rxmesh/reference/patch_store.h"
#include "rxmesh/reference/patcher.h"
#include "rxmesh/rxmesh.h"
#include "store_check.h"
#include "test_data.h"

namespace {

using rxmesh::TriangleSoup;
namespace g = rxmesh::generate;

std::vector<rxmesh::Triangle> as_triangles(const std::vector<std::uint32_t>& flat)
{
    std::vector<rxmesh::Triangle> t(flat.size() / 3);
    std::memcpy(t.data(), flat.data(), flat.size() * sizeof(std::uint32_t));
    return t;
}

//! The curve patcher's partition equals the CPU reference's, face by face.
void expect_reference_patches(const rxmesh::ImportedMesh&   mesh,
                              const rxmesh::PatcherResult&  patches,
                              const rxmesh::PatcherOptions& options)
{
    const auto positions = mesh.positions.to_host();
    const auto ref       = rxmesh::reference::curve_patches(
        positions, as_triangles(mesh.faces.to_host()), options);
    EXPECT_EQ(patches.num_patches, ref.num_patches);
    EXPECT_EQ(patches.num_components, ref.num_components);
    EXPECT_EQ(patches.max_patch_faces, ref.max_patch_faces);
    EXPECT_TRUE(patches.face_patch.to_host() == ref.face_patch) << "the partitions differ";
}

//! Patcher + GPU store on one mesh: contracts hold, the curve patches equal
//! the CPU reference's, and the store equals the CPU reference construction
//! for the same face -> patch assignment.
void check_build(const TriangleSoup& soup, std::uint32_t capacity, const std::string& name,
                 rxmesh::PatcherMethod method = rxmesh::PatcherMethod::Curve)
{
    const bool curve = method == rxmesh::PatcherMethod::Curve;
    SCOPED_TRACE(name + " capacity " + std::to_string(capacity) + (curve ? " curve" : " lloyd"));
    rxmesh::ImportOptions import;
    import.weld     = true;
    const auto mesh = rxmesh::import_mesh(soup, import);
    rxmesh::PatcherOptions popt;
    popt.capacity = capacity;
    popt.method   = method;
    const auto patches = rxmesh::make_patches(rxmesh::patcher_input(mesh), popt);
    ASSERT_GT(patches.num_patches, 0u);
    EXPECT_LE(patches.max_patch_faces, capacity);
    if (curve)
        expect_reference_patches(mesh, patches, popt);

    const auto face_patch = patches.face_patch.to_host();
    ASSERT_EQ(face_patch.size(), mesh.num_faces);
    for (std::uint32_t p : face_patch)
        ASSERT_LT(p, patches.num_patches);

    const auto gpu = rxmesh::build_patch_store(mesh.faces.data(), mesh.topology,
                                               patches.face_patch.data(), patches.num_patches,
                                               capacity);
    const auto faces = as_triangles(mesh.faces.to_host());
    const auto cpu   = rxmesh::reference::build_patch_store(mesh.num_vertices, faces, face_patch,
                                                            patches.num_patches, capacity);
    const auto host  = gpu.store.to_host();
    {
        SCOPED_TRACE(name);
        rxmesh::test::expect_same_store_contents(host, cpu.store);
    }
    EXPECT_EQ(gpu.vertex_new_to_old.to_host(), cpu.vertex_new_to_old);
    EXPECT_EQ(gpu.edge_new_to_old.to_host(), cpu.edge_new_to_old);
    EXPECT_EQ(gpu.face_new_to_old.to_host(), cpu.face_new_to_old);
    const auto new_faces = as_triangles(gpu.faces.to_host());
    EXPECT_EQ(new_faces, cpu.faces);

    const auto report = rxmesh::validate(host, new_faces, mesh.num_vertices);
    EXPECT_TRUE(report.ok()) << report.summary();
}

rxmesh::test::NamedMeshes generated()
{
    using namespace rxmesh::test;
    return joined({manifold_families(5, {96, 48}, {80, 50}, {64, 30}, 300),
                   irregular_families({3, 4}, 700, 2000), repair_families(60),
                   {{"refined", g::refine(g::refine(g::torus(20, 9)))}}});
}

//! A triangle rotated to start at its least vertex (winding kept).
std::array<std::uint32_t, 3> rotated_to_least(std::uint32_t a, std::uint32_t b, std::uint32_t c)
{
    if (b < a && b < c)
        return {b, c, a};
    if (c < a && c < b)
        return {c, a, b};
    return {a, b, c};
}

//! RXMesh::faces() decoded from the store against the input: the input's
//! faces mapped to global vertex ids, without those that repeat a vertex
//! (the import drops them), as a sorted list of rotated triangles.
void expect_faces_are_the_input(const TriangleSoup& soup, bool weld, const std::string& name)
{
    SCOPED_TRACE(name + (weld ? " welded" : ""));
    rxmesh::BuildOptions options;
    options.weld             = weld;
    options.patcher.capacity = 64;
    const rxmesh::RXMesh mesh(soup, options);
    const auto           to_global = mesh.input_vertex_to_global().to_host();
    std::vector<std::array<std::uint32_t, 3>> want, got;
    for (const auto& f : soup.faces) {
        const std::uint32_t a = to_global[f[0]], b = to_global[f[1]], c = to_global[f[2]];
        if (a != b && b != c && a != c)
            want.push_back(rotated_to_least(a, b, c));
    }
    const auto flat = mesh.faces().to_host();
    ASSERT_EQ(flat.size(), 3u * mesh.num_faces());
    for (std::size_t f = 0; f < mesh.num_faces(); ++f)
        got.push_back(rotated_to_least(flat[3 * f], flat[3 * f + 1], flat[3 * f + 2]));
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want);
}

}  // namespace

TEST(GpuPatch, FacesDecodedFromTheStoreAreTheInput)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& [name, soup] : generated())
        for (bool weld : {false, true})
            expect_faces_are_the_input(soup, weld, name);
    // a face turned over must be caught: the comparison sees winding
    TriangleSoup flipped = g::icosphere(1);
    std::swap(flipped.faces[5][1], flipped.faces[5][2]);
    const rxmesh::RXMesh mesh(g::icosphere(1));
    const auto           flat = mesh.faces().to_host();
    const auto           to_global = mesh.input_vertex_to_global().to_host();
    std::vector<std::array<std::uint32_t, 3>> want, got;
    for (const auto& f : flipped.faces)
        want.push_back(rotated_to_least(to_global[f[0]], to_global[f[1]], to_global[f[2]]));
    for (std::size_t f = 0; f < mesh.num_faces(); ++f)
        got.push_back(rotated_to_least(flat[3 * f], flat[3 * f + 1], flat[3 * f + 2]));
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_NE(got, want);
}

TEST(GpuPatch, GeneratedMeshesMatchReferenceAndValidate)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& [name, soup] : generated()) {
        for (std::uint32_t capacity : {64u, 256u, 512u, 1024u, 2048u})
            check_build(soup, capacity, name);
        for (std::uint32_t capacity : {64u, 512u, 2048u})
            check_build(soup, capacity, name, rxmesh::PatcherMethod::Lloyd);
    }
}

TEST(GpuPatch, RealMeshesValidate)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
    const int checked = rxmesh::test::for_each_real_mesh(
        {1'000'000, true}, [](const std::string& file, const TriangleSoup& soup) {
            check_build(soup, 512, file);
            check_build(soup, 512, file, rxmesh::PatcherMethod::Lloyd);
        });
    EXPECT_GT(checked, 100);
}

TEST(GpuPatch, RXMeshBuildsValidatesAndReportsStats)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup   soup = g::refine(g::icosphere(4));
    rxmesh::BuildOptions options;
    options.patcher.capacity = 256;
    rxmesh::RXMesh mesh(soup, options);
    const auto     report = mesh.validate();
    EXPECT_TRUE(report.ok()) << report.summary();
    const auto& s = mesh.stats();
    EXPECT_EQ(s.num_faces, soup.faces.size());
    EXPECT_EQ(s.num_vertices, soup.positions.size());
    EXPECT_LE(s.max_patch_faces, 256u);
    EXPECT_GE(s.min_patch_faces, 1u);
    EXPECT_EQ(mesh.store().num_patches, s.num_patches);
    EXPECT_GT(s.store_bytes_per_face, 0.0);
    // positions follow the renumbering: each input vertex's position is
    // found at its global id
    const auto in_to_g = mesh.input_vertex_to_global().to_host();
    const auto pos     = to_host(mesh.positions().view());
    for (std::size_t v = 0; v < soup.positions.size(); ++v) {
        ASSERT_LT(in_to_g[v], mesh.num_vertices());
        for (int d = 0; d < 3; ++d)
            ASSERT_EQ(pos[3 * in_to_g[v] + d], soup.positions[v][d]);
    }
}

TEST(GpuPatch, MemoryCountsEveryBuffer)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // two unused input vertices: the input -> global map is sized by the
    // input, the rest by the mesh
    TriangleSoup soup = g::torus(40, 25);
    soup.positions.push_back({0.f, 0.f, 0.f});
    soup.positions.push_back({1.f, 0.f, 0.f});
    rxmesh::RXMesh    mesh(soup);
    const std::size_t V = mesh.num_vertices(), E = mesh.num_edges(), F = mesh.num_faces();
    ASSERT_EQ(V, 1000u);
    ASSERT_EQ(F, 2000u);

    auto m = mesh.memory();
    EXPECT_EQ(m.patch_store, mesh.stats().store_bytes);
    // the "position" attribute, the one copy of the positions; no face array
    EXPECT_EQ(m.positions, 12 * V);
    EXPECT_EQ(m.vertex_maps, 4 * soup.positions.size() + 4 * V);
    // one byte per vertex, edge and face of boundary flags
    EXPECT_EQ(m.attributes, V + E + F);
    EXPECT_EQ(m.kring_halo, 0u);
    EXPECT_EQ(m.total(),
              m.patch_store + 12 * V + (4 * soup.positions.size() + 4 * V) + (V + E + F));
    // faces() builds a face array for its caller; the mesh keeps none
    EXPECT_EQ(mesh.faces().size(), 3 * F);
    EXPECT_EQ(mesh.memory().total(), m.total());

    // what the user adds, and the halo of the first k-ring query, count too
    mesh.add_edge_attribute<double, 2>("e:weights");
    mesh.kring_halo();
    const auto after = mesh.memory();
    EXPECT_EQ(after.attributes, m.attributes + 16 * E);
    EXPECT_GT(after.kring_halo, 0u);
    EXPECT_EQ(after.kring_halo, mesh.kring_bytes());
    EXPECT_EQ(after.total(), m.total() + 16 * E + after.kring_halo);
    mesh.attributes().remove("e:weights");
    EXPECT_EQ(mesh.memory().attributes, m.attributes);
    // the JSON names every part
    const std::string json = after.to_json();
    for (const char* key : {"patch_store", "positions", "vertex_maps", "attributes", "kring_halo",
                            "total"})
        EXPECT_NE(json.find(std::string("\"") + key + "\""), std::string::npos) << key;
}

TEST(GpuPatch, ConstructorTimeCoversEveryStage)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const rxmesh::RXMesh mesh(g::torus(64, 40));
    const auto&          s = mesh.stats();
    EXPECT_GT(s.attributes_ms, 0.f);
    // the stages run one after the other inside the constructor's timer
    const float stages = s.upload_ms + s.reindex_ms + s.topology_ms + s.patching_ms + s.store_ms +
                         s.attributes_ms;
    EXPECT_GE(s.total_ms, 0.99f * stages);
    // the patcher's stages run one after the other inside its own timer
    const auto& p = s.patcher_stages;
    EXPECT_GE(p.propagate_passes, s.patcher_iterations);  // at least one pass each
    EXPECT_GT(p.propagate_ms, 0.f);
    const float patcher = p.order_ms + p.components_ms + p.propagate_ms + p.members_ms +
                          p.central_ms + p.seeds_ms + p.split_ms + p.finish_ms;
    EXPECT_LE(patcher, 1.01f * s.patching_ms + 0.01f);
}

TEST(GpuPatch, DeterministicForEachMethod)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = g::refine(g::torus(128, 64));  // several relaxation blocks
    for (auto method : {rxmesh::PatcherMethod::Curve, rxmesh::PatcherMethod::Lloyd}) {
        rxmesh::BuildOptions options;
        options.patcher.capacity = 128;
        options.patcher.method   = method;
        const auto a = rxmesh::RXMesh(soup, options).store().to_host();
        const auto b = rxmesh::RXMesh(soup, options).store().to_host();
        SCOPED_TRACE("same input");
        rxmesh::test::expect_same_store_contents(a, b);
    }
    rxmesh::BuildOptions options;
    options.patcher.method      = rxmesh::PatcherMethod::Lloyd;
    options.patcher.random_seed = 12345;
    const rxmesh::RXMesh c(soup, options);
    const auto report_c = c.validate();
    EXPECT_TRUE(report_c.ok()) << report_c.summary();
}

//! Small enough for compute-sanitizer: curve patches over several relaxation
//! blocks with splits, against the reference.
TEST(GpuPatch, CurveSmallMeshesForSanitizers)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    check_build(g::torus(64, 40), 64, "torus");
    check_build(g::components(40, 1), 256, "components");
    check_build(g::fan(300), 64, "fan300");
}

TEST(GpuPatch, FallbackSplitKeepsContracts)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // One Lloyd iteration cannot converge at this capacity: the split path runs.
    rxmesh::BuildOptions options;
    options.patcher.capacity       = 32;
    options.patcher.method         = rxmesh::PatcherMethod::Lloyd;
    options.patcher.max_iterations = 1;
    rxmesh::RXMesh mesh(g::torus(64, 40), options);
    EXPECT_LE(mesh.stats().max_patch_faces, 32u);
    const auto report = mesh.validate();
    EXPECT_TRUE(report.ok()) << report.summary();
}

TEST(GpuPatch, ManyComponentsAndIsolatedFaces)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    {
        rxmesh::RXMesh mesh(g::isolated_faces(5000));
        EXPECT_EQ(mesh.num_patches(), 5000u);  // a patch is edge-connected
        EXPECT_TRUE(mesh.validate().ok());
    }
    {
        rxmesh::RXMesh mesh(g::components(3000, 0));
        EXPECT_EQ(mesh.stats().num_components, 3000u);
        EXPECT_GE(mesh.num_patches(), 3000u);
        EXPECT_TRUE(mesh.validate().ok());
    }
}

TEST(GpuPatch, EmptyAndFullyDegenerateMeshesAreErrors)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    TriangleSoup empty;
    EXPECT_THROW(rxmesh::RXMesh{empty}, rxmesh::InvalidInputError);
    TriangleSoup flat;
    flat.positions = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}};
    flat.faces     = {{0, 1, 2}};
    rxmesh::BuildOptions options;
    options.weld = true;  // vertices 0 and 1 merge: the only face degenerates
    EXPECT_THROW(rxmesh::RXMesh(flat, options), rxmesh::InvalidInputError);
}

TEST(GpuPatch, OneRingBeyondSixteenBitLocalIdsIsAClearError)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // The centre's owner must hold all 40000 faces and 80000 edges of its
    // one-ring: more than 16-bit local edge ids (15 bits + flip) can name.
    try {
        rxmesh::RXMesh mesh(g::fan(40000));
        FAIL() << "expected InvalidInputError";
    } catch (const rxmesh::InvalidInputError& e) {
        EXPECT_NE(std::string(e.what()).find("16-bit"), std::string::npos) << e.what();
    }
}
