// AskEdges::NearLastChanges (dynamic/edge_op.h): a pass that asks only the
// edges near the previous pass's changes must give the same mesh as one
// that asks every edge, for callbacks that read only their edge's two fans.
// Two copies of each mesh run the same steps (collapse, flip, split passes
// until none applies), one asking every edge, the other only near changes
// after each step's first pass; after every pass both must hold the same
// faces and positions bit for bit, both valid. Then what is asked when
// nothing is known: a new mesh, a moved one, and after a pass that changed
// nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_test.h"
#include "rxmesh/algo/delaunay.cuh"
#include "rxmesh/dynamic/dynamic_pass.cuh"
#include "rxmesh/io/generate.h"
#include "test_data.h"

namespace {

using namespace rxmesh;

//! The mean distance from v to its neighbours (0 for a vertex that is not
//! manifold or has none): a statistic of the whole fan.
__device__ float mean_neighbor_distance(const VertexContext& v)
{
    const Vec3 p   = v.position(v.vertex);
    float      sum = 0.f;
    int        n   = 0;
    v.for_each_neighbor([&](VertexId u) {
        sum += norm(v.position(u) - p);
        ++n;
    });
    return n > 0 ? sum / float(n) : 0.f;
}

//! Collapses interior edges shorter than 3/4 of both ends' mean neighbour
//! distances into their midpoint, shortest first.
struct FanCollapse
{
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        if (!e.manifold || e.num_faces != 2) return {};
        const VertexContext a = vertex_context(e, e.a), b = vertex_context(e, e.b);
        if (!a.manifold() || !b.manifold() || a.boundary() || b.boundary()) return {};
        const float l = norm(e.position(e.b) - e.position(e.a));
        const float limit =
            0.75f * fminf(mean_neighbor_distance(a), mean_neighbor_distance(b));
        return EdgeDecision{l < limit, (e.position(e.a) + e.position(e.b)) * 0.5f, l};
    }
};

//! Splits edges longer than 1.4 times either end's mean neighbour distance.
struct FanSplit
{
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        if (!e.manifold) return {};
        const VertexContext a = vertex_context(e, e.a), b = vertex_context(e, e.b);
        const float         l = norm(e.position(e.b) - e.position(e.a));
        const float limit = 1.4f * fmaxf(mean_neighbor_distance(a), mean_neighbor_distance(b));
        return EdgeDecision{limit > 0.f && l > limit, (e.position(e.a) + e.position(e.b)) * 0.5f,
                            -l};
    }
};

//! Delaunay flips: the quad's four positions, all in the fans of a and b.
struct QuadFlip
{
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        if (e.num_faces != 2 || !e.manifold) return {};
        const float s = delaunay_cotangent_sum(e.position(e.a), e.position(e.b),
                                               e.position(e.c), e.position(e.d));
        return EdgeDecision{s < -1e-4f, {}, s};
    }
};

struct SayYes
{
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        return EdgeDecision{true, (e.position(e.a) + e.position(e.b)) * 0.5f};
    }
};

struct SayNo
{
    __device__ EdgeDecision operator()(const EdgeContext&) const { return {}; }
};

struct StayPut
{
    __device__ Vec3 operator()(const VertexContext& v) const { return v.position(v.vertex); }
};

enum class Step { Collapse, Flip, Split };

template <typename Rule>
PassReport run(DynamicMesh& mesh, Step step, Rule rule, const PassLimits& limits)
{
    if (step == Step::Collapse) return mesh.collapse_pass(rule, limits);
    if (step == Step::Flip) return mesh.flip_pass(rule, limits);
    return mesh.split_pass(rule, limits);
}

PassReport run(DynamicMesh& mesh, Step step, const PassLimits& limits)
{
    if (step == Step::Collapse) return run(mesh, step, FanCollapse{}, limits);
    if (step == Step::Flip) return run(mesh, step, QuadFlip{}, limits);
    return run(mesh, step, FanSplit{}, limits);
}

struct Asked
{
    std::uint64_t every = 0, near = 0, applied = 0;
};

//! The steps on both copies; fails at the first pass where they differ.
void compare_steps(const TriangleSoup& soup, Asked& asked)
{
    DynamicMesh every(soup), near(soup);
    const Step  steps[] = {Step::Collapse, Step::Flip, Step::Split, Step::Collapse, Step::Flip};
    int         index   = 0;
    for (const Step step : steps) {
        for (std::uint32_t pass = 0; pass < 40; ++pass) {
            PassLimits near_limits;
            if (pass > 0) near_limits.ask = AskEdges::NearLastChanges;
            const PassReport a = run(every, step, PassLimits{});
            const PassReport b = run(near, step, near_limits);
            const std::string where =
                "step " + std::to_string(index) + " pass " + std::to_string(pass);
            ASSERT_EQ(a.applied, b.applied) << where << ": " << a.to_json() << " " << b.to_json();
            ASSERT_EQ(a.edges, b.edges) << where;
            ASSERT_EQ(a.called, a.edges) << where;
            ASSERT_LE(b.called, b.edges) << where;
            ASSERT_LE(b.asked, a.asked) << where;  // yes from fewer edges called
            ASSERT_EQ(every.slot_faces(), near.slot_faces()) << where;
            ASSERT_EQ(every.slot_positions(), near.slot_positions()) << where;
            const DynamicValidation v = near.validate();
            ASSERT_EQ(v.ok(), every.validate().ok()) << where << ": " << v.first;
            asked.every += a.called, asked.near += b.called, asked.applied += a.applied;
            if (!a.progress()) break;
        }
        ++index;
    }
}

}  // namespace

TEST(GpuDynamicIncremental, NearLastChangesMatchesEveryEdgeOnGeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const std::vector<std::pair<std::string, TriangleSoup>> cases = {
        {"closed sphere", generate::noisy(generate::icosphere(4), 0.3f, 5)},
        {"open grid", generate::noisy(generate::grid(30, 20), 0.3f, 6)},
        {"60 components", generate::noisy(generate::components(60, 2), 0.3f, 7)},
        {"valence 300", generate::noisy(generate::fan(300), 0.2f, 8)},
        {"torus", generate::noisy(generate::torus(40, 16), 0.3f, 9)},
        {"fins (non-manifold edges)", generate::fin(6)},
        {"bowtie (non-manifold vertex)", generate::bowtie()},
        {"isolated faces", generate::isolated_faces(50)},
    };
    Asked asked;
    for (const auto& [name, soup] : cases) {
        SCOPED_TRACE(name);
        compare_steps(soup, asked);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(asked.applied, 1000u);
    EXPECT_LT(asked.near, asked.every);  // it calls the callback less: the point of it
}

TEST(GpuDynamicIncremental, NearLastChangesMatchesEveryEdgeOnRealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    Asked     asked;
    const int visited =
        test::for_each_real_mesh(20'000, [&](const std::string&, const TriangleSoup& soup) {
            compare_steps(soup, asked);
            return !HasFatalFailure() && asked.applied < 300'000;
        });
    if (visited == 0)
        GTEST_SKIP() << "neither libcgal-demo's data nor assimp-testmodels is installed";
    EXPECT_GT(asked.applied, 1000u);
    EXPECT_LT(asked.near, asked.every);
}

TEST(GpuDynamicIncremental, AsksEveryEdgeWhenNothingIsKnownAndNoneAfterNoChange)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    PassLimits near;
    near.ask = AskEdges::NearLastChanges;
    DynamicMesh      mesh(generate::noisy(generate::icosphere(3), 0.15f, 4));
    const PassReport fresh = mesh.flip_pass(QuadFlip{}, near);  // a new mesh: every edge
    EXPECT_EQ(fresh.called, fresh.edges);
    ASSERT_GT(fresh.applied, 0u);
    const PassReport after_flips = mesh.flip_pass(QuadFlip{}, near);  // near the flips only
    EXPECT_GT(after_flips.called, 0u);
    EXPECT_LT(after_flips.called, after_flips.edges);
    EXPECT_EQ(mesh.flip_pass(SayNo{}).applied, 0u);
    const PassReport unchanged = mesh.split_pass(SayYes{}, near);  // nothing changed since
    EXPECT_EQ(unchanged.called, 0u);
    EXPECT_EQ(unchanged.applied, 0u);
    mesh.move_vertices(StayPut{});  // a move: nothing is known again
    const PassReport moved = mesh.split_pass(SayYes{}, near);
    EXPECT_EQ(moved.called, moved.edges);
    EXPECT_GT(moved.applied, 0u);
    EXPECT_TRUE(mesh.validate().ok());
}
