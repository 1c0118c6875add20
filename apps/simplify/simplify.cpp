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
#include <cmath>
#include <limits>

#include "../common/new_mesh_app.h"
#include "rxmesh/algo/simplify.h"
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

const app::Info kInfo = app::new_mesh_app(
    {"rxmesh-simplify",
     "quadric-error simplification on the GPU (Garland and Heckbert 1997): collapse the cheapest "
     "edges, in parallel batches, down to a target face count or until no valid collapse is left "
     "(exit 3 when the pass bound stopped it)",
     "an embedded torus (96 x 48 quads, radii 1 and 0.3)",
     "write the simplified mesh (.ply binary, or .obj), compact: vertices in slot order, not one "
     "vertex per input vertex",
     "check on the CPU: a valid mesh, manifold if the input was, the target reached or the reason "
     "why not; up to 60000 input faces also the serial reference to the same target: the "
     "symmetric Hausdorff distance to the input at most 2 x its own + 1e-6 x the bounding-box "
     "diagonal (exit 2 otherwise); not with --device cpu, which runs that reference"});

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

using Simplified    = app::NewMeshRun<SimplifyReport>;
using CpuSimplified = app::CpuNewMeshRun<reference::SimplifyReport>;

//! The result's figures; the angles need an L only for the edge-length
//! bins, so the result's own mean edge length serves.
SurfaceQuality quality_of(DynamicMesh& mesh)
{
    const double mean = mean_edge_length(mesh);
    return mean > 0 ? surface_quality(mesh, mean) : SurfaceQuality{};
}

//! The serial reference's options: the GPU path's target, boundary weight
//! and sliver guard.
reference::SimplifyOptions reference_options(const SimplifyOptions& options)
{
    reference::SimplifyOptions o;
    o.target_faces      = options.target_faces;
    o.boundary_weight   = options.boundary_weight;
    o.min_angle_degrees = options.min_angle_degrees;
    return o;
}

// ---- --check ----

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

//! --check; the serial oracle to the same target up to kMaxReferenceFaces
//! input faces. \throw app::CheckFailed.
app::OracleCheck check_result(const TriangleSoup& in, const Simplified& run,
                              const SimplifyOptions& options)
{
    app::OracleCheck c = app::OracleCheck::begin(run, kMaxReferenceFaces);
    require_report_consistent(run, options.target_faces);
    c.own.str("stop_reason", run.report.stop_reason());
    c.own_line = ", the report agrees with the mesh";
    if (in.faces.size() > kMaxReferenceFaces) return c;
    reference::SimplifyReport r;
    c.oracle.compare(reference::qem_simplify(in, reference_options(options), &r), in,
                     run.distance, kDistanceFactor);
    c.oracle_own.num("reference_faces", r.faces).str("reference_stop_reason", r.stop_reason());
    c.oracle_line = app::formatted("%u faces (%s)", r.faces, r.stop_reason().c_str());
    return c;
}

// ---- what it prints ----

//! The summary both paths print but its last lines; `collapses`: how.
template <typename Run>
void print_summary(const app::Session& s, const Run& run, const SimplifyOptions& options,
                   const std::string& collapses)
{
    const auto& r = run.report;
    app::print_sizes(s, r.vertices, r.faces,
                     " (target " + std::to_string(options.target_faces) + " faces)");
    std::printf("  collapses %s: %s\n", collapses.c_str(), r.stop_reason().c_str());
    std::printf("  min angle %.2f degrees, mean edge length %.4g\n", run.quality.min_angle_degrees,
                run.quality.mean_edge);
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
            app::add_option(cli, "--ratio", m_request.ratio,
                            "target face count as a share r of the input's, in (0, 1]",
                            app::number_where<double>("(0, 1]", "a number in (0, 1]",
                                                      [](double v) { return v > 0 && v <= 1; }));
        faces->excludes(ratio);
        app::add_option(
            cli, "--boundary-weight", m_options.boundary_weight,
            "weight of the boundary edges' planes in the quadrics (x their squared "
            "length), so that the boundary keeps its shape",
            app::number_where<double>("NON-NEGATIVE", "a non-negative finite number",
                                      [](double v) { return std::isfinite(v) && v >= 0; }));
        app::add_min_angle_option(cli, m_options.min_angle_degrees, "collapse");
        app::add_warmup_option(cli, m_warmup);
    }

    app::Input default_input() const override
    {
        return {generate::torus(96, 48), "embedded torus (96 x 48 quads, radii 1 and 0.3)"};
    }

    void prepare(app::Input& in, const app::CommonOptions& o) const override
    {
        app::refuse_oracle_check_on_cpu(o);
        app::refuse_warmup_on_cpu(o, m_warmup);
        require_reachable_target(in, m_request);
    }

    int run(app::Session& s) override
    {
        if (s.on_cpu()) return run_cpu(s);
        const TriangleSoup& in      = s.input().soup;
        SimplifyOptions     options = algorithm_options(in);
        options.progress            = app::progress_line(s, "simplifying");
        const app::NewMeshAlgorithm<SimplifyOptions, SimplifyReport> simplifier{
            [](DynamicMesh& mesh, const SimplifyOptions& o) { return qem_simplify(mesh, o); },
            [](DynamicMesh& mesh, const SimplifyReport&) { return quality_of(mesh); }};
        const Simplified run = app::run_new_mesh(in, options, simplifier, s.check(), m_warmup);
        const app::OracleCheck c = s.check() ? check_result(in, run, options) : app::OracleCheck{};
        const SimplifyReport&  r = run.report;
        app::Json params = parameters(options);  // then the GPU's batches, its own
        params.num("batch_share", options.batch_share).num("max_passes", options.max_passes);
        const auto print = [&] {
            print_summary(s, run, options,
                          std::to_string(r.collapses) + " in " + std::to_string(r.passes) +
                              " pass" + (r.passes == 1 ? "" : "es"));
        };
        return app::finish_gpu_run(s, run, "simplify", c, print, params, r.vertices, r.faces);
    }

   private:
    //! The algorithm's options with the target face count for `in`.
    SimplifyOptions algorithm_options(const TriangleSoup& in) const
    {
        SimplifyOptions options = m_options;
        options.target_faces    = target_faces(in.faces.size(), m_request);
        return options;
    }

    //! --device cpu: the serial reference to the same target with the same
    //! boundary weight; its -o and report as the GPU path's, where they apply.
    int run_cpu(app::Session& s)
    {
        const TriangleSoup&   in      = s.input().soup;
        const SimplifyOptions options = algorithm_options(in);
        s.progress().show("simplifying (CPU)");
        const CpuSimplified run = app::run_new_mesh_on_cpu<reference::SimplifyReport>(
            in,
            [&](reference::SimplifyReport* r) {
                return reference::qem_simplify(in, reference_options(options), r);
            },
            [](const TriangleSoup& out) {
                return reference::mesh_quality(
                    out, reference::mean_edge_length(out.positions, out.faces));
            });
        const reference::SimplifyReport& r = run.report;
        app::Json                        simplify;
        simplify.num("faces", r.faces)
            .num("vertices", r.vertices)
            .num("collapses", r.collapses)
            .flag("reached_target", r.reached_target)
            .str("stop_reason", r.stop_reason())
            .num("max_cost", r.max_cost);
        const auto print = [&] {
            print_summary(s, run, options, std::to_string(r.collapses) + ", one at a time");
        };
        return app::finish_cpu_run(s, run, "simplify", print, parameters(options), simplify,
                                   app::cpu_quality_json(run.quality), r.vertices, r.faces);
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

    TargetRequest   m_request;
    SimplifyOptions m_options;
    std::uint32_t   m_warmup = 0;
};

}  // namespace

int main(int argc, char** argv) { return app::run_app<Simplify>(argc, argv); }
