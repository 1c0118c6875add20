// rxmesh-subdivide: Loop subdivision on the GPU (algo/loop_subdivision.cuh),
// a thin front end: options, input, output, --check. Run with --help for
// the options; without MESH it subdivides an embedded torus.
//
// The output is the refined mesh: its first vertices are the input's, in
// input order (none welded, none dropped), then one per edge of each level
// (numbering: reference/loop_subdivision.h).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/app_support.h"
#include "rxmesh/algo/loop_subdivision.cuh"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/loop_subdivision.h"

namespace {

using namespace rxmesh;

//! --check passes when the faces equal the reference's and every coordinate
//! is within this much of it, relative to the input's bounding-box diagonal
//! (the GPU tests' bound, tests/gpu/test_loop_subdivision.cu).
constexpr double kCheckTolerance = 1e-5;

struct Options
{
    std::string file, output, json;
    int         levels = 2, block = 256;
    bool        check  = false;
};

void add_options(CLI::App& cli, Options& o)
{
    cli.add_option("MESH", o.file,
                   "input mesh (OBJ, OFF, PLY, STL), subdivided as indexed (no welding); default: an "
                   "embedded torus of 24 x 12 quads");
    cli.add_option("--levels", o.levels, "levels of Loop subdivision")
        ->check(CLI::Range(0, 16))
        ->capture_default_str();
    cli.add_option("-o,--output", o.output,
                   "write the refined mesh (.ply binary, or .obj): the input's vertices first, in "
                   "input order, then one per edge of each level");
    cli.add_option("--json", o.json, "write a JSON report");
    cli.add_flag("--check", o.check,
                 "compare with the serial double CPU reference (exit 2 when a face differs or a "
                 "coordinate differs by more than 1e-5 x the input's bounding-box diagonal)");
    cli.add_option("--block", o.block, "threads per block of the subdivision kernels")
        ->check(CLI::IsMember({32, 64, 128, 256, 512, 1024}))
        ->capture_default_str();
}

struct Input
{
    TriangleSoup soup;
    std::string  name;
};

Input load(const std::string& file)
{
    if (!file.empty())
        return {io::read(file), file};
    return {generate::torus(24, 12), "embedded torus (24 x 12 quads, radii 1 and 0.3)"};
}

//! Host checks before any GPU work, so that they answer the same without a
//! GPU: the input (validate_input; the readers already keep indices in range
//! and drop faces that repeat a vertex) and the levels' ids within 32 bits.
//! \throw InvalidInputError.
void check_input(const Input& in, int levels)
{
    app::validate_input(in.soup, in.name);
    std::vector<std::uint64_t> keys;
    keys.reserve(3 * in.soup.faces.size());
    for (const Triangle& f : in.soup.faces)
        for (int j = 0; j < 3; ++j) {
            const std::uint32_t a = f[j], b = f[(j + 1) % 3];
            keys.push_back((std::uint64_t(std::min(a, b)) << 32) | std::max(a, b));
        }
    std::sort(keys.begin(), keys.end());
    const auto E = std::uint64_t(std::unique(keys.begin(), keys.end()) - keys.begin());
    loop::require_32bit_ids(
        loop::level_counts({in.soup.positions.size(), E, in.soup.faces.size()}, levels));
}

//! --check: the largest coordinate difference from the reference over the
//! diagonal. \throw app::CheckFailed on a face or position mismatch.
double check_against_reference(const Input& in, int levels, const TriangleSoup& gpu)
{
    const auto ref = reference::loop_subdivide(in.soup.positions, in.soup.faces, levels);
    if (ref.faces != gpu.faces)
        throw app::CheckFailed("the faces differ from the CPU reference's");
    const double diagonal = bounding_box_diagonal(in.soup.positions);
    double       worst    = 0;
    std::size_t  where    = 0;
    for (std::size_t v = 0; v < ref.positions.size(); ++v)
        for (int d = 0; d < 3; ++d) {
            const double e = std::abs(double(gpu.positions[v][d]) - ref.positions[v][d]);
            if (!(e <= worst))
                worst = e, where = v;
        }
    const double relative = diagonal > 0 ? worst / diagonal : worst;
    if (!(relative <= kCheckTolerance))
        throw app::CheckFailed("vertex " + std::to_string(where) + " is " + std::to_string(relative) +
                               " x the bounding-box diagonal from the CPU reference (bound 1e-5)");
    return relative;
}

struct Run
{
    TriangleSoup       result;
    std::vector<float> level_ms;
    float              setup_ms = 0;
    std::size_t        peak_bytes = 0;
};

Run subdivide(const Input& in, const Options& o)
{
    std::vector<float> pos;
    std::vector<std::uint32_t> faces;
    for (const Vec3f& p : in.soup.positions)
        pos.insert(pos.end(), p.begin(), p.end());
    for (const Triangle& f : in.soup.faces)
        faces.insert(faces.end(), f.begin(), f.end());
    const auto  d_pos   = DeviceBuffer<float>::from_host(pos);
    const auto  d_faces = DeviceBuffer<std::uint32_t>::from_host(faces);
    Run         run;
    LoopOptions opt;
    opt.block_threads = o.block, opt.level_ms = &run.level_ms, opt.setup_ms = &run.setup_ms;
    const LoopResult r = loop_subdivide(d_pos.data(), std::uint32_t(in.soup.positions.size()),
                                        d_faces.data(), std::uint32_t(in.soup.faces.size()), o.levels, opt);
    run.peak_bytes = r.peak_bytes;
    const std::vector<float>         p = r.positions.to_host();
    const std::vector<std::uint32_t> f = r.faces.to_host();
    run.result.positions.resize(r.num_vertices);
    run.result.faces.resize(r.num_faces);
    for (std::size_t v = 0; v < run.result.positions.size(); ++v)
        run.result.positions[v] = {p[3 * v], p[3 * v + 1], p[3 * v + 2]};
    for (std::size_t i = 0; i < run.result.faces.size(); ++i)
        run.result.faces[i] = {f[3 * i], f[3 * i + 1], f[3 * i + 2]};
    return run;
}

//! `format`: the final path's (the file is written to a temporary first).
void write_mesh(const std::string& path, io::Format format, const TriangleSoup& mesh)
{
    if (format == io::Format::Obj)
        io::write_obj(path, mesh);
    else
        io::write_ply(path, mesh);
}

//! The output format is known before any work, so that a bad name fails
//! early. \throw InvalidInputError.
void require_output_format(const std::string& path)
{
    if (path.empty())
        return;
    const io::Format f = io::format_from_path(path);
    if (f != io::Format::Ply && f != io::Format::Obj)
        throw InvalidInputError(path + ": -o writes .ply or .obj");
}

void write_report(app::Outputs& out, const Options& o, const std::string& gpu, const Input& in,
                  const Run& run, double import_ms, double check_error)
{
    app::Json times, params, input, output, j;
    double    total = 0;
    for (std::size_t l = 0; l < run.level_ms.size(); ++l) {
        times.num("level_" + std::to_string(l + 1), run.level_ms[l]);
        total += run.level_ms[l];
    }
    times.num("import", import_ms).num("setup", run.setup_ms).num("levels_total", total);
    params.num("levels", o.levels).num("block", o.block);
    input.num("vertices", double(in.soup.positions.size())).num("faces", double(in.soup.faces.size()));
    output.num("vertices", double(run.result.positions.size()))
        .num("faces", double(run.result.faces.size()))
        .num("peak_device_bytes", double(run.peak_bytes));
    j.str("app", "rxmesh-subdivide")
        .str("gpu", gpu)
        .str("input", in.name)
        .obj("input_mesh", input)
        .obj("output_mesh", output)
        .obj("parameters", params)
        .obj("times_ms", times)
        .flag("checked", o.check);
    if (o.check) {
        app::Json check;
        check.num("max_error_over_diagonal", check_error)
            .num("bound_over_diagonal", kCheckTolerance)
            .flag("passed", true);  // a failed check exits 2 and writes nothing
        j.obj("check", check);
    }
    out.stage(o.json, [&](const std::string& tmp) { j.write(tmp); });
}

int run_subdivide(const Options& o)
{
    app::Stopwatch import_clock;
    const Input    in = load(o.file);
    check_input(in, o.levels);
    require_output_format(o.output);
    const double import_ms = import_clock.ms();
    app::Outputs::expect(o.output);
    app::Outputs::expect(o.json);
    const std::string gpu = app::require_gpu();
    const Run         run = subdivide(in, o);
    const double check_error = o.check ? check_against_reference(in, o.levels, run.result) : 0.0;

    app::Outputs out;
    if (!o.output.empty())
        out.stage(o.output, [&](const std::string& tmp) {
            write_mesh(tmp, io::format_from_path(o.output), run.result);
        });
    double total = 0;
    for (float ms : run.level_ms)
        total += ms;
    std::printf("rxmesh-subdivide: %s on %s\n", in.name.c_str(), gpu.c_str());
    std::printf("  %zu vertices, %zu faces -> %d level(s) -> %zu vertices, %zu faces\n",
                in.soup.positions.size(), in.soup.faces.size(), o.levels, run.result.positions.size(),
                run.result.faces.size());
    std::printf("  import %.1f ms, setup %.3f ms, levels %.3f ms, peak %.1f MiB", import_ms,
                run.setup_ms, total, double(run.peak_bytes) / (1 << 20));
    if (o.check)
        std::printf(", check passed (largest difference from the CPU reference %.3g x the "
                    "bounding-box diagonal)",
                    check_error);
    std::printf("\n");
    if (!o.json.empty())
        write_report(out, o, gpu, in, run, import_ms, check_error);
    out.commit();
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App cli{"rxmesh-subdivide: Loop subdivision on the GPU (OpenSubdiv's Loop rules, boundary "
                 "\"edge only\")"};
    Options o;
    add_options(cli, o);
    if (const int rc = app::parse(cli, argc, argv, "rxmesh-subdivide"); rc >= 0)
        return rc;
    return app::run("rxmesh-subdivide", [&] { return run_subdivide(o); });
}
