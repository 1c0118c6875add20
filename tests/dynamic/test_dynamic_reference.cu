// The changing-topology engine against the serial reference
// (reference/editable_mesh.h), pass by pass: the callback asks for an
// operation on a pseudo-random set of edges; every asked edge the GPU
// refuses, the reference must refuse on the mesh as it was before the pass,
// and every edge the GPU does not refuse the reference must accept; the
// operations the GPU applied, applied serially in edge order to the
// reference, must all succeed and give exactly the GPU's mesh (positions to
// the bit, faces, the map to input vertices).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "mesh_families.h"
#include "rxmesh/dynamic/dynamic_pass.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/editable_mesh.h"
#include "shape_meshes.h"

namespace {

using namespace rxmesh;

RXMESH_HD inline std::uint32_t mix(std::uint32_t x)
{
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    x *= 0x297a2d39u;
    x ^= x >> 15;
    return x;
}

RXMESH_HD inline bool chosen(std::uint32_t a, std::uint32_t b, std::uint32_t seed,
                             std::uint32_t percent)
{
    return mix(a * 0x9E3779B1u ^ mix(b + seed)) % 100u < percent;
}

RXMESH_HD inline Vec3 midpoint(const Vec3& p, const Vec3& q) { return (p + q) * 0.5f; }

struct RandomEdges
{
    std::uint32_t seed, percent;
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        return EdgeDecision{chosen(e.a.id(), e.b.id(), seed, percent),
                            midpoint(e.position(e.a), e.position(e.b)), 0.f};
    }
};

Vec3 host_position(const reference::EditableMesh& m, std::uint32_t v)
{
    const Vec3f& p = m.position(v);
    return {p[0], p[1], p[2]};
}

//! Tries the operation on a copy: whether the reference accepts it.
bool reference_accepts(const reference::EditableMesh& before, EdgeOpKind kind, std::uint32_t a,
                       std::uint32_t b)
{
    reference::EditableMesh m = before;
    const Vec3              p = midpoint(host_position(m, a), host_position(m, b));
    if (kind == EdgeOpKind::Flip) return m.flip(a, b);
    if (kind == EdgeOpKind::Split) return m.split(a, b, {p.x, p.y, p.z}).has_value();
    return m.collapse(a, b, {p.x, p.y, p.z});
}

bool reference_apply(reference::EditableMesh& m, EdgeOpKind kind, std::uint32_t a, std::uint32_t b)
{
    const Vec3 p = midpoint(host_position(m, a), host_position(m, b));
    if (kind == EdgeOpKind::Flip) return m.flip(a, b);
    if (kind == EdgeOpKind::Split) return m.split(a, b, {p.x, p.y, p.z}).has_value();
    return m.collapse(a, b, {p.x, p.y, p.z});
}

void expect_same_mesh(DynamicMesh& gpu, const reference::EditableMesh& ref,
                      std::uint32_t input_vertices)
{
    std::vector<std::uint32_t> gpu_map, ref_map;
    const TriangleSoup         g = gpu.to_host(&gpu_map), r = ref.compact(&ref_map);
    ASSERT_EQ(g.positions.size(), r.positions.size());
    ASSERT_EQ(g.faces.size(), r.faces.size());
    for (std::size_t v = 0; v < g.positions.size(); ++v) {
        ASSERT_EQ(g.positions[v], r.positions[v]) << "vertex " << v;
        ASSERT_EQ(gpu_map[v], ref_map[v] < input_vertices ? ref_map[v] : kNoElement);
    }
    for (std::size_t f = 0; f < g.faces.size(); ++f) ASSERT_EQ(g.faces[f], r.faces[f]) << "face " << f;
}

struct PassCounts
{
    std::uint32_t applied = 0, refused = 0, conflicted = 0;
};

//! One pass on both meshes, with every check of the file comment.
PassCounts lockstep_pass(DynamicMesh& gpu, reference::EditableMesh& ref, EdgeOpKind kind,
                         std::uint32_t seed, std::uint32_t percent)
{
    PassCounts       counts;
    const RandomEdges decide{seed, percent};
    const PassReport report = kind == EdgeOpKind::Flip    ? gpu.flip_pass(decide)
                              : kind == EdgeOpKind::Split ? gpu.split_pass(decide)
                                                          : gpu.collapse_pass(decide);
    const auto edges  = gpu.last_edges();
    const auto status = gpu.last_statuses();
    auto sorted_edges = edges;  // ids follow vertex pairs only after a rebuild
    std::sort(sorted_edges.begin(), sorted_edges.end());
    EXPECT_EQ(sorted_edges, ref.edges()) << "the pass's edge table";
    const reference::EditableMesh before = ref;
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto [a, b] = edges[e];
        const bool asked  = chosen(a, b, seed, percent);
        EXPECT_EQ(status[e] != EdgeOpStatus::NotAsked, asked) << "edge " << a << "-" << b;
        if (!asked) continue;
        const bool accepted = reference_accepts(before, kind, a, b);
        if ((status[e] != EdgeOpStatus::Refused) != accepted) {
            reference::EditableMesh m = before;
            const Vec3              p = midpoint(host_position(m, a), host_position(m, b));
            m.collapse(a, b, {p.x, p.y, p.z});
            ADD_FAILURE() << to_string(kind) << " of " << a << "-" << b << ": GPU "
                          << (accepted ? "refused" : "accepted") << ", reference "
                          << (accepted ? "accepted" : "refused") << " (collapse: "
                          << m.last_refusal() << ")";
        }
        counts.refused += status[e] == EdgeOpStatus::Refused;
        counts.conflicted += status[e] == EdgeOpStatus::Conflicted;
    }
    for (std::size_t e = 0; e < edges.size(); ++e)
        if (status[e] == EdgeOpStatus::Applied) {
            EXPECT_TRUE(reference_apply(ref, kind, edges[e][0], edges[e][1]))
                << "applied together on the GPU, refused in sequence: " << to_string(kind)
                << " of " << edges[e][0] << "-" << edges[e][1];
            ++counts.applied;
        }
    EXPECT_EQ(report.applied, counts.applied);
    EXPECT_EQ(report.refused, counts.refused);
    EXPECT_EQ(report.conflicted, counts.conflicted);
    EXPECT_EQ(report.progress(), counts.applied > 0);
    return counts;
}

test::NamedMeshes small_meshes()
{
    TriangleSoup with_unused = generate::grid(3, 2);
    with_unused.positions.push_back({5.f, 5.f, 5.f});  // an isolated vertex
    return test::joined(
        {test::manifold_families(1, {8, 6}, {6, 5}, {6, 4}, 4),
         test::irregular_families({4}, 5, 40),
         {{"noisy icosphere2", generate::noisy(generate::icosphere(2), 0.3f, 7)},
          {"noisy grid", generate::noisy(generate::grid(7, 6), 0.4f, 3)},
          {"grid with an unused vertex", with_unused}}});
}

reference::EditableMesh reference_of(const TriangleSoup& s)
{
    return reference::EditableMesh(s.positions, s.faces);
}


struct AskAll
{
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        return EdgeDecision{true, midpoint(e.position(e.a), e.position(e.b))};
    }
};

//! Asks for edge (a, b) only, with position p.
struct AskOne
{
    std::uint32_t a, b;
    Vec3          p;
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        return EdgeDecision{e.a.id() == a && e.b.id() == b, p};
    }
};

}  // namespace

TEST(GpuDynamic, FlipOnAQuad)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    TriangleSoup quad;
    quad.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    quad.faces     = {{0, 1, 2}, {0, 2, 3}};
    DynamicMesh      mesh(quad);
    const PassReport r = mesh.flip_pass(AskAll{});
    EXPECT_EQ(r.edges, 5u);
    EXPECT_EQ(r.asked, 5u);
    EXPECT_EQ(r.refused, 4u);  // the boundary edges
    EXPECT_EQ(r.applied, 1u);
    // (0, 2) walked 0 -> 2 by face (0, 2, 3): c = 3, d = 1; faces (c, a, d), (d, b, c)
    const auto faces = mesh.slot_faces();
    EXPECT_EQ(faces, (std::vector<std::uint32_t>{1, 2, 3, 3, 0, 1}));
    EXPECT_TRUE(mesh.validate().ok());
    EXPECT_EQ(mesh.num_edges(), 5u);
}

TEST(GpuDynamic, SplitOnABoundaryEdgeAndCollapseBack)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    TriangleSoup tri;
    tri.positions = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
    tri.faces     = {{0, 1, 2}};
    DynamicMesh mesh(tri);
    const auto  r = mesh.split_pass(AskOne{0, 1, {1.f, 0.f, 0.f}});
    EXPECT_EQ(r.applied, 1u);
    EXPECT_EQ(mesh.num_vertices(), 4u);
    EXPECT_EQ(mesh.num_faces(), 2u);
    EXPECT_EQ(mesh.slot_faces(), (std::vector<std::uint32_t>{0, 3, 2, 3, 1, 2}));
    EXPECT_EQ(mesh.slot_positions()[9], 1.f);
    EXPECT_TRUE(mesh.validate().ok());
    EXPECT_TRUE(mesh.is_manifold());
    const auto c = mesh.collapse_pass(AskOne{1, 3, {2.f, 0.f, 0.f}});
    EXPECT_EQ(c.applied, 1u);
    EXPECT_EQ(mesh.num_faces(), 1u);
    const TriangleSoup out = mesh.to_host();
    ASSERT_EQ(out.faces.size(), 1u);
    EXPECT_EQ(out.faces[0], (Triangle{0, 1, 2}));
    EXPECT_EQ(out.positions[1], (Vec3f{2.f, 0.f, 0.f}));
}

TEST(GpuDynamic, CollapseRefusedByTheLinkConditionOnATetrahedron)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    DynamicMesh mesh(test::tetrahedron());
    const auto  r = mesh.collapse_pass(AskAll{});
    EXPECT_EQ(r.asked, 6u);
    EXPECT_EQ(r.refused, 6u);
    EXPECT_FALSE(r.progress());
    EXPECT_EQ(mesh.num_faces(), 4u);
}

TEST(GpuDynamic, EveryOperationAgreesWithTheReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const EdgeOpKind kinds[] = {EdgeOpKind::Flip, EdgeOpKind::Split, EdgeOpKind::Collapse};
    for (const auto& [name, soup] : small_meshes()) {
        SCOPED_TRACE(name);
        DynamicMesh             gpu(soup);
        reference::EditableMesh ref = reference_of(soup);
        PassCounts              total;
        for (std::uint32_t pass = 0; pass < 24; ++pass) {
            const EdgeOpKind kind = kinds[pass % 3];
            SCOPED_TRACE("pass " + std::to_string(pass) + " " + to_string(kind));
            const PassCounts c = lockstep_pass(gpu, ref, kind, 17 * pass + 1, 35);
            total.applied += c.applied;
            total.refused += c.refused;
            total.conflicted += c.conflicted;
            const DynamicValidation v = gpu.validate();
            ASSERT_TRUE(v.ok()) << v.first;
            std::string why;
            ASSERT_TRUE(ref.validate(&why)) << why;
            expect_same_mesh(gpu, ref, std::uint32_t(soup.positions.size()));
            EXPECT_EQ(gpu.is_manifold(), ref.is_manifold());
            EXPECT_EQ(gpu.euler_characteristic(), ref.euler_characteristic());
            if (HasFailure()) return;
        }
        // fin4: every edge touches its non-manifold edge's vertices
        EXPECT_EQ(total.applied > 0, name != "fin4");
        if (soup.faces.size() > 30) EXPECT_GT(total.refused + total.conflicted, 0u);
    }
}

TEST(GpuDynamic, SameResultForEveryBlockSize)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::icosphere(3), 0.2f, 5);
    std::vector<float>         positions;
    std::vector<std::uint32_t> faces;
    for (std::uint32_t block : {32u, 128u, 256u, 1024u}) {
        DynamicOptions options;
        options.block_threads = block;
        DynamicMesh mesh(soup, options);
        for (std::uint32_t pass = 0; pass < 12; ++pass) {
            const RandomEdges decide{pass, 60};
            if (pass % 3 == 0) mesh.split_pass(decide);
            if (pass % 3 == 1) mesh.collapse_pass(decide);
            if (pass % 3 == 2) mesh.flip_pass(decide);
        }
        if (positions.empty()) {
            positions = mesh.slot_positions();
            faces     = mesh.slot_faces();
            continue;
        }
        EXPECT_EQ(mesh.slot_positions(), positions) << "block " << block;
        EXPECT_EQ(mesh.slot_faces(), faces) << "block " << block;
    }
}
