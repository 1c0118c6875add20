#include "rxmesh/algo/simplify.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rxmesh/algo/detail/fan_shape.cuh"
#include "rxmesh/algo/mesh_quality.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/dynamic/dynamic_attribute.cuh"
#include "rxmesh/dynamic/dynamic_pass.cuh"

namespace rxmesh {
namespace {

// A quadric as 10 doubles: A (xx xy xz yy yz zz), b (x y z), c; q(p) =
// p^T A p + 2 b.p + c, as reference::Quadric.
constexpr int kQ = 10;
using QuadricView = AttributeView<double, kQ, VertexId>;

struct D3
{
    double x, y, z;
};
__device__ inline D3     to_d3(const Vec3& v) { return {v.x, v.y, v.z}; }
__device__ inline D3     sub(const D3& a, const D3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
__device__ inline double dot(const D3& a, const D3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ inline D3     cross(const D3& u, const D3& w)
{
    return {u.y * w.z - u.z * w.y, u.z * w.x - u.x * w.z, u.x * w.y - u.y * w.x};
}
__device__ inline D3 unit(const D3& v)
{
    const double l = sqrt(dot(v, v));
    return l > 0 ? D3{v.x / l, v.y / l, v.z / l} : D3{0, 0, 0};
}

//! q += weight x (n.p + d)^2.
__device__ inline void add_plane(double* q, const D3& n, double d, double weight)
{
    q[0] += weight * n.x * n.x, q[1] += weight * n.x * n.y, q[2] += weight * n.x * n.z;
    q[3] += weight * n.y * n.y, q[4] += weight * n.y * n.z, q[5] += weight * n.z * n.z;
    q[6] += weight * d * n.x, q[7] += weight * d * n.y, q[8] += weight * d * n.z;
    q[9] += weight * d * d;
}

__device__ inline double evaluate(const double* q, const D3& p)
{
    const double ax = q[0] * p.x + q[1] * p.y + q[2] * p.z;
    const double ay = q[1] * p.x + q[3] * p.y + q[4] * p.z;
    const double az = q[2] * p.x + q[4] * p.y + q[5] * p.z;
    return p.x * ax + p.y * ay + p.z * az + 2 * (q[6] * p.x + q[7] * p.y + q[8] * p.z) + q[9];
}

//! A p = -b by the adjugate, when A is well conditioned (the oracle's bound).
__device__ inline bool optimum(const double* q, D3* p)
{
    const double c00 = q[3] * q[5] - q[4] * q[4], c01 = q[2] * q[4] - q[1] * q[5],
                 c02 = q[1] * q[4] - q[2] * q[3], c11 = q[0] * q[5] - q[2] * q[2],
                 c12 = q[1] * q[2] - q[0] * q[4], c22 = q[0] * q[3] - q[1] * q[1];
    const double det   = q[0] * c00 + q[1] * c01 + q[2] * c02;
    const double scale = fmax(fabs(q[0]), fmax(fabs(q[3]), fabs(q[5])));
    if (!(fabs(det) > 1e-9 * scale * scale * scale)) return false;
    *p = {-(c00 * q[6] + c01 * q[7] + c02 * q[8]) / det,
          -(c01 * q[6] + c11 * q[7] + c12 * q[8]) / det,
          -(c02 * q[6] + c12 * q[7] + c22 * q[8]) / det};
    return isfinite(p->x) && isfinite(p->y) && isfinite(p->z);
}

//! The plane through boundary edge u -> w perpendicular to a face of unit
//! normal n, into q.
__device__ inline void add_boundary_plane(double* q, const D3& u, const D3& w, const D3& n,
                                          double weight)
{
    const D3 e = sub(w, u), side = unit(cross(e, n));
    add_plane(q, side, -dot(side, u), weight * dot(e, e));
}

//! Each manifold vertex's quadric from its fan (a gather, so the sums are
//! deterministic); non-manifold vertices keep zero (their edges never collapse).
struct InitialQuadric
{
    QuadricView q;
    double      boundary_weight;
    __device__ void operator()(const VertexContext& v) const
    {
        double sum[kQ] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        const D3 p = to_d3(v.position(v.vertex));
        D3       first_y{}, first_n{}, last_x{}, last_n{};
        bool     first = true;
        v.for_each_face([&](FaceId, VertexId x, VertexId y) {
            const D3 px = to_d3(v.position(x)), py = to_d3(v.position(y));
            const D3 n = cross(sub(px, p), sub(py, p)), un = unit(n);
            const double area = sqrt(dot(n, n)) / 2;
            if (area > 0) add_plane(sum, un, -dot(un, p), area);
            if (first) first_y = py, first_n = un, first = false;
            last_x = px, last_n = un;
        });
        if (v.boundary() && !first) {  // the fan's two boundary edges: y0 -> v, v -> x_last
            add_boundary_plane(sum, first_y, p, first_n, boundary_weight);
            add_boundary_plane(sum, p, last_x, last_n, boundary_weight);
        }
        for (int k = 0; k < kQ; ++k) q(v.vertex, k) = sum[k];
    }
};

//! The cheapest collapse first; among equal costs (a flat region, where all
//! are 0) the one whose new faces are best shaped (shape_weight x the cosine
//! of their smallest angle added to the cost); none that folds a face or
//! fails the sliver guard.
struct CollapseCheapest
{
    QuadricView q;
    AngleGuard  guard;
    double      shape_weight;
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        if (!e.manifold || e.num_faces == 0) return {};
        double s[kQ];
        for (int k = 0; k < kQ; ++k) s[k] = q(e.a, k) + q(e.b, k);
        D3     best;
        double cost;
        if (optimum(s, &best)) {
            cost = evaluate(s, best);
        } else {
            const D3 pa = to_d3(e.position(e.a)), pb = to_d3(e.position(e.b));
            const D3 ends[3] = {pa, pb, {(pa.x + pb.x) / 2, (pa.y + pb.y) / 2, (pa.z + pb.z) / 2}};
            cost = INFINITY;
            for (const D3& p : ends) {
                const double c = evaluate(s, p);
                if (c < cost) cost = c, best = p;
            }
        }
        const Vec3     x{float(best.x), float(best.y), float(best.z)};
        const FanShape shape = collapse_shape(e, x);
        if (shape.folds || !guard.allows(shape.before, shape.after)) return {};
        return EdgeDecision{true, x, float(cost + shape_weight * shape.after)};
    }
};

//! How many collapses the next pass may apply.
std::uint32_t pass_limit(std::uint32_t faces, const SimplifyOptions& o)
{
    const std::uint32_t needed = std::max<std::uint32_t>(1, (faces - o.target_faces) / 2);
    const auto batch = std::uint32_t(std::max(1.0, std::ceil(o.batch_share * faces)));
    return std::min(needed, batch);
}

}  // namespace

std::string SimplifyReport::to_json() const
{
    char s[384];
    std::snprintf(s, sizeof(s),
                  "{\"faces\":%u,\"vertices\":%u,\"collapses\":%llu,\"passes\":%u,"
                  "\"reached_target\":%s,\"stop_reason\":\"%s\",\"ms\":%.6f}",
                  faces, vertices, (unsigned long long)collapses, passes,
                  reached_target ? "true" : "false", stop_reason().c_str(), ms);
    return s;
}

SimplifyReport qem_simplify(DynamicMesh& mesh, const SimplifyOptions& options)
{
    if (!(options.boundary_weight >= 0) || !std::isfinite(options.boundary_weight))
        throw InvalidInputError("qem_simplify: boundary_weight " +
                                std::to_string(options.boundary_weight) + " is not >= 0");
    if (!(options.batch_share > 0 && options.batch_share <= 1))
        throw InvalidInputError("qem_simplify: batch_share " +
                                std::to_string(options.batch_share) + " is not in (0, 1]");
    if (!(options.min_angle_degrees >= 0 && options.min_angle_degrees < 60))
        throw InvalidInputError("qem_simplify: min_angle_degrees " +
                                std::to_string(options.min_angle_degrees) + " is not in [0, 60)");
    SimplifyReport r;
    GpuTimer       timer(mesh.stream());
    timer.start();
    const double mean  = mean_edge_length(mesh);  // the tie-break's scale: costs are length^4
    const CollapseCheapest rule_base{{}, AngleGuard::from_degrees(options.min_angle_degrees),
                                     kShapeTieBreak * mean * mean * mean * mean};
    auto quadrics = mesh.add_vertex_attribute<double, kQ>("qem quadric", AttributeRule::Sum);
    mesh.for_each_vertex(InitialQuadric{quadrics->view(), options.boundary_weight});
    const double start_faces = mesh.num_faces();
    while (mesh.num_faces() > options.target_faces) {
        if (options.progress)  // the share of the faces to remove that are gone
            options.progress((start_faces - mesh.num_faces()) /
                             (start_faces - double(options.target_faces)));
        if (r.passes == options.max_passes) {
            r.hit_pass_bound = true;
            break;
        }
        CollapseCheapest rule = rule_base;
        rule.q                = quadrics->view();
        const PassReport pass =
            mesh.collapse_pass(rule, PassLimits{pass_limit(mesh.num_faces(), options)});
        ++r.passes;
        r.collapses += pass.applied;
        if (!pass.progress()) break;  // no candidate: every collapse left is refused
    }
    mesh.remove_attribute(*quadrics);
    r.ms             = timer.stop_ms();
    r.faces          = mesh.num_faces();
    r.vertices       = mesh.num_vertices();
    r.reached_target = r.faces <= options.target_faces;
    return r;
}

}  // namespace rxmesh
