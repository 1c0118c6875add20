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
#include <cmath>

#include "../common/new_mesh_app.h"
#include "rxmesh/algo/remesh.h"
#include "rxmesh/algo/remesh_length.h"

namespace {

using namespace rxmesh;

//! --check runs the serial oracle up to this many input faces (about 0.1 ms
//! per face at L = the mean edge length on a 2-core host: 0.3 s at 2,918
//! faces, 10 s at 75,408).
constexpr std::size_t kMaxReferenceFaces = 50000;
//! --check: the GPU's share of edges within [4/5 L, 4/3 L] within this of
//! the oracle's, and its Hausdorff distance at most this factor x the
//! oracle's (the GPU applies the same rules in parallel passes, in another
//! order).
constexpr double kShareInBandTolerance = 0.10;
constexpr double kDistanceFactor       = 1.5;

const app::Info kInfo = app::new_mesh_app(
    {"rxmesh-remesh",
     "isotropic remeshing on the GPU (Botsch and Kobbelt 2004): split long edges, collapse short "
     "ones, flip towards valence 6, smooth tangentially and project onto the input, for "
     "--iterations rounds; boundary vertices never move, collapses remove only those on nearly "
     "straight stretches (exit 3 when a step stopped at its pass bound)",
     "an embedded noisy torus (48 x 24 quads, noise 0.3 x the mean edge length)",
     "write the remeshed mesh (.ply binary, or .obj), compact: vertices in slot order (the input's "
     "surviving vertices first, in input order, then the new ones), not one vertex per input "
     "vertex",
     "check on the CPU: a valid mesh, manifold if the input was, the boundary within L/2 of the "
     "input's with as many loops; up to 50000 input faces and without --feature-angle also the "
     "serial reference with the same L and iterations: the share of edges within [4/5 L, 4/3 L] "
     "within 0.10 of its own and the symmetric Hausdorff distance to the input at most 1.5 x its "
     "own + 1e-6 x the bounding-box diagonal (exit 2 otherwise); not with --device cpu, which "
     "runs that reference"});

using Remeshed    = app::NewMeshRun<RemeshReport>;
using CpuRemeshed = app::CpuNewMeshRun<reference::RemeshReport>;

// ---- --check ----

//! How far the result's boundary may be from the input's, over L: a
//! collapse on the boundary moves it by less than 0.4 L (its edge is below
//! 4/5 L, its turn below 30 degrees).
constexpr double kBoundaryTolerance = 0.5;

//! The serial oracle with the same L, iterations and projection (--check's
//! comparison, and the whole of --device cpu). The result is compact in id
//! order: the input's surviving vertices first, in input order, then the
//! new ones, as the GPU path's.
TriangleSoup reference_remesh(const TriangleSoup& in, const RemeshOptions& options,
                              reference::RemeshReport* report = nullptr)
{
    reference::RemeshOptions r;
    r.target_length     = options.target_length;
    r.iterations        = int(options.iterations);
    r.min_angle_degrees = options.min_angle_degrees;
    r.project           = options.project;
    return reference::isotropic_remesh(in, r, report);
}

//! The oracle's part of --check. \throw app::CheckFailed.
void compare_with_reference(const TriangleSoup& in, const Remeshed& run,
                            const RemeshOptions& options, app::OracleCheck* c)
{
    const TriangleSoup ref   = reference_remesh(in, options);
    const double       share = reference::mesh_quality(ref, options.target_length).share_in_band;
    if (!(std::abs(run.quality.share_in_band - share) <= kShareInBandTolerance))
        throw app::CheckFailed(app::formatted(
            "%.4f of the edges are within [4/5 L, 4/3 L], the serial reference has %.4f (more "
            "than %.2f apart)",
            run.quality.share_in_band, share, kShareInBandTolerance));
    c->oracle.compare(ref, in, run.distance, kDistanceFactor);
    c->oracle_own.num("reference_share_in_band", share)
        .num("share_in_band_tolerance", kShareInBandTolerance);
    c->oracle_line = app::formatted("%.1f%% of its edges within [4/5 L, 4/3 L]", 100 * share);
}

//! --check; the serial oracle up to kMaxReferenceFaces input faces and
//! without feature edges (it has none). \throw app::CheckFailed.
app::OracleCheck check_result(const TriangleSoup& in, const Remeshed& run,
                              const RemeshOptions& options)
{
    app::OracleCheck c = app::OracleCheck::begin(run, kMaxReferenceFaces);
    c.require_boundary_kept(in, run.result, kBoundaryTolerance, options.target_length);
    c.skipped_line = "  serial reference skipped: it has no feature edges\n";
    if (in.faces.size() <= kMaxReferenceFaces && options.feature_angle_degrees == 0)
        compare_with_reference(in, run, options, &c);
    return c;
}

// ---- what it prints ----

//! The summary both paths print but its last lines; `passes`: the GPU's.
template <typename Run>
void print_summary(const app::Session& s, const Run& run, const TargetLength& target,
                   std::uint32_t iterations, const std::string& passes = "")
{
    const auto& r = run.report;
    app::print_sizes(s, run.result.positions.size(), run.result.faces.size());
    std::printf("  target edge length %.6g (%s), %u iteration%s\n", r.target_length,
                target.source.c_str(), iterations, iterations == 1 ? "" : "s");
    std::printf("  splits %llu, collapses %llu, flips %llu%s\n", (unsigned long long)r.splits,
                (unsigned long long)r.collapses, (unsigned long long)r.flips, passes.c_str());
    app::print_band_quality(run.quality);
}

//! The GPU's passes per step, for the summary.
std::string passes_of(const RemeshReport& r)
{
    return app::formatted(" (passes: %u split, %u collapse, %u flip)%s", r.split_passes,
                          r.collapse_passes, r.flip_passes,
                          r.hit_pass_bound ? "; a step stopped at its pass bound with work left"
                                           : "");
}

class Remesh final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override
    {
        CLI::Option* length = app::add_option(
            cli, "--length", m_request.length,
            "target edge length L (0: the input's mean edge length)", app::non_negative_float());
        CLI::Option* relative =
            cli.add_option("--relative", m_request.relative,
                           "target edge length as a multiple r of the input's mean edge length "
                           "(L = r x mean)")
                ->check(app::positive_float());
        length->excludes(relative);
        app::add_option(cli, "--iterations", m_options.iterations,
                        "rounds of split, collapse, flip, smooth and project",
                        app::integer_in(1, 1000));
        app::add_min_angle_option(cli, m_options.min_angle_degrees,
                                  "collapse, flip or smoothing move");
        cli.add_flag("--no-project", m_no_project,
                     "smooth without projecting onto the input (the surface drifts)");
        app::add_option(cli, "--feature-angle", m_options.feature_angle_degrees,
                        "keep feature edges: those whose faces' normals differ by more than this "
                        "many degrees are never flipped, their vertices never move or collapse "
                        "(0, the default: none; with feature edges --check skips the serial "
                        "reference, which has none, and --device cpu refuses them)",
                        CLI::Range(0.0, 180.0));
        app::add_warmup_option(cli, m_warmup);
    }

    app::Input default_input() const override
    {
        return {generate::noisy(generate::torus(48, 24), 0.3f, 1),
                "embedded noisy torus (48 x 24 quads, noise 0.3 x mean edge)"};
    }

    //! What the serial reference cannot do, refused before any work: --check
    //! would compare it with itself, and it has no feature edges.
    void prepare(app::Input&, const app::CommonOptions& o) const override
    {
        app::refuse_oracle_check_on_cpu(o);
        if (o.device == "cpu" && m_options.feature_angle_degrees != 0)
            throw InvalidInputError(
                "--feature-angle: the serial CPU reference has no feature edges: not with "
                "--device cpu");
        app::refuse_warmup_on_cpu(o, m_warmup);
    }

    int run(app::Session& s) override
    {
        if (s.on_cpu()) return run_cpu(s);
        const TriangleSoup& in      = s.input().soup;
        RemeshOptions       options = algorithm_options();
        options.progress            = app::progress_line(s, "remeshing");
        const app::NewMeshAlgorithm<RemeshOptions, RemeshReport> remesher{
            [](DynamicMesh& mesh, const RemeshOptions& o) { return isotropic_remesh(mesh, o); },
            [](DynamicMesh& mesh, const RemeshReport& r) {
                return surface_quality(mesh, r.target_length);
            },
            // L from the input's mean edge length measured on the GPU, so
            // that no host pass over the input comes first
            [&](DynamicMesh& input, RemeshOptions& o) {
                m_target = choose_target_length(mean_edge_length(input), in.faces.size(), m_request,
                                                s.input().name);
                o.target_length = m_target.value;
            }};
        const Remeshed run = app::run_new_mesh(in, options, remesher, s.check(), m_warmup);
        const app::OracleCheck c = s.check() ? check_result(in, run, options) : app::OracleCheck{};
        return app::finish_gpu_run(
            s, run, "remesh", c,
            [&] { print_summary(s, run, m_target, run.report.iterations, passes_of(run.report)); },
            parameters(run.report.target_length), double(run.result.positions.size()),
            double(run.result.faces.size()));
    }

   private:
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
        const CpuRemeshed run = app::run_new_mesh_on_cpu<reference::RemeshReport>(
            in, [&](reference::RemeshReport* r) { return reference_remesh(in, options, r); },
            [&](const TriangleSoup& out) {
                return reference::mesh_quality(out, options.target_length);
            });
        const reference::RemeshReport& r = run.report;
        app::Json                      remesh;
        remesh.num("target_length", r.target_length)
            .num("iterations", m_options.iterations)
            .num("splits", double(r.splits))
            .num("collapses", double(r.collapses))
            .num("flips", double(r.flips));
        return app::finish_cpu_run(
            s, run, "remesh",
            [&] { print_summary(s, run, m_target, m_options.iterations); },
            parameters(r.target_length), remesh,
            app::cpu_quality_json(run.quality, r.target_length),
            run.result.positions.size(), run.result.faces.size());
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

    TargetLengthRequest m_request;
    RemeshOptions m_options;
    bool          m_no_project = false;
    std::uint32_t m_warmup     = 0;
    TargetLength  m_target;  // set by run: L is chosen from the input uploaded
};

}  // namespace

int main(int argc, char** argv) { return app::run_app<Remesh>(argc, argv); }
