// rxmesh-param: UV parameterization of a disk-topology mesh, a thin front end
// over the apps' skeleton (apps/common/app.h): the fixed-boundary map (Tutte's
// uniform weights, or the harmonic map's cotangent weights) or the
// free-boundary least-squares conformal map (--method lscm) on the GPU
// (algo/parameterization.h); --device cpu runs the serial double reference
// (reference/parameterization.h). Run with --help for the options; without
// FILE it flattens an embedded spherical cap.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "../common/app.h"
#include "../common/cpu_mesh.h"
#include "../common/mesh_data.h"
#include "rxmesh/algo/parameterization.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/reference/parameterization.h"
#include "rxmesh/reference/topology.h"

namespace {

using namespace rxmesh;

const app::Info kInfo = app::with_cpu_path(
    {"rxmesh-param",
     "UV parameterization of a disk: Tutte or harmonic on the GPU, LSCM with --device cpu",
     "an embedded spherical cap",
     "write the mesh as binary PLY with 'u' and 'v' vertex properties (input vertex order; 0 "
     "for a vertex of no face)",
     "check against the serial CPU reference (exit 2 on mismatch)"});

//! The mesh's one boundary loop, or bad input saying why it is not a disk.
std::vector<std::uint32_t> boundary_of(const std::vector<Vec3f>&    positions,
                                       const std::vector<Triangle>& faces, const std::string& name)
{
    try {
        return reference::disk_boundary(positions, faces);
    } catch (const std::invalid_argument& e) {
        throw InvalidInputError(name + ": " + e.what());
    }
}

//! Faces whose UV triangle does not keep the face's orientation.
std::uint32_t flipped(const std::vector<reference::Vec2d>& uv, const std::vector<Triangle>& faces)
{
    std::uint32_t count = 0;
    for (double a : reference::uv_signed_areas(uv, faces)) count += a > 0 ? 0 : 1;
    return count;
}

class Param final : public app::App
{
   public:
    const app::Info& info() const override { return kInfo; }

    void add_options(CLI::App& cli) override
    {
        cli.add_option("--method", m_method,
                       "tutte (uniform weights: no flipped face), harmonic (cotangent weights) or "
                       "lscm (free boundary, least-squares conformal)")
            ->check(CLI::IsMember({"tutte", "harmonic", "lscm"}))
            ->capture_default_str();
    }

    app::Input default_input() const override
    {
        return {generate::sphere_cap(4, 0.3f),
                "embedded spherical cap (icosphere of 4 subdivisions, z < 0.3)"};
    }

    //! A disk, before any GPU work.
    void prepare(app::Input& in, const app::CommonOptions& o) const override
    {
        const reference::Reindexed m = reference::reindex(in.soup.positions, in.soup.faces, o.weld);
        boundary_of(m.positions, m.faces, in.name);
    }

    int run(app::Session& s) override
    {
        if (s.on_cpu()) return run_cpu(s);
        const RXMesh                mesh = s.build_mesh();
        const std::vector<Vec3f>    p    = app::host_positions(mesh);
        const std::vector<Triangle> f    = app::host_faces(mesh);
        const auto                  loop = boundary_of(p, f, s.input().name);
        DeviceBuffer<float>         uv(2 * std::uint64_t(mesh.num_vertices()));
        const ParamReport r = map(mesh, loop, VertexView<float, 2>(uv.data(), mesh.num_vertices()));
        const double                     worst = s.check() ? check(p, f, uv.to_host()) : 0;
        const VertexView<const float, 2> view(uv.data(), mesh.num_vertices());
        s.write_mesh(mesh, [&] { return input_order_scalars<2>(mesh, view, {"u", "v"}); });
        s.print_header(mesh,
                       "; " + m_method + ", " + std::to_string(loop.size()) + " boundary vertices");
        std::printf(
            "  import %.1f ms, build %.1f ms; assembly %.2f ms, analysis %.1f ms (host), "
            "factor %.2f ms, solve %.2f ms\n",
            s.import_ms(), mesh.stats().total_ms, r.assembly_ms, r.analysis_ms, r.factor_ms,
            r.solve_ms);
        std::printf("  %u flipped faces%s\n", r.flipped_faces, s.check() ? ", check passed" : "");
        app::Json times = s.times(mesh);
        times.num("assembly", r.assembly_ms)
            .num("analysis", r.analysis_ms)
            .num("factor", r.factor_ms)
            .num("solve", r.solve_ms);
        app::Json j = s.report(mesh);
        j.obj("parameters", parameters(s))
            .obj("times_ms", times)
            .num("boundary_vertices", r.boundary_vertices)
            .num("flipped_faces", r.flipped_faces)
            .flag("checked", s.check());
        if (s.check()) j.num("max_difference_to_reference", worst);
        s.write_report(j);
        return 0;
    }

   private:
    //! The GPU map of --method.
    ParamReport map(const RXMesh& mesh, const std::vector<std::uint32_t>& loop,
                    VertexView<float, 2> uv) const
    {
        if (m_method == "lscm") return conformal_map(mesh, loop, uv);
        ParamOptions o;
        o.weights = m_method == "harmonic" ? ParamWeighting::cotangent : ParamWeighting::uniform;
        return parameterize(mesh, loop, uv, o);
    }

    //! The reference's map of --method.
    std::vector<reference::Vec2d> reference_map(const std::vector<Vec3f>&    p,
                                                const std::vector<Triangle>& f) const
    {
        if (m_method == "lscm") return reference::lscm(p, f);
        return reference::tutte(p, f,
                                m_method == "harmonic" ? reference::ParamWeights::cotangent
                                                       : reference::ParamWeights::uniform);
    }

    //! --check: the reference's map of the same mesh; every UV within 1e-5
    //! of the map's extent (both solve in double; the GPU writes float:
    //! tests/algo/test_parameterization.cu holds 1e-6 on the unit disk).
    //! Returns the largest difference over the extent.
    double check(const std::vector<Vec3f>& p, const std::vector<Triangle>& f,
                 const std::vector<float>& uv) const
    {
        const auto ref    = reference_map(p, f);
        double     extent = 0;
        for (const auto& q : ref) extent = std::max({extent, std::abs(q[0]), std::abs(q[1])});
        double worst = 0;
        for (std::size_t v = 0; v < ref.size(); ++v)
            for (int c = 0; c < 2; ++c) {
                const double d = std::abs(double(uv[2 * v + c]) - ref[v][c]) / extent;
                if (!(d <= 1e-5))
                    throw app::CheckFailed("vertex " + std::to_string(v) + ": GPU " +
                                           std::to_string(uv[2 * v + c]) + ", reference " +
                                           std::to_string(ref[v][c]));
                worst = std::max(worst, d);
            }
        return worst;
    }

    //! --device cpu: the reference on the mesh as the GPU path's build makes
    //! it (reindexed, --weld), written like the GPU path writes.
    int run_cpu(app::Session& s)
    {
        s.refuse_check_on_cpu();
        const app::CpuMesh mesh = app::cpu_mesh(s);
        s.progress().show("solving");
        const auto                    start = app::Session::Clock::now();
        std::vector<reference::Vec2d> uv;
        try {
            uv = reference_map(mesh.positions(), mesh.faces());
        } catch (const std::invalid_argument& e) {
            throw InvalidInputError(s.input().name + ": " + e.what());
        }
        const double       ms = app::ms_since(start);
        std::vector<float> flat;
        for (const auto& q : uv) flat.push_back(float(q[0])), flat.push_back(float(q[1]));
        const std::uint32_t flips = flipped(uv, mesh.faces());
        s.write_input_order(s.input().soup.positions, [&] {
            const std::vector<float>      rows = mesh.to_input_order(flat, 2, 0.f);
            std::vector<io::VertexScalar> out{{"u", {}}, {"v", {}}};
            for (std::size_t v = 0; v < rows.size() / 2; ++v)
                out[0].values.push_back(rows[2 * v]), out[1].values.push_back(rows[2 * v + 1]);
            return out;
        });
        app::print_header(s, mesh, "; " + m_method);
        std::printf("  import %.1f ms, build %.1f ms, map %.2f ms\n  %u flipped faces\n",
                    s.import_ms(), mesh.build_ms(), ms, flips);
        app::Json j = app::report(s, mesh);
        j.obj("parameters", parameters(s))
            .obj("times_ms", s.times(mesh.build_ms()).num("map", ms))
            .num("flipped_faces", flips)
            .flag("checked", false);
        s.write_report(j);
        return 0;
    }

    app::Json parameters(const app::Session& s) const
    {
        app::Json params;
        params.str("method", m_method);
        return s.build_parameters(params);
    }

    std::string m_method = "tutte";
};

}  // namespace

int main(int argc, char** argv) { return app::run_app<Param>(argc, argv); }
