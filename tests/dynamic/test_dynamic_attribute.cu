// Attributes follow their elements through every pass of the changing-
// topology engine, each rule checked exactly: a vertex copy of the positions
// with the Interpolate rule stays equal to the positions (splits and
// collapses at midpoints); Fill marks what operations create; each edge's
// value, its own vertex pair at the start, stays its pair, or its parent's
// for the halves of a split edge, or the pair it merged from, or fill for
// edges an operation created; a face's value stays the input face it lies in.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "gpu_test.h"
#include "rxmesh/dynamic/dynamic_attribute.cuh"
#include "rxmesh/dynamic/dynamic_pass.cuh"
#include "rxmesh/io/generate.h"

namespace {

using namespace rxmesh;

RXMESH_HD inline std::uint32_t pick(std::uint32_t a, std::uint32_t b, std::uint32_t seed)
{
    std::uint32_t x = (a + seed) * 0x9E3779B1u ^ (b * 0x85EBCA6Bu);
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 13;
    return x % 100u;
}

struct Midpoints
{
    std::uint32_t seed, percent;
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        return EdgeDecision{pick(e.a.id(), e.b.id(), seed) < percent,
                            (e.position(e.a) + e.position(e.b)) * 0.5f};
    }
};

constexpr std::uint32_t kFill = ~0u;

using EdgePairs = std::shared_ptr<DynamicAttribute<std::uint32_t, 2, EdgeId>>;

EdgePairs add_edge_pairs(DynamicMesh& mesh)
{
    auto pairs = mesh.add_edge_attribute<std::uint32_t, 2>("pair", AttributeRule::Copy,
                                                           {{kFill, kFill}});
    std::vector<std::uint32_t> values;
    for (const auto& e : mesh.edges()) values.insert(values.end(), e.begin(), e.end());
    pairs->from_host(values);
    return pairs;
}

}  // namespace

namespace {

using Pair = std::array<std::uint32_t, 2>;

//! `value` is the pair `edge` had before a collapse merged one of its
//! vertices away: (b, x) when the collapse made it (a, x).
bool merged_into(const Pair& edge, const Pair& value,
                 const std::map<std::uint32_t, std::uint32_t>& merged_from)
{
    bool merged = false;
    for (int k = 0; k < 2; ++k) {
        auto it = merged_from.find(edge[k]);
        if (it == merged_from.end()) continue;
        Pair p = {it->second, edge[1 - k]};
        if (p[0] > p[1]) std::swap(p[0], p[1]);
        merged = merged || p == value;
    }
    return merged;
}

//! After a pass: every edge's value is its own pair, unless the pass
//! changed it: then its parent's pair (split halves), the pair it was
//! merged from (collapse), or fill (an edge the pass created).
void check_edge_values(DynamicMesh& mesh, const EdgePairs& pairs, EdgeOpKind kind,
                       const std::set<Pair>& before,
                       const std::map<std::uint32_t, Pair>& split_parent,
                       const std::map<std::uint32_t, std::uint32_t>& merged_from)
{
    const auto edges  = mesh.edges();
    const auto values = pairs->to_host();
    ASSERT_EQ(values.size(), 2 * edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const Pair edge = edges[e], value = {values[2 * e], values[2 * e + 1]};
        SCOPED_TRACE("edge " + std::to_string(edge[0]) + "-" + std::to_string(edge[1]));
        if (before.count(edge)) {
            // it existed: it keeps its value (a merge may pick either source)
            if (value == edge) continue;
            ASSERT_TRUE(merged_into(edge, value, merged_from))
                << "value " << value[0] << "-" << value[1];
            continue;
        }
        if (kind == EdgeOpKind::Collapse) {  // (b, x) became (a, x)
            ASSERT_TRUE(merged_into(edge, value, merged_from))
                << "value " << value[0] << "-" << value[1];
            continue;
        }
        const auto parent = split_parent.find(edge[1]);  // the new vertex is the larger id
        const bool half   = parent != split_parent.end() &&
                          (parent->second[0] == edge[0] || parent->second[1] == edge[0]);
        if (half)
            ASSERT_EQ(value, parent->second);
        else
            ASSERT_EQ(value, (Pair{kFill, kFill}));  // a flip's new edge, a split's cross edge
    }
}

std::set<Pair> edge_set(DynamicMesh& mesh)
{
    const auto e = mesh.edges();
    return {e.begin(), e.end()};
}

}  // namespace

TEST(GpuDynamicAttributes, VertexValuesFollowEveryPass)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& soup : {generate::noisy(generate::icosphere(3), 0.2f, 9),
                             generate::noisy(generate::grid(12, 9), 0.3f, 4)}) {
        DynamicMesh mesh(soup);
        auto copy = mesh.add_vertex_attribute<float, 3>("copy", AttributeRule::Interpolate);
        auto mark = mesh.add_vertex_attribute<int, 1>("mark", AttributeRule::Fill, {{-1}});
        copy->from_host(mesh.slot_positions());
        mark->from_host(std::vector<int>(mesh.num_vertex_slots(), 7));
        for (std::uint32_t pass = 0; pass < 18; ++pass) {
            const Midpoints  decide{pass, 40};
            const EdgeOpKind kind = EdgeOpKind(pass % 3);
            const PassReport r    = kind == EdgeOpKind::Flip    ? mesh.flip_pass(decide)
                                    : kind == EdgeOpKind::Split ? mesh.split_pass(decide)
                                                                : mesh.collapse_pass(decide);
            ASSERT_EQ(copy->num_elements(), mesh.num_vertex_slots());
            const auto positions = mesh.slot_positions(), values = copy->to_host();
            const auto marks     = mark->to_host();
            const auto alive_faces = mesh.slot_faces();
            std::vector<bool> alive(mesh.num_vertex_slots(), false);
            for (std::uint32_t v : alive_faces)
                if (v != kDeadFace) alive[v] = true;
            std::uint32_t created_or_merged = 0;
            for (std::uint32_t v = 0; v < alive.size(); ++v) {
                if (!alive[v]) continue;
                for (int k = 0; k < 3; ++k)
                    ASSERT_EQ(values[3 * v + k], positions[3 * v + k]) << "vertex " << v;
                created_or_merged += marks[v] == -1;
                if (v >= soup.positions.size()) ASSERT_EQ(marks[v], -1) << "new vertex " << v;
            }
            if (kind != EdgeOpKind::Flip && r.applied > 0) EXPECT_GT(created_or_merged, 0u);
        }
    }
}

TEST(GpuDynamicAttributes, EdgeValuesFollowEveryPass)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& soup : {generate::noisy(generate::icosphere(2), 0.2f, 3),
                             generate::noisy(generate::cylinder(10, 6), 0.2f, 8)}) {
        DynamicMesh mesh(soup);
        EdgePairs   pairs = add_edge_pairs(mesh);
        for (std::uint32_t pass = 0; pass < 15; ++pass) {
            // restart from "every value is its own pair" so each pass is checked alone
            std::vector<std::uint32_t> own;
            for (const auto& e : mesh.edges()) own.insert(own.end(), e.begin(), e.end());
            pairs->from_host(own);
            const std::set<Pair> before = edge_set(mesh);
            const Midpoints      decide{pass + 100, 35};
            const EdgeOpKind     kind = EdgeOpKind(pass % 3);
            const std::uint32_t  vertex_slots = mesh.num_vertex_slots();
            SCOPED_TRACE(std::string("pass ") + std::to_string(pass) + " " + to_string(kind));
            const PassReport r = kind == EdgeOpKind::Flip    ? mesh.flip_pass(decide)
                                 : kind == EdgeOpKind::Split ? mesh.split_pass(decide)
                                                             : mesh.collapse_pass(decide);
            std::map<std::uint32_t, Pair>          split_parent;
            std::map<std::uint32_t, std::uint32_t> merged_from;  // survivor -> merged vertex
            const auto edges = mesh.last_edges();
            const auto status = mesh.last_statuses();
            std::uint32_t made = vertex_slots;
            for (std::size_t e = 0; e < edges.size(); ++e) {
                if (status[e] != EdgeOpStatus::Applied) continue;
                if (kind == EdgeOpKind::Split) split_parent[made++] = edges[e];
                if (kind == EdgeOpKind::Collapse) merged_from[edges[e][0]] = edges[e][1];
            }
            ASSERT_EQ(r.applied, kind == EdgeOpKind::Split ? made - vertex_slots : r.applied);
            check_edge_values(mesh, pairs, kind, before, split_parent, merged_from);
            if (HasFatalFailure()) return;
        }
    }
}

TEST(GpuDynamicAttributes, FaceValuesStayInTheirInputFace)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::grid(8, 8), 0.3f, 5);
    DynamicMesh        mesh(soup);
    auto origin = mesh.add_face_attribute<std::uint32_t, 1>("origin", AttributeRule::Copy);
    auto flipped = mesh.add_face_attribute<std::uint32_t, 1>("flipped", AttributeRule::Fill,
                                                             {{kFill}});
    std::vector<std::uint32_t> ids(soup.faces.size());
    for (std::uint32_t f = 0; f < ids.size(); ++f) ids[f] = f;
    origin->from_host(ids);
    flipped->from_host(ids);
    for (std::uint32_t pass = 0; pass < 6; ++pass) mesh.split_pass(Midpoints{pass, 50});
    const auto faces = mesh.slot_faces(), values = origin->to_host();
    const auto p     = mesh.slot_positions();
    ASSERT_EQ(values.size() * 3, faces.size());
    ASSERT_GT(faces.size(), 3 * soup.faces.size());
    // each corner lies in the input face (on the plane of a noisy grid's
    // triangle, barycentric coordinates of the xy projection in [0, 1])
    for (std::size_t f = 0; f * 3 < faces.size(); ++f) {
        const Triangle& t = soup.faces[values[f]];
        auto xy = [&](const Vec3f& q) { return std::array<double, 2>{q[0], q[1]}; };
        const auto a = xy(soup.positions[t[0]]), b = xy(soup.positions[t[1]]),
                   c = xy(soup.positions[t[2]]);
        const double area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t v = faces[3 * f + k];
            const std::array<double, 2> q = {p[3 * v], p[3 * v + 1]};
            const double l1 = ((q[0] - a[0]) * (c[1] - a[1]) - (q[1] - a[1]) * (c[0] - a[0])) / area;
            const double l2 = ((b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0])) / area;
            ASSERT_GE(l1, -1e-5) << "face " << f;
            ASSERT_GE(l2, -1e-5) << "face " << f;
            ASSERT_LE(l1 + l2, 1 + 1e-5) << "face " << f;
        }
    }
    flipped->from_host(std::vector<std::uint32_t>(mesh.num_face_slots(), 0));
    const PassReport r      = mesh.flip_pass(Midpoints{99, 50});
    const auto       marked = flipped->to_host();
    std::uint32_t    filled = 0;
    for (std::uint32_t m : marked) filled += m == kFill;
    EXPECT_GT(r.applied, 0u);
    EXPECT_EQ(filled, 2 * r.applied);
}

namespace {

//! Interior vertices to the mean of their neighbours; boundary ones stay.
struct NeighbourMean
{
    __device__ Vec3 operator()(const VertexContext& v) const
    {
        if (v.boundary() || !v.manifold()) return v.position(v.vertex);
        Vec3 sum{};
        int  n = 0;
        v.for_each_neighbor([&](VertexId u) {
            sum = sum + v.position(u);
            ++n;
        });
        return n > 0 ? sum * (1.f / float(n)) : v.position(v.vertex);
    }
};

}  // namespace

TEST(GpuDynamicAttributes, MoveVerticesReadsTheOldPositions)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::grid(9, 7), 0.3f, 4);
    DynamicMesh        mesh(soup);
    mesh.split_pass(Midpoints{3, 30});  // a changed mesh, new vertices included
    const auto                    before = mesh.slot_positions();
    const auto                    faces  = mesh.slot_faces();
    std::vector<std::set<std::uint32_t>> ring(mesh.num_vertex_slots());
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> uses;
    for (std::size_t f = 0; f * 3 < faces.size(); ++f)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = faces[3 * f + k], b = faces[3 * f + (k + 1) % 3];
            ring[a].insert(b), ring[b].insert(a);
            ++uses[{std::min(a, b), std::max(a, b)}];
        }
    std::vector<bool> boundary(ring.size(), false);
    for (const auto& [e, n] : uses)
        if (n == 1) boundary[e.first] = boundary[e.second] = true;
    mesh.move_vertices(NeighbourMean{});
    const auto after = mesh.slot_positions();
    for (std::uint32_t v = 0; v < ring.size(); ++v)
        for (int d = 0; d < 3; ++d) {
            double expected = before[3 * v + d];
            if (!boundary[v]) {
                expected = 0;
                for (std::uint32_t u : ring[v]) expected += before[3 * u + d];
                expected /= double(ring[v].size());
            }
            ASSERT_NEAR(after[3 * v + d], expected, 1e-5) << "vertex " << v;
        }
    EXPECT_TRUE(mesh.validate().ok());
}
