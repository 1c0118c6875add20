// rxmesh-delaunay: Delaunay edge flips on the GPU (algo/delaunay.h over the
// changing-topology engine, dynamic/dynamic_mesh.h), a thin front end over
// the apps' skeleton (apps/common/app.h); --device cpu runs the serial
// Lawson flips of the same rule instead (reference/delaunay_flips.h). Run
// with --help for the options; without FILE it flips an embedded noisy torus.
//
// Flips move no vertex: the output has the input's vertices, in input order
// (unused ones included, as isolated vertices), and as many faces. No RXMesh
// is built: no --weld, no --capacity.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/app.h"
#include "../common/dynamic_app.h"
#include "../common/new_mesh_run.h"
#include "../common/new_mesh_summary.h"
#include "rxmesh/algo/delaunay.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/delaunay_check.h"
#include "rxmesh/reference/delaunay_flips.h"

namespace {

using namespace rxmesh;

const app::Info kInfo = app::new_mesh_app(
    {"rxmesh-delaunay",
     "Delaunay edge flips on the GPU: flip every interior edge whose opposite angles sum to more "
     "than pi until none is left (or every one left is refused)",
     "an embedded noisy torus (128 x 64 quads, noise 0.3 x the mean edge length)",
     "write the flipped mesh (.ply binary, or .obj): the input's vertices in input order, the new "
     "faces",
     "check on the CPU: valid faces, the input's vertices unchanged, and every interior edge with "
     "cot(alpha) + cot(beta) >= -(10 x tolerance + 1e-4) in double or its flip refused by the "
     "serial reference (exit 2 otherwise); with --device cpu the same check of the serial "
     "result"});

//! --device cpu: Lawson's flips have no passes; this bound on flips (as
//! bench_delaunay's) stands in for --max-passes, never met in practice.
std::uint64_t max_cpu_flips(const TriangleSoup& in)
{
    return 64 * std::uint64_t(3 * in.faces.size());
}

//! The result: the input's vertices in input order, the flipped faces.
using Run = app::DynamicRun<DelaunayReport>;

//! The algorithm, once (after `warmup` untimed runs on copies of the
//! input, --warmup), then the mesh downloaded.
//! \throw app::CheckFailed (with --check) or Error when the engine did not
//! keep input vertex v as vertex v.
Run flip(const TriangleSoup& in, const DelaunayOptions& options, bool check, std::uint32_t warmup)
{
    for (std::uint32_t i = 0; i < warmup; ++i) {
        DynamicMesh copy(in);
        delaunay_flips(copy, options);
    }
    Run         run;
    DynamicMesh mesh = app::upload(in, run.upload_ms);
    run.report       = app::timed_run(
        mesh, [&](DynamicMesh& m) { return delaunay_flips(m, options); }, run.wall_ms);
    run.memory = mesh.memory();
    std::vector<std::uint32_t> input_vertex;
    run.result = mesh.to_host(&input_vertex);
    bool same  = input_vertex.size() == in.positions.size();
    for (std::size_t v = 0; same && v < input_vertex.size(); ++v) same = input_vertex[v] == v;
    if (!same) {
        const std::string why = "the GPU mesh's vertices are not the input's, in input order";
        if (check) throw app::CheckFailed(why);
        throw Error(why);
    }
    run.result.colors = in.colors;
    return run;
}

struct CpuRun
{
    reference::LawsonStats stats;
    double                 build_ms = 0, ms = 0;
    TriangleSoup           result;  // the input's vertices in input order, the flipped faces
};

//! --device cpu: the serial flips of the same rule (the input's vertices
//! kept in input order by construction).
CpuRun flip_on_cpu(const TriangleSoup& in, float tolerance)
{
    CpuRun                run;
    auto                  start = std::chrono::steady_clock::now();
    reference::LawsonMesh mesh(in);
    run.build_ms = app::ms_since(start);
    start        = std::chrono::steady_clock::now();
    run.stats    = mesh.flip_all(tolerance, max_cpu_flips(in));
    run.ms       = app::ms_since(start);
    run.result   = mesh.to_soup();
    run.result.colors = in.colors;  // as the GPU path: flips keep the vertices
    return run;
}

bool converged(const Run& run) { return run.report.converged; }
bool converged(const CpuRun& run) { return run.stats.converged; }

//! --check (reference/delaunay_check.h). \throw app::CheckFailed.
reference::DelaunayCheck check_result(const TriangleSoup& in, const TriangleSoup& out,
                                      float tolerance)
{
    const reference::DelaunayCheck c =
        reference::check_delaunay_flips(in, out, reference::delaunay_check_bound(tolerance));
    if (!c.ok()) throw app::CheckFailed(c.first);
    return c;
}

void print_summary(const app::Session& s, const Run& run)
{
    const DelaunayReport& r = run.report;
    std::printf("  flips %u in %u pass%s (%s), %u non-Delaunay edge%s refused in the last pass\n",
                r.flips, r.passes, r.passes == 1 ? "" : "es",
                r.converged ? "converged" : "stopped at --max-passes", r.refused,
                r.refused == 1 ? "" : "s");
    app::print_gpu_times(s, run, "flips");
}

void print_summary(const app::Session& s, const CpuRun& run)
{
    std::printf("  flips %llu, %llu edge tests (%s)\n", (unsigned long long)run.stats.flips,
                (unsigned long long)run.stats.pops,
                run.stats.converged ? "converged" : "stopped at the flip bound");
    std::printf("  import %.1f ms, build %.1f ms, flips %.3f ms\n", s.import_ms(), run.build_ms,
                run.ms);
}

void print_check(const reference::DelaunayCheck& c)
{
    std::printf(
        "  check passed: %llu interior edges (smallest cot sum %.6g), %llu boundary or "
        "non-manifold; %llu not Delaunay, all refused, legitimately (the serial reference "
        "refuses their flips)\n",
        (unsigned long long)c.interior_edges, c.min_cot_sum, (unsigned long long)c.other_edges,
        (unsigned long long)c.non_delaunay);
}

class Delaunay final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override
    {
        app::add_option(cli, "--tolerance", m_options.tolerance,
                        "flip an edge when cot(alpha) + cot(beta) < -tolerance",
                        app::non_negative_float());
        m_max_passes =
            app::add_option(cli, "--max-passes", m_options.max_passes,
                            "stop after this many flip passes (exit 3 if flips were still "
                            "applied); not with --device cpu, which has no passes",
                            app::integer_in(1, 1000000000));
        app::add_warmup_option(cli, m_warmup);
    }

    app::Input default_input() const override
    {
        return {generate::noisy(generate::torus(128, 64), 0.3f, 1),
                "embedded noisy torus (128 x 64 quads, noise 0.3 x mean edge)"};
    }

    //! Refused before any work: an option the serial flips cannot honour.
    void prepare(app::Input&, const app::CommonOptions& o) const override
    {
        if (o.device == "cpu" && m_max_passes->count() > 0)
            throw InvalidInputError(
                "--max-passes: the serial flips (--device cpu) have no passes; leave it out");
        app::refuse_warmup_on_cpu(o, m_warmup);
    }

    int run(app::Session& s) override
    {
        if (s.on_cpu()) return run_cpu(s);
        return finish(s, flip(s.input().soup, m_options, s.check(), m_warmup));
    }

   private:
    //! Either path's --check, -o, summary and report; exit 3 when it did not
    //! converge.
    template <typename R>
    int finish(app::Session& s, const R& run) const
    {
        reference::DelaunayCheck c;
        if (s.check()) c = check_result(s.input().soup, run.result, m_options.tolerance);
        app::stage_new_mesh(s, run.result);
        s.print_header(s.input().soup.positions.size(), s.input().soup.faces.size());
        print_summary(s, run);
        if (s.check()) print_check(c);
        app::Json j = report(s, run);
        j.flag("checked", s.check());
        if (s.check()) j.obj("check", check_json(c));
        s.write_report(j);
        return converged(run) ? 0 : 3;
    }

    //! --device cpu: the serial flips, then the same --check, -o and report
    //! keys where they apply (no passes, no device memory).
    int run_cpu(app::Session& s)
    {
        s.progress().show("flipping (CPU)");
        return finish(s, flip_on_cpu(s.input().soup, m_options.tolerance));
    }

    //! The report of either path but "checked" and "check".
    app::Json report(const app::Session& s, const CpuRun& run) const
    {
        app::Json params, result;
        params.num("tolerance", m_options.tolerance)
            .num("max_flips", double(max_cpu_flips(s.input().soup)));
        result.num("flips", double(run.stats.flips))
            .num("edge_tests", double(run.stats.pops))
            .flag("converged", run.stats.converged);
        app::Json j = s.report(run.result.positions.size(), run.result.faces.size());
        j.obj("parameters", params)
            .obj("delaunay", result)
            .obj("times_ms", s.times(run.build_ms).num("flips", run.ms));
        return j;
    }

    app::Json check_json(const reference::DelaunayCheck& c) const
    {
        app::Json check;
        check.num("interior_edges", double(c.interior_edges))
            .num("boundary_or_nonmanifold_edges", double(c.other_edges))
            .num("non_delaunay", double(c.non_delaunay))
            .num("refused_legitimately", double(c.refused))
            .num("min_cot_sum", c.min_cot_sum)
            .num("bound", reference::delaunay_check_bound(m_options.tolerance))
            .flag("passed", true);  // a failed check exits 2 and writes nothing
        return check;
    }

    app::Json report(const app::Session& s, const Run& run) const
    {
        const DelaunayReport& r = run.report;
        app::Json             mesh, params, result;
        mesh.num("vertices", double(s.input().soup.positions.size()))
            .num("faces", double(s.input().soup.faces.size()));
        params.num("tolerance", m_options.tolerance)
            .num("max_passes", m_options.max_passes)
            .num("warmup_runs", m_warmup);
        result.num("flips", r.flips)
            .num("passes", r.passes)
            .flag("converged", r.converged)
            .num("refused", r.refused);
        app::Json j = s.report();
        j.obj("mesh", mesh)
            .obj("parameters", params)
            .obj("delaunay", result)
            .obj("times_ms", app::gpu_times(s, run, "flips"))
            .obj("device_memory_bytes", app::memory_json(run.memory));
        return j;
    }

    DelaunayOptions m_options;
    CLI::Option*    m_max_passes = nullptr;  // given or not: refused with --device cpu
    std::uint32_t   m_warmup     = 0;
};

}  // namespace

int main(int argc, char** argv) { return app::run_app<Delaunay>(argc, argv); }
