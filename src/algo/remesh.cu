#include "rxmesh/algo/remesh.h"

#include <cmath>
#include <cstdio>

#include "rxmesh/algo/detail/fan_shape.cuh"
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
        v.for_each_face([&](FaceId, VertexId x, VertexId y) {
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

//! kSharpVertexDegrees' cosine: a vertex is sharp when one of its faces'
//! unit normals is farther than that from their mean (a tip, a crease, a
//! corner, or a folded fan); faces of zero area are left out.
float sharp_cos_limit() { return float(std::cos(kSharpVertexDegrees * 3.14159265358979323846 / 180)); }

//! kBoundaryCornerDegrees' cosine: boundary edges meeting at a smaller angle
//! make a corner.
float corner_cos_limit() { return float(std::cos(kBoundaryCornerDegrees * 3.14159265358979323846 / 180)); }

//! Collapses edges shorter than 4/5 L into one of their ends (CGAL's rule:
//! the survivor stays where the surface is): on the boundary only into an
//! end the boundary rule allows (reference::short_edge_collapse), the sharp
//! end when only one is sharp (a tip stays a tip), the clearly sharper when
//! both are, else the better-shaped end (a on a tie), among
//! those that keep every neighbour within 4/3 L, fold no face and pass the
//! sliver guard.
struct CollapseShort
{
    float      low2, high2;  // (4/5 L)^2, (4/3 L)^2
    Features   features;
    AngleGuard guard;
    float      sharp_cos;
    float      corner_cos;
    static constexpr float kSharperMargin = float(kSharperCosineMargin);

    //! Whether boundary vertex v is a corner: its fan's two boundary edges
    //! (to the first face's y and the last face's x) meet at less than
    //! kBoundaryCornerDegrees, or one has zero length.
    __device__ bool boundary_corner(const VertexContext& v) const
    {
        const Vec3 p = v.position(v.vertex);
        VertexId   first_y, last_x;
        v.for_each_face([&](FaceId, VertexId x, VertexId y) {
            if (!first_y.is_valid()) first_y = y;
            last_x = x;
        });
        if (!first_y.is_valid()) return true;
        const Vec3  x = v.position(first_y) - p, y = v.position(last_x) - p;
        const float l = norm(x) * norm(y);
        return !(l > 0.f) || dot(x, y) > corner_cos * l;
    }
    //! Which ends may survive on the boundary: a boundary edge keeps an end
    //! when the other is no corner, an interior edge with one boundary end
    //! keeps that end, a chord none.
    __device__ void boundary_survivors(const EdgeContext& e, const VertexContext& a,
                                       const VertexContext& b, bool ok[2]) const
    {
        const bool on_a = a.boundary(), on_b = b.boundary();
        if (!on_a && !on_b) return;
        if (!e.boundary()) {
            ok[0] = ok[0] && on_a && !on_b;
            ok[1] = ok[1] && on_b && !on_a;
            return;
        }
        ok[0] = ok[0] && !boundary_corner(b);
        ok[1] = ok[1] && !boundary_corner(a);
    }

    //! What collapsing into either end does, from one walk over each end's
    //! fan (every test reads the same faces, so they share the walks).
    struct Scan
    {
        Vec3     end[2];
        float    far2[2]  = {0.f, 0.f};  // the farthest neighbour from each end, squared
        FanShape shape[2];               // .before is the same for both
        Vec3     mean[2];                // each end's faces' mean unit normal (sharpness)
    };
    __device__ void scan_end(const EdgeContext& e, int which, Scan& s) const
    {
        const VertexId      moved = which == 0 ? e.a : e.b, other = which == 0 ? e.b : e.a;
        const Vec3          p     = s.end[which];
        s.mean[which]             = {0.f, 0.f, 0.f};
        const VertexContext v     = vertex_context(e, moved);
        const bool          open  = v.boundary();
        v.for_each_face([&](FaceId, VertexId y, VertexId z) {
            const Vec3 py = e.position(y), pz = e.position(z), n = cross(py - p, pz - p);
            s.mean[which]   = s.mean[which] + normalized_or_zero(n);
            const float cos = smallest_angle_cosine(p, py, pz);
            for (int k = 0; k < 2; ++k) {
                s.shape[k].before = fmaxf(s.shape[k].before, cos);
                // a closed fan has each neighbour as some face's y; an open
                // one's first face's z is no face's y
                if (y != other) s.far2[k] = fmaxf(s.far2[k], squared_norm(py - s.end[k]));
                if (open && z != other) s.far2[k] = fmaxf(s.far2[k], squared_norm(pz - s.end[k]));
                if (y != other && z != other)
                    fan_detail::add_moved_face(s.shape[k], p, s.end[k], py, pz);
            }
        });
    }
    //! The smallest cosine between one of the end's faces' unit normals and
    //! their mean (reference::sharpness_cosine): below sharp_cos, it is sharp.
    __device__ float sharpness_cosine(const EdgeContext& e, int which, const Scan& s) const
    {
        const VertexId      v = which == 0 ? e.a : e.b;
        const Vec3          p = s.end[which], mean = s.mean[which];
        const float         l = norm(mean);
        float               lowest = 1.f;
        vertex_context(e, v).for_each_face([&](FaceId, VertexId y, VertexId z) {
            const Vec3 n = cross(e.position(y) - p, e.position(z) - p);
            if (squared_norm(n) > 0.f)
                lowest = fminf(lowest, l > 0.f ? dot(normalized_or_zero(n), mean) / l : -1.f);
        });
        return lowest;
    }
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        if (!e.manifold || e.num_faces == 0) return {};
        const Vec3  p = e.position(e.a), q = e.position(e.b);
        const float l2 = squared_norm(q - p);
        if (!(l2 < low2)) return {};
        const VertexContext a = vertex_context(e, e.a), b = vertex_context(e, e.b);
        if (!a.manifold() || !b.manifold()) return {};
        if (features.at(a) || features.at(b)) return {};  // features stay
        bool ok[2] = {true, true};
        boundary_survivors(e, a, b, ok);
        if (!ok[0] && !ok[1]) return {};
        Scan s;
        s.end[0] = p, s.end[1] = q;
        scan_end(e, 0, s);
        scan_end(e, 1, s);
        for (int k = 0; k < 2; ++k)
            ok[k] = ok[k] && !(s.far2[k] > high2) && !s.shape[k].folds &&
                    guard.allows(s.shape[k].before, s.shape[k].after);
        if (!ok[0] && !ok[1]) return {};
        const float cos_a = sharpness_cosine(e, 0, s), cos_b = sharpness_cosine(e, 1, s);
        const bool  sharp_a = !(cos_a >= sharp_cos), sharp_b = !(cos_b >= sharp_cos);
        if (sharp_a != sharp_b) ok[sharp_a ? 1 : 0] = false;  // keep the sharp end
        else if (sharp_a && fabsf(cos_a - cos_b) > kSharperMargin)
            ok[cos_a < cos_b ? 1 : 0] = false;  // the tip of a thin part
        const int end = ok[0] && (!ok[1] || !(s.shape[1].after < s.shape[0].after)) ? 0 : 1;
        if (!ok[end]) return {};
        return EdgeDecision{true, s.end[end], l2};
    }
};

//! Flips towards valence 6 (4 on the boundary), and flips that mend a face
//! below the guard's angle; only where the new diagonal makes the two faces
//! flatter (the dot product of their area vectors does not shrink: no flip across a
//! ridge, CGAL's test) and the guard holds.
struct EqualizeValence
{
    Features   features;
    AngleGuard guard;
    __device__ static int excess(const VertexContext& v, int change)
    {
        const int target = v.boundary() ? 4 : 6;
        return abs(int(v.valence()) + change - target);
    }
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        if (!e.manifold || e.num_faces != 2) return {};
        const Vec3 pa = e.position(e.a), pb = e.position(e.b), pc = e.position(e.c),
                   pd = e.position(e.d);
        const Vec3 n0 = cross(pb - pa, pc - pa), n1 = cross(pa - pb, pd - pb);
        if (features.sharp(n0, n1)) return {};
        const Vec3 m0 = cross(pa - pc, pd - pc), m1 = cross(pb - pd, pc - pd);
        if (!(dot(m0, m1) >= dot(n0, n1))) return {};
        const float before_shape = fmaxf(smallest_angle_cosine(pa, pb, pc), smallest_angle_cosine(pb, pa, pd));
        const float after_shape = fmaxf(smallest_angle_cosine(pc, pa, pd), smallest_angle_cosine(pd, pb, pc));
        if (!guard.allows(before_shape, after_shape)) return {};
        const VertexContext a = vertex_context(e, e.a), b = vertex_context(e, e.b),
                            c = vertex_context(e, e.c), d = vertex_context(e, e.d);
        const int  before = excess(a, 0) + excess(b, 0) + excess(c, 0) + excess(d, 0);
        const int  after  = excess(a, -1) + excess(b, -1) + excess(c, 1) + excess(d, 1);
        const bool mends  = guard.on() && before_shape > guard.cos_limit && after_shape < before_shape;
        return EdgeDecision{after < before || mends, {},
                            float(after - before) + 0.5f * (after_shape - before_shape)};
    }
};

//! Steps 4 and 5 for one vertex: the tangential move to the centroid of its
//! neighbours (none for a sharp vertex: smoothing would round it off), then
//! the closest point of the input; tried whole, then shortened (1/2, 1/4,
//! 1/8, none: the projection alone) until it folds no face and passes the
//! guard, else the vertex stays.
struct SmoothAndProject
{
    TriangleBvhView surface;
    bool            project;
    Features        features;
    AngleGuard      guard;
    float           sharp_cos;

    //! One walk over the fan: what the move and its tests need.
    struct Fan
    {
        Vec3          centroid{0.f, 0.f, 0.f}, normal{0.f, 0.f, 0.f}, mean{0.f, 0.f, 0.f};
        float         before = -1.f;  // the largest smallest-angle cosine
        std::uint32_t neighbors = 0;
    };
    __device__ Fan scan(const VertexContext& v, const Vec3& p) const
    {
        Fan f;
        v.for_each_face([&](FaceId, VertexId x, VertexId y) {
            const Vec3 px = v.position(x), py = v.position(y), n = cross(px - p, py - p);
            f.centroid = f.centroid + px;  // an interior fan is closed: each neighbour once as x
            ++f.neighbors;
            f.normal = f.normal + n;
            f.mean   = f.mean + normalized_or_zero(n);
            f.before = fmaxf(f.before, smallest_angle_cosine(p, px, py));
        });
        return f;
    }
    __device__ bool sharp(const VertexContext& v, const Vec3& p, const Fan& f) const
    {
        const float l     = norm(f.mean);
        bool        found = false;
        v.for_each_face([&](FaceId, VertexId x, VertexId y) {
            const Vec3 n = cross(v.position(x) - p, v.position(y) - p);
            if (squared_norm(n) > 0.f && !(dot(normalized_or_zero(n), f.mean) >= sharp_cos * l))
                found = true;
        });
        return found;
    }
    //! The move to q folds no face (none turns against the fan's area
    //! vector, having been with it) and passes the guard.
    __device__ bool allowed(const VertexContext& v, const Vec3& p, const Vec3& q, const Fan& f) const
    {
        FanShape s;
        v.for_each_face([&](FaceId, VertexId x, VertexId y) {
            const Vec3 px = v.position(x), py = v.position(y);
            const Vec3 n0 = cross(px - p, py - p), n1 = cross(px - q, py - q);
            s.folds = s.folds || !(squared_norm(n1) > 0.f) ||
                      (!(dot(n1, f.normal) > 0.f) && dot(n0, f.normal) > 0.f);
            s.after = fmaxf(s.after, smallest_angle_cosine(q, px, py));
        });
        return !s.folds && guard.allows(f.before, s.after);
    }
    __device__ Vec3 operator()(const VertexContext& v) const
    {
        const Vec3 p = v.position(v.vertex);
        if (!v.manifold() || v.boundary() || v.degree() == 0 || features.at(v)) return p;
        const Fan f = scan(v, p);
        Vec3      u{0.f, 0.f, 0.f};  // none for a sharp vertex: smoothing would round it off
        if (!sharp(v, p, f)) {
            u              = f.centroid * (1.f / float(f.neighbors)) - p;
            const float n2 = squared_norm(f.normal);
            if (n2 > 0.f) u = u - f.normal * (dot(u, f.normal) / n2);
        }
        // the whole move, then shorter ones, then none (the projection alone)
        const bool still = squared_norm(u) == 0.f;  // every step the same point: try it once
        for (float step = still ? 0.f : 1.f;; step = step > kSmallestStep ? 0.5f * step : 0.f) {
            Vec3 q = p + u * step;
            if (project) q = bvh_closest(surface, q).point;
            if (allowed(v, p, q, f)) return q;
            if (step == 0.f) return p;
        }
    }
    static constexpr float kSmallestStep = 1.f / 8;
};

//! Passes of one step until one applies nothing (or the bound). With
//! `incremental` (for a rule that reads only its edge's two fans), passes
//! after the first ask only the edges near the last pass's changes.
template <typename Pass>
RemeshStep repeat_passes(Pass pass, std::uint32_t bound, bool incremental,
                         const std::function<void(const PassReport&)>& on_pass)
{
    RemeshStep step;
    for (;; ++step.passes) {
        if (step.passes == bound) {
            step.hit_bound = true;
            break;
        }
        PassLimits limits;
        if (incremental && step.passes > 0) limits.ask = AskEdges::NearLastChanges;
        const PassReport r = pass(limits);
        if (on_pass) on_pass(r);
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

AngleGuard guard_of(const RemeshStepOptions& o, const char* step)
{
    if (!(o.min_angle_degrees >= 0 && o.min_angle_degrees < 60))
        throw InvalidInputError(std::string(step) + ": the minimum angle " +
                                std::to_string(o.min_angle_degrees) +
                                " is not in [0, 60) degrees");
    return AngleGuard::from_degrees(o.min_angle_degrees);
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
    char s[640];
    std::snprintf(s, sizeof(s),
                  "{\"target_length\":%.9g,\"iterations\":%u,\"splits\":%llu,\"collapses\":%llu,"
                  "\"flips\":%llu,\"split_passes\":%u,\"collapse_passes\":%u,\"flip_passes\":%u,"
                  "\"hit_pass_bound\":%s,\"ms\":%.6f,\"split_ms\":%.6f,\"collapse_ms\":%.6f,"
                  "\"flip_ms\":%.6f,\"smooth_ms\":%.6f}",
                  target_length, iterations, (unsigned long long)splits,
                  (unsigned long long)collapses, (unsigned long long)flips, split_passes,
                  collapse_passes, flip_passes, hit_pass_bound ? "true" : "false", ms, split_ms,
                  collapse_ms, flip_ms, smooth_ms);
    return s;
}

RemeshStep split_long_edges(DynamicMesh& mesh, double L, const RemeshStepOptions& o)
{
    require_length(L, "split_long_edges");
    const float high2 = float((4.0 / 3.0 * L) * (4.0 / 3.0 * L));
    return repeat_passes([&](const PassLimits& l) { return mesh.split_pass(SplitLong{high2}, l); },
                         o.max_passes, true, o.on_pass);
}

RemeshStep collapse_short_edges(DynamicMesh& mesh, double L, const RemeshStepOptions& o)
{
    require_length(L, "collapse_short_edges");
    const float high2 = float((4.0 / 3.0 * L) * (4.0 / 3.0 * L)), low2 = float(0.64 * L * L);
    const CollapseShort rule{low2, high2, Features::from_degrees(o.feature_angle_degrees),
                             guard_of(o, "collapse_short_edges"), sharp_cos_limit(), corner_cos_limit()};
    return repeat_passes([&](const PassLimits& l) { return mesh.collapse_pass(rule, l); },
                         o.max_passes, true, o.on_pass);
}

RemeshStep equalize_valences(DynamicMesh& mesh, const RemeshStepOptions& o)
{
    const EqualizeValence rule{Features::from_degrees(o.feature_angle_degrees),
                               guard_of(o, "equalize_valences")};
    // not incremental: the rule reads the valences of c and d, whose fans
    // lie outside those of a and b
    return repeat_passes([&](const PassLimits& l) { return mesh.flip_pass(rule, l); },
                         o.max_passes, false, o.on_pass);
}

void smooth_tangentially(DynamicMesh& mesh, const TriangleBvh* surface, const RemeshStepOptions& o)
{
    mesh.move_vertices(SmoothAndProject{surface ? surface->view() : TriangleBvhView{},
                                        surface != nullptr,
                                        Features::from_degrees(o.feature_angle_degrees),
                                        guard_of(o, "smooth_tangentially"), sharp_cos_limit()});
}

RemeshReport isotropic_remesh(DynamicMesh& mesh, const RemeshOptions& options)
{
    if (!(options.feature_angle_degrees >= 0 && options.feature_angle_degrees <= 180))
        throw InvalidInputError("isotropic_remesh: the feature angle " +
                                std::to_string(options.feature_angle_degrees) +
                                " is not in [0, 180] degrees");
    RemeshStepOptions step;
    step.max_passes            = options.max_passes_per_step;
    step.feature_angle_degrees = options.feature_angle_degrees;
    step.min_angle_degrees     = options.min_angle_degrees;
    step.on_pass               = options.on_pass;
    guard_of(step, "isotropic_remesh");  // refused before any work
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
    // four steps per iteration, reported before each
    const auto report_step = [&](int step) {
        if (options.progress)
            options.progress(double(4 * r.iterations + step) / (4.0 * options.iterations));
    };
    GpuTimer step_timer(mesh.stream());
    auto     timed = [&](float* ms, auto&& work) {  // each step's device time, summed
        step_timer.start();
        work();
        *ms += step_timer.stop_ms();
    };
    for (r.iterations = 0; r.iterations < options.iterations; ++r.iterations) {
        report_step(0);
        timed(&r.split_ms, [&] {
            add_step(split_long_edges(mesh, r.target_length, step), &r.splits,
                     &r.split_passes, &r.hit_pass_bound);
        });
        report_step(1);
        timed(&r.collapse_ms, [&] {
            add_step(collapse_short_edges(mesh, r.target_length, step), &r.collapses,
                     &r.collapse_passes, &r.hit_pass_bound);
        });
        report_step(2);
        timed(&r.flip_ms, [&] {
            add_step(equalize_valences(mesh, step), &r.flips, &r.flip_passes, &r.hit_pass_bound);
        });
        report_step(3);
        timed(&r.smooth_ms, [&] { smooth_tangentially(mesh, bvh.get(), step); });
    }
    r.ms = timer.stop_ms();
    return r;
}

}  // namespace rxmesh
