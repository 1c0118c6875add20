// Attributes on the GPU: the registry (RXMesh's and standalone), transfers,
// device writes through the handle, the BLAS functions against double-
// precision host loops, the "position" attribute, and PLY export in input
// vertex order.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/attribute/registry.h"
#include "rxmesh/export.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/rxmesh.h"
#include "test_data.h"

namespace attributes_test {

using namespace rxmesh;
namespace g = rxmesh::generate;

//! The value the test kernel writes: exact in float for the sizes used.
RXMESH_HD inline float pattern(std::uint32_t i, int k)
{
    return float((i * 7u + std::uint32_t(k) * 3u) % 1021u) - 0.25f * float(k);
}

__global__ void write_pattern(VertexAttribute<float, 3> a, std::uint32_t n)
{
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
        for (int k = 0; k < 3; ++k)
            a(VertexId(i), k) = pattern(i, k);
}

__global__ void write_face_index(FaceAttribute<std::uint32_t> a, std::uint32_t n)
{
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
        a(FaceId(i)) = 3u * i + 1u;
}

std::vector<float> random_floats(std::size_t n, unsigned seed, float lo, float hi)
{
    std::mt19937                          rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float>                    v(n);
    for (auto& x : v)
        x = dist(rng);
    return v;
}

//! Sets the host mirror from `values` and uploads it.
template <typename A>
void set(const A& a, const std::vector<typename A::value_type>& values)
{
    ASSERT_EQ(values.size(), a.num_values());
    std::copy(values.begin(), values.end(), a.host_data());
    a.to_device();
}

//! Downloads the device values (poisons the host mirror first, so values that
//! were not transferred show up).
template <typename A>
std::vector<typename A::value_type> download(const A& a, typename A::value_type poison)
{
    std::fill(a.host_data(), a.host_data() + a.num_values(), poison);
    a.to_host();
    return std::vector<typename A::value_type>(a.host_data(), a.host_data() + a.num_values());
}

template <typename F>
void expect_error_mentioning(F&& f, const std::string& part)
{
    try {
        f();
        ADD_FAILURE() << "no rxmesh::Error thrown";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
            << "'" << e.what() << "' lacks '" << part << "'";
    }
}

//! Binary little-endian PLY as written by io::write_ply: the vertex property
//! names in order and the vertex records (floats only: no colors here).
struct PlyVertices
{
    std::vector<std::string> properties;
    std::size_t              count = 0;
    std::vector<float>       values;  // count * properties.size()
};

PlyVertices read_ply_vertices(const std::string& path)
{
    std::ifstream     in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string end = "end_header\n";
    const auto        at  = bytes.find(end);
    PlyVertices       out;
    if (at == std::string::npos)
        return out;
    const std::string header = bytes.substr(0, at);
    std::size_t       pos    = 0;
    bool              in_vertex = false;
    while (pos < header.size()) {
        const auto        nl   = header.find('\n', pos);
        const std::string line = header.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        pos = nl == std::string::npos ? header.size() : nl + 1;
        if (line.rfind("element vertex ", 0) == 0) {
            in_vertex = true;
            out.count = std::stoull(line.substr(15));
        } else if (line.rfind("element ", 0) == 0) {
            in_vertex = false;
        } else if (in_vertex && line.rfind("property float ", 0) == 0) {
            out.properties.push_back(line.substr(15));
        }
    }
    const std::size_t n = out.count * out.properties.size();
    out.values.resize(n);
    if (bytes.size() >= at + end.size() + n * sizeof(float))
        std::memcpy(out.values.data(), bytes.data() + at + end.size(), n * sizeof(float));
    return out;
}

}  // namespace attributes_test

using namespace attributes_test;

TEST(GpuAttributes, RegistryAddGetRemoveAndTypeErrors)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMesh mesh = test::welded_mesh(g::torus(12, 8));

    auto a = mesh.add_vertex_attribute<float, 3>("a", 1.f);
    auto e = mesh.add_edge_attribute<int>("e", -1);
    auto f = mesh.add_face_attribute<double, 2>("f");
    EXPECT_EQ(a.num_elements(), mesh.num_vertices());
    EXPECT_EQ(a.num_values(), 3ull * mesh.num_vertices());
    EXPECT_EQ(e.num_elements(), mesh.num_edges());
    EXPECT_EQ(f.num_elements(), mesh.num_faces());
    EXPECT_TRUE(a.is_valid() && e.is_valid() && f.is_valid());

    EXPECT_EQ((mesh.vertex_attribute<float, 3>("a").device_data()), a.device_data());
    EXPECT_EQ((mesh.edge_attribute<int>("e").device_data()), e.device_data());
    EXPECT_EQ((mesh.face_attribute<double, 2>("f").host_data()), f.host_data());
    EXPECT_EQ(mesh.attributes().names(),               (std::vector<std::string>{"a", "e", "e:boundary", "f", "f:boundary", "position",
                                        "v:boundary"}));

    expect_error_mentioning([&] { mesh.add_vertex_attribute<float, 3>("a"); }, "'a'");
    expect_error_mentioning([&] { mesh.add_face_attribute<int>("position"); }, "'position'");
    expect_error_mentioning([&] { mesh.vertex_attribute<float, 3>("nope"); }, "'nope'");
    expect_error_mentioning([&] { mesh.vertex_attribute<double, 3>("a"); }, "'a'");
    expect_error_mentioning([&] { mesh.vertex_attribute<float, 2>("a"); }, "'a'");
    expect_error_mentioning([&] { mesh.edge_attribute<float, 3>("a"); }, "'a'");
    expect_error_mentioning([&] { mesh.face_attribute<int>("e"); }, "'e'");
    expect_error_mentioning([&] { mesh.attributes().remove("nope"); }, "'nope'");

    mesh.attributes().remove("a");
    EXPECT_FALSE(mesh.attributes().contains("a"));
    expect_error_mentioning([&] { mesh.vertex_attribute<float, 3>("a"); }, "'a'");
    // a removed name can be added again with another type
    auto a2 = mesh.add_vertex_attribute<std::uint8_t>("a", 7);
    EXPECT_EQ(download(a2, std::uint8_t(0)), std::vector<std::uint8_t>(mesh.num_vertices(), 7));
}

TEST(GpuAttributes, InitAndFillReachDeviceAndHost)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMesh mesh = test::welded_mesh(g::icosphere(3));

    auto v = mesh.add_vertex_attribute<float, 3>("v", 2.5f);
    // add() fills the host mirror as well as the device
    for (std::uint64_t i = 0; i < v.num_values(); ++i)
        ASSERT_EQ(v.host_data()[i], 2.5f) << i;
    EXPECT_EQ(download(v, -1.f), std::vector<float>(v.num_values(), 2.5f));
    // values of one repeated byte are set on the device without a copy
    auto minus_one = mesh.add_vertex_attribute<int, 2>("minus_one", -1);
    EXPECT_EQ(download(minus_one, 0), std::vector<int>(2ull * mesh.num_vertices(), -1));
    auto sevens = mesh.add_face_attribute<std::uint8_t>("sevens", 7);
    for (std::uint64_t i = 0; i < sevens.num_values(); ++i)
        ASSERT_EQ(sevens.host_data()[i], 7) << i;
    EXPECT_EQ(download(sevens, std::uint8_t(0)),
              std::vector<std::uint8_t>(mesh.num_faces(), std::uint8_t(7)));

    fill(v, -4.f);
    EXPECT_EQ(download(v, 0.f), std::vector<float>(v.num_values(), -4.f));
    fill(v, 0.5);  // a double value converts
    EXPECT_EQ(download(v, 0.f), std::vector<float>(v.num_values(), 0.5f));

    auto e = mesh.add_edge_attribute<std::int64_t, 2>("e", 3);
    EXPECT_EQ(download(e, std::int64_t(0)), std::vector<std::int64_t>(2ull * mesh.num_edges(), 3));
    fill(e, std::int64_t(1) << 40);
    EXPECT_EQ(download(e, std::int64_t(0)),
              std::vector<std::int64_t>(2ull * mesh.num_edges(), std::int64_t(1) << 40));

    // to_device: host edits reach the device
    auto f = mesh.add_face_attribute<double>("f");
    std::vector<double> expected(mesh.num_faces());
    for (std::uint32_t i = 0; i < mesh.num_faces(); ++i)
        expected[i] = f.host(FaceId(i)) = 0.5 * i;
    f.to_device();
    EXPECT_EQ(download(f, -1.0), expected);
}

TEST(GpuAttributes, KernelWritesThroughHandle)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMesh mesh = test::welded_mesh(g::torus(40, 30));
    auto   x    = mesh.add_vertex_attribute<float, 3>("x", -7.f);
    write_pattern<<<16, 128>>>(x, mesh.num_vertices());
    RXMESH_CHECK_CUDA(cudaGetLastError());
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    x.to_host();
    for (std::uint32_t i = 0; i < mesh.num_vertices(); ++i)
        for (int k = 0; k < 3; ++k)
            ASSERT_EQ(x.host(VertexId(i), k), pattern(i, k)) << "vertex " << i << " k " << k;

    auto f = mesh.add_face_attribute<std::uint32_t>("f");
    write_face_index<<<8, 64>>>(f, mesh.num_faces());
    RXMESH_CHECK_CUDA(cudaGetLastError());
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto got = download(f, 0u);
    for (std::uint32_t i = 0; i < mesh.num_faces(); ++i)
        ASSERT_EQ(got[i], 3u * i + 1u) << "face " << i;
}

TEST(GpuAttributes, HandlesSurviveMovingTheMesh)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMesh first = test::welded_mesh(g::icosphere(2));
    auto   w     = first.add_vertex_attribute<int>("w", 5);
    RXMesh moved(std::move(first));
    EXPECT_EQ(moved.vertex_attribute<int>("w").device_data(), w.device_data());
    EXPECT_EQ(download(w, 0), std::vector<int>(moved.num_vertices(), 5));
}

TEST(GpuAttributes, Copy)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    AttributeRegistry reg(1000, 17, 3);
    auto              src = reg.add<float, 3, VertexId>("src");
    auto              dst = reg.add<float, 3, VertexId>("dst", 9.f);
    const auto        values = random_floats(src.num_values(), 1, -10.f, 10.f);
    set(src, values);
    copy(dst, src);
    EXPECT_EQ(download(dst, 0.f), values);
    EXPECT_EQ(download(src, 0.f), values);  // the source is unchanged

    AttributeRegistry other(999, 0, 0);
    auto              small = other.add<float, 3, VertexId>("small");
    expect_error_mentioning([&] { copy(dst, small); }, "sizes differ");
    expect_error_mentioning([&] { copy(small, dst); }, "sizes differ");
    EXPECT_EQ(download(dst, 0.f), values);  // the failed copy left dst alone
}

TEST(GpuAttributes, AxpyDotNorm2ScaleMatchDoubleHostLoops)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (std::uint32_t n : {1u, 1000u, 1000003u}) {
        SCOPED_TRACE("elements " + std::to_string(n));
        AttributeRegistry reg(n, 0, 0);
        auto              x  = reg.add<float, 3, VertexId>("x");
        auto              y  = reg.add<float, 3, VertexId>("y");
        const auto        hx = random_floats(x.num_values(), 10 + n, -1.f, 2.f);
        const auto        hy = random_floats(y.num_values(), 20 + n, -1.f, 2.f);
        set(x, hx);
        set(y, hy);

        // dot and norm2: sums in double on the host
        double ref_dot = 0, abs_dot = 0, ref_sq = 0;
        for (std::size_t i = 0; i < hx.size(); ++i) {
            ref_dot += double(hx[i]) * double(hy[i]);
            abs_dot += std::abs(double(hx[i]) * double(hy[i]));
            ref_sq += double(hx[i]) * double(hx[i]);
        }
        // relative to |ref|, guarded against a near-cancelling sum (the data
        // is biased positive, so for large n |ref| ~ abs_dot / 3)
        const double dot_scale = std::max(std::abs(ref_dot), 1e-3 * abs_dot);
        const float  d         = dot(x, y);
        EXPECT_LT(std::abs(double(d) - ref_dot) / dot_scale, 1e-6) << d << " vs " << ref_dot;
        EXPECT_EQ(dot(x, y), dot(y, x));
        const double ref_norm = std::sqrt(ref_sq);
        const float  nrm      = norm2(x);
        EXPECT_LT(std::abs(double(nrm) - ref_norm) / ref_norm, 1e-6) << nrm << " vs " << ref_norm;

        // axpy: y += alpha * x, every component; one or two float roundings
        const float alpha = -1.75f;
        axpy(alpha, x, y);
        const auto gy = download(y, 0.f);
        ASSERT_EQ(gy.size(), hy.size());
        for (std::size_t i = 0; i < hy.size(); ++i) {
            const double ref = double(hy[i]) + double(alpha) * double(hx[i]);
            const double tol = 1e-6 * (std::abs(double(hy[i])) + std::abs(double(alpha) * hx[i]));
            ASSERT_LE(std::abs(double(gy[i]) - ref), tol) << "value " << i;
        }
        EXPECT_EQ(download(x, 0.f), hx);  // x is unchanged

        // scale: x *= alpha (one rounding)
        scale(x, 0.3);
        const auto gx = download(x, 0.f);
        for (std::size_t i = 0; i < hx.size(); ++i)
            ASSERT_EQ(gx[i], hx[i] * 0.3f) << "value " << i;
    }
}

TEST(GpuAttributes, DotOfIntegersIsExactAndSizesMustMatch)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    AttributeRegistry reg(0, 5000, 4999);
    auto              a = reg.add<std::int64_t, 2, EdgeId>("a");
    auto              b = reg.add<std::int64_t, 2, EdgeId>("b");
    std::vector<std::int64_t> ha(a.num_values()), hb(b.num_values());
    std::int64_t              ref = 0;
    for (std::size_t i = 0; i < ha.size(); ++i) {
        ha[i] = std::int64_t(i % 97) - 40;
        hb[i] = std::int64_t(i % 13) * 1000 + 1;
        ref += ha[i] * hb[i];
    }
    set(a, ha);
    set(b, hb);
    EXPECT_EQ(dot(a, b), ref);

    AttributeRegistry other(0, 4999, 0);
    auto              c = other.add<std::int64_t, 2, EdgeId>("c");
    expect_error_mentioning([&] { dot(a, c); }, "sizes differ");
    expect_error_mentioning([&] { axpy(std::int64_t(2), a, c); }, "sizes differ");

    // empty attributes: zero, no launch
    AttributeRegistry empty(0, 0, 0);
    auto              z = empty.add<float, 3, VertexId>("z");
    EXPECT_EQ(dot(z, z), 0.f);
    EXPECT_EQ(norm2(z), 0.f);
    EXPECT_NO_THROW(fill(z, 1.f));
    EXPECT_NO_THROW(axpy(1.f, z, z));
    EXPECT_NO_THROW(scale(z, 2.f));
    EXPECT_NO_THROW(copy(z, z));
}

TEST(GpuAttributes, PositionsAreThePositionAttribute)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = g::duplicated_quad_grid(6);
    RXMesh             mesh = test::welded_mesh(soup);
    auto               p    = mesh.vertex_attribute<float, 3>("position");
    EXPECT_EQ(p.num_elements(), mesh.num_vertices());
    // one copy of the positions: the attribute is what positions() returns
    EXPECT_EQ(p.device_data(), mesh.positions().device_data());
    EXPECT_EQ(mesh.memory().positions, 12u * mesh.num_vertices());
    // global vertex v holds the position of its input vertex
    const auto pos      = to_host(mesh.positions().view());
    const auto to_input = mesh.global_vertex_to_input().to_host();
    ASSERT_EQ(pos.size(), 3u * mesh.num_vertices());
    for (std::uint32_t v = 0; v < mesh.num_vertices(); ++v)
        for (int d = 0; d < 3; ++d)
            ASSERT_EQ(pos[3 * v + d], soup.positions[to_input[v]][d]) << v;
    // the constructor writes on the device only; to_host() fills the mirror
    p.to_host();
    EXPECT_EQ(std::vector<float>(p.host_data(), p.host_data() + p.num_values()), pos);
    EXPECT_EQ(download(p, -1.f), pos);
    // removing it is the user's choice: positions() then says so
    mesh.attributes().remove("position");
    EXPECT_THROW(mesh.positions(), Error);
}

TEST(GpuAttributes, ExportPlyInInputOrder)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = g::duplicated_quad_grid(8);
    RXMesh             mesh = test::welded_mesh(soup);
    const auto         to_input = mesh.global_vertex_to_input().to_host();
    ASSERT_EQ(to_input.size(), mesh.num_vertices());

    // expected, from the soup alone: for each input vertex that faces
    // reference, the first referenced input vertex (by id) at its position;
    // the others (the quads' centres) are dropped
    constexpr float   kDropped = -1.f;
    std::vector<bool> referenced(soup.positions.size(), false);
    for (const auto& t : soup.faces)
        for (auto v : t)
            referenced[v] = true;
    std::vector<std::uint32_t> firsts;
    std::vector<float>         first_of(soup.positions.size(), kDropped);
    for (std::uint32_t v = 0; v < soup.positions.size(); ++v) {
        if (!referenced[v])
            continue;
        std::uint32_t u = 0;
        while (!(referenced[u] && soup.positions[u] == soup.positions[v])) ++u;
        first_of[v] = float(u);
        if (u == v) firsts.push_back(v);
    }
    ASSERT_EQ(firsts.size(), 81u);  // (8 + 1)^2 grid points
    ASSERT_LT(std::count(referenced.begin(), referenced.end(), true), int(soup.positions.size()));
    std::vector<std::uint32_t> sorted_inputs = to_input;
    std::sort(sorted_inputs.begin(), sorted_inputs.end());
    ASSERT_EQ(sorted_inputs, firsts);

    // a scalar = the input id of each (global) vertex
    auto id = mesh.attributes().add<float, 1, VertexId>("input_id_scratch");
    for (std::uint32_t g = 0; g < mesh.num_vertices(); ++g)
        id.host(VertexId(g)) = float(to_input[g]);
    id.to_device();
    const std::string path = rxmesh::test::tmp_dir() + "/attributes_input_order.ply";
    write_ply(path, mesh, soup, input_order_scalars<1>(mesh, id, {"input_id"}, kDropped));

    // one vertex per input vertex, each at its input position (welded copies
    // share theirs bit for bit, dropped ones keep theirs), the input's faces
    const TriangleSoup back = io::read(path);
    ASSERT_EQ(back.positions, soup.positions);
    EXPECT_EQ(back.faces, soup.faces);

    // the scalar column, parsed from the file itself
    const PlyVertices ply = read_ply_vertices(path);
    ASSERT_EQ(ply.properties, (std::vector<std::string>{"x", "y", "z", "input_id"}));
    ASSERT_EQ(ply.count, soup.positions.size());
    for (std::size_t i = 0; i < ply.count; ++i)
        ASSERT_EQ(ply.values[4 * i + 3], first_of[i]) << "input vertex " << i;

    // to_input_order: the same rows for any vertex attribute
    const auto in_order = to_input_order(mesh, mesh.vertex_attribute<float, 3>("position"), -5.f);
    ASSERT_EQ(in_order.size(), 3 * soup.positions.size());
    for (std::size_t i = 0; i < soup.positions.size(); ++i)
        for (int d = 0; d < 3; ++d)
            ASSERT_EQ(in_order[3 * i + d], referenced[i] ? soup.positions[i][d] : -5.f)
                << "input vertex " << i;

    // values of the wrong size are refused, naming them
    AttributeRegistry other(mesh.num_vertices() + 1, 0, 0);
    auto              wrong = other.add<float, 1, VertexId>("wrong");
    expect_error_mentioning([&] { input_order_scalars<1>(mesh, wrong, {"wrong"}); }, "'wrong'");
    expect_error_mentioning([&] { to_input_order(mesh, wrong); }, "to_input_order");
    const io::VertexScalar short_column{"short", std::vector<float>(3)};
    expect_error_mentioning([&] { write_ply(path, mesh, soup, {short_column}); }, "'short'");
}

TEST(GpuAttributes, InputOrderMovedMatchesAHostLoop)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // An unused input vertex (4) and a copy (5 of 1), welded and not: each
    // used input vertex at its global vertex's moved position, the dropped
    // one at its input position, and |moved - input| computed on the host.
    TriangleSoup soup;
    soup.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {5, 5, 5}, {1, 0, 0}};
    soup.faces     = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {5, 2, 3}};
    for (bool weld : {false, true}) {
        SCOPED_TRACE(weld ? "welded" : "not welded");
        BuildOptions options;
        options.weld = weld;
        RXMesh     mesh(soup, options);
        const auto global_pos = to_host(mesh.positions().view());
        auto       moved      = mesh.add_vertex_attribute<float, 3>("moved");
        for (std::uint32_t g = 0; g < mesh.num_vertices(); ++g)
            for (int d = 0; d < 3; ++d)
                moved.host(VertexId(g), d) = global_pos[3 * std::size_t(g) + d] * 1.5f + float(g + d);
        moved.to_device();
        const std::vector<Vec3f>   expected = input_order_positions(mesh, soup, moved);
        const InputOrderMoved      got      = input_order_moved(mesh, soup, moved);
        ASSERT_EQ(got.positions.size(), soup.positions.size());
        ASSERT_EQ(got.displacement.size(), soup.positions.size());
        EXPECT_EQ(got.positions, expected);
        EXPECT_EQ(got.positions[4], soup.positions[4]);
        EXPECT_EQ(got.displacement[4], 0.f);
        for (std::size_t i = 0; i < soup.positions.size(); ++i) {
            double d2 = 0;
            for (int k = 0; k < 3; ++k)
                d2 += std::pow(double(expected[i][k]) - soup.positions[i][k], 2);
            EXPECT_NEAR(got.displacement[i], std::sqrt(d2), 1e-6 * (1 + std::sqrt(d2))) << i;
        }
        TriangleSoup other = soup;
        other.positions.pop_back();
        expect_error_mentioning([&] { input_order_moved(mesh, other, moved); }, "export");
    }
}

TEST(GpuAttributes, ExportKeepsUnusedAndWeldedInputVertices)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    // the apps' tet_extra.obj: a tetrahedron over 6 input vertices, vertex 4
    // used by no face, vertex 5 a copy of vertex 1
    TriangleSoup soup;
    soup.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {5, 5, 5}, {1, 0, 0}};
    soup.faces     = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {5, 2, 3}};
    const Vec3f offset{10.f, 20.f, 30.f};
    for (bool weld : {false, true}) {
        SCOPED_TRACE(weld ? "welded" : "not welded");
        BuildOptions options;
        options.weld = weld;
        RXMesh mesh(soup, options);
        ASSERT_EQ(mesh.num_vertices(), weld ? 4u : 5u);
        const auto global_pos = to_host(mesh.positions().view());

        // each global vertex's id: which global vertex each input row took
        auto id = mesh.add_vertex_attribute<float>("global_id");
        for (std::uint32_t g = 0; g < mesh.num_vertices(); ++g) id.host(VertexId(g)) = float(g);
        id.to_device();
        const std::vector<float> rows = to_input_order(mesh, id, -1.f);
        ASSERT_EQ(rows.size(), 6u);
        EXPECT_EQ(rows[4], -1.f);  // used by no face: dropped
        std::set<float> distinct;
        for (std::size_t i : {0, 1, 2, 3, 5}) {
            ASSERT_GE(rows[i], 0.f) << "input vertex " << i;
            const std::size_t g = std::size_t(rows[i]);
            ASSERT_LT(g, mesh.num_vertices());
            for (int d = 0; d < 3; ++d)  // the global vertex is at the input's position
                EXPECT_EQ(global_pos[3 * g + d], soup.positions[i][d]) << "input vertex " << i;
            distinct.insert(rows[i]);
        }
        // welded, the copies 1 and 5 are one vertex; else each has its own
        EXPECT_EQ(rows[5] == rows[1], weld);
        EXPECT_EQ(distinct.size(), weld ? 4u : 5u);

        // write_ply at other positions: each used input vertex at its input
        // position + offset, the dropped one at its input position
        auto moved = mesh.add_vertex_attribute<float, 3>("moved");
        for (std::uint32_t g = 0; g < mesh.num_vertices(); ++g)
            for (int d = 0; d < 3; ++d)
                moved.host(VertexId(g), d) = global_pos[3 * std::size_t(g) + d] + offset[d];
        moved.to_device();
        const std::string path = rxmesh::test::tmp_dir() + "/attributes_tet_extra.ply";
        write_ply(path, mesh, soup, moved, input_order_scalars<1>(mesh, id, {"global_id"}, -1.f));
        const TriangleSoup back = io::read(path);
        ASSERT_EQ(back.positions.size(), 6u);
        EXPECT_EQ(back.faces, soup.faces);
        for (std::size_t i = 0; i < 6; ++i)
            for (int d = 0; d < 3; ++d)
                EXPECT_EQ(back.positions[i][d], soup.positions[i][d] + (i == 4 ? 0.f : offset[d]))
                    << "input vertex " << i;
        const PlyVertices ply = read_ply_vertices(path);
        ASSERT_EQ(ply.properties, (std::vector<std::string>{"x", "y", "z", "global_id"}));
        for (std::size_t i = 0; i < 6; ++i)
            EXPECT_EQ(ply.values[4 * i + 3], rows[i]) << "input vertex " << i;
    }
}
