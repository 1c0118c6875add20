// rxmesh-bilateral: bilateral mesh denoising (Fleishman, Drori, Cohen-Or
// 2003) on the GPU (algo/bilateral.h), a thin front end over the apps'
// skeleton (apps/common/app.h), with optional noise first; --device cpu runs
// the serial double reference instead. Run with --help for the options;
// without FILE it denoises an embedded noisy torus.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../common/app.h"
#include "../common/coordinate_check.h"
#include "../common/cpu_mesh.h"
#include "../common/format.h"
#include "../common/mesh_data.h"
#include "rxmesh/algo/bilateral.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/bilateral.h"

namespace {

using namespace rxmesh;

//! --check passes when every coordinate is within this much of the
//! reference, relative to the bounding-box diagonal of the filter's input
//! (the GPU tests' bound, tests/algo/test_bilateral.cu).
constexpr double kCheckTolerance = 1e-4;

const app::Info kInfo = app::moving_app(
    {"rxmesh-bilateral", "bilateral mesh denoising (Fleishman et al. 2003) on the GPU",
     "an embedded torus (192 x 64 quads, radii 1 and 0.3) with noise along the normals of 0.3 x "
     "its mean edge length",
     "write the denoised mesh as binary PLY (input vertex order, the input's faces, a "
     "'displacement' vertex property); --device cpu: each iteration in double from float "
     "positions, as the GPU's",
     "compare every iteration with one of the serial double CPU reference from the same positions "
     "(exit 2 when a coordinate differs by more than 1e-4 x the input's bounding-box diagonal)",
     "merge vertices with identical positions (not with --noise)"});

//! --check, one iteration at a time: each GPU iteration against one
//! iteration of the serial double reference from the same (GPU) positions,
//! on the mesh's global numbering. Whole runs drift apart over many
//! iterations without either being wrong (on the H100, the default input:
//! 1.6e-8 x the diagonal after one iteration, 2.2e-4 after ten): each
//! iteration starts the two from slightly different positions, and a step
//! can amplify that, e.g. where a neighbour sits at the 2 sigma_c edge of a
//! ball. Per iteration, the bound holds for any --iters.
class Checker
{
   public:
    Checker(const RXMesh& mesh, const std::vector<float>& start)
        : m_faces(app::host_faces(mesh)), m_diagonal(bounding_box_diagonal(app::to_points(start)))
    {
    }

    //! \throw app::CheckFailed when a coordinate of `after` is further than
    //! the bound from the reference's iteration of `before`.
    void iteration(int it, const std::vector<float>& before, const std::vector<float>& after)
    {
        const auto ref = reference::bilateral_denoise(app::to_points(before), m_faces, 1);
        for (std::size_t v = 0; v < ref.size(); ++v) m_difference.add(v, &after[3 * v], ref[v]);
        if (!(m_difference.value <= kCheckTolerance * m_diagonal))
            throw app::CheckFailed(
                "iteration " + std::to_string(it + 1) + ": " +
                m_difference.failure(m_diagonal, std::to_string(kCheckTolerance)));
    }

    //! The largest difference so far over the start's bounding-box diagonal.
    double relative() const { return m_difference.over(m_diagonal); }
    double diagonal() const { return m_diagonal; }

   private:
    std::vector<Triangle>  m_faces;
    double                 m_diagonal;
    app::LargestDifference m_difference;
};

//! The algorithm: the filter on `x` (device, global order) in place.
BilateralReport filter(const RXMesh& mesh, DeviceBuffer<float>& x, const BilateralOptions& o)
{
    const VertexView<float, 3> xv(x.data(), mesh.num_vertices());
    return bilateral_denoise(mesh, xv, xv, o);  // in place
}

//! The filter; with a checker, one iteration at a time, each checked.
BilateralReport denoise(const RXMesh& mesh, DeviceBuffer<float>& x, const BilateralOptions& o,
                       Checker* checker)
{
    if (!checker) return filter(mesh, x, o);
    BilateralOptions one = o;
    one.iterations       = 1;
    BilateralReport     total;
    std::vector<float> before = x.to_host();
    for (int it = 0; it < o.iterations; ++it) {
        total += filter(mesh, x, one);
        std::vector<float> after = x.to_host();
        checker->iteration(it, before, after);
        before = std::move(after);
    }
    return total;
}

//! --device cpu: `iterations` iterations of the serial double reference,
//! each from float positions as the GPU's are (it keeps them in float between
//! iterations), so that one iteration is what --check compares.
std::vector<Vec3f> reference_denoise(std::vector<Vec3f> x, const std::vector<Triangle>& faces,
                                     int iterations, app::Progress& progress)
{
    for (int it = 0; it < iterations; ++it) {
        progress.show("denoising", double(it) / iterations);
        x = app::rounded_to_float(reference::bilateral_denoise(x, faces, 1));
    }
    return x;
}

class Bilateral final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override
    {
        app::add_option(cli, "--iters", m_bilateral.iterations, "Jacobi iterations of the filter",
                        app::integer_in(0, 1000000));
        app::add_option(cli, "--noise", m_noise,
                        "first move every vertex along its normal by a random amount in [-A, A] x "
                        "the mean edge length (seed 1), to try the filter on a clean mesh; 0: none",
                        app::non_negative_float("a number >= 0 within float range"));
        cli.add_option(
               "--noisy-out", m_noisy_output,
               "write the filter's input (after --noise) as binary PLY, same order and faces")
            ->check([](const std::string& path) { return app::output_format_error(kInfo, path); },
                    "*.ply");
    }

    app::Input default_input() const override
    {
        return {generate::normal_noise(generate::torus(192, 64), 0.3f, 1),
                "embedded noisy torus (192 x 64 quads, noise 0.3 x mean edge along the normals)"};
    }

    //! --noise, on the host before any GPU work; the noisy mesh is checked
    //! like an input. \throw InvalidInputError.
    void prepare(app::Input& in, const app::CommonOptions& o) const override
    {
        if (!(m_noise > 0)) return;
        if (o.weld)
            throw InvalidInputError(
                "--noise cannot be combined with --weld: the noise is drawn per input vertex and "
                "would move the copies of a welded vertex apart");
        in.soup = generate::normal_noise(in.soup, m_noise, 1);
        in.name += " + noise " + app::formatted("%g", m_noise) + " x mean edge";
        app::validate_input(in.soup, in.name);
    }

    std::vector<std::string> extra_outputs() const override { return {m_noisy_output}; }

    int run(app::Session& s) override
    {
        if (s.on_cpu()) return run_cpu(s);
        const RXMesh             mesh  = s.build_mesh();
        DeviceBuffer<float>      x     = app::positions_copy(mesh);
        const std::vector<float> start = x.to_host();
        std::optional<Checker>   checker;
        if (s.check()) checker.emplace(mesh, start);
        const BilateralReport stats = denoise(mesh, x, m_bilateral, checker ? &*checker : nullptr);
        const double         moved = app::max_displacement(start, x.to_host());

        s.write_moved_mesh(mesh, VertexView<const float, 3>(x.data(), mesh.num_vertices()));
        s.stage(m_noisy_output,
                [&](const std::string& tmp) { write_ply(tmp, mesh, s.input().soup); });
        s.print_header(mesh);
        std::printf(
            "  import %.1f ms, build %.1f ms; %d iteration(s): normals and sigma_c %.2f ms, "
            "filter %.2f ms (total %.2f ms)\n",
            s.import_ms(), mesh.stats().total_ms, stats.iterations, stats.terms_ms,
            stats.filter_ms, stats.total_ms);
        std::printf("  largest displacement %.6g", moved);
        if (checker)
            std::printf(
                ", check passed (largest difference from the CPU reference %.3g x the "
                "bounding-box diagonal)",
                checker->relative());
        std::printf("\n");
        s.write_report(report(s, s.report(mesh),
                              s.times(mesh)
                                  .num("normals_and_sigma_c", stats.terms_ms)
                                  .num("filter", stats.filter_ms)
                                  .num("denoise_total", stats.total_ms),
                              stats.iterations, moved, checker ? &*checker : nullptr));
        return 0;
    }

   private:
    //! --device cpu: the reference on the mesh as the GPU path's build makes
    //! it (reindexed, --weld), written like the GPU path writes.
    int run_cpu(app::Session& s)
    {
        const TriangleSoup& in           = s.input().soup;
        const app::CpuMesh  mesh         = app::cpu_mesh(s);
        const auto          filter_start = app::Session::Clock::now();
        const std::vector<Vec3f> x =
            reference_denoise(mesh.positions(), mesh.faces(), m_bilateral.iterations, s.progress());
        const double ms    = app::ms_since(filter_start);
        const double moved =
            app::max_displacement(app::flatten<float>(mesh.positions()), app::flatten<float>(x));

        app::write_moved_mesh(s, mesh, x);
        s.stage(m_noisy_output,
                [&](const std::string& tmp) { io::write_ply(tmp, in.positions, in.faces, {}); });
        app::print_header(s, mesh);
        std::printf("  import %.1f ms, build %.1f ms; %d iteration(s): total %.2f ms\n",
                    s.import_ms(), mesh.build_ms(), m_bilateral.iterations, ms);
        std::printf("  largest displacement %.6g\n", moved);
        s.write_report(report(s, app::report(s, mesh),
                              s.times(mesh.build_ms()).num("denoise_total", ms),
                              m_bilateral.iterations, moved, nullptr));
        return 0;
    }

    //! The report of either path: `j` its first keys, `times` its times,
    //! `iterations` the filter's.
    app::Json report(const app::Session& s, app::Json j, const app::Json& times, int iterations,
                     double moved, const Checker* checker) const
    {
        app::Json params;
        params.num("iterations", m_bilateral.iterations).num("noise", m_noise);
        j.obj("parameters", s.build_parameters(params))
            .obj("times_ms", times)
            .num("iterations", iterations)
            .num("max_displacement", moved)
            .flag("checked", s.check());
        if (checker) {
            app::Json check;
            check.num("max_error_over_diagonal", checker->relative())
                .num("bound_over_diagonal", kCheckTolerance)
                .num("bbox_diagonal", checker->diagonal())
                .flag("passed", true);  // a failed check exits 2 and writes nothing
            j.obj("check", check);
        }
        return j;
    }

    float            m_noise = 0;
    std::string      m_noisy_output;
    BilateralOptions m_bilateral;
};

}  // namespace

int main(int argc, char** argv) { return app::run_app<Bilateral>(argc, argv); }
