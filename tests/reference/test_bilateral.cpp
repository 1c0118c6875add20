// Tests of reference::bilateral_iteration / bilateral_denoise: a value worked
// out by hand from the formulas (the apex of a regular fan), invariants
// (planes stay put, scale invariance, Jacobi independence of the vertex
// order, mirror symmetry), noise reduction on a sphere, and the rules for
// vertices that keep their position.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "rxmesh/core/error.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/bilateral.h"

namespace {

using rxmesh::Triangle;
using rxmesh::TriangleSoup;
using rxmesh::Vec3f;
using P3      = std::array<double, 3>;
namespace gen = rxmesh::generate;
namespace ref = rxmesh::reference;

constexpr double kPi = 3.14159265358979323846;

std::vector<P3> to_double(const std::vector<Vec3f>& p)
{
    std::vector<P3> out;
    for (const Vec3f& v : p)
        out.push_back({double(v[0]), double(v[1]), double(v[2])});
    return out;
}

double distance(const P3& a, const P3& b)
{
    return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                     (a[2] - b[2]) * (a[2] - b[2]));
}

double max_move(const std::vector<P3>& a, const std::vector<P3>& b)
{
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        m = std::max(m, distance(a[i], b[i]));
    return m;
}

bool all_finite(const std::vector<P3>& p)
{
    return std::all_of(p.begin(), p.end(), [](const P3& v) {
        return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
    });
}

struct RadiusStats
{
    double deviation = 0;         // mean of ||p| - 1|
    double mean = 0, spread = 0;  // mean and standard deviation of |p|
};

RadiusStats radius_stats(const std::vector<P3>& p)
{
    double sum = 0, sum2 = 0, dev = 0;
    for (const P3& v : p) {
        const double r = distance(v, {0, 0, 0});
        sum += r;
        sum2 += r * r;
        dev += std::fabs(r - 1);
    }
    const double n = double(p.size());
    return {dev / n, sum / n, std::sqrt(std::max(0.0, sum2 / n - (sum / n) * (sum / n)))};
}

TEST(BilateralReference, FanApexByHand)
{
    // Apex c = (0, 0, z) over a regular m-gon rim of radius 1 at z = 0.
    // n_c: the m cross products have x, y cancelling and z = sin(2 pi / m)
    // each, so n_c = (0, 0, 1). Every rim vertex is at t^2 = 1 + z^2 = sc2
    // (inside 2 sigma_c), so N(c) = apex + rim, m + 1 vertices, with h = 0 at
    // the apex and -z on the rim: mean h^2 = m z^2 / (m + 1), mean |h| =
    // m z / (m + 1), sigma_s^2 = m z^2 / (m + 1)^2. A rim weight is
    // w = exp(-1/2) exp(-(m + 1)^2 / (2 m)) (z cancels), the apex's 1:
    // the apex moves by -m z w / (1 + m w) along z.
    for (const int m : {3, 4, 5, 6, 7, 8}) {
        for (const double z : {0.1, 0.35}) {
            const TriangleSoup fan = gen::fan(m);
            std::vector<P3>    p   = {{0, 0, z}};
            for (int k = 0; k < m; ++k)
                p.push_back({std::cos(2 * kPi * k / m), std::sin(2 * kPi * k / m), 0});
            const std::vector<P3> out = ref::bilateral_iteration(p, fan.faces);
            const double      w = std::exp(-0.5) * std::exp(-double((m + 1) * (m + 1)) / (2.0 * m));
            const std::string what = "m " + std::to_string(m) + ", z " + std::to_string(z);
            EXPECT_NEAR(out[0][0], 0, 1e-14) << what;
            EXPECT_NEAR(out[0][1], 0, 1e-14) << what;
            EXPECT_NEAR(out[0][2], z - m * z * w / (1 + m * w), 1e-14) << what;
            // mirror symmetry through the plane of the axis and a rim
            // vertex: that vertex moves in that plane only
            for (int k = 1; k <= m; ++k) {
                const double a = 2 * kPi * (k - 1) / m;
                const double tang =
                    (out[k][0] - p[k][0]) * -std::sin(a) + (out[k][1] - p[k][1]) * std::cos(a);
                EXPECT_NEAR(tang, 0, 1e-13) << what << ", rim " << k;
            }
        }
    }
}

TEST(BilateralReference, FarNeighboursLeftOutByHand)
{
    // Apex 0 at the origin, rim 1 = (1, 0, -d) near, rims 2, 3, 4 at 2.5 in
    // the plane z = 0; faces (0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 1).
    // Cross products from the apex: (2.5 d, 0, 2.5), (0, 0, 6.25) twice,
    // (2.5 d, 0, 2.5): n = (2 d, 0, 7) / sqrt(4 d^2 + 49). sc2 = 1 + d^2, so
    // 2 sigma_c < 2.5 and N(0) = {0, 1}: h_1 = -5 d / sqrt(4 d^2 + 49),
    // sigma_s^2 = h_1^2 / 4 (h^2 and |h| average over two vertices), and
    // w_1 = exp(-1/2) exp(-2); the apex moves by n w_1 h_1 / (1 + w_1).
    const double          d = 0.1;
    const std::vector<P3> p = {{0, 0, 0}, {1, 0, -d}, {0, 2.5, 0}, {-2.5, 0, 0}, {0, -2.5, 0}};
    const std::vector<Triangle> faces = {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 1}};
    const double                len   = std::sqrt(4 * d * d + 49);
    const double                h     = -5 * d / len;
    const double                w     = std::exp(-0.5) * std::exp(-2.0);
    const double                step  = w * h / (1 + w);
    const P3                    apex  = ref::bilateral_iteration(p, faces)[0];
    EXPECT_NEAR(apex[0], step * 2 * d / len, 1e-15);
    EXPECT_NEAR(apex[1], 0, 1e-15);
    EXPECT_NEAR(apex[2], step * 7 / len, 1e-15);
}

TEST(BilateralReference, PlanesStayPut)
{
    // h = 0 for every pair: sum w h = 0, whatever sigma_s becomes
    const TriangleSoup grid = gen::grid(6, 5);
    const auto         flat = ref::bilateral_denoise(grid.positions, grid.faces, 2);
    EXPECT_LT(max_move(flat, to_double(grid.positions)), 1e-12);
    // the same grid tilted out of every coordinate plane (in double)
    const double    c = std::cos(0.7), s = std::sin(0.7), c2 = std::cos(0.4), s2 = std::sin(0.4);
    std::vector<P3> tilted;
    for (const P3& v : to_double(grid.positions)) {
        const P3 r = {v[0], c * v[1] - s * v[2], s * v[1] + c * v[2]};  // about x
        tilted.push_back({c2 * r[0] + s2 * r[2] + 0.3, r[1] - 1.0, -s2 * r[0] + c2 * r[2]});
    }
    EXPECT_LT(max_move(ref::bilateral_iteration(tilted, grid.faces), tilted), 1e-12);
}

TEST(BilateralReference, ScaleInvariant)
{
    const std::vector<TriangleSoup> meshes = {gen::normal_noise(gen::icosphere(2), 0.3f, 3),
                                              gen::noisy(gen::grid(7, 6), 0.2f, 5)};
    for (const TriangleSoup& m : meshes) {
        const double          s = 3.7;
        const std::vector<P3> p = to_double(m.positions);
        std::vector<P3>       scaled;
        for (const P3& v : p)
            scaled.push_back({s * v[0], s * v[1], s * v[2]});
        const auto a = ref::bilateral_iteration(p, m.faces);
        const auto b = ref::bilateral_iteration(scaled, m.faces);
        ASSERT_GT(max_move(a, p), 1e-4);  // something moved
        for (std::size_t i = 0; i < p.size(); ++i)
            for (int d = 0; d < 3; ++d)
                EXPECT_NEAR(b[i][d], s * a[i][d], 1e-9 * s) << "vertex " << i;
    }
}

TEST(BilateralReference, JacobiIndependentOfVertexOrder)
{
    // every vertex reads the previous positions: renumbering the vertices
    // renumbers the result (a Gauss-Seidel sweep would depend on the order)
    const TriangleSoup         m = gen::normal_noise(gen::torus(12, 8), 0.3f, 9);
    std::vector<std::uint32_t> perm(m.positions.size());
    std::iota(perm.begin(), perm.end(), 0u);
    std::shuffle(perm.begin(), perm.end(), std::mt19937(42));
    std::vector<P3>       p = to_double(m.positions), q(p.size());
    std::vector<Triangle> faces;
    for (std::size_t v = 0; v < p.size(); ++v)
        q[perm[v]] = p[v];
    for (const Triangle& t : m.faces)
        faces.push_back({perm[t[0]], perm[t[1]], perm[t[2]]});
    const auto a = ref::bilateral_iteration(p, m.faces);
    const auto b = ref::bilateral_iteration(q, faces);
    ASSERT_GT(max_move(a, p), 1e-4);
    for (std::size_t v = 0; v < p.size(); ++v)
        EXPECT_LT(distance(a[v], b[perm[v]]), 1e-12) << "vertex " << v;
}

TEST(BilateralReference, ReducesNormalNoiseOnSphere)
{
    // The filter also shrinks a sphere: on a clean one every neighbour has
    // h < 0, so each iteration moves every vertex inwards (here by about
    // 0.007 = 5% of an edge). After 3 iterations that bias exceeds this
    // noise (mean ||p| - 1| 0.015 -> 0.020), so the noise is measured as the
    // spread of |p| about its mean, and ||p| - 1| after one iteration only.
    const TriangleSoup noisy = gen::normal_noise(gen::icosphere(3), 0.2f, 11);
    const RadiusStats  in    = radius_stats(to_double(noisy.positions));
    const RadiusStats  one  = radius_stats(ref::bilateral_denoise(noisy.positions, noisy.faces, 1));
    const RadiusStats three = radius_stats(ref::bilateral_denoise(noisy.positions, noisy.faces, 3));
    ASSERT_GT(in.deviation, 1e-2);  // the noise is there
    EXPECT_LT(one.deviation, 0.75 * in.deviation);
    EXPECT_LT(one.spread, 0.75 * in.spread);
    EXPECT_LT(three.spread, 0.4 * in.spread);
    EXPECT_GT(three.mean, 0.97);  // the shrinkage stays small
}

TEST(BilateralReference, DegenerateMeshesStayFinite)
{
    TriangleSoup fin = gen::normal_noise(gen::fin(3), 0.1f, 2);
    fin.positions.push_back({7.f, 8.f, 9.f});  // isolated: in no face
    const auto fin_out = ref::bilateral_denoise(fin.positions, fin.faces, 2);
    EXPECT_TRUE(all_finite(fin_out));
    EXPECT_EQ(fin_out.back(), (P3{7, 8, 9}));

    const TriangleSoup bowtie = gen::bowtie();  // planar: nothing moves
    const auto         bow    = ref::bilateral_denoise(bowtie.positions, bowtie.faces, 1);
    EXPECT_TRUE(all_finite(bow));
    EXPECT_LT(max_move(bow, to_double(bowtie.positions)), 1e-12);

    // faces that repeat a vertex are skipped: the result is the grid's
    TriangleSoup degenerate = gen::with_degenerate_faces();
    degenerate.positions    = gen::normal_noise(degenerate, 0.3f, 4).positions;
    const std::vector<Triangle> grid_faces(degenerate.faces.begin(),
                                           degenerate.faces.end() - gen::kDegenerateFaceCount);
    EXPECT_EQ(ref::bilateral_denoise(degenerate.positions, degenerate.faces, 1),
              ref::bilateral_denoise(degenerate.positions, grid_faces, 1));
}

TEST(BilateralReference, KeptVertices)
{
    // a face and its mirror image: every normal sum is zero
    const std::vector<P3>       p     = {{0, 0, 0}, {1, 0, 0.2}, {0, 1, -0.3}};
    const std::vector<Triangle> twins = {{0, 1, 2}, {0, 2, 1}};
    EXPECT_EQ(ref::bilateral_iteration(p, twins), p);

    // rim vertices 1 and 2 of a lifted fan on the same point: a zero-length
    // edge, sigma_c = 0 for both; the others still move
    const TriangleSoup fan = gen::fan(5);
    std::vector<P3>    q   = to_double(fan.positions);
    q[0][2]                = 0.3;
    q[1]                   = q[2];
    const auto out         = ref::bilateral_iteration(q, fan.faces);
    EXPECT_TRUE(all_finite(out));
    EXPECT_EQ(out[1], q[1]);
    EXPECT_EQ(out[2], q[2]);
    EXPECT_GT(distance(out[0], q[0]), 1e-6);
}

TEST(BilateralReference, DenoiseMatchesIterations)
{
    const TriangleSoup m = gen::normal_noise(gen::cylinder(10, 4), 0.3f, 6);
    const auto         p = to_double(m.positions);
    EXPECT_EQ(ref::bilateral_denoise(m.positions, m.faces, 0), p);
    EXPECT_EQ(ref::bilateral_denoise(m.positions, m.faces, 2),
              ref::bilateral_iteration(ref::bilateral_iteration(p, m.faces), m.faces));
}

TEST(BilateralReference, InvalidInputThrows)
{
    const TriangleSoup m = gen::grid(2, 2);  // 9 vertices
    EXPECT_THROW(ref::bilateral_denoise(m.positions, m.faces, -1), rxmesh::InvalidInputError);
    EXPECT_THROW(ref::bilateral_iteration(to_double(m.positions), {{0, 1, 9}}),
                 rxmesh::InvalidInputError);
    EXPECT_THROW(ref::bilateral_denoise(m.positions, {{0, 1, 9}}, 0), rxmesh::InvalidInputError);
}

}  // namespace
