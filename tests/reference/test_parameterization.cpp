// Tests of the reference parameterizations (reference/parameterization.h):
// the disk's boundary loop and every way a mesh is not a disk; Tutte's map
// on the unit circle without a flipped face; the harmonic extension's
// linear precision on a flat mesh; LSCM mapping a flat mesh onto itself (up
// to the similarity its pins choose) and a curved cap without flips, more
// conformally than Tutte's map.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rxmesh/io/generate.h"
#include "rxmesh/reference/parameterization.h"
#include "rxmesh/reference/sparse_operators.h"

namespace {

using namespace rxmesh;
namespace gen = rxmesh::generate;
namespace ref = rxmesh::reference;

//! A cap of the unit sphere: the faces below z = 0.3 of an icosphere.
TriangleSoup spherical_cap() { return gen::sphere_cap(4, 0.3f); }

//! A grid with its vertices moved in its plane by up to a tenth of an edge:
//! irregular, still flat, no face folded (checked).
TriangleSoup flat_noisy_grid(int nx, int ny, std::uint32_t seed)
{
    TriangleSoup m = gen::noisy(gen::grid(nx, ny), 0.1f, seed);
    for (Vec3f& p : m.positions) p[2] = 0.f;
    std::vector<ref::Vec2d> xy;
    for (const Vec3f& p : m.positions) xy.push_back({p[0], p[1]});
    for (double a : ref::uv_signed_areas(xy, m.faces)) EXPECT_GT(a, 0.0) << "a folded face";
    return m;
}

double uv_distance(const ref::Vec2d& a, const ref::Vec2d& b)
{
    return std::hypot(a[0] - b[0], a[1] - b[1]);
}

TEST(ReferenceParameterization, TheDiskBoundaryIsOneLoopInTheFacesOrientation)
{
    const TriangleSoup m    = gen::grid(4, 3);
    const auto         loop = ref::disk_boundary(m.positions, m.faces);
    EXPECT_EQ(loop.size(), 2u * (4 + 3));
    // each consecutive pair is an edge of one face, in that face's direction
    for (std::size_t k = 0; k < loop.size(); ++k) {
        const std::uint32_t a = loop[k], b = loop[(k + 1) % loop.size()];
        int                 forward = 0, backward = 0;
        for (const Triangle& f : m.faces)
            for (int c = 0; c < 3; ++c) {
                forward += f[c] == a && f[(c + 1) % 3] == b;
                backward += f[c] == b && f[(c + 1) % 3] == a;
            }
        EXPECT_EQ(forward, 1) << a << "-" << b;
        EXPECT_EQ(backward, 0) << a << "-" << b;
    }
}

TEST(ReferenceParameterization, WhatIsNotADiskIsRefused)
{
    const auto refused = [](const TriangleSoup& m, const char* what) {
        EXPECT_THROW(ref::disk_boundary(m.positions, m.faces), std::invalid_argument) << what;
        EXPECT_THROW(ref::tutte(m.positions, m.faces), std::invalid_argument) << what;
        EXPECT_THROW(ref::lscm(m.positions, m.faces), std::invalid_argument) << what;
    };
    refused(gen::icosphere(2), "closed");
    refused(gen::cylinder(12, 4), "two boundary loops");
    refused(gen::fin(3), "non-manifold edge");
    refused(gen::bowtie(), "non-manifold vertex");
    refused(gen::isolated_faces(2), "two components");
    refused(gen::with_degenerate_faces(), "a face repeating a vertex");
    // a torus less one face: one boundary loop, Euler characteristic -1
    TriangleSoup holed = gen::torus(12, 8);
    holed.faces.pop_back();
    refused(holed, "a handle");
    // one face flipped against its neighbours
    TriangleSoup flipped = gen::grid(3, 3);
    std::swap(flipped.faces[4][1], flipped.faces[4][2]);
    refused(flipped, "inconsistent orientation");
    // a vertex of no face
    TriangleSoup extra = gen::grid(3, 3);
    extra.positions.push_back({9, 9, 9});
    refused(extra, "a vertex of no face");
}

//! Tutte's embedding theorem: uniform weights and a convex boundary give no
//! flipped face, on a flat mesh and on a curved one alike.
TEST(ReferenceParameterization, TutteMapsTheBoundaryOntoTheCircleWithoutFlips)
{
    for (const TriangleSoup& m : {flat_noisy_grid(20, 14, 5), spherical_cap()}) {
        const auto uv   = ref::tutte(m.positions, m.faces);
        const auto loop = ref::disk_boundary(m.positions, m.faces);
        for (std::uint32_t v : loop) EXPECT_NEAR(std::hypot(uv[v][0], uv[v][1]), 1.0, 1e-12) << v;
        EXPECT_NEAR(uv[loop[0]][0], 1.0, 1e-12);
        for (double a : ref::uv_signed_areas(uv, m.faces)) EXPECT_GT(a, 0.0);
        // the interior inside the circle
        for (const auto& p : uv) EXPECT_LE(std::hypot(p[0], p[1]), 1.0 + 1e-12);
    }
}

//! On a flat mesh the cotangent Laplacian of a linear function is 0 at
//! every interior vertex: the harmonic extension of the boundary's own xy
//! is the mesh itself. Uniform weights do not have that precision on an
//! irregular mesh (which the test must be able to see).
TEST(ReferenceParameterization, HarmonicExtensionReproducesAFlatMesh)
{
    const TriangleSoup      m    = flat_noisy_grid(16, 12, 7);
    const auto              loop = ref::disk_boundary(m.positions, m.faces);
    std::vector<ref::Vec2d> at;
    for (std::uint32_t v : loop) at.push_back({m.positions[v][0], m.positions[v][1]});
    const auto harmonic =
        ref::harmonic_extension(m.positions, m.faces, loop, at, ref::ParamWeights::cotangent);
    const auto uniform =
        ref::harmonic_extension(m.positions, m.faces, loop, at, ref::ParamWeights::uniform);
    double uniform_worst = 0;
    for (std::size_t v = 0; v < m.positions.size(); ++v) {
        const ref::Vec2d xy{m.positions[v][0], m.positions[v][1]};
        EXPECT_LT(uv_distance(harmonic[v], xy), 1e-10) << v;
        uniform_worst = std::max(uniform_worst, uv_distance(uniform[v], xy));
    }
    EXPECT_GT(uniform_worst, 1e-4);
    EXPECT_THROW(ref::harmonic_extension(m.positions, m.faces, {0, 0}, {{0, 0}, {1, 1}},
                                         ref::ParamWeights::uniform),
                 std::invalid_argument);
    EXPECT_THROW(ref::harmonic_extension(m.positions, m.faces, {0}, {}, ref::ParamWeights::uniform),
                 std::invalid_argument);
}

//! A flat mesh is its own conformal map: pinned at two of its own points,
//! LSCM returns the mesh; pinned by default, a similarity of it.
TEST(ReferenceParameterization, LscmMapsAFlatMeshOntoItself)
{
    const TriangleSoup  m    = flat_noisy_grid(18, 11, 3);
    const auto          loop = ref::disk_boundary(m.positions, m.faces);
    const std::uint32_t a = loop[0], b = loop[loop.size() / 2];
    const auto          own = ref::lscm(m.positions, m.faces, {a, b},
                                        {ref::Vec2d{m.positions[a][0], m.positions[a][1]},
                                         ref::Vec2d{m.positions[b][0], m.positions[b][1]}});
    for (std::size_t v = 0; v < m.positions.size(); ++v)
        EXPECT_LT(uv_distance(own[v], {m.positions[v][0], m.positions[v][1]}), 1e-9) << v;
    const auto uv = ref::lscm(m.positions, m.faces);
    // a similarity: every edge scaled by the same factor
    double lo = 1e300, hi = 0;
    for (const Triangle& f : m.faces)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t i = f[k], j = f[(k + 1) % 3];
            const double        s = uv_distance(uv[i], uv[j]) /
                             std::hypot(double(m.positions[i][0]) - m.positions[j][0],
                                        double(m.positions[i][1]) - m.positions[j][1]);
            lo = std::min(lo, s);
            hi = std::max(hi, s);
        }
    EXPECT_LT(hi - lo, 1e-9 * hi);
    for (double area : ref::uv_signed_areas(uv, m.faces)) EXPECT_GT(area, 0.0);
}

//! A degenerate face (zero area: its three corners on a line) has no
//! cotangent weights; with its area terms alone it would make the energy
//! indefinite. Here a boundary edge a -> b of a flat grid gets its midpoint m:
//! face (a, b, c) becomes (a, m, c) and (m, b, c), and the sliver (b, m, a)
//! closes the boundary again along a -> b (still a disk). LSCM skips the
//! sliver and maps every other vertex by the pins' similarity of the plane.
TEST(ReferenceParameterization, LscmSkipsADegenerateFace)
{
    TriangleSoup m = flat_noisy_grid(8, 6, 5);
    const auto   loop = ref::disk_boundary(m.positions, m.faces);
    const std::uint32_t a = loop[0], b = loop[1];
    std::size_t         face = m.faces.size();
    int                 at   = 0;
    for (std::size_t f = 0; f < m.faces.size() && face == m.faces.size(); ++f)
        for (int k = 0; k < 3; ++k)
            if (m.faces[f][k] == a && m.faces[f][(k + 1) % 3] == b) face = f, at = k;
    ASSERT_LT(face, m.faces.size());
    const std::uint32_t c   = m.faces[face][(at + 2) % 3];
    const auto          mid = std::uint32_t(m.positions.size());
    Vec3f               pm;
    for (int d = 0; d < 3; ++d) pm[d] = 0.5f * (m.positions[a][d] + m.positions[b][d]);
    m.positions.push_back(pm);
    m.faces[face] = {a, mid, c};
    m.faces.push_back({mid, b, c});
    m.faces.push_back({b, mid, a});  // the sliver
    ASSERT_EQ(ref::disk_boundary(m.positions, m.faces).size(), loop.size());
    const std::vector<ref::Vec2d> uv = ref::lscm(m.positions, m.faces, {loop[2], loop[4]},
                                                 {ref::Vec2d{m.positions[loop[2]][0], m.positions[loop[2]][1]},
                                                  ref::Vec2d{m.positions[loop[4]][0], m.positions[loop[4]][1]}});
    for (std::size_t v = 0; v < m.positions.size(); ++v)
        EXPECT_LT(uv_distance(uv[v], {m.positions[v][0], m.positions[v][1]}), 1e-6) << v;
}

//! The conformal energy E_D - A over the Dirichlet energy E_D: 0 for a
//! conformal map.
double conformal_share(const TriangleSoup& m, const std::vector<ref::Vec2d>& uv)
{
    const ref::CsrMatrix L = ref::cotangent_laplacian(m.positions, m.faces);
    std::vector<double>  u(uv.size()), v(uv.size());
    for (std::size_t i = 0; i < uv.size(); ++i) u[i] = uv[i][0], v[i] = uv[i][1];
    const auto Lu = L.apply(u), Lv = L.apply(v);
    double     dirichlet = 0, area = 0;
    for (std::size_t i = 0; i < uv.size(); ++i) dirichlet += 0.5 * (u[i] * Lu[i] + v[i] * Lv[i]);
    for (double a : ref::uv_signed_areas(uv, m.faces)) area += 0.5 * a;
    return (dirichlet - area) / dirichlet;
}

//! A curved cap: no flipped face, and closer to conformal than the
//! fixed-boundary maps (which force the boundary onto a circle).
TEST(ReferenceParameterization, LscmFlattensACapConformally)
{
    const TriangleSoup m  = spherical_cap();
    const auto         uv = ref::lscm(m.positions, m.faces);
    for (double a : ref::uv_signed_areas(uv, m.faces)) EXPECT_GT(a, 0.0);
    const double lscm_share = conformal_share(m, uv);
    EXPECT_GE(lscm_share, -1e-12);  // E_D >= A for any map
    EXPECT_LT(lscm_share, conformal_share(m, ref::tutte(m.positions, m.faces)));
    EXPECT_LT(lscm_share,
              conformal_share(m, ref::tutte(m.positions, m.faces, ref::ParamWeights::cotangent)));
}

TEST(ReferenceParameterization, BadPinsAreRefused)
{
    const TriangleSoup m = gen::grid(4, 4);
    EXPECT_THROW(ref::lscm(m.positions, m.faces, {0, 0}, {{0, 0}, {1, 0}}), std::invalid_argument);
    EXPECT_THROW(ref::lscm(m.positions, m.faces, {0, 1}, {{0, 0}, {0, 0}}), std::invalid_argument);
    EXPECT_THROW(ref::lscm(m.positions, m.faces, {0, 99}, {{0, 0}, {1, 0}}), std::invalid_argument);
    EXPECT_THROW(ref::lscm(m.positions, m.faces, {0}, {{0, 0}}), std::invalid_argument);
}

}  // namespace
