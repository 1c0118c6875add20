// Vertex normals on the GPU (patch version without global atomics, in the
// launch it picks by size and in each of the three it picks from; with the
// mesh's kept face lists, a block per patch and a thread per vertex; and the
// atomic FV version) against the double-precision CPU reference.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test.h"
#include "rxmesh/algo/vertex_normals.cuh"
#include "rxmesh/reference/vertex_normals.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace normals_test {

using namespace rxmesh;

//! Condition number of normalising each vertex's sum of Max contributions:
//! sum of |contribution| over |sum|. Where contributions cancel (the shared
//! edge of a fin of alternating wings), float rounding in the sum is
//! amplified by this factor in the normalised direction; infinity when the
//! sum is exactly zero (the normal is then undefined).
std::vector<double> normalisation_condition(const std::vector<Vec3f>&    pos,
                                            const std::vector<Triangle>& faces)
{
    std::vector<std::array<double, 3>> sum(pos.size(), {0.0, 0.0, 0.0});
    std::vector<double>                magnitude(pos.size(), 0.0);
    for (const Triangle& t : faces)
        for (int k = 0; k < 3; ++k) {
            const auto c = reference::max_weight_contribution(pos[t[k]], pos[t[(k + 1) % 3]],
                                                              pos[t[(k + 2) % 3]]);
            for (int d = 0; d < 3; ++d)
                sum[t[k]][d] += c[d];
            magnitude[t[k]] += std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        }
    std::vector<double> cond(pos.size());
    for (std::size_t v = 0; v < pos.size(); ++v) {
        const double l = std::sqrt(sum[v][0] * sum[v][0] + sum[v][1] * sum[v][1] +
                                   sum[v][2] * sum[v][2]);
        cond[v] = l > 0 ? magnitude[v] / l : (magnitude[v] > 0 ? INFINITY : 1.0);
    }
    return cond;
}

//! Checks |n_gpu - n_ref| <= 1e-5 * max(1, cond) at every vertex whose
//! normal is defined (finite cond); the GPU value must be finite everywhere.
//! Returns how many vertices were checked.
std::size_t expect_close(const std::vector<float>& gpu, const std::vector<Vec3f>& ref,
                         const std::vector<double>& cond, const char* what)
{
    std::size_t checked = 0;
    for (std::size_t v = 0; v < ref.size(); ++v) {
        for (int k = 0; k < 3; ++k)
            EXPECT_TRUE(std::isfinite(gpu[3 * v + k])) << what << ": vertex " << v;
        if (!std::isfinite(cond[v]))
            continue;
        double d2 = 0;
        for (int k = 0; k < 3; ++k)
            d2 += (gpu[3 * v + k] - double(ref[v][k])) * (gpu[3 * v + k] - double(ref[v][k]));
        const double tolerance = 1e-5 * std::max(1.0, cond[v]);
        EXPECT_LE(std::sqrt(d2), tolerance)
            << what << ": vertex " << v << " (condition " << cond[v] << ")";
        ++checked;
        if (::testing::Test::HasFailure())
            return checked;
    }
    return checked;
}

void check(const TriangleSoup& soup, const std::string& name)
{
    SCOPED_TRACE(name);
    BuildOptions options;
    options.weld = true;
    const RXMesh mesh(soup, options);
    // the reference runs on the mesh in the same (global) numbering
    const auto            flat_faces = mesh.faces().to_host();
    const auto            flat_pos   = to_host(mesh.positions().view());
    std::vector<Triangle> faces(mesh.num_faces());
    std::vector<Vec3f>    pos(mesh.num_vertices());
    std::memcpy(faces.data(), flat_faces.data(), flat_faces.size() * 4);
    std::memcpy(pos.data(), flat_pos.data(), flat_pos.size() * 4);
    const auto ref  = reference::vertex_normals(pos, faces);
    const auto cond = normalisation_condition(pos, faces);

    DeviceBuffer<float>  normals(3 * std::size_t(mesh.num_vertices()));
    VertexView<float, 3> normal_view(normals.data(), mesh.num_vertices());
    // the launch vertex_normals picks by size, and each launch it picks from
    const std::pair<const char*, std::function<void()>> launches[] = {
        {"patch kernel, default launch", [&] { vertex_normals(mesh, mesh.positions(), normal_view); }},
        {"patch kernel, 128 threads", [&] { vertex_normals<128, 16>(mesh, mesh.positions(), normal_view); }},
        {"patch kernel, 256 threads", [&] { vertex_normals<256, 8>(mesh, mesh.positions(), normal_view); }},
        {"patch kernel, 512 threads", [&] { vertex_normals<512, 4>(mesh, mesh.positions(), normal_view); }},
    };
    const auto run = [&](const char* what, const std::function<void()>& launch) {
        normals.memset(0xFF);  // poison: every value must be written
        launch();
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        const auto gpu = normals.to_host();
        for (float x : gpu)
            EXPECT_FALSE(std::isnan(x)) << what << ": unwritten or NaN normal";
        EXPECT_GT(expect_close(gpu, ref, cond, what), 0u);
        return gpu;
    };
    for (const auto& [what, launch] : launches)
        run(what, launch);
    // with the mesh's kept face lists: a block per patch, a thread per
    // vertex (the same sums in the same order: equal bit for bit), and the
    // form the size picks
    mesh.vertex_sources(Op::FV);
    const auto patches = run("kept lists, a block per patch", [&] {
        vertex_normals<128, 16, AccumulateForm::Patches>(mesh, mesh.positions(), normal_view);
    });
    const auto flat = run("kept lists, a thread per vertex", [&] {
        vertex_normals<128, 16, AccumulateForm::Flat>(mesh, mesh.positions(), normal_view);
    });
    EXPECT_EQ(0, std::memcmp(patches.data(), flat.data(), patches.size() * sizeof(float)))
        << "the two forms summed differently";
    run("kept lists, default launch",
        [&] { vertex_normals(mesh, mesh.positions(), normal_view); });

    // the atomic version accumulates unnormalised sums
    normals.memset(0);
    vertex_normals_atomic(mesh, mesh.positions(), normal_view);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    auto atomic = normals.to_host();
    for (std::size_t v = 0; v < ref.size(); ++v) {
        const double l = std::sqrt(double(atomic[3 * v]) * atomic[3 * v] +
                                   double(atomic[3 * v + 1]) * atomic[3 * v + 1] +
                                   double(atomic[3 * v + 2]) * atomic[3 * v + 2]);
        for (int k = 0; k < 3; ++k)
            atomic[3 * v + k] = l > 0 ? float(atomic[3 * v + k] / l) : 0.f;
    }
    EXPECT_GT(expect_close(atomic, ref, cond, "FV + atomics"), 0u);
}

}  // namespace normals_test

TEST(GpuVertexNormals, MatchReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    namespace g = rxmesh::generate;
    normals_test::check(g::icosphere(5), "icosphere");
    normals_test::check(g::torus(80, 50), "torus");
    normals_test::check(g::grid(40, 30), "grid");
    normals_test::check(g::fan(2000), "fan");
    normals_test::check(g::components(50, 2), "components");
    normals_test::check(g::fin(4), "fin");
    normals_test::check(g::refine(g::refine(g::torus(12, 7))), "refined");
    rxmesh::test::for_each_mesh_file(
        rxmesh::test::list_files(rxmesh::test::cgal_data_dir(), {".off"}), {300'000, true, 40},
        [](const std::string& file, const rxmesh::TriangleSoup& soup) {
            normals_test::check(soup, file);
        });
}

TEST(GpuVertexNormals, OneRingBeyondSharedMemoryTakesTheGlobalPath)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // every patch of a fan holds the centre's whole one-ring in its ribbon:
    // 16,000 faces with staged positions exceed any GPU's shared memory (and
    // 32,000 edges stay within 16-bit local ids), so the patches run over
    // the global scratch
    const auto           fan = rxmesh::generate::fan(16000);
    rxmesh::BuildOptions options;
    options.weld = true;
    const rxmesh::RXMesh mesh(fan, options);
    int                  dev = 0, max_smem = 0;
    RXMESH_CHECK_CUDA(cudaGetDevice(&dev));
    RXMESH_CHECK_CUDA(
        cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const std::size_t need =
        rxmesh::detail::accumulate_smem_bytes<rxmesh::Op::FV, rxmesh::VertexInput<float, 3>>(
            mesh.device());
    ASSERT_GT(need, std::size_t(max_smem)) << "the mesh no longer exercises the fallback";
    normals_test::check(fan, "fan16000");
}

TEST(GpuVertexNormals, UnitSphereNormalsPointOutwards)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // on a unit icosphere the normal of each vertex is close to its position
    // (Max's weights are exact for vertices on a sphere)
    const rxmesh::RXMesh        mesh(rxmesh::generate::icosphere(4));
    rxmesh::DeviceBuffer<float> normals(3 * std::size_t(mesh.num_vertices()));
    rxmesh::vertex_normals(mesh, mesh.positions(), {normals.data(), mesh.num_vertices()});
    const auto n = normals.to_host();
    const auto p = to_host(mesh.positions().view());
    for (std::size_t i = 0; i < n.size(); ++i)
        ASSERT_NEAR(n[i], p[i], 1e-4) << "component " << i;
}
