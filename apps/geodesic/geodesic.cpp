// rxmesh-geodesic: approximate geodesic distance from source vertices by
// parallel toplesets propagation on the GPU (algo/geodesic.h), a thin front
// end over the apps' skeleton (apps/common/app.h); --device cpu runs the
// serial double reference of the same algorithm instead. Run with --help for
// the options; without FILE it measures distances on an embedded torus.
#include "rxmesh/algo/geodesic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../common/app.h"
#include "../common/cpu_mesh.h"
#include "../common/distances.h"
#include "../common/mesh_data.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/geodesic.h"

namespace {

using namespace rxmesh;

const app::Info kInfo = app::with_cpu_path(
    {"rxmesh-geodesic",
     "approximate geodesic distance by parallel toplesets propagation on the GPU",
     "an embedded torus",
     "write the mesh as binary PLY with a 'distance' vertex property (input vertex order; +inf "
     "where unreachable)",
     "check against the serial CPU reference (exit 2 on mismatch)"});

//! --check: the serial double reference of the same algorithm; the same
//! unreachable set, elsewhere within 1e-4 relative (float storage and a level
//! that float sees converge one iteration early; tests/algo/test_geodesic.cu).
double check_against_reference(const RXMesh& mesh, const std::vector<std::uint32_t>& sources,
                               const std::vector<float>& d, const GeodesicOptions& o)
{
    const reference::Geodesic ref =
        reference::geodesic_ptp(app::host_positions(mesh), app::host_faces(mesh), sources,
                                o.tolerance, int(o.max_iterations));
    double worst = 0;
    for (std::size_t v = 0; v < d.size(); ++v) {
        const double      r    = ref.distance[v];
        const std::string both = "vertex " + std::to_string(v) + ": GPU " + std::to_string(d[v]) +
                                 ", reference " + std::to_string(r);
        if (std::isinf(r) != std::isinf(d[v])) throw app::CheckFailed(both);
        if (std::isinf(r) || r == 0) continue;
        const double rel = std::abs(d[v] - r) / r;
        if (rel > 1e-4) throw app::CheckFailed(both + " (relative " + std::to_string(rel) + ")");
        worst = std::max(worst, rel);
    }
    return worst;
}

//! The algorithm: distances from the (global) sources into d.
GeodesicReport distances(const RXMesh& mesh, const std::vector<std::uint32_t>& sources,
                         DeviceBuffer<float>& d, const GeodesicOptions& o)
{
    return geodesic_distance(mesh, mesh.positions(), sources,
                             VertexView<float>(d.data(), mesh.num_vertices()), o);
}

class Geodesic final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override
    {
        app::add_sources_option(cli, m_sources);
        app::add_option(cli, "--tol", m_geodesic.tolerance,
                        "a level leaves the window once no vertex of it changes by more than this, "
                        "relative",
                        app::number_where<double>("(0, 0.5]", "a number in (0, 0.5]",
                                                  [](double v) { return v > 0 && v <= 0.5; }));
        app::add_option(cli, "--max-iter", m_geodesic.max_iterations,
                        "iteration limit (0: 8 x levels + 64)", app::integer_in(0, 1000000000));
    }

    app::Input default_input() const override
    {
        return {generate::torus(192, 64), "embedded torus (192 x 64 quads, radii 1 and 0.3)"};
    }

    void prepare(app::Input& in, const app::CommonOptions&) const override
    {
        app::validate_sources(in.soup, m_sources, in.name);
    }

    int run(app::Session& s) override
    {
        if (s.on_cpu()) return run_cpu(s);
        const RXMesh                     mesh   = s.build_mesh();
        const std::vector<std::uint32_t> global = mesh.input_vertex_to_global().to_host();
        const std::vector<std::uint32_t> sources =
            app::mesh_ids(m_sources, [&](std::uint32_t v) { return global[v]; });
        DeviceBuffer<float>      d(mesh.num_vertices());
        const GeodesicReport     r      = distances(mesh, sources, d, m_geodesic);
        const std::vector<float> result = d.to_host();
        const double             worst =
            s.check() ? check_against_reference(mesh, sources, result, m_geodesic) : 0;
        const app::DistanceSummary       sum = app::summarize(result);
        const VertexView<const float, 1> dv(d.data(), mesh.num_vertices());
        s.write_mesh(mesh, [&] {
            return input_order_scalars<1>(mesh, dv, {"distance"}, app::kUnreachable);
        });
        s.print_header(mesh, "; " + std::to_string(m_sources.size()) + " source(s)");
        std::printf("  import %.1f ms, build %.1f ms, toplesets %.2f ms, propagation %.2f ms\n",
                    s.import_ms(), mesh.stats().total_ms, r.toplesets_ms, r.propagation_ms);
        std::printf(
            "  %u levels, %ld iterations (%ld closing sweeps)%s; largest distance %.6g, %zu "
            "unreachable vertices%s\n",
            r.levels, r.iterations, r.sweeps, r.converged ? "" : " (not converged)",
            sum.max_distance, sum.unreachable, s.check() ? ", check passed" : "");
        app::Json j = report(s, mesh, r, sum);
        if (s.check()) j.num("max_relative_difference_to_reference", worst);
        s.write_report(j);
        return r.converged ? 0 : 3;
    }

   private:
    //! --device cpu: the double reference on the mesh as the GPU path's build
    //! makes it (reindexed, --weld), written like the GPU path writes (+inf
    //! for a vertex the mesh dropped). Exit 3 when the limit stopped it.
    int run_cpu(app::Session& s)
    {
        const app::CpuMesh mesh = app::cpu_mesh(s);
        s.progress().show("propagating");
        const auto                start = app::Session::Clock::now();
        const reference::Geodesic r     = reference::geodesic_ptp(
                mesh.positions(), mesh.faces(),
                app::mesh_ids(m_sources, [&](std::uint32_t v) { return mesh.mesh_id(v); }),
                m_geodesic.tolerance, int(m_geodesic.max_iterations));
        const double               ms = app::ms_since(start);
        std::vector<float>         d(r.distance.begin(), r.distance.end());  // +inf stays +inf
        const app::DistanceSummary sum = app::summarize(d);
        s.write_input_order(s.input().soup.positions, [&] {
            return std::vector<io::VertexScalar>{
                {"distance", mesh.to_input_order(d, 1, app::kUnreachable)}};
        });
        app::print_header(s, mesh, "; " + std::to_string(m_sources.size()) + " source(s)");
        std::printf("  import %.1f ms, build %.1f ms, toplesets and propagation %.2f ms\n",
                    s.import_ms(), mesh.build_ms(), ms);
        std::printf(
            "  %u levels, %d iterations%s; largest distance %.6g, %zu unreachable "
            "vertices\n",
            r.toplesets.num_levels, r.iterations, r.converged ? "" : " (not converged)",
            sum.max_distance, sum.unreachable);
        app::Json j = app::report(s, mesh);
        j.obj("parameters", parameters(s))
            .obj("times_ms", s.times(mesh.build_ms()).num("toplesets_and_propagation", ms))
            .num("levels", r.toplesets.num_levels)
            .num("iterations", r.iterations)
            .flag("converged", r.converged);
        app::add_summary(j, sum).flag("checked", false);
        s.write_report(j);
        return r.converged ? 0 : 3;
    }

    //! The parameters of either path.
    app::Json parameters(const app::Session& s) const
    {
        app::Json params;
        params.num("sources", double(m_sources.size()))
            .num("tolerance", m_geodesic.tolerance)
            .num("max_iterations", double(m_geodesic.max_iterations));
        return s.build_parameters(params);
    }

    app::Json report(const app::Session& s, const RXMesh& mesh, const GeodesicReport& r,
                     const app::DistanceSummary& sum) const
    {
        app::Json j = s.report(mesh);
        j.obj("parameters", parameters(s))
            .obj(
                "times_ms",
                s.times(mesh).num("toplesets", r.toplesets_ms).num("propagation", r.propagation_ms))
            .num("levels", r.levels)
            .num("iterations", double(r.iterations))
            .num("closing_sweeps", double(r.sweeps))
            .flag("converged", r.converged)
            .flag("one_launch", r.one_launch);
        app::add_summary(j, sum).flag("checked", s.check());
        return j;
    }

    std::vector<std::uint32_t> m_sources{0};
    GeodesicOptions            m_geodesic;
};

}  // namespace

int main(int argc, char** argv) { return app::run_app<Geodesic>(argc, argv); }
