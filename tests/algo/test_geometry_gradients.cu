// algo/geometry_gradients.cuh: the normals and the cotangent Laplacian's
// product against host double loops over the faces, and their
// vector-Jacobian products against central differences of the forward
// operators (double), on closed, open, non-manifold and high-valence meshes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "mesh_families.h"
#include "rxmesh/algo/geometry_gradients.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/vertex_normals.h"
#include "rxmesh/rxmesh.cuh"

namespace gradients_test {

using namespace rxmesh;
using V = std::vector<double>;

struct Host
{
    std::vector<Triangle> faces;
    V                     p;  // 3 per vertex, global order
};

V sub(const V& p, std::uint32_t a, std::uint32_t b)
{
    return {p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]};
}
double dot(const V& a, const V& b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
V cross(const V& a, const V& b)
{
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

//! y = L x on the host: per face, per corner c opposite edge (a, b).
V laplacian(const Host& h, const V& p, const V& x, int M)
{
    V y(x.size(), 0.0);
    for (const Triangle& t : h.faces)
        for (int c = 0; c < 3; ++c) {
            const std::uint32_t a = t[(c + 1) % 3], b = t[(c + 2) % 3];
            const V             u = sub(p, a, t[c]), w = sub(p, b, t[c]);
            const double        s = std::sqrt(dot(cross(u, w), cross(u, w)));
            const double        wgt = s > 0 ? 0.5 * dot(u, w) / s : 0.0;
            for (int d = 0; d < M; ++d) {
                y[M * a + d] += wgt * (x[M * b + d] - x[M * a + d]);
                y[M * b + d] += wgt * (x[M * a + d] - x[M * b + d]);
            }
        }
    return y;
}

template <typename T>
DeviceBuffer<T> dev(const V& v)
{
    return DeviceBuffer<T>::from_host(std::vector<T>(v.begin(), v.end()));
}
template <typename T>
V host(const DeviceBuffer<T>& b)
{
    const auto h = b.to_host();
    return V(h.begin(), h.end());
}

template <typename T>
V gpu_normals(const RXMesh& m, const V& p)
{
    const auto      dp = dev<T>(p);
    DeviceBuffer<T> out(p.size());
    unit_vertex_normals<T>(m, {dp.data(), m.num_vertices()}, {out.data(), m.num_vertices()});
    return host(out);
}

template <typename T, int M>
V gpu_laplacian(const RXMesh& m, const V& p, const V& x)
{
    const auto      dp = dev<T>(p), dx = dev<T>(x);
    DeviceBuffer<T> out(x.size());
    cotan_laplacian_apply<T, M>(m, {dp.data(), m.num_vertices()}, {dx.data(), m.num_vertices()},
                                {out.data(), m.num_vertices()});
    return host(out);
}

double max_abs_diff(const V& a, const V& b)
{
    double e = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        e = std::max(e, std::abs(a[i] - b[i]));
    return e;
}

V random(std::size_t n, std::mt19937& rng)
{
    std::normal_distribution<double> N(0, 1);
    V                                v(n);
    for (auto& x : v) x = N(rng);
    return v;
}

//! <vjp(g), d> against (g . f(p + e d) - g . f(p - e d)) / 2e.
void expect_directional_derivative(const char* what, const V& vjp, const V& d, const V& f_plus,
                                   const V& f_minus, const V& g, double eps)
{
    double fd = 0;
    for (std::size_t i = 0; i < g.size(); ++i)
        fd += g[i] * (f_plus[i] - f_minus[i]);
    fd /= 2 * eps;
    double an = 0;
    for (std::size_t i = 0; i < d.size(); ++i)
        an += vjp[i] * d[i];
    EXPECT_NEAR(an, fd, 1e-6 * std::max(1.0, std::abs(fd))) << what;
}

void check(const TriangleSoup& soup, const std::string& name)
{
    SCOPED_TRACE(name);
    BuildOptions o;
    o.weld = true;
    const RXMesh m(soup, o);
    const std::uint32_t n = m.num_vertices();
    Host h;
    h.faces = test::faces_of(m);
    const auto pf = to_host(m.positions().view());
    h.p.assign(pf.begin(), pf.end());
    std::mt19937 rng(5);

    // forward: normals against the double reference, the product against the host loop
    std::vector<Vec3f> pos(n);
    std::memcpy(pos.data(), pf.data(), pf.size() * sizeof(float));
    const auto ref_normals = reference::vertex_normals(pos, h.faces);
    const V    normals     = gpu_normals<double>(m, h.p);
    for (std::uint32_t v = 0; v < n; ++v)
        for (int k = 0; k < 3; ++k)
            if (std::isfinite(ref_normals[v][k]))
                ASSERT_NEAR(normals[3 * v + k], ref_normals[v][k], 2e-6) << "normal " << v;
    const V x3 = random(3 * std::size_t(n), rng), x1 = random(n, rng);
    EXPECT_LT(max_abs_diff(gpu_laplacian<double, 3>(m, h.p, x3), laplacian(h, h.p, x3, 3)), 1e-9);
    EXPECT_LT(max_abs_diff(gpu_laplacian<double, 1>(m, h.p, x1), laplacian(h, h.p, x1, 1)), 1e-9);
    const V y_float = gpu_laplacian<float, 3>(m, h.p, x3), y_double = laplacian(h, h.p, x3, 3);
    double  scale   = 0;
    for (double y : y_double) scale = std::max(scale, std::abs(y));
    EXPECT_LT(max_abs_diff(y_float, y_double), 1e-4 * std::max(1.0, scale));

    // vector-Jacobian products against central differences
    const double eps = 1e-6;
    const V      d = random(h.p.size(), rng), g3 = random(h.p.size(), rng);
    V            plus = h.p, minus = h.p;
    for (std::size_t i = 0; i < d.size(); ++i)
        plus[i] += eps * d[i], minus[i] -= eps * d[i];
    {
        const auto      dp = dev<double>(h.p), dg = dev<double>(g3);
        DeviceBuffer<double> grad(h.p.size());
        unit_vertex_normals_vjp<double>(m, {dp.data(), n}, {dg.data(), n}, {grad.data(), n});
        expect_directional_derivative("normals", host(grad), d, gpu_normals<double>(m, plus),
                                      gpu_normals<double>(m, minus), g3, eps);
    }
    {
        const auto      dp = dev<double>(h.p), dx = dev<double>(x3), dg = dev<double>(g3);
        DeviceBuffer<double> grad(h.p.size());
        cotan_laplacian_vjp<double, 3>(m, {dp.data(), n}, {dx.data(), n}, {dg.data(), n},
                                       {grad.data(), n});
        expect_directional_derivative("laplacian", host(grad), d, laplacian(h, plus, x3, 3),
                                      laplacian(h, minus, x3, 3), g3, eps);
    }
}

}  // namespace gradients_test

TEST(GpuGeometryGradients, ForwardAndVectorJacobianProducts)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    namespace g = rxmesh::generate;
    const rxmesh::test::NamedMeshes meshes = {
        {"torus", g::torus(30, 18)}, {"grid", g::grid(20, 14)}, {"icosphere", g::icosphere(3)},
        {"fan", g::fan(200)},        {"bowtie", g::bowtie()},   {"components", g::components(20, 1)}};
    for (const auto& [name, soup] : meshes)
        gradients_test::check(soup, name);
}

TEST(GpuGeometryGradients, WrongViewSizesThrow)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    using namespace rxmesh;
    const RXMesh         m(generate::torus(10, 6));
    DeviceBuffer<double> a(3 * std::size_t(m.num_vertices())), b(3);
    EXPECT_THROW(unit_vertex_normals<double>(m, {a.data(), m.num_vertices()}, {b.data(), 1}), Error);
    EXPECT_THROW((cotan_laplacian_apply<double, 3>(m, {a.data(), m.num_vertices()}, {b.data(), 1},
                                                   {a.data(), m.num_vertices()})),
                 Error);
}
