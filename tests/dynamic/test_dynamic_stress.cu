// Randomized stress of the changing-topology engine on larger generated
// meshes and on every real mesh: thousands of operations per mesh, with
// validate() after every pass, the Euler characteristic where the rules keep
// it (flips and splits always; collapses on a manifold mesh, by the link
// condition), manifoldness kept where the input had it, storage growing by
// itself, every pass ending, and the static mesh built from the result
// passing all its own contracts. Delaunay flips: every interior edge left
// is Delaunay or its flip is refused by the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "rxmesh/algo/delaunay.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/editable_mesh.h"
#include "test_data.h"

namespace {

using namespace rxmesh;

RXMESH_HD inline std::uint32_t hash2(std::uint32_t a, std::uint32_t b)
{
    std::uint32_t x = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA6Bu;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    return x;
}

struct Shake
{
    std::uint32_t seed, percent;
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        const bool pick = hash2(e.a.id() ^ seed, e.b.id()) % 100u < percent;
        return EdgeDecision{pick, (e.position(e.a) + e.position(e.b)) * 0.5f,
                            float(hash2(e.b.id(), seed) % 7u)};
    }
};

struct Checks
{
    bool          manifold_in = false;
    std::int64_t  euler_in    = 0;
    std::uint64_t applied     = 0;
};

//! split, collapse, flip, repeated; checks after each pass.
void shake(DynamicMesh& mesh, std::uint32_t passes, std::uint32_t percent, Checks& checks,
           bool euler_kept)
{
    for (std::uint32_t pass = 0; pass < passes; ++pass) {
        const Shake decide{pass * 7919u + 13u, percent};
        const PassReport r = pass % 3 == 0   ? mesh.split_pass(decide)
                             : pass % 3 == 1 ? mesh.collapse_pass(decide)
                                             : mesh.flip_pass(decide);
        checks.applied += r.applied;
        ASSERT_EQ(r.asked, r.refused + r.conflicted + r.applied) << r.to_json();
        const DynamicValidation v = mesh.validate();
        ASSERT_TRUE(v.ok()) << "pass " << pass << ": " << v.first;
        if (checks.manifold_in) ASSERT_TRUE(mesh.is_manifold()) << "pass " << pass;
        if (euler_kept)
            ASSERT_EQ(mesh.euler_characteristic(), checks.euler_in) << "pass " << pass << " "
                                                                    << r.to_json();
    }
}

struct SplitAll
{
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        return EdgeDecision{true, (e.position(e.a) + e.position(e.b)) * 0.5f};
    }
};

struct AskNone
{
    __device__ EdgeDecision operator()(const EdgeContext&) const { return {}; }
};

Checks start(DynamicMesh& mesh)
{
    Checks c;
    c.manifold_in = mesh.is_manifold();
    c.euler_in    = mesh.euler_characteristic();
    return c;
}

//! Counts interior edges that are not Delaunay and whose flip the
//! reference accepts (there must be none after delaunay_flips).
std::uint32_t flippable_non_delaunay(const TriangleSoup& s, float tolerance)
{
    reference::EditableMesh ref(s.positions, s.faces);
    std::uint32_t           bad = 0;
    for (const auto& [a, b] : ref.edges()) {
        const auto fs = ref.edge_faces(a, b);
        if (fs.size() != 2 || !ref.is_manifold_edge(a, b)) continue;
        std::uint32_t opposite[2];
        for (int i = 0; i < 2; ++i)
            for (std::uint32_t v : s.faces[fs[i]])
                if (v != a && v != b) opposite[i] = v;
        auto at = [&](std::uint32_t v) {
            return Vec3{s.positions[v][0], s.positions[v][1], s.positions[v][2]};
        };
        const double sum = delaunay_cotangent_sum(at(a), at(b), at(opposite[0]), at(opposite[1]));
        if (sum >= -double(tolerance)) continue;
        reference::EditableMesh copy = ref;
        bad += copy.flip(a, b);
    }
    return bad;
}

}  // namespace

TEST(GpuDynamicStress, GeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    struct Case
    {
        std::string  name;
        TriangleSoup soup;
        bool         euler_kept;  // manifold everywhere: collapses keep it too
        bool         changes;     // has an edge no rule refuses
    };
    const std::vector<Case> cases = {
        {"closed sphere", generate::noisy(generate::icosphere(4), 0.2f, 3), true, true},
        {"open grid", generate::grid(40, 30), true, true},
        {"300 components", generate::components(300, 1), true, true},
        {"valence 2000", generate::fan(2000), true, true},
        {"torus", generate::torus(40, 20), true, true},
        {"fins", generate::fin(6), false, false},
        {"bowtie", generate::bowtie(), false, true},
        {"isolated faces", generate::isolated_faces(200), true, true},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        DynamicMesh mesh(c.soup);
        Checks      checks = start(mesh);
        shake(mesh, 60, 30, checks, c.euler_kept);
        if (HasFatalFailure()) return;
        EXPECT_EQ(checks.applied > 0, c.changes);
    }
}

TEST(GpuDynamicStress, StorageGrowsBySplitsAlone)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    DynamicMesh         mesh(generate::icosphere(0));
    const std::uint64_t slots_before = mesh.memory().mesh;
    // each pass splits a face-disjoint set, up to half the edges: the mesh
    // at most doubles per pass
    for (int pass = 0; pass < 12; ++pass) {
        const PassReport r = mesh.split_pass(SplitAll{});
        ASSERT_TRUE(r.progress());
        ASSERT_TRUE(mesh.validate().ok());
        ASSERT_EQ(mesh.euler_characteristic(), 2);
    }
    EXPECT_GT(mesh.num_faces(), 20u * 50u);
    EXPECT_GT(mesh.memory().mesh, slots_before);
    EXPECT_TRUE(mesh.is_manifold());
    const RXMesh patched = mesh.to_rxmesh();
    EXPECT_EQ(patched.num_faces(), mesh.num_faces());
    EXPECT_EQ(patched.num_vertices(), mesh.num_vertices());
    EXPECT_TRUE(patched.validate().ok());
}

TEST(GpuDynamicStress, PassWithoutCandidatesEnds)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    DynamicMesh      mesh(generate::icosphere(2));
    const PassReport r = mesh.flip_pass(AskNone{});
    EXPECT_FALSE(r.progress());
    EXPECT_EQ(r.asked, 0u);
    EXPECT_EQ(r.edges, 480u);
    TriangleSoup empty;
    DynamicMesh  none(empty);
    EXPECT_FALSE(none.collapse_pass(Shake{1, 100}).progress());
    EXPECT_TRUE(none.validate().ok());
}

TEST(GpuDynamicStress, DelaunayOnGeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& soup : {generate::noisy(generate::grid(30, 30), 0.45f, 2),
                             generate::noisy(generate::icosphere(3), 0.3f, 4),
                             generate::noisy(generate::cylinder(20, 10), 0.4f, 6)}) {
        DynamicMesh          mesh(soup);
        const Checks         checks = start(mesh);
        const DelaunayReport r      = delaunay_flips(mesh);
        EXPECT_TRUE(r.converged);
        EXPECT_GT(r.flips, 0u);
        ASSERT_TRUE(mesh.validate().ok());
        EXPECT_EQ(mesh.euler_characteristic(), checks.euler_in);
        const TriangleSoup out = mesh.to_host();
        EXPECT_EQ(out.positions, soup.positions);  // the vertex set is unchanged
        EXPECT_EQ(flippable_non_delaunay(out, 2e-5f), 0u);
    }
}

namespace {

//! Delaunay flips on a real mesh, then random passes where it was valid.
void delaunay_then_shake(const TriangleSoup& soup)
{
    DynamicMesh             mesh(soup);
    Checks                  checks   = start(mesh);
    const DynamicValidation in       = mesh.validate();  // some repeat a face
    const bool              valid_in = in.ok();
    const DelaunayReport    r        = delaunay_flips(mesh);
    EXPECT_TRUE(r.converged) << r.to_json();
    const DynamicValidation v = mesh.validate();
    if (valid_in) ASSERT_TRUE(v.ok()) << v.first;
    EXPECT_LE(v.duplicate_faces, in.duplicate_faces);
    EXPECT_EQ(v.bad_faces, 0u) << v.first;
    if (checks.manifold_in) EXPECT_TRUE(mesh.is_manifold());
    EXPECT_EQ(mesh.euler_characteristic(), checks.euler_in);
    if (valid_in) shake(mesh, 6, 20, checks, false);
}

}  // namespace

TEST(GpuDynamicStress, RealMeshesDelaunayAndShake)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    RXMESH_SKIP_WITHOUT_REAL_MESHES();
    const int checked = rxmesh::test::for_each_real_mesh(
        300'000, [&](const std::string&, const TriangleSoup& soup) {
            delaunay_then_shake(soup);
            return !HasFatalFailure();
        });
    if (HasFatalFailure()) return;
    EXPECT_GT(checked, 100);
}

TEST(GpuDynamicStress, ThousandsOfPassesOnSmallMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& soup : {generate::noisy(generate::icosphere(2), 0.2f, 11),
                             generate::noisy(generate::grid(10, 8), 0.2f, 12)}) {
        DynamicMesh         mesh(soup);
        const Checks        checks  = start(mesh);
        const std::uint32_t initial = mesh.num_faces();
        std::uint64_t       applied = 0;
        for (std::uint32_t pass = 0; pass < 1500; ++pass) {
            const Shake decide{pass * 40503u + 7u, 25};
            // the size stays between half and twice the input's
            const std::uint32_t kind = mesh.num_faces() > 2 * initial   ? 1
                                       : mesh.num_faces() < initial / 2 ? 0
                                                                        : pass % 3;
            const PassReport r = kind == 0   ? mesh.split_pass(decide)
                                 : kind == 1 ? mesh.collapse_pass(decide)
                                             : mesh.flip_pass(decide);
            applied += r.applied;
            const DynamicValidation v = mesh.validate();
            ASSERT_TRUE(v.ok()) << "pass " << pass << ": " << v.first;
            ASSERT_TRUE(mesh.is_manifold()) << "pass " << pass;
            ASSERT_EQ(mesh.euler_characteristic(), checks.euler_in) << "pass " << pass;
        }
        EXPECT_GT(applied, 1000u);
    }
}
