// query_rows and kring_rows (query_rows.cuh) against the CPU reference
// topology and breadth-first search, and the RXMesh built from device
// arrays against the one built from the host soup.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "mesh_families.h"
#include "query_check.cuh"
#include "rxmesh/query_rows.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/kring.h"
#include "rxmesh/reference/topology.h"
#include "rxmesh/rxmesh.cuh"

namespace query_rows_test {

using namespace rxmesh;

struct HostRows
{
    std::vector<std::uint32_t> offsets, indices;
    std::vector<std::uint32_t> row(std::uint32_t r) const
    {
        return {indices.begin() + offsets[r], indices.begin() + offsets[r + 1]};
    }
};

HostRows download(const DeviceRows& d)
{
    return {d.offsets.to_host(), d.indices.to_host()};
}

//! Every op's rows hold the entries the query hands a lambda (query_check's
//! run, itself checked against the reference by the query tests): in the
//! same order for the fixed-length rows (EV, FV, FE: order is their
//! meaning), as sets for the others (whose order within a row may differ
//! from launch to launch).
template <Op op>
void expect_same_as_lambda_rows(const RXMesh& m, bool oriented)
{
    const HostRows         got = download(query_rows<op>(m, oriented));
    const query_test::Rows ref = query_test::run<op>(m, oriented);
    ASSERT_EQ(got.offsets, ref.offsets) << to_string(op);
    for (std::uint32_t r = 0; r + 1 < got.offsets.size(); ++r) {
        if (OpTraits<op>::row_length > 0)
            ASSERT_EQ(got.row(r), ref.row(r)) << to_string(op) << " row " << r;
        else
            ASSERT_EQ(query_test::sorted(got.row(r)), query_test::sorted(ref.row(r)))
                << to_string(op) << " row " << r;
    }
}

void check(const TriangleSoup& soup, const std::string& name)
{
    SCOPED_TRACE(name);
    BuildOptions o;
    o.weld = true;
    const RXMesh m(soup, o);
    // VF oriented only; VV both ways
    test::for_each_op([&](auto op) {
        constexpr Op o = decltype(op)::value;
        expect_same_as_lambda_rows<o>(m, o == Op::VF);
    });
    expect_same_as_lambda_rows<Op::VV>(m, true);
    // and directly against the reference where no id map is needed
    const auto t  = reference::build_topology(m.num_vertices(), test::faces_of(m));
    const auto vv = download(query_rows<Op::VV>(m)), vf = download(query_rows<Op::VF>(m)),
               ff = download(query_rows<Op::FF>(m));
    for (std::uint32_t v = 0; v < m.num_vertices(); ++v) {
        ASSERT_EQ(query_test::sorted(vv.row(v)), query_test::ref_row(t.vv, v)) << "VV " << v;
        ASSERT_EQ(query_test::sorted(vf.row(v)), query_test::ref_row(t.vf, v)) << "VF " << v;
    }
    for (std::uint32_t f = 0; f < m.num_faces(); ++f)
        ASSERT_EQ(query_test::sorted(ff.row(f)), query_test::ref_row(t.ff, f)) << "FF " << f;
    for (int k : {0, 1, 3}) {
        const HostRows rows = download(kring_rows(m, k));
        ASSERT_EQ(rows.offsets.size(), m.num_vertices() + 1u);
        for (std::uint32_t v = 0; v < m.num_vertices(); ++v) {
            const auto row = rows.row(v);
            ASSERT_FALSE(row.empty());
            ASSERT_EQ(row[0], v) << "a k-ring starts at its centre";
            std::vector<std::uint32_t> expect;
            for (const auto& ring : reference::kring(t.vv, v, k))
                expect.insert(expect.end(), ring.begin(), ring.end());
            ASSERT_EQ(query_test::sorted(row), query_test::sorted(expect)) << k << "-ring of " << v;
        }
    }
}

}  // namespace query_rows_test

TEST(GpuQueryRows, MatchLambdaRowsAndReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    namespace g = rxmesh::generate;
    using namespace rxmesh::test;
    for (const auto& [name, soup] : joined({{{"torus", g::torus(40, 24)},
                                             {"grid", g::grid(30, 20)},
                                             {"components", g::components(40, 1)}},
                                            irregular_families({5}, 50, 700)}))
        query_rows_test::check(soup, name);
    int n = rxmesh::test::for_each_real_mesh(60'000, [&](const std::string& file,
                                                        const rxmesh::TriangleSoup& soup) {
        query_rows_test::check(soup, file);
        return !::testing::Test::HasFailure();
    });
    std::printf("real meshes: %d\n", n);
}

namespace device_input_test {

using namespace rxmesh;

struct DeviceSoup
{
    DeviceBuffer<float>         pos;
    DeviceBuffer<std::uint32_t> faces;
    VertexView<const float, 3>  vview() const { return {pos.data(), std::uint32_t(pos.size() / 3)}; }
    FaceView<const std::uint32_t, 3> fview() const
    {
        return {faces.data(), std::uint32_t(faces.size() / 3)};
    }
};

DeviceSoup upload(const TriangleSoup& s)
{
    std::vector<float>         p;
    std::vector<std::uint32_t> f;
    for (const auto& x : s.positions) p.insert(p.end(), x.begin(), x.end());
    for (const auto& x : s.faces) f.insert(f.end(), x.begin(), x.end());
    return {DeviceBuffer<float>::from_host(p), DeviceBuffer<std::uint32_t>::from_host(f)};
}

}  // namespace device_input_test

TEST(GpuDeviceInput, SameMeshAsFromTheHost)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    using namespace rxmesh;
    namespace g = rxmesh::generate;
    for (const auto& [name, soup] : std::vector<std::pair<std::string, TriangleSoup>>{
             {"torus", g::torus(50, 30)}, {"components", g::components(30, 1)},
             {"bowtie", g::bowtie()}, {"fan", g::fan(300)}}) {
        SCOPED_TRACE(name);
        for (bool weld : {false, true}) {
            BuildOptions o;
            o.weld = weld;
            const RXMesh host(soup, o);
            const auto   d = device_input_test::upload(soup);
            const auto   pos_before = d.pos.to_host();
            const RXMesh dev(d.vview(), d.fview(), o);
            EXPECT_EQ(dev.stats().upload_ms, 0.f);
            ASSERT_EQ(dev.num_vertices(), host.num_vertices());
            ASSERT_EQ(dev.num_edges(), host.num_edges());
            ASSERT_EQ(dev.num_faces(), host.num_faces());
            EXPECT_EQ(dev.faces().to_host(), host.faces().to_host());
            EXPECT_EQ(to_host(dev.positions().view()), to_host(host.positions().view()));
            EXPECT_EQ(dev.input_vertex_to_global().to_host(), host.input_vertex_to_global().to_host());
            EXPECT_TRUE(dev.validate().ok());
            EXPECT_EQ(d.pos.to_host(), pos_before) << "the caller's array was written";
        }
    }
}

TEST(GpuDeviceInput, BadInputIsRefused)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    using namespace rxmesh;
    TriangleSoup soup = generate::torus(20, 10);
    soup.faces[7][2]  = std::uint32_t(soup.positions.size());
    auto d            = device_input_test::upload(soup);
    EXPECT_THROW(RXMesh(d.vview(), d.fview()), InvalidInputError);
    soup              = generate::torus(20, 10);
    soup.positions[3][1] = std::numeric_limits<float>::quiet_NaN();
    d                    = device_input_test::upload(soup);
    EXPECT_THROW(RXMesh(d.vview(), d.fview()), InvalidInputError);
    EXPECT_THROW(RXMesh(VertexView<const float, 3>(nullptr, 10), d.fview()), InvalidInputError);
    EXPECT_THROW(RXMesh(d.vview(), FaceView<const std::uint32_t, 3>(nullptr, 0)), InvalidInputError);
}
