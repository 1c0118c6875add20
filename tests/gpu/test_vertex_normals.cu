// Vertex normals on the GPU (patch version without global atomics, and the
// atomic FV version) against the double-precision CPU reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "rxmesh/algo/vertex_normals.cuh"
#include "rxmesh/reference/vertex_normals.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace normals_test {

using namespace rxmesh;

//! Max over vertices of |n_gpu - n_ref| / |n_ref| (normals are unit or 0).
double max_relative_error(const std::vector<float>& gpu, const std::vector<Vec3f>& ref)
{
    double worst = 0;
    for (std::size_t v = 0; v < ref.size(); ++v) {
        const double r = std::sqrt(double(ref[v][0]) * ref[v][0] + double(ref[v][1]) * ref[v][1] +
                                   double(ref[v][2]) * ref[v][2]);
        double d2 = 0;
        for (int k = 0; k < 3; ++k)
            d2 += (gpu[3 * v + k] - double(ref[v][k])) * (gpu[3 * v + k] - double(ref[v][k]));
        worst = std::max(worst, r > 0 ? std::sqrt(d2) / r : std::sqrt(d2));
    }
    return worst;
}

void check(const TriangleSoup& soup, const std::string& name)
{
    SCOPED_TRACE(name);
    BuildOptions options;
    options.weld = true;
    const RXMesh mesh(soup, options);
    // the reference runs on the mesh in the same (global) numbering
    const auto            flat_faces = mesh.faces().to_host();
    const auto            flat_pos   = mesh.positions().to_host();
    std::vector<Triangle> faces(mesh.num_faces());
    std::vector<Vec3f>    pos(mesh.num_vertices());
    std::memcpy(faces.data(), flat_faces.data(), flat_faces.size() * 4);
    std::memcpy(pos.data(), flat_pos.data(), flat_pos.size() * 4);
    const auto ref = reference::vertex_normals(pos, faces);

    DeviceBuffer<float> normals(3 * std::size_t(mesh.num_vertices()));
    normals.memset(0xFF);  // poison: every value must be written
    vertex_normals(mesh, mesh.positions().data(), normals.data());
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto gpu = normals.to_host();
    for (float x : gpu)
        ASSERT_FALSE(std::isnan(x)) << "unwritten or NaN normal";
    EXPECT_LT(max_relative_error(gpu, ref), 1e-5);

    // the atomic version accumulates unnormalised sums
    normals.memset(0);
    vertex_normals_atomic(mesh, mesh.positions().data(), normals.data());
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    auto atomic = normals.to_host();
    for (std::size_t v = 0; v < ref.size(); ++v) {
        const double l = std::sqrt(double(atomic[3 * v]) * atomic[3 * v] +
                                   double(atomic[3 * v + 1]) * atomic[3 * v + 1] +
                                   double(atomic[3 * v + 2]) * atomic[3 * v + 2]);
        for (int k = 0; k < 3; ++k)
            atomic[3 * v + k] = l > 0 ? float(atomic[3 * v + k] / l) : 0.f;
    }
    EXPECT_LT(max_relative_error(atomic, ref), 1e-5);
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
    const auto files = rxmesh::test::list_files(rxmesh::test::cgal_data_dir(), {".off"});
    int        n     = 0;
    for (const auto& f : files) {
        rxmesh::TriangleSoup soup;
        try {
            soup = rxmesh::io::read(f);
        } catch (const rxmesh::Error&) {
            continue;
        }
        if (soup.faces.size() > 300'000)
            continue;
        normals_test::check(soup, f);
        if (++n == 40)
            break;
    }
}

TEST(GpuVertexNormals, UnitSphereNormalsPointOutwards)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // on a unit icosphere the normal of each vertex is close to its position
    // (Max's weights are exact for vertices on a sphere)
    const rxmesh::RXMesh        mesh(rxmesh::generate::icosphere(4));
    rxmesh::DeviceBuffer<float> normals(3 * std::size_t(mesh.num_vertices()));
    rxmesh::vertex_normals(mesh, mesh.positions().data(), normals.data());
    const auto n = normals.to_host();
    const auto p = mesh.positions().to_host();
    for (std::size_t i = 0; i < n.size(); ++i)
        ASSERT_NEAR(n[i], p[i], 1e-4) << "component " << i;
}
