// rxmesh-simplify: quadric-error simplification on the GPU (algo/simplify.h
// over the changing-topology engine, dynamic/dynamic_mesh.h), a thin front
// end over the apps' skeleton (apps/common/app.h); --device cpu runs the
// serial reference (reference/qem_simplify.h) to the same target instead.
// Run with --help for the options; without FILE it simplifies an embedded
// torus.
//
// Collapses remove vertices: the output is the simplified mesh, compact
// (vertices in slot order), not one vertex per input vertex. No RXMesh is
// built: no --weld, no --capacity.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "../common/app.h"
#include "../common/dynamic_app.h"
#include "rxmesh/algo/mesh_quality.h"
#include "rxmesh/algo/simplify.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/reference/isotropic_remesh.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/reference/qem_simplify.h"

namespace {

using namespace rxmesh;

//! --check runs the serial oracle up to this many input faces (to a tenth
//! of them: 0.2 s at 7,200 faces and 3.1 s at 52,000 on a 2-core host).
constexpr std::size_t kMaxReferenceFaces = 60000;
//! --check: the GPU's Hausdorff distance to the input at most this factor x
//! the oracle's (the GPU collapses in parallel batches, the oracle strictly
//! one at a time, cheapest first).
constexpr double kDistanceFactor = 2.0;

app::Info make_info()
{
    app::Info i{
        "rxmesh-simplify",
        "quadric-error simplification on the GPU (Garland and Heckbert 1997): collapse the "
        "cheapest edges, in parallel batches, down to a target face count or until no valid "
        "collapse is left (exit 3 when the pass bound stopped it)",
        "an embedded torus (96 x 48 quads, radii 1 and 0.3)",
        "write the simplified mesh (.ply binary, or .obj), compact: vertices in slot order, not "
        "one vertex per input vertex",
        "check on the CPU: a valid mesh, manifold if the input was, the target reached or the "
        "reason why not; up to 60000 input faces also the serial reference to the same target: "
        "the symmetric Hausdorff distance to the input at most 2 x its own + 1e-6 x the "
        "bounding-box diagonal (exit 2 otherwise); not with --device cpu, which runs that "
        "reference"};
    return app::new_mesh_app(i);
}

const app::Info kInfo = make_info();

//! What the options ask for: a face count, else a share of the input's.
struct TargetRequest
{
    std::uint32_t faces = 0;  // 0: not given
    double        ratio = 0.1;
};

std::uint32_t target_faces(std::size_t input_faces, const TargetRequest& request)
{
    if (request.faces > 0) return request.faces;
    return std::uint32_t(std::max(1.0, std::round(request.ratio * double(input_faces))));
}

//! \throw InvalidInputError for --faces above the input's face count.
void require_reachable_target(const app::Input& in, const TargetRequest& request)
{
    if (request.faces > in.soup.faces.size())
        throw InvalidInputError(in.name + ": --faces " + std::to_string(request.faces) +
                                " is more than the input's " +
                                std::to_string(in.soup.faces.size()) + " faces");
}

struct Simplified
{
    SimplifyReport       report;
    double               upload_ms = 0, wall_ms = 0;
    DynamicMemory        memory;
    SurfaceQuality       quality;  // L: the result's mean edge length (min angle, edge lengths)
    app::DistanceToInput distance;
    app::MeshState       input_state, state;  // with --check only
    TriangleSoup         result;              // compact, slot order
};

//! --warmup's untimed runs, each on its own copy of the input.
void warm_up(const TriangleSoup& in, const SimplifyOptions& options, std::uint32_t runs)
{
    SimplifyOptions untimed = options;  // its progress reads as the warm-up's: done < 0
    if (options.progress) untimed.progress = [&options](double) { options.progress(-1); };
    for (std::uint32_t i = 0; i < runs; ++i) {
        DynamicMesh copy(in);
        qem_simplify(copy, untimed);
    }
}

//! The result's figures; the angles need an L only for the edge-length
//! bins, so the result's own mean edge length serves.
SurfaceQuality quality_of(DynamicMesh& mesh)
{
    const double mean = mean_edge_length(mesh);
    return mean > 0 ? surface_quality(mesh, mean) : SurfaceQuality{};
}

//! The algorithm, once (after `warmup` untimed runs), then its quality and
//! distance to the input, and the mesh downloaded.
Simplified simplify(const TriangleSoup& in, const SimplifyOptions& options, bool check,
                    std::uint32_t warmup)
{
    Simplified  run;
    auto        start = std::chrono::steady_clock::now();
    DynamicMesh mesh(in);
    run.upload_ms = app::ms_since(start);
    if (check) run.input_state = app::state_of(mesh);
    warm_up(in, options, warmup);
    start = std::chrono::steady_clock::now();
    run.report    = qem_simplify(mesh, options);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    run.wall_ms = app::ms_since(start);
    run.memory  = mesh.memory();
    run.quality = quality_of(mesh);
    if (check) run.state = app::state_of(mesh);
    const CompactMesh out = mesh.compact();
    run.distance =
        app::distance_to_input(out, app::InputSurface(in), bounding_box_diagonal(in.positions));
    run.result = out.to_host();
    return run;
}

// ---- --check ----

struct SimplifyCheck
{
    bool                      reference_ran = false;
    reference::SimplifyReport reference;
    double                    reference_distance = 0, distance_bound = 0;
};

//! The report agrees with the mesh: its counts are the result's, and it
//! says the target was reached exactly when it was (otherwise its
//! stop_reason() says why not). \throw app::CheckFailed.
void require_report_consistent(const Simplified& run, std::uint32_t target)
{
    const SimplifyReport& r = run.report;
    if (r.faces != run.result.faces.size() || r.vertices != run.result.positions.size())
        throw app::CheckFailed("the report says " + std::to_string(r.faces) + " faces and " +
                               std::to_string(r.vertices) + " vertices, the result has " +
                               std::to_string(run.result.faces.size()) + " and " +
                               std::to_string(run.result.positions.size()));
    if (r.reached_target != (r.faces <= target))
        throw app::CheckFailed("the report says the target of " + std::to_string(target) +
                               " faces was " + (r.reached_target ? "" : "not ") + "reached, with " +
                               std::to_string(r.faces) + " faces");
}

//! The oracle's part of --check. \throw app::CheckFailed.
void compare_with_reference(const TriangleSoup& in, const Simplified& run,
                            const SimplifyOptions& options, SimplifyCheck* c)
{
    reference::SimplifyOptions o;
    o.target_faces         = options.target_faces;
    o.boundary_weight      = options.boundary_weight;
    o.min_angle_degrees    = options.min_angle_degrees;
    const TriangleSoup ref = reference::qem_simplify(in, o, &c->reference);
    c->reference_ran       = true;
    c->reference_distance  = reference::hausdorff_fast(ref, in).symmetric();
    c->distance_bound =
        app::require_distance_near_oracle(run.distance, c->reference_distance, kDistanceFactor);
}

//! --check. \throw app::CheckFailed.
SimplifyCheck check_result(const TriangleSoup& in, const Simplified& run,
                           const SimplifyOptions& options)
{
    SimplifyCheck c;
    app::require_state_kept(run.input_state, run.state);
    require_report_consistent(run, options.target_faces);
    if (in.faces.size() <= kMaxReferenceFaces) compare_with_reference(in, run, options, &c);
    return c;
}

// ---- --device cpu ----

struct CpuSimplified
{
    reference::SimplifyReport report;
    double                    ms = 0;
    reference::MeshQuality    quality;  // L: the result's mean edge length, as the GPU path
    app::DistanceToInput      distance;
    TriangleSoup              result;  // compact: the surviving vertices in input order
};

CpuSimplified simplify_on_cpu(const TriangleSoup& in, const SimplifyOptions& options)
{
    reference::SimplifyOptions o;
    o.target_faces      = options.target_faces;
    o.boundary_weight   = options.boundary_weight;
    o.min_angle_degrees = options.min_angle_degrees;
    CpuSimplified run;
    const auto    start = std::chrono::steady_clock::now();
    run.result          = reference::qem_simplify(in, o, &run.report);
    run.ms              = app::ms_since(start);
    run.quality = reference::mesh_quality(
        run.result, reference::mean_edge_length(run.result.positions, run.result.faces));
    run.distance = app::distance_on_cpu(run.result, in);
    return run;
}

// ---- what it prints ----

void print_summary(const app::Session& s, const Simplified& run, const SimplifyOptions& options)
{
    const SimplifyReport& r = run.report;
    s.print_header();
    std::printf("  %zu vertices, %zu faces -> %u vertices, %u faces (target %u faces)\n",
                s.input().soup.positions.size(), s.input().soup.faces.size(), r.vertices, r.faces,
                options.target_faces);
    std::printf("  collapses %llu in %u pass%s: %s\n", (unsigned long long)r.collapses, r.passes,
                r.passes == 1 ? "" : "es", r.stop_reason().c_str());
    std::printf("  min angle %.2f degrees, mean edge length %.4g\n", run.quality.min_angle_degrees,
                run.quality.mean_edge);
    run.distance.print();
    std::printf("  import %.1f ms, upload %.1f ms, simplify %.3f ms (device), %.3f ms (wall)\n",
                s.import_ms(), run.upload_ms, r.ms, run.wall_ms);
    app::print_memory(run.memory);
}

//! The GPU path's summary where it applies: no passes, no device memory.
void print_cpu_summary(const app::Session& s, const CpuSimplified& run,
                       const SimplifyOptions& options)
{
    const reference::SimplifyReport& r = run.report;
    s.print_header();
    std::printf("  %zu vertices, %zu faces -> %u vertices, %u faces (target %u faces)\n",
                s.input().soup.positions.size(), s.input().soup.faces.size(), r.vertices, r.faces,
                options.target_faces);
    std::printf("  collapses %u, one at a time: %s\n", r.collapses, r.stop_reason().c_str());
    std::printf("  min angle %.2f degrees, mean edge length %.4g\n", run.quality.min_angle_degrees,
                run.quality.mean_edge);
    run.distance.print();
    std::printf("  import %.1f ms, simplify %.3f ms\n", s.import_ms(), run.ms);
}

void print_check(const SimplifyCheck& c, const Simplified& run, std::size_t input_faces)
{
    std::printf("  check passed: %s, %s, the report agrees with the mesh\n",
                run.state.valid ? "valid" : "not valid, as the input",
                run.state.manifold ? "manifold" : "not manifold, as the input");
    if (!c.reference_ran) {
        std::printf(
            "  serial reference skipped: %zu input faces, more than %zu (the serial "
            "oracle is too slow)\n",
            input_faces, kMaxReferenceFaces);
        return;
    }
    std::printf(
        "  serial reference: %u faces (%s), symmetric Hausdorff %.4g (the GPU's %.4g <= "
        "%.4g)\n",
        c.reference.faces, c.reference.stop_reason().c_str(), c.reference_distance,
        run.distance.h.symmetric(), c.distance_bound);
}

class Simplify final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override
    {
        CLI::Option* faces =
            cli.add_option("--faces", m_request.faces, "target face count N, 1 to the input's")
                ->check(app::integer_in(1, std::numeric_limits<std::uint32_t>::max()));
        CLI::Option* ratio =
            cli.add_option("--ratio", m_request.ratio,
                           "target face count as a share r of the input's, in (0, 1]")
                ->check(app::number_where<double>("(0, 1]", "a number in (0, 1]",
                                                  [](double v) { return v > 0 && v <= 1; }))
                ->capture_default_str();
        faces->excludes(ratio);
        cli.add_option("--boundary-weight", m_options.boundary_weight,
                       "weight of the boundary edges' planes in the quadrics (x their squared "
                       "length), so that the boundary keeps its shape")
            ->check(app::number_where<double>("NON-NEGATIVE", "a non-negative finite number",
                                              [](double v) { return std::isfinite(v) && v >= 0; }))
            ->capture_default_str();
        cli.add_option("--min-angle", m_options.min_angle_degrees,
                       "the sliver guard: no collapse makes a face with an angle below this many "
                       "degrees unless the faces it replaces had one (0: off)")
            ->check(CLI::Range(0.0, 59.0))
            ->capture_default_str();
        app::add_warmup_option(cli, m_warmup);
    }

    app::Input default_input() const override
    {
        return {generate::torus(96, 48), "embedded torus (96 x 48 quads, radii 1 and 0.3)"};
    }

    void prepare(app::Input& in, const app::CommonOptions& o) const override
    {
        // refused before any work: --check would compare the reference with itself
        if (o.device == "cpu" && o.check)
            throw InvalidInputError(
                "--check compares the GPU with the serial CPU reference: not with --device cpu");
        if (o.device == "cpu" && m_warmup != 0)
            throw InvalidInputError("--warmup repeats the GPU run: not with --device cpu");
        require_reachable_target(in, m_request);
    }

    int run(app::Session& s) override
    {
        if (s.on_cpu()) return run_cpu(s);
        const TriangleSoup& in      = s.input().soup;
        SimplifyOptions     options = m_options;
        options.target_faces        = target_faces(in.faces.size(), m_request);
        options.progress            = progress_line(s, "simplifying");
        const Simplified run        = simplify(in, options, s.check(), m_warmup);
        SimplifyCheck    c;
        if (s.check()) c = check_result(in, run, options);
        const std::string& output = s.options().output;
        s.stage(output,
                [&](const std::string& tmp) { app::write_mesh_as(tmp, output, run.result); });
        print_summary(s, run, options);
        if (s.check()) print_check(c, run, in.faces.size());
        s.write_report(report(s, run, options, c));
        return run.report.hit_pass_bound ? 3 : 0;
    }

   private:
    //! --device cpu: the serial reference to the same target with the same
    //! boundary weight; its -o and report as the GPU path's, where they apply.
    int run_cpu(app::Session& s)
    {
        const TriangleSoup& in      = s.input().soup;
        SimplifyOptions     options = m_options;
        options.target_faces        = target_faces(in.faces.size(), m_request);
        s.progress().show("simplifying (CPU)");
        const CpuSimplified run    = simplify_on_cpu(in, options);
        const std::string&  output = s.options().output;
        s.stage(output,
                [&](const std::string& tmp) { app::write_mesh_as(tmp, output, run.result); });
        print_cpu_summary(s, run, options);
        s.write_report(cpu_report(s, run, options));
        return 0;
    }

    //! The parameters the two paths share (the GPU's batches are its own).
    app::Json parameters(const SimplifyOptions& options) const
    {
        app::Json params;
        params.num("target_faces", options.target_faces)
            .str("target_from", m_request.faces > 0 ? "--faces" : "--ratio");
        if (m_request.faces == 0) params.num("ratio", m_request.ratio);
        params.num("boundary_weight", options.boundary_weight)
            .num("min_angle_degrees", options.min_angle_degrees)
            .num("warmup_runs", m_warmup);
        return params;
    }

    app::Json cpu_report(const app::Session& s, const CpuSimplified& run,
                         const SimplifyOptions& options) const
    {
        const reference::SimplifyReport& r = run.report;
        app::Json                        simplify, quality, times;
        simplify.num("faces", r.faces)
            .num("vertices", r.vertices)
            .num("collapses", r.collapses)
            .flag("reached_target", r.reached_target)
            .str("stop_reason", r.stop_reason())
            .num("max_cost", r.max_cost);
        quality.num("faces", run.quality.faces)
            .num("mean_edge", run.quality.mean_edge)
            .num("min_angle_degrees", run.quality.min_angle_degrees);
        times.num("import", s.import_ms()).num("simplify", run.ms);
        app::Json j = s.report(r.vertices, r.faces);
        j.obj("parameters", parameters(options))
            .obj("simplify", simplify)
            .obj("quality", quality)
            .obj("hausdorff", run.distance.to_json())
            .obj("times_ms", times)
            .flag("checked", false);
        return j;
    }

    app::Json report(const app::Session& s, const Simplified& run, const SimplifyOptions& options,
                     const SimplifyCheck& c) const
    {
        app::Json params = parameters(options);
        params.num("batch_share", options.batch_share).num("max_passes", options.max_passes);
        app::Json j = app::new_mesh_report(s, run, "simplify", params, run.report.vertices,
                                           run.report.faces);
        if (s.check()) j.obj("check", check_report(run, c));
        return j;
    }

    static app::Json check_report(const Simplified& run, const SimplifyCheck& c)
    {
        app::Json check = app::state_check_json(run.input_state, run.state);
        check.str("stop_reason", run.report.stop_reason())
            .flag("reference_ran", c.reference_ran)
            .num("reference_max_faces", double(kMaxReferenceFaces));
        if (c.reference_ran)
            check.num("reference_faces", c.reference.faces)
                .str("reference_stop_reason", c.reference.stop_reason())
                .num("reference_hausdorff_symmetric", c.reference_distance)
                .num("hausdorff_bound", c.distance_bound);
        check.flag("passed", true);  // a failed check exits 2 and writes nothing
        return check;
    }

    TargetRequest   m_request;
    SimplifyOptions m_options;
    std::uint32_t   m_warmup = 0;
};

}  // namespace

int main(int argc, char** argv)
{
    Simplify program;
    return app::run_app(program, argc, argv);
}
