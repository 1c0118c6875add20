#include "rxmesh/reference/closest_point_tree.h"

#include <algorithm>
#include <cmath>

#include "rxmesh/core/error.h"

namespace rxmesh::reference {
namespace {

constexpr std::uint32_t kLeafFaces = 4;

double box_distance2(const Point3& p, const Point3& lo, const Point3& hi)
{
    double d2 = 0;
    for (int d = 0; d < 3; ++d) {
        const double out = p[d] < lo[d] ? lo[d] - p[d] : (p[d] > hi[d] ? p[d] - hi[d] : 0.0);
        d2 += out * out;
    }
    return d2;
}

double distance2(const Point3& a, const Point3& b)
{
    return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
           (a[2] - b[2]) * (a[2] - b[2]);
}

}  // namespace

ClosestPointTree::ClosestPointTree(const TriangleSoup& mesh)
{
    if (mesh.faces.empty()) throw InvalidInputError("ClosestPointTree: the mesh has no face");
    const auto n = std::uint32_t(mesh.faces.size());
    m_corners.reserve(3ull * n);
    for (const Triangle& t : mesh.faces)
        for (std::uint32_t v : t)
            m_corners.push_back({mesh.positions[v][0], mesh.positions[v][1], mesh.positions[v][2]});
    m_centroids.resize(n);
    m_order.resize(n);
    for (std::uint32_t f = 0; f < n; ++f) {
        m_order[f] = f;
        for (int d = 0; d < 3; ++d)
            m_centroids[f][d] =
                (m_corners[3 * f][d] + m_corners[3 * f + 1][d] + m_corners[3 * f + 2][d]) / 3;
    }
    m_nodes.reserve(2ull * n / kLeafFaces + 2);
    build(0, n);
}

//! Splits the faces at the median centroid along the box's longest axis.
std::uint32_t ClosestPointTree::build(std::uint32_t first, std::uint32_t count)
{
    Node node;
    node.lo = {INFINITY, INFINITY, INFINITY};
    node.hi = {-INFINITY, -INFINITY, -INFINITY};
    for (std::uint32_t i = first; i < first + count; ++i)
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d) {
                node.lo[d] = std::min(node.lo[d], m_corners[3 * m_order[i] + k][d]);
                node.hi[d] = std::max(node.hi[d], m_corners[3 * m_order[i] + k][d]);
            }
    const auto id = std::uint32_t(m_nodes.size());
    m_nodes.push_back(node);
    if (count <= kLeafFaces) {
        m_nodes[id].first = first;
        m_nodes[id].count = count;
        return id;
    }
    int axis = 0;
    for (int d = 1; d < 3; ++d)
        if (node.hi[d] - node.lo[d] > node.hi[axis] - node.lo[axis]) axis = d;
    const std::uint32_t half = count / 2;
    std::nth_element(m_order.begin() + first, m_order.begin() + first + half,
                     m_order.begin() + first + count, [&](std::uint32_t a, std::uint32_t b) {
                         return m_centroids[a][axis] < m_centroids[b][axis];
                     });
    const std::uint32_t left  = build(first, half);
    const std::uint32_t right = build(first + half, count - half);
    m_nodes[id].left          = left;
    m_nodes[id].right         = right;
    return id;
}

// Depth first, nearer child first; a box is skipped only when it is farther
// than the best so far (not when equally far), so ties are all seen and the
// lowest face wins, as in the brute force.
ClosestPoint ClosestPointTree::closest(const Point3& p) const
{
    ClosestPoint               best;
    double                     best2 = INFINITY;
    std::vector<std::uint32_t> stack = {0};
    while (!stack.empty()) {  // each node is pushed at most once
        const Node& node = m_nodes[stack.back()];
        stack.pop_back();
        if (box_distance2(p, node.lo, node.hi) > best2) continue;
        if (node.count == 0) {
            const double dl = box_distance2(p, m_nodes[node.left].lo, m_nodes[node.left].hi);
            const double dr = box_distance2(p, m_nodes[node.right].lo, m_nodes[node.right].hi);
            stack.push_back(dl <= dr ? node.right : node.left);  // the nearer goes last: first out
            stack.push_back(dl <= dr ? node.left : node.right);
            continue;
        }
        for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
            const std::uint32_t f = m_order[i];
            const Point3        q = closest_point_on_triangle(p, m_corners[3 * f], m_corners[3 * f + 1],
                                                              m_corners[3 * f + 2]);
            const double        d2 = distance2(p, q);
            if (d2 < best2 || (d2 == best2 && f < best.face)) best2 = d2, best.point = q, best.face = f;
        }
    }
    best.distance = std::sqrt(best2);
    return best;
}

HausdorffDistance hausdorff_fast(const TriangleSoup& a, const TriangleSoup& b)
{
    const ClosestPointTree to_a(a), to_b(b);
    HausdorffDistance      h;
    for (const Point3& p : hausdorff_samples(a)) h.from_a = std::max(h.from_a, to_b.closest(p).distance);
    for (const Point3& p : hausdorff_samples(b)) h.from_b = std::max(h.from_b, to_a.closest(p).distance);
    return h;
}

}  // namespace rxmesh::reference
