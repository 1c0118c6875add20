// rxmesh-subdivide: Loop subdivision on the GPU (algo/loop_subdivision.h),
// a thin front end over the apps' skeleton (apps/common/app.h); --device cpu
// runs the serial double reference instead. Run with --help for the options;
// without FILE it subdivides an embedded torus.
//
// The output is the refined mesh: its first vertices are the input's, in
// input order (none welded, none dropped), then one per edge of each level
// (numbering: reference/loop_subdivision.h). No RXMesh is built: no --weld,
// no --capacity.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/app.h"
#include "../common/coordinate_check.h"
#include "../common/cpu_mesh.h"
#include "../common/mesh_data.h"
#include "rxmesh/algo/loop_subdivision.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/loop_subdivision.h"

namespace {

using namespace rxmesh;

//! --check passes when the faces equal the reference's and every coordinate
//! is within this much of it, relative to the input's bounding-box diagonal
//! (the GPU tests' bound, tests/algo/test_loop_subdivision.cu).
constexpr double kCheckTolerance = 1e-5;

const app::Info kInfo = app::new_mesh_app(
    {"rxmesh-subdivide",
     "Loop subdivision on the GPU (OpenSubdiv's Loop rules, boundary \"edge only\")",
     "an embedded torus of 24 x 12 quads (any input is subdivided as indexed: no welding)",
     "write the refined mesh (.ply binary, or .obj): the input's vertices first, in input order, "
     "then one per edge of each level; --device cpu: the same faces and numbering, the positions "
     "computed in double through every level and rounded to float once (the GPU's are float at "
     "each level)",
     "compare with the serial double CPU reference (exit 2 when a face differs or a coordinate "
     "differs by more than 1e-5 x the input's bounding-box diagonal)"});

//! --check: the largest coordinate difference from the reference over the
//! diagonal. \throw app::CheckFailed on a face or position mismatch.
double check_against_reference(const TriangleSoup& in, int levels, const TriangleSoup& gpu)
{
    const auto ref = reference::loop_subdivide(in.positions, in.faces, levels);
    if (ref.faces != gpu.faces)
        throw app::CheckFailed("the faces differ from the CPU reference's");
    const double           diagonal = bounding_box_diagonal(in.positions);
    app::LargestDifference difference;
    for (std::size_t v = 0; v < ref.positions.size(); ++v)
        difference.add(v, gpu.positions[v], ref.positions[v]);
    if (!(difference.over(diagonal) <= kCheckTolerance))
        throw app::CheckFailed(difference.failure(diagonal, "1e-5"));
    return difference.over(diagonal);
}

struct Run
{
    TriangleSoup       result;  // on the host only when -o or --check needs it
    std::size_t        num_vertices = 0, num_faces = 0;
    std::vector<float> level_ms;
    float              setup_ms   = 0;
    std::size_t        peak_bytes = 0;  // the GPU's
};

//! The algorithm, on the input as uploaded (no RXMesh); the result is
//! downloaded only when `download`.
Run subdivide(const TriangleSoup& in, int levels, int block, bool download)
{
    DeviceBuffer<float>         d_pos(3 * in.positions.size());
    DeviceBuffer<std::uint32_t> d_faces(3 * in.faces.size());
    d_pos.upload(in.positions.front().data(), d_pos.size());  // an input has faces and vertices
    d_faces.upload(in.faces.front().data(), d_faces.size());
    Run         run;
    LoopOptions opt;
    opt.block_threads = block, opt.time_levels = true;
    const LoopMesh m =
        loop_subdivide({d_pos.data(), std::uint32_t(in.positions.size())},
                       {d_faces.data(), std::uint32_t(in.faces.size())}, levels, opt);
    const LoopReport& r  = m.report;
    run.level_ms         = r.level_ms;
    run.setup_ms         = r.setup_ms;
    run.peak_bytes       = r.peak_bytes;
    run.num_vertices     = r.num_vertices;
    run.num_faces        = r.num_faces;
    if (!download) return run;
    run.result.positions.resize(r.num_vertices);
    run.result.faces.resize(r.num_faces);
    RXMESH_CHECK_CUDA(cudaMemcpy(run.result.positions.data(), m.positions.data(),
                                 sizeof(Vec3f) * r.num_vertices, cudaMemcpyDeviceToHost));
    RXMESH_CHECK_CUDA(cudaMemcpy(run.result.faces.data(), m.faces.data(),
                                 sizeof(Triangle) * r.num_faces, cudaMemcpyDeviceToHost));
    return run;
}

//! --device cpu: the serial double reference, level by level (each timed),
//! its positions rounded to float; setup is level 0's edges.
Run subdivide_on_cpu(const TriangleSoup& in, int levels, app::Progress& progress)
{
    Run        run;
    const auto setup_start = app::Session::Clock::now();
    auto       mesh        = reference::loop_level0(in.positions, in.faces);
    run.setup_ms           = float(app::ms_since(setup_start));
    for (int l = 0; l < levels; ++l) {
        progress.show("subdividing", double(l) / levels);
        const auto start = app::Session::Clock::now();
        mesh             = reference::loop_subdivide_once(mesh);
        run.level_ms.push_back(float(app::ms_since(start)));
    }
    run.result.positions = app::rounded_to_float(mesh.positions);
    run.result.faces = std::move(mesh.faces);
    run.num_vertices = run.result.positions.size();
    run.num_faces    = run.result.faces.size();
    return run;
}

class Subdivide final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override
    {
        app::add_option(cli, "--levels", m_levels, "levels of Loop subdivision",
                        app::integer_in(0, 16));
        app::add_option(cli, "--block", m_block, "threads per block of the subdivision kernels",
                        CLI::IsMember({32, 64, 128, 256, 512, 1024}));
    }

    app::Input default_input() const override
    {
        return {generate::torus(24, 12), "embedded torus (24 x 12 quads, radii 1 and 0.3)"};
    }

    void prepare(app::Input& in, const app::CommonOptions&) const override
    {
        require_loop_ids_fit(in.soup, m_levels);
    }

    int run(app::Session& s) override
    {
        if (s.on_cpu()) return run_cpu(s);
        const TriangleSoup& in  = s.input().soup;
        const Run           run =
            subdivide(in, m_levels, m_block, s.check() || !s.options().output.empty());
        const double error = s.check() ? check_against_reference(in, m_levels, run.result) : 0.0;
        return finish(s, run, error);
    }

   private:
    //! --device cpu: the reference on the input as indexed, as the GPU path
    //! takes it, written and reported like the GPU path's (no block size or
    //! device memory, "device": "cpu").
    int run_cpu(app::Session& s)
    {
        s.refuse_check_on_cpu();
        return finish(s, subdivide_on_cpu(s.input().soup, m_levels, s.progress()), 0.0);
    }

    //! -o, the summary and the report of either path.
    int finish(app::Session& s, const Run& run, double error) const
    {
        const TriangleSoup& in = s.input().soup;
        app::stage_new_mesh(s, run.result);
        double total = 0;
        for (float ms : run.level_ms) total += ms;
        s.print_header();
        std::printf("  %zu vertices, %zu faces -> %d level(s) -> %zu vertices, %zu faces\n",
                    in.positions.size(), in.faces.size(), m_levels, run.num_vertices,
                    run.num_faces);
        std::printf("  import %.1f ms, setup %.3f ms, levels %.3f ms", s.import_ms(), run.setup_ms,
                    total);
        if (!s.on_cpu()) std::printf(", peak %.1f MiB", double(run.peak_bytes) / (1 << 20));
        if (s.check())
            std::printf(
                ", check passed (largest difference from the CPU reference %.3g x the "
                "bounding-box diagonal)",
                error);
        std::printf("\n");
        s.write_report(report(s, run, total, error));
        return 0;
    }

    app::Json report(const app::Session& s, const Run& run, double total, double error) const
    {
        app::Json times, params, input, output;
        for (std::size_t l = 0; l < run.level_ms.size(); ++l)
            times.num("level_" + std::to_string(l + 1), run.level_ms[l]);
        times.num("import", s.import_ms()).num("setup", run.setup_ms).num("levels_total", total);
        params.num("levels", m_levels);
        if (!s.on_cpu()) params.num("block", m_block);
        input.num("vertices", double(s.input().soup.positions.size()))
            .num("faces", double(s.input().soup.faces.size()));
        output.num("vertices", double(run.num_vertices)).num("faces", double(run.num_faces));
        if (!s.on_cpu()) output.num("peak_device_bytes", double(run.peak_bytes));
        app::Json j = s.report();
        if (s.on_cpu()) j.str("device", "cpu");
        j.obj("input_mesh", input)
            .obj("output_mesh", output)
            .obj("parameters", params)
            .obj("times_ms", times)
            .flag("checked", s.check());
        if (s.check()) {
            app::Json check;
            check.num("max_error_over_diagonal", error)
                .num("bound_over_diagonal", kCheckTolerance)
                .flag("passed", true);  // a failed check exits 2 and writes nothing
            j.obj("check", check);
        }
        return j;
    }

    int m_levels = 2, m_block = 256;
};

}  // namespace

int main(int argc, char** argv) { return app::run_app<Subdivide>(argc, argv); }
