// rxmesh-heat: geodesic distance by the heat method (Crane, Weischedel,
// Wardetzky 2013) on the GPU (algo/heat_geodesic.h): the heat and Poisson
// systems assembled and factored once by the GPU Cholesky, then one query of
// two solves from every source at once; a thin front end over the apps'
// skeleton (apps/common/app.h). --device cpu runs the serial double
// reference of the same steps instead. Run with --help for the options;
// without FILE it measures distances on an embedded unit sphere, where
// --check also reports the error against the exact great-circle distance.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "../common/app.h"
#include "../common/cpu_mesh.h"
#include "../common/distances.h"
#include "../common/mesh_data.h"
#include "rxmesh/algo/heat_geodesic.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/heat_geodesic.h"

namespace {

using namespace rxmesh;

const app::Info kInfo = app::with_cpu_path(
    {"rxmesh-heat",
     "geodesic distance by the heat method: two factored solves per query on the GPU",
     "an embedded unit sphere",
     "write the mesh as binary PLY with a 'distance' vertex property (input vertex order; +inf "
     "where unreachable)",
     "check against the serial CPU reference (exit 2 on mismatch); on the embedded sphere also "
     "report the error against the exact distance"});

constexpr const char* kSphereName = "embedded unit sphere (icosphere, 5 subdivisions)";

//! --check: the serial double reference of the same steps; the same
//! unreachable set, elsewhere within 1e-5 of the largest distance (both
//! solve in double, componentwise accurately; the GPU writes float and sums
//! in another order: tests/algo/test_heat_geodesic.cu holds 1e-6 on smaller
//! meshes). Returns the largest difference over the largest distance.
double check_against_reference(const RXMesh& mesh, const std::vector<std::uint32_t>& sources,
                               const std::vector<float>& d, double time_factor,
                               const HeatGeodesicReport& r)
{
    reference::HeatGeodesic ref;
    try {
        ref = reference::heat_geodesic(app::host_positions(mesh), app::host_faces(mesh), sources,
                                       time_factor);
    } catch (const std::invalid_argument& e) {
        throw InvalidInputError(std::string("--check: the reference cannot solve this mesh: ") +
                                e.what());
    }
    if (ref.time_step_raises != r.time_step_raises || ref.heat_rescales != r.heat_rescales)
        throw app::CheckFailed("the GPU raised the time step " +
                               std::to_string(r.time_step_raises) +
                               " times and rescaled the heat " + std::to_string(r.heat_rescales) +
                               " times, the reference " + std::to_string(ref.time_step_raises) +
                               " and " + std::to_string(ref.heat_rescales));
    double largest = 0;
    for (double r : ref.distance)
        if (!std::isinf(r)) largest = std::max(largest, std::abs(r));
    double worst = 0;
    for (std::size_t v = 0; v < d.size(); ++v) {
        const double      r    = ref.distance[v];
        const std::string both = "vertex " + std::to_string(v) + ": GPU " + std::to_string(d[v]) +
                                 ", reference " + std::to_string(r);
        if (std::isinf(r) != std::isinf(d[v])) throw app::CheckFailed(both);
        if (std::isinf(r)) continue;
        const double diff = std::abs(d[v] - r);
        if (diff > 1e-5 * largest)
            throw app::CheckFailed(both + " (" + std::to_string(diff / largest) +
                                   " of the largest distance)");
        worst = std::max(worst, diff);
    }
    return largest > 0 ? worst / largest : 0;
}

//! On the embedded unit sphere: the error against the great-circle distance
//! (the exact geodesic of the sphere the mesh approximates), relative, over
//! the vertices more than 0.1 from every source (within ~sqrt(t) the method
//! smooths the cone at a source, Crane et al. section 3.2).
struct SphereError
{
    double mean = 0, max = 0;
};

SphereError error_on_unit_sphere(const std::vector<Vec3f>& p, const std::vector<float>& d,
                                 const std::vector<std::uint32_t>& sources)
{
    SphereError   e;
    std::uint32_t counted = 0;
    for (std::size_t v = 0; v < p.size(); ++v) {
        double arc = std::numeric_limits<double>::infinity();
        for (std::uint32_t s : sources) {
            const double dot =
                double(p[v][0]) * p[s][0] + double(p[v][1]) * p[s][1] + double(p[v][2]) * p[s][2];
            const double cx = double(p[v][1]) * p[s][2] - double(p[v][2]) * p[s][1];
            const double cy = double(p[v][2]) * p[s][0] - double(p[v][0]) * p[s][2];
            const double cz = double(p[v][0]) * p[s][1] - double(p[v][1]) * p[s][0];
            arc = std::min(arc, std::atan2(std::sqrt(cx * cx + cy * cy + cz * cz), dot));
        }
        if (arc < 0.1) continue;
        const double rel = std::abs(d[v] - arc) / arc;
        e.mean += rel;
        e.max = std::max(e.max, rel);
        ++counted;
    }
    if (counted > 0) e.mean /= counted;
    return e;
}

//! The summary's lines on a rescaled heat and a raised time step, when there were.
void print_raises(std::uint32_t rescales, double scale, std::uint32_t raises, double first,
                  double used, std::uint32_t low_heat)
{
    if (rescales > 0)
        std::printf(
            "  the heat underflowed: its right-hand side scaled by %.3g (%u more solve(s))\n",
            scale, rescales);
    if (raises == 0) return;
    std::printf(
        "  the heat underflowed at t = %.6g: raised %u time(s) to %.6g (smoother near the "
        "sources)%s\n",
        first, raises, used,
        low_heat > 0 ? (", still below the floor at " + std::to_string(low_heat) +
                        " vertices: their distances are unreliable")
                           .c_str()
                     : "");
}

class Heat final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override
    {
        app::add_sources_option(cli, m_sources);
        app::add_option(cli, "--time", m_heat.time_factor,
                        "the heat's time step t as a multiple of the squared mean edge length "
                        "(larger: smoother, and reaches farther on large meshes)",
                        app::number_where<double>("(0, 1e6]", "a number in (0, 1e6]",
                                                  [](double v) { return v > 0 && v <= 1e6; }));
    }

    app::Input default_input() const override { return {generate::icosphere(5), kSphereName}; }

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
        s.progress().show("assembling and factoring");
        const HeatGeodesic heat(mesh, m_heat);
        s.progress().show("solving");
        DeviceBuffer<float>      d(mesh.num_vertices());
        const HeatGeodesicReport r =
            heat.distance(sources, VertexView<float>(d.data(), mesh.num_vertices()));
        const std::vector<float> result = d.to_host();
        const double             worst =
            s.check() ? check_against_reference(mesh, sources, result, m_heat.time_factor, r) : 0;
        const bool        on_sphere = s.check() && s.input().name == kSphereName;
        const SphereError exact =
            on_sphere ? error_on_unit_sphere(app::host_positions(mesh), result, sources)
                      : SphereError{};
        const app::DistanceSummary       sum = app::summarize(result);
        const VertexView<const float, 1> dv(d.data(), mesh.num_vertices());
        s.write_mesh(mesh, [&] {
            return input_order_scalars<1>(mesh, dv, {"distance"}, app::kUnreachable);
        });
        const HeatGeodesicSetup& setup = heat.setup();
        s.print_header(mesh, "; " + std::to_string(m_sources.size()) + " source(s), " +
                                 std::to_string(setup.components) + " component(s)");
        std::printf(
            "  import %.1f ms, build %.1f ms; assembly %.2f ms, analysis %.1f ms (host), "
            "factor %.2f ms (both systems)\n",
            s.import_ms(), mesh.stats().total_ms, setup.assembly_ms, setup.analysis_ms,
            setup.factor_ms);
        std::printf(
            "  query %.2f ms: heat solve %.2f, field %.2f, Poisson solve %.2f, shift %.2f\n",
            r.total_ms, r.heat_solve_ms, r.field_ms, r.poisson_solve_ms, r.shift_ms);
        std::printf(
            "  t = %.6g (mean edge %.6g); largest distance %.6g, %zu unreachable "
            "vertices%s\n",
            r.time_step, setup.mean_edge_length, sum.max_distance, sum.unreachable,
            s.check() ? ", check passed" : "");
        print_raises(r.heat_rescales, r.heat_scale, r.time_step_raises, setup.time_step,
                     r.time_step, r.low_heat_vertices);
        if (on_sphere)
            std::printf(
                "  against the exact (great-circle) distance: mean %.3g, max %.3g relative\n",
                exact.mean, exact.max);
        app::Json j = report(s, mesh, setup, r, sum);
        if (s.check()) j.num("max_difference_to_reference_of_largest", worst);
        if (on_sphere)
            j.num("mean_relative_error_to_exact", exact.mean)
                .num("max_relative_error_to_exact", exact.max);
        s.write_report(j);
        return 0;
    }

   private:
    //! --device cpu: the double reference on the mesh as the GPU path's build
    //! makes it (reindexed, --weld), written like the GPU path writes.
    int run_cpu(app::Session& s)
    {
        const app::CpuMesh mesh = app::cpu_mesh(s);
        s.progress().show("solving");
        const auto              start = app::Session::Clock::now();
        reference::HeatGeodesic r;
        try {
            r = reference::heat_geodesic(
                mesh.positions(), mesh.faces(),
                app::mesh_ids(m_sources, [&](std::uint32_t v) { return mesh.mesh_id(v); }),
                m_heat.time_factor);
        } catch (const std::invalid_argument& e) {
            throw InvalidInputError(e.what());
        }
        const double               ms = app::ms_since(start);
        std::vector<float>         d(r.distance.begin(), r.distance.end());  // +inf stays +inf
        const app::DistanceSummary sum = app::summarize(d);
        s.write_input_order(s.input().soup.positions, [&] {
            return std::vector<io::VertexScalar>{
                {"distance", mesh.to_input_order(d, 1, app::kUnreachable)}};
        });
        app::print_header(s, mesh, "; " + std::to_string(m_sources.size()) + " source(s)");
        std::printf("  import %.1f ms, build %.1f ms, assembly, factors and solves %.2f ms\n",
                    s.import_ms(), mesh.build_ms(), ms);
        std::printf(
            "  t = %.6g (mean edge %.6g); largest distance %.6g, %zu unreachable "
            "vertices\n",
            r.time_step, r.mean_edge_length, sum.max_distance, sum.unreachable);
        print_raises(r.heat_rescales, r.heat_scale, r.time_step_raises,
                     r.time_step / std::pow(reference::kTimeStepRaise, r.time_step_raises),
                     r.time_step, r.low_heat_vertices);
        app::Json j = app::report(s, mesh);
        j.obj("parameters", parameters(s))
            .obj("times_ms", s.times(mesh.build_ms()).num("heat_geodesic", ms))
            .num("time_step", r.time_step)
            .num("time_step_raises", r.time_step_raises)
            .num("heat_rescales", r.heat_rescales)
            .num("heat_scale", r.heat_scale)
            .num("low_heat_vertices", r.low_heat_vertices)
            .num("mean_edge_length", r.mean_edge_length);
        app::add_summary(j, sum).flag("checked", false);
        s.write_report(j);
        return 0;
    }

    //! The parameters of either path.
    app::Json parameters(const app::Session& s) const
    {
        app::Json params;
        params.num("sources", double(m_sources.size())).num("time_factor", m_heat.time_factor);
        return s.build_parameters(params);
    }

    app::Json report(const app::Session& s, const RXMesh& mesh, const HeatGeodesicSetup& setup,
                     const HeatGeodesicReport& r, const app::DistanceSummary& sum) const
    {
        app::Json factor;
        factor.num("supernodes", setup.analysis.supernodes)
            .num("levels", setup.analysis.levels)
            .num("factor_nonzeros", double(setup.analysis.factor_nonzeros))
            .num("flops", setup.analysis.flops)
            .num("device_bytes", double(setup.analysis.device_bytes));
        app::Json j = s.report(mesh);
        j.obj("parameters", parameters(s))
            .obj("times_ms", s.times(mesh)
                                 .num("assembly", setup.assembly_ms)
                                 .num("analysis", setup.analysis_ms)
                                 .num("factor", setup.factor_ms)
                                 .num("heat_solve", r.heat_solve_ms)
                                 .num("field", r.field_ms)
                                 .num("poisson_solve", r.poisson_solve_ms)
                                 .num("shift", r.shift_ms)
                                 .num("query", r.total_ms))
            .obj("cholesky", factor)
            .num("components", setup.components)
            .num("time_step", r.time_step)
            .num("initial_time_step", setup.time_step)
            .num("time_step_raises", r.time_step_raises)
            .num("heat_rescales", r.heat_rescales)
            .num("heat_scale", r.heat_scale)
            .num("low_heat_vertices", r.low_heat_vertices)
            .num("mean_edge_length", setup.mean_edge_length);
        app::add_summary(j, sum).flag("checked", s.check());
        return j;
    }

    std::vector<std::uint32_t> m_sources{0};
    HeatGeodesicOptions        m_heat;
};

}  // namespace

int main(int argc, char** argv) { return app::run_app<Heat>(argc, argv); }
