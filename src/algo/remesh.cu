#include "rxmesh/algo/remesh.h"

#include <cmath>
#include <cstdio>

#include "rxmesh/algo/mesh_quality.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/dynamic/dynamic_pass.cuh"
#include "rxmesh/spatial/bvh.cuh"

namespace rxmesh {
namespace {

//! Feature edges by dihedral angle: an edge is sharp when its faces'
//! normals differ by more than the feature angle (off: nothing is sharp).
struct Features
{
    float cos_limit = -2.f;  // below -1: off

    static Features from_degrees(double degrees)
    {
        return degrees > 0 ? Features{float(std::cos(degrees * 3.14159265358979323846 / 180))}
                           : Features{};
    }
    __device__ bool on() const { return cos_limit >= -1.f; }
    __device__ bool sharp(const Vec3& n0, const Vec3& n1) const
    {
        const float l = norm(n0) * norm(n1);
        return on() && l > 0.f && dot(n0, n1) < cos_limit * l;
    }
    //! Whether a manifold vertex has a sharp edge: consecutive faces of its
    //! fan (and the last and first of a closed one) compared.
    __device__ bool at(const VertexContext& v) const
    {
        if (!on()) return false;
        const Vec3 p = v.position(v.vertex);
        Vec3       first{}, previous{};
        bool       any = false, found = false;
        v.for_each_face([&](std::uint32_t, std::uint32_t x, std::uint32_t y) {
            const Vec3 n = cross(v.position(x) - p, v.position(y) - p);
            if (any) found = found || sharp(previous, n);
            else first = n;
            previous = n, any = true;
        });
        return found || (any && !v.boundary() && sharp(previous, first));
    }
};

struct SplitLong
{
    float high2;  // (4/3 L)^2
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        if (!e.manifold || e.num_faces == 0) return {};
        const Vec3  p = e.position(e.a), q = e.position(e.b);
        const float l2 = squared_norm(q - p);
        return EdgeDecision{l2 > high2, (p + q) * 0.5f, -l2};
    }
};

struct CollapseShort
{
    float    low2, high2;  // (4/5 L)^2, (4/3 L)^2
    Features features;
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        if (!e.manifold || e.num_faces == 0) return {};
        const Vec3  p = e.position(e.a), q = e.position(e.b);
        const float l2 = squared_norm(q - p);
        if (!(l2 < low2)) return {};
        const VertexContext a = vertex_context(e, e.a), b = vertex_context(e, e.b);
        if (a.boundary() || b.boundary() || !a.manifold() || !b.manifold()) return {};
        if (features.at(a) || features.at(b)) return {};  // features stay, as the boundary
        const Vec3 m    = (p + q) * 0.5f;
        bool       keep = true;  // no neighbour farther than 4/3 L from m
        auto       near = [&](std::uint32_t u) {
            if (u != e.a && u != e.b && squared_norm(e.position(u) - m) > high2) keep = false;
        };
        a.for_each_neighbor(near);
        b.for_each_neighbor(near);
        return EdgeDecision{keep, m, l2};
    }
};

struct EqualizeValence
{
    Features features;
    __device__ static int excess(const VertexContext& v, int change)
    {
        const int target = v.boundary() ? 4 : 6;
        return abs(int(v.valence()) + change - target);
    }
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        if (!e.manifold || e.num_faces != 2) return {};
        const Vec3 pa = e.position(e.a), pb = e.position(e.b);
        if (features.sharp(cross(pb - pa, e.position(e.c) - pa), cross(pa - pb, e.position(e.d) - pb)))
            return {};
        const VertexContext a = vertex_context(e, e.a), b = vertex_context(e, e.b),
                            c = vertex_context(e, e.c), d = vertex_context(e, e.d);
        const int before = excess(a, 0) + excess(b, 0) + excess(c, 0) + excess(d, 0);
        const int after  = excess(a, -1) + excess(b, -1) + excess(c, 1) + excess(d, 1);
        return EdgeDecision{after < before, {}, float(after - before)};
    }
};

//! Steps 4 and 5 for one vertex: the tangential move to the centroid of its
//! neighbours, then the closest point of the input.
struct SmoothAndProject
{
    TriangleBvhView surface;
    bool            project;
    Features        features;
    __device__ Vec3 operator()(const VertexContext& v) const
    {
        const Vec3 p = v.position(v.vertex);
        if (!v.manifold() || v.boundary() || v.degree() == 0 || features.at(v)) return p;
        Vec3          centroid{0.f, 0.f, 0.f}, normal{0.f, 0.f, 0.f};
        std::uint32_t n = 0;
        v.for_each_neighbor([&](std::uint32_t u) {
            centroid = centroid + v.position(u);
            ++n;
        });
        v.for_each_face([&](std::uint32_t, std::uint32_t x, std::uint32_t y) {
            normal = normal + cross(v.position(x) - p, v.position(y) - p);
        });
        Vec3        u  = centroid * (1.f / float(n)) - p;
        const float n2 = squared_norm(normal);
        if (n2 > 0.f) u = u - normal * (dot(u, normal) / n2);
        const Vec3 q = p + u;
        return project ? bvh_closest(surface, q).point : q;
    }
};

//! Passes of one step until one applies nothing (or the bound).
template <typename Pass>
RemeshStep repeat_passes(Pass pass, std::uint32_t bound)
{
    RemeshStep step;
    for (;; ++step.passes) {
        if (step.passes == bound) {
            step.hit_bound = true;
            break;
        }
        const PassReport r = pass();
        step.applied += r.applied;
        if (!r.progress()) {
            ++step.passes;
            break;
        }
    }
    return step;
}

void require_length(double L, const char* step)
{
    if (!(L > 0) || !std::isfinite(L))
        throw InvalidInputError(std::string(step) + ": the target edge length " +
                                std::to_string(L) + " is not positive");
}

void add_step(const RemeshStep& s, std::uint64_t* applied, std::uint32_t* passes, bool* bound)
{
    *applied += s.applied;
    *passes += s.passes;
    *bound = *bound || s.hit_bound;
}

}  // namespace

std::string RemeshReport::to_json() const
{
    char s[512];
    std::snprintf(s, sizeof(s),
                  "{\"target_length\":%.9g,\"iterations\":%u,\"splits\":%llu,\"collapses\":%llu,"
                  "\"flips\":%llu,\"split_passes\":%u,\"collapse_passes\":%u,\"flip_passes\":%u,"
                  "\"hit_pass_bound\":%s,\"ms\":%.6f}",
                  target_length, iterations, (unsigned long long)splits,
                  (unsigned long long)collapses, (unsigned long long)flips, split_passes,
                  collapse_passes, flip_passes, hit_pass_bound ? "true" : "false", ms);
    return s;
}

RemeshStep split_long_edges(DynamicMesh& mesh, double L, std::uint32_t max_passes)
{
    require_length(L, "split_long_edges");
    const float high2 = float((4.0 / 3.0 * L) * (4.0 / 3.0 * L));
    return repeat_passes([&] { return mesh.split_pass(SplitLong{high2}); }, max_passes);
}

RemeshStep collapse_short_edges(DynamicMesh& mesh, double L, std::uint32_t max_passes,
                                double feature_angle_degrees)
{
    require_length(L, "collapse_short_edges");
    const float    high2 = float((4.0 / 3.0 * L) * (4.0 / 3.0 * L)), low2 = float(0.64 * L * L);
    const Features f     = Features::from_degrees(feature_angle_degrees);
    return repeat_passes([&] { return mesh.collapse_pass(CollapseShort{low2, high2, f}); },
                         max_passes);
}

RemeshStep equalize_valences(DynamicMesh& mesh, std::uint32_t max_passes,
                             double feature_angle_degrees)
{
    const Features f = Features::from_degrees(feature_angle_degrees);
    return repeat_passes([&] { return mesh.flip_pass(EqualizeValence{f}); }, max_passes);
}

void smooth_tangentially(DynamicMesh& mesh, const TriangleBvh* surface,
                         double feature_angle_degrees)
{
    mesh.move_vertices(SmoothAndProject{surface ? surface->view() : TriangleBvhView{},
                                        surface != nullptr,
                                        Features::from_degrees(feature_angle_degrees)});
}

RemeshReport isotropic_remesh(DynamicMesh& mesh, const RemeshOptions& options)
{
    if (!(options.feature_angle_degrees >= 0 && options.feature_angle_degrees <= 180))
        throw InvalidInputError("isotropic_remesh: the feature angle " +
                                std::to_string(options.feature_angle_degrees) +
                                " is not in [0, 180] degrees");
    RemeshReport r;
    r.target_length = options.target_length == 0 ? mean_edge_length(mesh) : options.target_length;
    if (!(r.target_length > 0) || !std::isfinite(r.target_length))
        throw InvalidInputError("isotropic_remesh: the target edge length " +
                                std::to_string(r.target_length) +
                                " is not positive (a mesh without edges has no default)");
    GpuTimer timer(mesh.stream());
    timer.start();
    // the input surface, kept apart from the mesh that changes
    const CompactMesh            input = mesh.compact();
    std::unique_ptr<TriangleBvh> bvh;
    if (options.project && input.num_faces > 0)
        bvh = std::make_unique<TriangleBvh>(input.positions.data(), input.num_vertices,
                                            input.faces.data(), input.num_faces, mesh.stream());
    const std::uint32_t bound = options.max_passes_per_step;
    // four steps per iteration, reported before each
    const auto report_step = [&](int step) {
        if (options.progress)
            options.progress(double(4 * r.iterations + step) / (4.0 * options.iterations));
    };
    for (r.iterations = 0; r.iterations < options.iterations; ++r.iterations) {
        report_step(0);
        add_step(split_long_edges(mesh, r.target_length, bound), &r.splits, &r.split_passes,
                 &r.hit_pass_bound);
        const double angle = options.feature_angle_degrees;
        report_step(1);
        add_step(collapse_short_edges(mesh, r.target_length, bound, angle), &r.collapses,
                 &r.collapse_passes, &r.hit_pass_bound);
        report_step(2);
        add_step(equalize_valences(mesh, bound, angle), &r.flips, &r.flip_passes,
                 &r.hit_pass_bound);
        report_step(3);
        smooth_tangentially(mesh, bvh.get(), angle);
    }
    r.ms = timer.stop_ms();
    return r;
}

}  // namespace rxmesh
