// rxmesh-vertex-normal: vertex normals (Max 1999 weights) on the GPU
// (algo/vertex_normals.h), a thin front end over the apps' skeleton
// (apps/common/app.h); --device cpu runs the serial double reference
// instead. Run with --help for the options; without FILE it uses an embedded
// torus.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../common/app.h"
#include "../common/cpu_mesh.h"
#include "../common/mesh_data.h"
#include "rxmesh/algo/vertex_normals.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/vertex_normals.h"

namespace {

using namespace rxmesh;

const app::Info kInfo = app::with_cpu_path(
    {"rxmesh-vertex-normal", "vertex normals (Max's weights) on the GPU", "an embedded torus",
     "write the mesh with normals nx, ny, nz as binary PLY (input vertex order)",
     "compare with the CPU reference (exit 2 on mismatch)"});

//! The algorithm, once timed (after `warmup` untimed calls, --warmup).
//! Returns the timed ms.
float compute_normals(const RXMesh& mesh, DeviceBuffer<float>& normals, std::uint32_t warmup)
{
    const VertexView<float, 3> out(normals.data(), mesh.num_vertices());
    for (std::uint32_t i = 0; i < warmup; ++i) vertex_normals(mesh, mesh.positions(), out);
    GpuTimer timer;
    timer.start();
    vertex_normals(mesh, mesh.positions(), out);
    return timer.stop_ms();
}

//! --check: the largest difference from the double-precision reference.
double reference_error(const RXMesh& mesh, const std::vector<float>& n)
{
    const auto ref   = reference::vertex_normals(app::host_positions(mesh), app::host_faces(mesh));
    double     worst = 0;
    for (std::size_t v = 0; v < ref.size(); ++v)
        for (int k = 0; k < 3; ++k)
            worst = std::max(worst, std::abs(double(n[3 * v + k]) - ref[v][k]));
    return worst;
}

//! The PLY properties nx, ny, nz of one normal per input vertex.
std::vector<io::VertexScalar> normal_properties(const std::vector<Vec3f>& normals)
{
    std::vector<io::VertexScalar> out{{"nx", {}}, {"ny", {}}, {"nz", {}}};
    for (int k = 0; k < 3; ++k) {
        out[k].values.reserve(normals.size());
        for (const Vec3f& n : normals) out[k].values.push_back(n[k]);
    }
    return out;
}

class VertexNormal final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override { app::add_warmup_option(cli, m_warmup); }

    void prepare(app::Input&, const app::CommonOptions& o) const override
    {
        app::refuse_warmup_on_cpu(o, m_warmup);
    }

    app::Input default_input() const override
    {
        return {generate::torus(512, 256), "embedded torus (512 x 256 quads)"};
    }

    int run(app::Session& s) override
    {
        if (s.on_cpu()) return run_cpu(s);
        const RXMesh        mesh = s.build_mesh();
        DeviceBuffer<float> normals(3 * std::size_t(mesh.num_vertices()));
        const float         ms    = compute_normals(mesh, normals, m_warmup);
        const double        error = s.check() ? reference_error(mesh, normals.to_host()) : 0;
        if (s.check() && !(error < 1e-5))
            throw app::CheckFailed("largest difference from the CPU reference " +
                                   std::to_string(error));
        const VertexView<const float, 3> n(normals.data(), mesh.num_vertices());
        s.write_mesh(mesh, [&] { return input_order_scalars<3>(mesh, n, {"nx", "ny", "nz"}); });
        s.print_header(mesh);
        std::printf("  import %.1f ms, build %.1f ms, normals %.3f ms%s\n", s.import_ms(),
                    mesh.stats().total_ms, ms, s.check() ? ", check passed" : "");
        app::Json j = s.report(mesh);
        app::Json params;
        params.num("warmup_runs", m_warmup);
        j.obj("parameters", params)
            .obj("times_ms", s.times(mesh).num("normals", ms))
            .flag("checked", s.check());
        if (s.check()) j.num("max_abs_error_vs_cpu", error);
        s.write_report(j);
        return 0;
    }

   private:
    //! --device cpu: the double reference on the mesh as the GPU path's
    //! build makes it (reindexed, --weld), written like the GPU path writes:
    //! the input's positions, a zero normal for a vertex the mesh dropped.
    int run_cpu(app::Session& s)
    {
        const app::CpuMesh       mesh         = app::cpu_mesh(s);
        const auto               normal_start = app::Session::Clock::now();
        const std::vector<Vec3f> normals = reference::vertex_normals(mesh.positions(), mesh.faces());
        const double             ms      = app::ms_since(normal_start);
        s.write_input_order(s.input().soup.positions, [&] {
            return normal_properties(mesh.to_input_order(normals, 1, Vec3f{0.f, 0.f, 0.f}));
        });
        app::print_header(s, mesh);
        std::printf("  import %.1f ms, build %.1f ms, normals %.3f ms\n", s.import_ms(),
                    mesh.build_ms(), ms);
        app::Json params;  // the GPU path's keys (--warmup is refused here)
        params.num("warmup_runs", m_warmup);
        app::Json j = app::report(s, mesh);
        j.obj("parameters", params)
            .obj("times_ms", s.times(mesh.build_ms()).num("normals", ms))
            .flag("checked", false);
        s.write_report(j);
        return 0;
    }

    std::uint32_t m_warmup = 0;
};

}  // namespace

int main(int argc, char** argv) { return app::run_app<VertexNormal>(argc, argv); }
