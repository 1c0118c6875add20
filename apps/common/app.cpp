// The apps' skeleton compiled once (apps/common/app.h): the command line,
// loading and checking the input, the GPU's start-up and the run. Every app
// links it (rxmesh_app_skeleton), so CLI11's parser and the skeleton are
// compiled once rather than in every app's unit.
#include "app.h"

namespace rxmesh::app {

void validate_input(const TriangleSoup& soup, const std::string& name)
{
    if (soup.faces.empty()) throw InvalidInputError(name + ": the mesh is empty (no faces)");
    for (std::size_t v = 0; v < soup.positions.size(); ++v)
        for (float c : soup.positions[v])
            if (!std::isfinite(c))
                throw InvalidInputError(name + ": vertex " + std::to_string(v) +
                                        " has a non-finite coordinate (NaN or inf)");
}

namespace detail {

void add_common_options(CLI::App& cli, const Info& info, CommonOptions& o)
{
    cli.add_option("-o,--output", o.output, info.output_help)
        ->check([&info](const std::string& path) { return output_format_error(info, path); },
                info.writes_obj ? "*.ply or *.obj" : "*.ply");
    cli.set_version_flag("--version", std::string(info.name) + " " + rxmesh::version());
    cli.add_option("--json", o.json, "write a JSON report");
    cli.add_flag("--check", o.check, info.check_help);
    cli.add_flag("-q,--quiet", o.quiet, "no progress line on stderr (there is none off a terminal)");
    if (info.cpu_path)
        cli.add_option("--device", o.device,
                       "gpu, or cpu: the serial CPU reference, no GPU needed (the same outputs "
                       "and report)")
            ->check(CLI::IsMember({"gpu", "cpu"}))
            ->capture_default_str();
    if (!info.weld_help) return;
    cli.add_flag("--weld", o.weld, info.weld_help);
    cli.add_option("--capacity", o.capacity, "faces per patch")
        ->check(integer_in(64, 4096))
        ->capture_default_str();
}

//! -o's header and faces, for an app whose GPU output is write_moved_mesh's
//! PLY (Info::moves_vertices), written while the GPU starts; else null.
//! (The caller asks only on the GPU path.)
std::unique_ptr<io::PlyWriter> early_output(const Info& info, const CommonOptions& o,
                                                   const Input& in)
{
    if (!info.moves_vertices || o.output.empty() ||
        io::format_from_path(o.output) != io::Format::Ply)
        return nullptr;
    return std::make_unique<io::PlyWriter>(Outputs::staging_path(o.output),
                                           in.soup.positions.size(), in.soup.faces, false,
                                           std::vector<std::string>{"displacement"});
}

//! Everything between the parsed options and the app's run. The GPU's
//! start-up (its context) overlaps the reading of the input; its errors
//! still come after the input's, so bad input reads the same with or
//! without a GPU.
int load_and_run(App& app, const CommonOptions& o, Session::Clock::time_point start)
{
    const bool               on_cpu = o.device == "cpu";
    std::future<std::string> gpu;
    if (!on_cpu) gpu = std::async(std::launch::async, start_gpu);
    const auto read_start = Session::Clock::now();
    Input      in         = [&] {
        Progress reading(app.info().name, o.quiet);  // erased once read
        reading.show(o.file.empty() ? "making the default input" : "reading " + o.file);
        return o.file.empty() ? app.default_input() : Input{io::read(o.file), o.file};
    }();
    validate_input(in.soup, in.name);
    if (app.info().weld_help && !o.weld && !o.file.empty() &&
        io::format_from_path(o.file) == io::Format::Stl)
        std::fprintf(stderr,
                     "%s: note: STL stores every triangle's corners apart, so the mesh has no "
                     "shared vertices; --weld merges equal positions into a connected mesh\n",
                     app.info().name);
    app.prepare(in, o);
    const double import_ms = ms_since(read_start);
    Outputs::expect(o.output);
    Outputs::expect(o.json);
    for (const std::string& path : app.extra_outputs()) Outputs::expect(path);
    const auto                     early_start = Session::Clock::now();
    std::unique_ptr<io::PlyWriter> early_ply   = on_cpu ? nullptr : early_output(app.info(), o, in);
    const double                   early_ms    = ms_since(early_start);
    const auto  wait_start = Session::Clock::now();
    std::string gpu_name   = "CPU (serial reference, --device cpu)";
    if (!on_cpu) {
        try {
            gpu_name = gpu.get();
        } catch (const NoGpu&) {
            if (app.info().cpu_path) throw NoGpu("--device cpu runs the serial CPU reference");
            throw;
        }
    }
    Session session(app.info(), o, std::move(in), import_ms, ms_since(wait_start), gpu_name,
                    start, std::move(early_ply), early_ms);
    const int status = app.run(session);
    session.commit();
    return status;
}

}  // namespace detail

//! An app's whole main(): returns its exit status.
int run_app(App& app, int argc, char** argv)
{
    const auto    start = Session::Clock::now();
    const Info&   info  = app.info();
    CLI::App      cli{std::string(info.name) + ": " + info.description};
    CommonOptions o;
    cli.add_option("FILE", o.file,
                   std::string("input mesh (OBJ, OFF, PLY, STL); default: ") + info.default_input);
    app.add_options(cli);
    detail::add_common_options(cli, info, o);
    cli.footer(kExitStatusHelp);
    if (const int rc = parse(cli, argc, argv, info.name); rc >= 0) return rc;
    return run(info.name, [&] { return detail::load_and_run(app, o, start); });
}

}  // namespace rxmesh::app
