// rxmesh-vertex-normal: vertex normals (Max 1999 weights) on the GPU
// (algo/vertex_normals.cuh), a thin front end over the apps' skeleton
// (apps/common/app.h). Run with --help for the options; without FILE it uses
// an embedded torus.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../common/app.h"
#include "../common/mesh_data.h"
#include "rxmesh/algo/vertex_normals.cuh"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/vertex_normals.h"
#include "rxmesh/rxmesh.cuh"

namespace {

using namespace rxmesh;

const app::Info kInfo{"rxmesh-vertex-normal", "vertex normals (Max's weights) on the GPU",
                      "an embedded torus",
                      "write the mesh with normals nx, ny, nz as binary PLY (input vertex order)",
                      "compare with the CPU reference (exit 2 on mismatch)"};

//! The algorithm: a warm-up call, then one timed. Returns the timed ms.
float compute_normals(const RXMesh& mesh, DeviceBuffer<float>& normals)
{
    const VertexView<float, 3> out(normals.data(), mesh.num_vertices());
    vertex_normals(mesh, mesh.positions(), out);  // warm-up
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

class VertexNormal final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    app::Input default_input() const override
    {
        return {generate::torus(512, 256), "embedded torus (512 x 256 quads)"};
    }

    int run(app::Session& s) override
    {
        const RXMesh        mesh = s.build_mesh();
        DeviceBuffer<float> normals(3 * std::size_t(mesh.num_vertices()));
        const float         ms    = compute_normals(mesh, normals);
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
        j.obj("times_ms", s.times(mesh).num("normals", ms)).flag("checked", s.check());
        if (s.check()) j.num("max_abs_error_vs_cpu", error);
        s.write_report(j);
        return 0;
    }
};

}  // namespace

int main(int argc, char** argv)
{
    VertexNormal program;
    return app::run_app(program, argc, argv);
}
