// The eight queries against the CPU reference topology: for every owned
// source element of every generated and real mesh, the output equals the
// reference (as a set; in order for FV/FE and for oriented one-rings), the
// lambda runs exactly once per active element, and active subsets work.
#include "query_check.cuh"


using namespace query_test;

TEST(GpuQuery, GeneratedMeshesAllOpsMatchReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& [name, soup] : generated())
        for (std::uint32_t capacity : {64u, 512u, 2048u})
            check_mesh(rxmesh::test::welded_mesh(soup, capacity),
                       name + " capacity " + std::to_string(capacity));
}

TEST(GpuQuery, RealMeshesAllOpsMatchReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
    const int checked = rxmesh::test::for_each_real_mesh(
        {300'000, true}, [](const std::string& file, const TriangleSoup& soup) {
            check_mesh(rxmesh::test::welded_mesh(soup), file);
        });
    EXPECT_GT(checked, 100);
}

TEST(GpuQuery, ActiveSubsets)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh mesh(rxmesh::generate::torus(48, 30));
    const std::uint32_t V = mesh.num_vertices();
    std::mt19937 rng(7);
    std::vector<std::vector<std::uint8_t>> masks;
    masks.push_back(std::vector<std::uint8_t>(V, 0));  // empty
    std::vector<std::uint8_t> one(V, 0);
    one[V / 3] = 1;
    masks.push_back(one);
    std::vector<std::uint8_t> half(V);
    for (auto& b : half)
        b = rng() & 1;
    masks.push_back(half);
    const Rows all = run<Op::VV>(mesh, false);
    for (const auto& mask : masks) {
        const Rows r = run<Op::VV>(mesh, false, mask);
        for (std::uint32_t v = 0; v < V; ++v) {
            ASSERT_EQ(r.calls[v], mask[v]) << "vertex " << v;
            if (mask[v])
                ASSERT_EQ(sorted(r.row(v)), sorted(all.row(v)));
        }
    }
}

TEST(GpuQuery, UserKernelWithPatchQuery)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // the lower-level form: PatchQuery<Op>::run inside the user's own __global__
    const RXMesh mesh(rxmesh::generate::icosphere(3));
    DeviceBuffer<std::uint32_t> valence(mesh.num_vertices());
    valence.memset(0);
    const auto q = mesh.query<Op::VV>();
    EXPECT_EQ(q.block(), unsigned(default_query_threads(Op::VV)));
    EXPECT_EQ(q.grid(), mesh.num_patches());
    rxmesh::launch(q, valence_kernel<decltype(q)>, 0, q, valence.data());
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    rxmesh::test::expect_icosphere_valences(valence.to_host());
}

TEST(GpuQuery, SmallMeshesForSanitizers)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // small enough for compute-sanitizer racecheck/memcheck to finish quickly
    namespace g = rxmesh::generate;
    for (const auto& [name, soup] :
         std::vector<std::pair<std::string, TriangleSoup>>{{"torus", g::torus(16, 10)},
                                                           {"fan", g::fan(300)},
                                                           {"fin", g::fin(3)},
                                                           {"grid", g::grid(9, 7)},
                                                           // FF beyond shared memory: the
                                                           // global-memory fallback
                                                           {"fin600", g::fin(600)},
                                                           {"flipped", with_flipped_faces(
                                                                           g::torus(16, 10), 13)}}) {
        BuildOptions options;
        options.patcher.capacity = 64;
        check_mesh(RXMesh(soup, options), name);
    }
}

TEST(GpuQuery, OrientedManifoldFlagsMatchCpu)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // the EF / FF fast path trusts these flags: recompute them on the CPU
    // from the store's M_FE (a patch is oriented-manifold when no local edge
    // is walked twice in the same direction by its local faces)
    namespace g = rxmesh::generate;
    struct Case
    {
        std::string  name;
        TriangleSoup soup;
        bool         has_irregular;  // known from how the mesh is made
    };
    for (const auto& [name, soup, has_irregular] : std::vector<Case>{
             {"torus", g::torus(64, 40), false},
             {"torus_flipped", with_flipped_faces(g::torus(64, 40), 97), true},
             {"fin5", g::fin(5), true},      // five faces on one edge
             {"bowtie", g::bowtie(), false}  // non-manifold vertex only: edges are fine
         }) {
        SCOPED_TRACE(name);
        const RXMesh         mesh  = rxmesh::test::welded_mesh(soup, 64);
        const HostPatchStore h     = mesh.store().to_host();
        const auto           flags = mesh.store().oriented_manifold.to_host();
        ASSERT_EQ(flags.size(), h.num_patches);
        std::uint32_t irregular = 0;
        for (std::uint32_t p = 0; p < h.num_patches; ++p) {
            const std::uint32_t nF = h.face_offsets[p + 1] - h.face_offsets[p] +
                                     h.ribbon_f_offsets[p + 1] - h.ribbon_f_offsets[p];
            const std::uint16_t* fe =
                h.m_fe.data() + 3 * std::size_t(h.face_offsets[p] + h.ribbon_f_offsets[p]);
            std::vector<std::uint16_t> dirs(fe, fe + 3 * nF);
            std::sort(dirs.begin(), dirs.end());
            const bool expected = std::adjacent_find(dirs.begin(), dirs.end()) == dirs.end();
            ASSERT_EQ(flags[p] != 0, expected) << "patch " << p;
            irregular += expected ? 0 : 1;
        }
        ASSERT_EQ(mesh.store().limits.irregular_patches, irregular);
        ASSERT_EQ(irregular > 0, has_irregular);
    }
}

TEST(GpuQuery, FewBlocksLoopOverPatches)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // for_each launches one block per patch; a user grid of a few blocks
    // makes every block walk many patches, reusing its shared memory across
    // two-slot (oriented-manifold) and general EF / FF patches
    namespace g = rxmesh::generate;
    for (const auto& [name, soup] : std::vector<std::pair<std::string, TriangleSoup>>{
             {"torus", g::torus(64, 40)},
             {"torus_flipped", with_flipped_faces(g::torus(64, 40), 97)}}) {
        // capacity 512: patches large enough for the lambda phase's full
        // steps (every thread has all its elements), 64: partial steps only
        for (std::uint32_t capacity : {64u, 512u}) {
            SCOPED_TRACE(name + " capacity " + std::to_string(capacity));
            const RXMesh mesh = rxmesh::test::welded_mesh(soup, capacity);
            ASSERT_GE(mesh.num_patches(), 8u);
            for (unsigned grid : {1u, 3u, 7u})
                rxmesh::test::for_each_op([&](auto op) {
                    expect_same_rows_with_small_grid<decltype(op)::value>(mesh, grid);
                });
        }
    }
}
