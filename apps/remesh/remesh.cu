// rxmesh-remesh: isotropic remeshing on the GPU (algo/remesh.h over the
// changing-topology engine, dynamic/dynamic_mesh.h), a thin front end over
// the apps' skeleton (apps/common/app.h); --device cpu runs the serial
// reference (reference/isotropic_remesh.h) with the same L, iterations and
// projection instead. Run with --help for the options; without FILE it
// remeshes an embedded noisy torus.
//
// Remeshing creates and deletes vertices: the output is the remeshed mesh,
// compact (vertices in slot order: the input's surviving vertices first, in
// input order, then the new ones), not one vertex per input vertex. No
// RXMesh is built: no --weld, no --capacity.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "../common/app.h"
#include "../common/dynamic_app.h"
#include "rxmesh/algo/mesh_quality.h"
#include "rxmesh/algo/remesh.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/boundary_check.h"
#include "rxmesh/reference/closest_point_tree.h"
#include "rxmesh/reference/isotropic_remesh.h"
#include "rxmesh/reference/mcf.h"

namespace {

using namespace rxmesh;

//! --check runs the serial oracle up to this many input faces (about 0.1 ms
//! per face at L = the mean edge length on a 2-core host: 0.3 s at 2,918
//! faces, 10 s at 75,408).
constexpr std::size_t kMaxReferenceFaces = 50000;
//! Refused before any GPU work: a target length that would split the input
//! into more faces than 32-bit slot ids hold (about F x (mean edge / L)^2).
constexpr double kMaxExpectedFaces = 2147483648.0;
//! --check: the GPU's share of edges within [4/5 L, 4/3 L] within this of
//! the oracle's, and its Hausdorff distance at most this factor x the
//! oracle's (the GPU applies the same rules in parallel passes, in another
//! order).
constexpr double kShareInBandTolerance = 0.10;
constexpr double kDistanceFactor       = 1.5;

app::Info make_info()
{
    app::Info i{
        "rxmesh-remesh",
        "isotropic remeshing on the GPU (Botsch and Kobbelt 2004): split long edges, collapse "
        "short ones, flip towards valence 6, smooth tangentially and project onto the input, "
        "for --iterations rounds; boundary vertices never move, collapses remove only those on "
        "nearly straight stretches (exit 3 when a step stopped at "
        "its pass bound)",
        "an embedded noisy torus (48 x 24 quads, noise 0.3 x the mean edge length)",
        "write the remeshed mesh (.ply binary, or .obj), compact: vertices in slot order (the "
        "input's surviving vertices first, in input order, then the new ones), not one vertex "
        "per input vertex",
        "check on the CPU: a valid mesh, manifold if the input was, the boundary within L/2 of "
        "the input's with as many loops; up to 50000 input faces and without --feature-angle also the "
        "serial reference with the "
        "same L and iterations: the share of edges within [4/5 L, 4/3 L] within 0.10 of its own "
        "and the symmetric Hausdorff distance to the input at most 1.5 x its own + 1e-6 x the "
        "bounding-box diagonal (exit 2 otherwise); not with --device cpu, which runs that "
        "reference"};
    return app::new_mesh_app(i);
}

const app::Info kInfo = make_info();

//! What the options ask of L: a length, a ratio to the input's mean edge
//! length, or neither (0: the mean itself).
struct LengthRequest
{
    double length = 0, relative = 0;
};

//! L as chosen: on the GPU after the upload (the input's mean edge length
//! measured there), on the host with --device cpu.
struct TargetLength
{
    double      value = 0, input_mean_edge = 0;
    std::string source;  // how it was chosen, in words
};

std::string short_number(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

//! L from the options and the input's mean edge length.
TargetLength target_length(double input_mean_edge, const LengthRequest& request)
{
    TargetLength t;
    t.input_mean_edge = input_mean_edge;
    t.value           = input_mean_edge;
    t.source          = "the input's mean edge length";
    if (request.length > 0) {
        t.value  = request.length;
        t.source = "--length";
    } else if (request.relative > 0) {
        t.value  = request.relative * input_mean_edge;
        t.source = short_number(request.relative) + " x the input's mean edge length";
    }
    return t;
}

//! \throw InvalidInputError for an L that is not positive (a mesh whose
//! edges all have length 0, without --length) or would make too many faces
//! (L is finite: --length and --relative are within float range, and so are
//! the positions).
TargetLength choose_target_length(double input_mean_edge, std::size_t input_faces,
                                  const LengthRequest& request, const std::string& name)
{
    const TargetLength t = target_length(input_mean_edge, request);
    if (!(t.value > 0))
        throw InvalidInputError(name +
                                ": the input's edges all have length 0, so there is no "
                                "mean edge length to take L from: give --length");
    const double ratio    = t.input_mean_edge / t.value;
    const double expected = double(input_faces) * ratio * ratio;
    if (expected > kMaxExpectedFaces)
        throw InvalidInputError(name + ": the target edge length " + short_number(t.value) +
                                " would make about " + short_number(expected) + " faces (" +
                                std::to_string(input_faces) + " x (mean edge " +
                                short_number(t.input_mean_edge) + " / L)^2), beyond 32-bit ids");
    return t;
}

struct Remeshed
{
    RemeshReport               report;
    double                     upload_ms = 0, wall_ms = 0;
    DynamicMemory              memory;
    SurfaceQuality             quality;
    app::DistanceToInput       distance;
    app::MeshState             input_state, state;  // with --check only
    TriangleSoup               result;              // compact, slot order
    std::vector<std::uint32_t> input_vertex;        // of each result vertex; kNoElement: new
};

//! How the GPU path chooses L from the input uploaded (its mean edge length
//! measured on the GPU, so that no host pass over the input comes first).
using ChooseLength = std::function<double(DynamicMesh& input)>;

//! --warmup's untimed runs, each on its own copy of the input.
void warm_up(const TriangleSoup& in, const RemeshOptions& options, std::uint32_t runs)
{
    RemeshOptions untimed = options;  // its progress reads as the warm-up's: done < 0
    if (options.progress) untimed.progress = [&options](double) { options.progress(-1); };
    for (std::uint32_t i = 0; i < runs; ++i) {
        DynamicMesh copy(in);
        isotropic_remesh(copy, untimed);
    }
}

//! The algorithm, once (after `warmup` untimed runs), then its quality and
//! distance to the input, and the mesh downloaded; options.target_length
//! set by `choose` on the uploaded input, before the timed run.
Remeshed remesh(const TriangleSoup& in, RemeshOptions& options, const ChooseLength& choose,
                bool check, std::uint32_t warmup)
{
    Remeshed    run;
    auto        start = std::chrono::steady_clock::now();
    DynamicMesh mesh(in);
    run.upload_ms = app::ms_since(start);
    if (check) run.input_state = app::state_of(mesh);
    options.target_length = choose(mesh);
    warm_up(in, options, warmup);
    start      = std::chrono::steady_clock::now();
    run.report = isotropic_remesh(mesh, options);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    run.wall_ms = app::ms_since(start);
    run.memory  = mesh.memory();
    run.quality = surface_quality(mesh, run.report.target_length);
    if (check) run.state = app::state_of(mesh);
    const CompactMesh out = mesh.compact();
    run.distance =
        app::distance_to_input(out, app::InputSurface(in), bounding_box_diagonal(in.positions));
    run.result = out.to_host(&run.input_vertex);
    return run;
}

// ---- --check ----

//! How far the result's boundary may be from the input's, over L: a
//! collapse on the boundary moves it by less than 0.4 L (its edge is below
//! 4/5 L, its turn below 30 degrees).
constexpr double kBoundaryTolerance = 0.5;

struct RemeshCheck
{
    reference::BoundaryCheck boundary;
    double                   target_length = 0;
    bool        reference_ran           = false;
    double      reference_share_in_band = 0, reference_distance = 0, distance_bound = 0;
};

//! The serial oracle with the same L and iterations (--check's comparison,
//! and the whole of --device cpu); without projection its steps one by one
//! (reference::isotropic_remesh always projects). The result is compact in
//! id order: the input's surviving vertices first, in input order, then the
//! new ones, as the GPU path's.
TriangleSoup reference_remesh(const TriangleSoup& in, const RemeshOptions& options,
                              reference::RemeshReport* report = nullptr)
{
    if (options.project) {
        reference::RemeshOptions r;
        r.target_length     = options.target_length;
        r.iterations        = int(options.iterations);
        r.min_angle_degrees = options.min_angle_degrees;
        return reference::isotropic_remesh(in, r, report);
    }
    reference::EditableMesh m(in.positions, in.faces);
    reference::RemeshReport r;
    r.target_length      = options.target_length;
    const double angle   = options.min_angle_degrees;
    for (std::uint32_t i = 0; i < options.iterations; ++i) {
        r.splits += reference::split_long_edges(m, options.target_length);
        r.collapses += reference::collapse_short_edges(m, options.target_length, angle);
        r.flips += reference::equalize_valences(m, angle);
        reference::tangential_smoothing(m, nullptr, angle);
    }
    if (report) *report = r;
    return m.compact();
}

//! The oracle's part of --check. \throw app::CheckFailed.
void compare_with_reference(const TriangleSoup& in, const Remeshed& run,
                            const RemeshOptions& options, RemeshCheck* c)
{
    const TriangleSoup ref     = reference_remesh(in, options);
    c->reference_ran           = true;
    c->reference_share_in_band = reference::mesh_quality(ref, options.target_length).share_in_band;
    if (!(std::abs(run.quality.share_in_band - c->reference_share_in_band) <=
          kShareInBandTolerance)) {
        char why[200];
        std::snprintf(why, sizeof why,
                      "%.4f of the edges are within [4/5 L, 4/3 L], the serial reference has "
                      "%.4f (more than %.2f apart)",
                      run.quality.share_in_band, c->reference_share_in_band, kShareInBandTolerance);
        throw app::CheckFailed(why);
    }
    c->reference_distance = reference::hausdorff_fast(ref, in).symmetric();
    c->distance_bound =
        app::require_distance_near_oracle(run.distance, c->reference_distance, kDistanceFactor);
}

//! --check. \throw app::CheckFailed.
RemeshCheck check_result(const TriangleSoup& in, const Remeshed& run, const RemeshOptions& options)
{
    RemeshCheck c;
    app::require_state_kept(run.input_state, run.state);
    c.target_length = options.target_length;
    c.boundary      = reference::check_boundary(in, run.result,
                                           kBoundaryTolerance * options.target_length);
    if (!c.boundary.ok()) throw app::CheckFailed(c.boundary.first);
    // the serial oracle has no feature edges: with them, validity and the boundary only
    if (in.faces.size() <= kMaxReferenceFaces && options.feature_angle_degrees == 0)
        compare_with_reference(in, run, options, &c);
    return c;
}

// ---- --device cpu ----

struct CpuRemeshed
{
    reference::RemeshReport report;
    double                  ms = 0;
    reference::MeshQuality  quality;
    app::DistanceToInput    distance;
    TriangleSoup            result;  // compact, id order (reference_remesh)
};

CpuRemeshed remesh_on_cpu(const TriangleSoup& in, const RemeshOptions& options)
{
    CpuRemeshed run;
    const auto  start = std::chrono::steady_clock::now();
    run.result        = reference_remesh(in, options, &run.report);
    run.ms            = app::ms_since(start);
    run.quality       = reference::mesh_quality(run.result, options.target_length);
    run.distance      = app::distance_on_cpu(run.result, in);
    return run;
}

//! A JSON array of counts, as SurfaceQuality::to_json writes its lists.
std::string json_list(const std::vector<std::uint32_t>& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
}

// ---- what it prints ----

//! "4:12 5:300 6:900 7+:10" (the last entry counts every larger valence too).
std::string valence_list(const std::vector<std::uint32_t>& valences)
{
    std::string s;
    for (std::size_t v = 0; v < valences.size(); ++v) {
        if (valences[v] == 0) continue;
        s += (s.empty() ? "" : " ") + std::to_string(v) + (v + 1 == valences.size() ? "+:" : ":") +
             std::to_string(valences[v]);
    }
    return s.empty() ? "none" : s;
}

void print_summary(const app::Session& s, const Remeshed& run, const TargetLength& target)
{
    const RemeshReport&   r = run.report;
    const SurfaceQuality& q = run.quality;
    s.print_header();
    std::printf("  %zu vertices, %zu faces -> %zu vertices, %zu faces\n",
                s.input().soup.positions.size(), s.input().soup.faces.size(),
                run.result.positions.size(), run.result.faces.size());
    std::printf("  target edge length %.6g (%s), %u iteration%s\n", r.target_length,
                target.source.c_str(), r.iterations, r.iterations == 1 ? "" : "s");
    std::printf(
        "  splits %llu, collapses %llu, flips %llu (passes: %u split, %u collapse, %u "
        "flip)%s\n",
        (unsigned long long)r.splits, (unsigned long long)r.collapses, (unsigned long long)r.flips,
        r.split_passes, r.collapse_passes, r.flip_passes,
        r.hit_pass_bound ? "; a step stopped at its pass bound with work left" : "");
    std::printf(
        "  edges within [4/5 L, 4/3 L]: %.1f%%, min angle %.2f degrees, interior "
        "valences %s\n",
        100 * q.share_in_band, q.min_angle_degrees, valence_list(q.interior_valences).c_str());
    run.distance.print();
    std::printf("  import %.1f ms, upload %.1f ms, remesh %.3f ms (device), %.3f ms (wall)\n",
                s.import_ms(), run.upload_ms, r.ms, run.wall_ms);
    app::print_memory(run.memory);
}

//! The GPU path's summary where it applies: no passes, no device memory.
void print_cpu_summary(const app::Session& s, const CpuRemeshed& run, const TargetLength& target,
                       std::uint32_t iterations)
{
    const reference::RemeshReport& r = run.report;
    const reference::MeshQuality&  q = run.quality;
    s.print_header();
    std::printf("  %zu vertices, %zu faces -> %zu vertices, %zu faces\n",
                s.input().soup.positions.size(), s.input().soup.faces.size(),
                run.result.positions.size(), run.result.faces.size());
    std::printf("  target edge length %.6g (%s), %u iteration%s\n", target.value,
                target.source.c_str(), iterations, iterations == 1 ? "" : "s");
    std::printf("  splits %llu, collapses %llu, flips %llu\n", (unsigned long long)r.splits,
                (unsigned long long)r.collapses, (unsigned long long)r.flips);
    std::printf(
        "  edges within [4/5 L, 4/3 L]: %.1f%%, min angle %.2f degrees, interior "
        "valences %s\n",
        100 * q.share_in_band, q.min_angle_degrees, valence_list(q.interior_valences).c_str());
    run.distance.print();
    std::printf("  import %.1f ms, remesh %.3f ms\n", s.import_ms(), run.ms);
}

void print_check(const RemeshCheck& c, const Remeshed& run, std::size_t input_faces)
{
    std::printf("  check passed: %s, %s; boundary of %llu loops within %.2f L of the input's "
                "(%llu vertices, %llu before)\n",
                run.state.valid ? "valid" : "not valid, as the input",
                run.state.manifold ? "manifold" : "not manifold, as the input",
                (unsigned long long)c.boundary.output_loops, kBoundaryTolerance,
                (unsigned long long)c.boundary.output_boundary_vertices,
                (unsigned long long)c.boundary.input_boundary_vertices);
    if (!c.reference_ran) {
        if (input_faces > kMaxReferenceFaces)
            std::printf(
                "  serial reference skipped: %zu input faces, more than %zu (the serial "
                "oracle is too slow)\n",
                input_faces, kMaxReferenceFaces);
        else
            std::printf("  serial reference skipped: it has no feature edges\n");
        return;
    }
    std::printf(
        "  serial reference: %.1f%% of its edges within [4/5 L, 4/3 L], symmetric "
        "Hausdorff %.4g (the GPU's %.4g <= %.4g)\n",
        100 * c.reference_share_in_band, c.reference_distance, run.distance.h.symmetric(),
        c.distance_bound);
}

class Remesh final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override
    {
        CLI::Option* length =
            cli.add_option("--length", m_request.length,
                           "target edge length L (0: the input's mean edge length)")
                ->check(app::number_where<float>(
                    "NON-NEGATIVE FLOAT", "a non-negative number within float range",
                    [](float v) { return std::isfinite(v) && v >= 0; }))
                ->capture_default_str();
        CLI::Option* relative =
            cli.add_option("--relative", m_request.relative,
                           "target edge length as a multiple r of the input's mean edge length "
                           "(L = r x mean)")
                ->check(app::positive_float());
        length->excludes(relative);
        cli.add_option("--iterations", m_options.iterations,
                       "rounds of split, collapse, flip, smooth and project")
            ->check(app::integer_in(1, 1000))
            ->capture_default_str();
        cli.add_option("--min-angle", m_options.min_angle_degrees,
                       "the sliver guard: no collapse, flip or smoothing move makes a face with "
                       "an angle below this many degrees unless the faces it replaces had one "
                       "(0: off)")
            ->check(CLI::Range(0.0, 59.0))
            ->capture_default_str();
        cli.add_flag("--no-project", m_no_project,
                     "smooth without projecting onto the input (the surface drifts)");
        cli.add_option("--feature-angle", m_options.feature_angle_degrees,
                       "keep feature edges: those whose faces' normals differ by more than this "
                       "many degrees are never flipped, their vertices never move or collapse "
                       "(0, the default: none; with feature edges --check skips the serial "
                       "reference, which has none, and --device cpu refuses them)")
            ->check(CLI::Range(0.0, 180.0))
            ->capture_default_str();
        app::add_warmup_option(cli, m_warmup);
    }

    app::Input default_input() const override
    {
        return {generate::noisy(generate::torus(48, 24), 0.3f, 1),
                "embedded noisy torus (48 x 24 quads, noise 0.3 x mean edge)"};
    }

    void prepare(app::Input&, const app::CommonOptions& o) const override
    {
        if (o.device == "cpu") refuse_on_cpu(o);
    }

    int run(app::Session& s) override
    {
        if (s.on_cpu()) return run_cpu(s);
        const TriangleSoup& in      = s.input().soup;
        RemeshOptions       options = algorithm_options();
        options.progress            = progress_line(s, "remeshing");
        const ChooseLength choose   = [&](DynamicMesh& input) {
            m_target = choose_target_length(mean_edge_length(input), in.faces.size(), m_request,
                                            s.input().name);
            return m_target.value;
        };
        const Remeshed run = remesh(in, options, choose, s.check(), m_warmup);
        RemeshCheck    c;
        if (s.check()) c = check_result(in, run, options);
        const std::string& output = s.options().output;
        s.stage(output,
                [&](const std::string& tmp) { app::write_mesh_as(tmp, output, run.result); });
        print_summary(s, run, m_target);
        if (s.check()) print_check(c, run, in.faces.size());
        s.write_report(report(s, run, c));
        return run.report.hit_pass_bound ? 3 : 0;
    }

   private:
    //! What the serial reference cannot do, refused before any work: it has
    //! no feature edges, and --check would compare it with itself.
    void refuse_on_cpu(const app::CommonOptions& o) const
    {
        if (o.check)
            throw InvalidInputError(
                "--check compares the GPU with the serial CPU reference: not with --device cpu");
        if (m_options.feature_angle_degrees != 0)
            throw InvalidInputError(
                "--feature-angle: the serial CPU reference has no feature edges: not with "
                "--device cpu");
        if (m_warmup != 0)
            throw InvalidInputError("--warmup repeats the GPU run: not with --device cpu");
    }

    //! The algorithm's options but L (chosen from the input's mean edge length).
    RemeshOptions algorithm_options() const
    {
        RemeshOptions o = m_options;
        o.project       = !m_no_project;
        return o;
    }

    //! --device cpu: the serial reference with the GPU path's L, iterations
    //! and projection; its -o and report as the GPU path's, where they apply.
    int run_cpu(app::Session& s)
    {
        const TriangleSoup& in = s.input().soup;
        m_target = choose_target_length(reference::mean_edge_length(in.positions, in.faces),
                                        in.faces.size(), m_request, s.input().name);
        RemeshOptions options = algorithm_options();
        options.target_length = m_target.value;
        s.progress().show("remeshing (CPU)");
        const CpuRemeshed  run    = remesh_on_cpu(in, options);
        const std::string& output = s.options().output;
        s.stage(output,
                [&](const std::string& tmp) { app::write_mesh_as(tmp, output, run.result); });
        print_cpu_summary(s, run, m_target, m_options.iterations);
        s.write_report(cpu_report(s, run));
        return 0;
    }

    app::Json parameters(double target_length) const
    {
        app::Json params;
        params.num("target_length", target_length)
            .str("target_length_from", m_target.source)
            .num("input_mean_edge_length", m_target.input_mean_edge)
            .num("iterations", m_options.iterations)
            .flag("project", !m_no_project)
            .num("min_angle_degrees", m_options.min_angle_degrees)
            .num("feature_angle_degrees", m_options.feature_angle_degrees)
            .num("warmup_runs", m_warmup);
        return params;
    }

    app::Json cpu_report(const app::Session& s, const CpuRemeshed& run) const
    {
        const reference::RemeshReport& r = run.report;
        app::Json                      remesh, quality, times;
        remesh.num("target_length", r.target_length)
            .num("iterations", m_options.iterations)
            .num("splits", double(r.splits))
            .num("collapses", double(r.collapses))
            .num("flips", double(r.flips));
        quality.num("faces", run.quality.faces)
            .num("target_length", r.target_length)
            .num("mean_edge", run.quality.mean_edge)
            .num("share_in_band", run.quality.share_in_band)
            .num("min_angle_degrees", run.quality.min_angle_degrees)
            .embed("interior_valences", json_list(run.quality.interior_valences));
        times.num("import", s.import_ms()).num("remesh", run.ms);
        app::Json j = s.report(run.result.positions.size(), run.result.faces.size());
        j.obj("parameters", parameters(r.target_length))
            .obj("remesh", remesh)
            .obj("quality", quality)
            .obj("hausdorff", run.distance.to_json())
            .obj("times_ms", times)
            .flag("checked", false);
        return j;
    }

    app::Json report(const app::Session& s, const Remeshed& run, const RemeshCheck& c) const
    {
        const app::Json params = parameters(run.report.target_length);
        app::Json j = app::new_mesh_report(s, run, "remesh", params,
                                           double(run.result.positions.size()),
                                           double(run.result.faces.size()));
        if (s.check()) j.obj("check", check_report(run, c));
        return j;
    }

    static app::Json check_report(const Remeshed& run, const RemeshCheck& c)
    {
        app::Json check = app::state_check_json(run.input_state, run.state);
        check.num("input_boundary_vertices", double(c.boundary.input_boundary_vertices))
            .num("output_boundary_vertices", double(c.boundary.output_boundary_vertices))
            .num("boundary_loops", double(c.boundary.output_loops))
            .num("boundary_max_distance", c.boundary.max_distance)
            .num("boundary_tolerance", kBoundaryTolerance * c.target_length)
            .flag("reference_ran", c.reference_ran)
            .num("reference_max_faces", double(kMaxReferenceFaces));
        if (c.reference_ran)
            check.num("reference_share_in_band", c.reference_share_in_band)
                .num("share_in_band_tolerance", kShareInBandTolerance)
                .num("reference_hausdorff_symmetric", c.reference_distance)
                .num("hausdorff_bound", c.distance_bound);
        check.flag("passed", true);  // a failed check exits 2 and writes nothing
        return check;
    }

    LengthRequest        m_request;
    RemeshOptions        m_options;
    bool                 m_no_project = false;
    std::uint32_t        m_warmup     = 0;
    TargetLength         m_target;  // set by run: L is chosen from the input uploaded
};

}  // namespace

int main(int argc, char** argv)
{
    Remesh program;
    return app::run_app(program, argc, argv);
}
