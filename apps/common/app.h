// The one skeleton of the RXMesh apps. An app is a class derived from
// app::App holding only what is its own: its options, its default input,
// its host checks, its algorithm call and its --check. Its main() is
//
//   int main(int argc, char** argv) { return app::run_app<Mcf>(argc, argv); }
//
// and run_app does the rest, the same for every app: the options every app
// has (FILE, -o, --json, --check, and --weld, --capacity for an app that
// builds an RXMesh), loading and checking the input before any GPU work
// (validate_input), the GPU check, staged outputs committed only when the
// app's run returns (no partial file on failure), the JSON report's common
// keys, under the error policy of policy.h. The GPU starts up on a thread
// while the input is read; an app that moves vertices (Info::moves_vertices)
// also writes -o's header and faces (the input's) while it waits for that
// start-up (io::PlyWriter), and its vertices once computed. Every app ends
// with its wall time from start to written output (printed, and "wall_ms"
// in the report).
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json.h"
#include "outputs.h"
#include "progress.h"
#include "policy.h"
#include "timing.h"
#include "rxmesh/core/error.h"
#include "rxmesh/export.h"
#include "rxmesh/io/io.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh::app {

//! What an app says about itself in --help and in its outputs.
struct Info
{
    const char* name;           //!< "rxmesh-mcf": messages, the report's "app"
    const char* description;    //!< --help's first line, after the name
    const char* default_input;  //!< what runs without FILE, for --help
    const char* output_help;    //!< -o
    const char* check_help;     //!< --check
    //! --weld's help; nullptr for an app that builds no RXMesh (then it has
    //! neither --weld nor --capacity).
    const char* weld_help = "merge vertices with identical positions";
    //! -o writes OBJ too (by the name's extension); else PLY only.
    bool writes_obj = false;
    //! The app has --device cpu: its serial CPU reference instead of the
    //! GPU, same outputs and report keys (App::run reads Session::on_cpu()).
    bool cpu_path = false;
    //! On the GPU, -o is Session::write_moved_mesh's PLY (the input's faces,
    //! moved positions, 'displacement'): its header and faces are written
    //! while the GPU starts, the vertices once computed.
    bool moves_vertices = false;
};

//! `info` for an app with --device cpu (Info::cpu_path).
inline Info with_cpu_path(Info info)
{
    info.cpu_path = true;
    return info;
}

//! `info` for an app that moves the vertices (Info::moves_vertices), with
//! --device cpu.
inline Info moving_app(Info info)
{
    info.moves_vertices = true;
    return with_cpu_path(info);
}

//! `info` for an app that makes a new mesh itself (subdivide, delaunay,
//! remesh, simplify): no RXMesh built from the input (no --weld or
//! --capacity), OBJ output too, and --device cpu.
inline Info new_mesh_app(Info info)
{
    info.weld_help  = nullptr;
    info.writes_obj = true;
    info.cpu_path   = true;
    return info;
}

//! What is wrong with -o `path` for `info`'s app ("" when nothing): the
//! format comes from the extension and is refused before any work.
inline std::string output_format_error(const Info& info, const std::string& path)
{
    return mesh_format_error(path, info.name, info.writes_obj);
}

//! The options every app has.
struct CommonOptions
{
    std::string   file, output, json;
    std::string   device = "gpu";  //!< --device: gpu or cpu (apps with Info::cpu_path)
    bool          quiet  = false;  //!< --quiet: no progress line
    bool          check = false, weld = false;
    std::uint32_t capacity = 512;
};

//! The mesh an app runs on and the name its outputs give it.
struct Input
{
    TriangleSoup soup;
    std::string  name;
};

//! Host-side checks of an input before any GPU work, so that bad input is
//! reported the same way with or without a GPU. \throw InvalidInputError.
void validate_input(const TriangleSoup& soup, const std::string& name);

//! Per-vertex PLY properties of the -o file, in input order (e.g. from
//! input_order_scalars), computed only when -o was given.
using Properties = std::function<std::vector<io::VertexScalar>()>;

//! One run of an app, from its checked input to its committed outputs: what
//! App::run works with.
class Session
{
   public:
    using Clock = std::chrono::steady_clock;

    //! import_ms: reading and checking the input; gpu_wait_ms: how long the
    //! GPU's start-up made the app wait after that.
    //! early_ply: -o's header and faces, written while the GPU started
    //! (Info::moves_vertices; early_write_ms: how long that took), or null.
    Session(const Info& info, const CommonOptions& options, Input input, double import_ms,
            double gpu_wait_ms, std::string gpu, Clock::time_point start,
            std::unique_ptr<io::PlyWriter> early_ply = nullptr, double early_write_ms = 0)
        : m_info(info),
          m_options(options),
          m_input(std::move(input)),
          m_import_ms(import_ms),
          m_gpu_wait_ms(gpu_wait_ms),
          m_write_ms(early_write_ms),
          m_early_write_ms(early_write_ms),
          m_gpu(std::move(gpu)),
          m_start(start),
          m_early_ply(std::move(early_ply))
    {
    }

    const CommonOptions& options() const { return m_options; }
    bool                 check() const { return m_options.check; }
    const Input&         input() const { return m_input; }
    const std::string&   gpu() const { return m_gpu; }
    //! The progress line on stderr (a terminal only, not with --quiet):
    //! show(stage, share done) while working; erased before the results.
    Progress& progress() const { return m_progress; }
    //! --device cpu: the app runs its serial CPU reference (no GPU touched).
    bool on_cpu() const { return m_options.device == "cpu"; }
    //! A CPU path whose --check would compare the reference with itself
    //! refuses it. \throw InvalidInputError with --check.
    void refuse_check_on_cpu() const
    {
        if (check())
            throw InvalidInputError(
                "--check compares the GPU with the CPU reference: not with --device cpu");
    }
    double               import_ms() const { return m_import_ms; }

    //! The input's RXMesh, built with --weld and --capacity.
    RXMesh build_mesh() const
    {
        m_progress.show("building patches");
        BuildOptions build;
        build.weld             = m_options.weld;
        build.patcher.capacity = m_options.capacity;
        return RXMesh(m_input.soup, build);
    }

    //! Stages -o, when given: the mesh as rxmesh::write_ply writes it (one
    //! vertex per input vertex in input order, the input's faces), with the
    //! properties `properties` returns.
    void write_mesh(const RXMesh& mesh, const Properties& properties = {})
    {
        stage(m_options.output, [&](const std::string& tmp) {
            write_ply(tmp, mesh, m_input.soup,
                      properties ? properties() : std::vector<io::VertexScalar>{});
        });
    }

    //! Stages -o, when given, for an app that moves the vertices: the mesh at
    //! `moved` (global order) with a 'displacement' property, how far each
    //! input vertex is from its input position (0 for one the mesh dropped).
    void write_moved_mesh(const RXMesh& mesh, VertexView<const float, 3> moved)
    {
        stage(m_options.output, [&](const std::string& tmp) {
            const auto       export_start = Clock::now();
            InputOrderMoved  out = input_order_moved(mesh, m_input.soup, moved);
            m_export_ms += ms_since(export_start);
            io::VertexScalar d{"displacement", std::move(out.displacement)};
            if (m_early_ply && m_early_ply->path() == tmp) {  // its faces are written
                m_early_ply->write_vertices(out.positions, {}, {d});
                m_early_ply.reset();  // finished: the staged file is the outputs' now
                return;
            }
            io::write_ply(tmp, out.positions, m_input.soup.faces, {}, {d});
        });
    }

    //! Stages -o, when given, from values in input order (the CPU path):
    //! `positions` one per input vertex, the input's faces, `properties`.
    void write_input_order(const std::vector<Vec3f>&            positions,
                           const std::function<std::vector<io::VertexScalar>()>& properties = {})
    {
        stage(m_options.output, [&](const std::string& tmp) {
            io::write_ply(tmp, positions, m_input.soup.faces, {},
                          properties ? properties() : std::vector<io::VertexScalar>{});
        });
    }
    //! The report's first keys and "mesh" for the CPU path: the input's
    //! sizes and those of the mesh the reference ran on.
    Json report(std::size_t vertices, std::size_t faces) const
    {
        Json sizes;
        sizes.num("input_vertices", double(m_input.soup.positions.size()))
            .num("input_faces", double(m_input.soup.faces.size()))
            .num("vertices", double(vertices))
            .num("faces", double(faces));
        return report().obj("mesh", sizes).str("device", "cpu");
    }
    //! Stages any output through `write(temporary path)`, when `path` is
    //! not empty.
    void stage(const std::string& path, const std::function<void(const std::string&)>& write)
    {
        const auto start = Clock::now();
        m_outputs.stage(path, write);
        m_write_ms += ms_since(start);
    }

    //! "NAME: INPUT on GPU".
    void print_header() const
    {
        m_progress.clear();
        std::printf("%s: %s on %s\n", m_info.name, m_input.name.c_str(), m_gpu.c_str());
    }

    //! The same, then "  V vertices, F faces, P patches" and `more`.
    void print_header(const RXMesh& mesh, const std::string& more = "") const
    {
        print_header();
        std::printf("  %u vertices, %u faces, %u patches%s\n", mesh.num_vertices(),
                    mesh.num_faces(), mesh.num_patches(), more.c_str());
    }

    //! The header, then "  V vertices, F faces" and `more`: the CPU path's
    //! mesh, or the input's.
    void print_header(std::size_t vertices, std::size_t faces, const std::string& more = "") const
    {
        print_header();
        std::printf("  %zu vertices, %zu faces%s\n", vertices, faces, more.c_str());
    }

    //! The report's first keys: app, gpu, input.
    Json report() const
    {
        Json j;
        j.str("app", m_info.name).str("gpu", m_gpu).str("input", m_input.name);
        return j;
    }

    //! The same, then "mesh": the input's and the mesh's sizes.
    Json report(const RXMesh& mesh) const
    {
        Json sizes;
        sizes.num("input_vertices", double(m_input.soup.positions.size()))
            .num("input_faces", double(m_input.soup.faces.size()))
            .num("vertices", mesh.num_vertices())
            .num("edges", mesh.num_edges())
            .num("faces", mesh.num_faces())
            .num("patches", mesh.num_patches());
        return report().obj("mesh", sizes).embed("build", mesh.stats().to_json());
    }

    //! `params` with the mesh's build options: "capacity" on the GPU path
    //! (the CPU path has no patches), then "weld".
    Json& build_parameters(Json& params) const
    {
        if (!on_cpu()) params.num("capacity", m_options.capacity);
        return params.flag("weld", m_options.weld);
    }

    //! The first times of "times_ms": import and the mesh's build.
    Json times(const RXMesh& mesh) const
    {
        Json t;
        t.num("import", m_import_ms).num("build", mesh.stats().total_ms);
        return t;
    }

    //! The CPU path's first times: import and its mesh's build (`build_ms`).
    Json times(double build_ms) const
    {
        Json t;
        t.num("import", m_import_ms).num("build", build_ms);
        return t;
    }

    //! Keeps the --json report; commit() writes it with "wall_ms" added.
    void write_report(const Json& j)
    {
        m_report    = j;
        m_report_at = Clock::now();
    }

    //! Writes the report, makes every staged output visible and prints the
    //! wall time from start to written output (run_app calls it after
    //! App::run). The time is taken just before the report is written and
    //! the files are renamed into place.
    void commit()
    {
        m_progress.clear();
        const double wall = ms_since(m_start);
        if (m_report) {
            // where the wall went besides the app's own stages: the outputs
            // (early: -o's faces while the GPU started; export: gathering
            // the result in input order and downloading it) and what
            // App::run's return released (its GPU buffers)
            m_report->num("wall_ms", wall)
                .num("gpu_start_wait_ms", m_gpu_wait_ms)
                .num("output_ms", m_write_ms)
                .num("output_early_ms", m_early_write_ms)
                .num("export_ms", m_export_ms)
                .num("release_ms", ms_since(m_report_at));
            stage(m_options.json, [&](const std::string& tmp) { m_report->write(tmp); });
        }
        m_outputs.commit();
        std::printf("  wall %.1f ms from start to written output (waiting for the GPU %.1f ms, "
                    "writing %.1f ms)\n",
                    wall, m_gpu_wait_ms, m_write_ms);
    }



   private:
    const Info&          m_info;
    const CommonOptions& m_options;
    Input                m_input;
    double               m_import_ms;
    double               m_gpu_wait_ms;
    double               m_write_ms = 0;
    double               m_early_write_ms = 0, m_export_ms = 0;
    std::string          m_gpu;
    Clock::time_point    m_start;
    std::optional<Json>  m_report;
    Clock::time_point    m_report_at;
    Outputs              m_outputs;
    // declared after m_outputs: destroyed first, it removes an unfinished file
    std::unique_ptr<io::PlyWriter> m_early_ply;
    mutable Progress     m_progress{m_info.name, m_options.quiet};  // output only
};

//! Stages -o, when given, for an app that makes a new mesh: `mesh` in the
//! format of -o's extension.
inline void stage_new_mesh(Session& s, const TriangleSoup& mesh)
{
    const std::string& output = s.options().output;
    s.stage(output, [&](const std::string& tmp) { write_mesh_as(tmp, output, mesh); });
}

//! An app: what is its own. run_app calls, in order: add_options (while the
//! command line is set up), default_input (without FILE), prepare,
//! extra_outputs, then run.
class App
{
   public:
    virtual ~App() = default;

    virtual const Info& info() const = 0;
    //! The app's own options (listed in --help before the common ones).
    virtual void add_options(CLI::App&) {}
    //! The mesh it runs on without FILE.
    virtual Input default_input() const = 0;
    //! Host-side checks (or changes) of the input after validate_input,
    //! before any GPU work. \throw InvalidInputError.
    virtual void prepare(Input&, const CommonOptions&) const {}
    //! Files it writes besides -o and --json, checked writable up front.
    virtual std::vector<std::string> extra_outputs() const { return {}; }
    //! The work, its check and its outputs (staged in the session); returns
    //! the exit status (the outputs are committed for any status).
    virtual int run(Session& session) = 0;
};

//! --warmup N for an app that times its algorithm: N untimed runs on copies
//! of the input before the timed one, so that its time leaves out loading
//! the kernels; 0 (the default): the algorithm runs once, as a user waits.
inline void add_warmup_option(CLI::App& cli, std::uint32_t& runs)
{
    cli.add_option("--warmup", runs,
                   "untimed runs of the algorithm on copies of the input before the timed one "
                   "(its time then leaves out kernel loading; 0: it runs once)")
        ->check(integer_in(0, 100))
        ->capture_default_str();
}

//! --warmup refused with --device cpu, before any work: it repeats the GPU
//! run. \throw InvalidInputError.
inline void refuse_warmup_on_cpu(const CommonOptions& o, std::uint32_t runs)
{
    if (o.device == "cpu" && runs != 0)
        throw InvalidInputError("--warmup repeats the GPU run: not with --device cpu");
}


//! An app's whole main(): returns its exit status (apps/common/app.cpp:
//! compiled once for every app).
int run_app(App& app, int argc, char** argv);

//! The whole main() of the app `Program`: `int main(int argc, char** argv)
//! { return app::run_app<Program>(argc, argv); }`.
template <typename Program>
int run_app(int argc, char** argv)
{
    Program program;
    return run_app(program, argc, argv);
}

}  // namespace rxmesh::app
