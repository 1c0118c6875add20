// Boundary flags of RXMesh against the CPU reference topology: an edge is a
// boundary edge iff it has exactly one face; a vertex or face iff it touches
// a boundary edge. Generated meshes (closed, open, non-manifold, isolated
// faces) and real ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "rxmesh/reference/topology.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"

namespace boundary_test {

using namespace rxmesh;

//! Checks the host mirrors and the device data of the three flags.
void check_boundary(const RXMesh& m, const std::string& name)
{
    SCOPED_TRACE(name);
    const std::vector<Triangle> faces = rxmesh::test::faces_of(m);
    const auto                  t     = reference::build_topology(m.num_vertices(), faces);
    ASSERT_EQ(t.ev.size(), m.num_edges());

    // expected flags, from the definition
    std::vector<std::uint8_t> ev(m.num_edges(), 0), vv(m.num_vertices(), 0), fv(m.num_faces(), 0);
    for (std::uint32_t e = 0; e < t.ev.size(); ++e)
        if (t.ef.row_size(e) == 1) {
            ev[e] = 1;
            vv[t.ev[e][0]] = vv[t.ev[e][1]] = 1;
            fv[t.ef.indices[t.ef.offsets[e]]] = 1;
        }

    const auto vb = m.boundary_vertices();
    const auto eb = m.boundary_edges();
    const auto fb = m.boundary_faces();
    // the constructor computes the flags on the device; the mirrors follow
    vb.to_host();
    eb.to_host();
    fb.to_host();
    // RXMesh's edge ids are its own: match them by their vertex pair (EV)
    std::vector<std::uint32_t> pair_lo(m.num_edges()), pair_hi(m.num_edges());
    std::uint32_t*             lo = nullptr;
    std::uint32_t*             hi = nullptr;
    DeviceBuffer<std::uint32_t> d_lo(m.num_edges()), d_hi(m.num_edges());
    lo = d_lo.data();
    hi = d_hi.data();
    m.for_each<Op::EV>([=] __device__(EdgeId e, const RowView<VertexId>& it) {
        lo[e.id()] = it[0].id();
        hi[e.id()] = it[1].id();
    });
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    pair_lo = d_lo.to_host();
    pair_hi = d_hi.to_host();

    // the device data must match the host mirror
    std::vector<std::uint8_t> dv(vb.num_values()), de(eb.num_values()), df(fb.num_values());
    RXMESH_CHECK_CUDA(cudaMemcpy(dv.data(), vb.device_data(), dv.size(), cudaMemcpyDeviceToHost));
    RXMESH_CHECK_CUDA(cudaMemcpy(de.data(), eb.device_data(), de.size(), cudaMemcpyDeviceToHost));
    RXMESH_CHECK_CUDA(cudaMemcpy(df.data(), fb.device_data(), df.size(), cudaMemcpyDeviceToHost));

    std::size_t boundary_edges = 0;
    for (std::uint32_t e = 0; e < m.num_edges(); ++e) {
        const std::array<std::uint32_t, 2> key{pair_lo[e], pair_hi[e]};
        const auto it = std::lower_bound(t.ev.begin(), t.ev.end(), key);
        ASSERT_TRUE(it != t.ev.end() && *it == key) << "edge " << e;
        const std::uint8_t want = ev[it - t.ev.begin()];
        ASSERT_EQ(eb.host(EdgeId(e)), want) << "boundary flag of edge " << e;
        ASSERT_EQ(de[e], want) << "device boundary flag of edge " << e;
        boundary_edges += want;
    }
    for (std::uint32_t v = 0; v < m.num_vertices(); ++v) {
        ASSERT_EQ(vb.host(VertexId(v)), vv[v]) << "boundary flag of vertex " << v;
        ASSERT_EQ(dv[v], vv[v]) << "device boundary flag of vertex " << v;
    }
    for (std::uint32_t f = 0; f < m.num_faces(); ++f) {
        ASSERT_EQ(fb.host(FaceId(f)), fv[f]) << "boundary flag of face " << f;
        ASSERT_EQ(df[f], fv[f]) << "device boundary flag of face " << f;
    }
    EXPECT_EQ(boundary_edges, std::count(ev.begin(), ev.end(), 1));
}

}  // namespace boundary_test

using namespace boundary_test;

TEST(GpuBoundary, ClosedMeshHasNoBoundary)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh m = test::welded_mesh(generate::torus(40, 24));
    m.boundary_vertices().to_host();
    const auto vb = m.boundary_vertices();
    for (std::uint32_t v = 0; v < m.num_vertices(); ++v)
        ASSERT_EQ(vb.host(VertexId(v)), 0) << "vertex " << v;
    check_boundary(m, "torus");
}

TEST(GpuBoundary, GeneratedMeshesMatchReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    namespace g = generate;
    const std::vector<std::pair<std::string, TriangleSoup>> meshes = {
        {"grid", g::grid(50, 31)},          {"cylinder", g::cylinder(32, 9)},
        {"components", g::components(50, 2)}, {"bowtie", g::bowtie()},
        {"fin3", g::fin(3)},                {"fin600", g::fin(600)},
        {"isolated", g::isolated_faces(100)}, {"fan2000", g::fan(2000)},
        {"icosphere", g::icosphere(3)},
    };
    for (const auto& [name, soup] : meshes)
        for (std::uint32_t capacity : {64u, 512u})
            check_boundary(test::welded_mesh(soup, capacity),
                           name + " capacity " + std::to_string(capacity));
}

TEST(GpuBoundary, RealMeshesMatchReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const auto files =
        rxmesh::test::list_files(rxmesh::test::cgal_data_dir(), rxmesh::test::mesh_extensions());
    if (files.empty())
        GTEST_SKIP() << "libcgal-demo's data is not installed";
    const int checked = rxmesh::test::for_each_mesh_file(
        files, {200'000, true}, [](const std::string& file, const TriangleSoup& soup) {
            check_boundary(test::welded_mesh(soup), file);
        });
    EXPECT_GT(checked, 50);
}
