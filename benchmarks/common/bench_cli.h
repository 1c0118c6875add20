// The benchmark drivers' command lines: CLI11, as the apps'. --help prints
// the options and exits 0; a bad value, an unknown option or a missing
// required one is one line on stderr and exit status 2.
//
//   CLI::App cli{"bench_x: what it measures", "bench_x"};
//   cli.add_option("--mesh", a.file, "input mesh");
//   bench::add_runs(cli, a.runs);
//   if (const int rc = bench::parse(cli, argc, argv); rc >= 0)
//       return rc;
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cli_parse.h"

namespace rxmesh::bench {

//! Parses the command line; returns -1 to go on, else the exit status.
inline int parse(CLI::App& cli, int argc, char** argv)
{
    return cli::parse_command_line(cli, argc, argv, cli.get_name(), 2);
}

//! --runs: how many timed runs a median is taken over (>= 1).
inline CLI::Option* add_runs(CLI::App& cli, int& runs)
{
    return cli.add_option("--runs", runs, "timed runs per measurement (the median is reported)")
        ->check(CLI::Range(1, INT_MAX))
        ->capture_default_str();
}

//! --json: where to write the results as JSON (none by default).
inline CLI::Option* add_json(CLI::App& cli, std::string& path)
{
    return cli.add_option("--json", path, "write the results as JSON to this file");
}

//! --mesh: the input mesh file; `otherwise` says what runs without it.
inline CLI::Option* add_mesh(CLI::App& cli, std::string& path, const std::string& otherwise)
{
    return cli.add_option("--mesh", path, "input mesh (OBJ, OFF, PLY, STL); " + otherwise);
}

//! --levels: the input refined 1-to-4 up to this many times.
inline CLI::Option* add_levels(CLI::App& cli, int& levels)
{
    return cli.add_option("--levels", levels, "refine the input 1-to-4 up to this many times")
        ->check(CLI::Range(0, 20))
        ->capture_default_str();
}

//! --min-level: the levels below are refined through but not measured.
inline CLI::Option* add_min_level(CLI::App& cli, int& min_level)
{
    return cli.add_option("--min-level", min_level, "measure from this level on")
        ->check(CLI::Range(0, 20))
        ->capture_default_str();
}

//! --mesh (required), --levels, --min-level: the CPU baselines' input and
//! the refinements measured.
inline void add_required_mesh_levels(CLI::App& cli, std::string& mesh, int& levels,
                                     int& min_level)
{
    add_mesh(cli, mesh, "required")->required();
    add_levels(cli, levels);
    add_min_level(cli, min_level);
}

//! --refine: the input refined 1-to-4 this many times, one size measured.
inline CLI::Option* add_refine(CLI::App& cli, int& refine)
{
    return cli.add_option("--refine", refine, "refine the input 1-to-4 this many times")
        ->check(CLI::Range(0, 20))
        ->capture_default_str();
}

//! --reference-max-faces: the serial reference (quadratic time) runs up to
//! this many faces.
inline CLI::Option* add_reference_max_faces(CLI::App& cli, std::uint64_t& faces)
{
    return cli
        .add_option("--reference-max-faces", faces,
                    "run the serial reference (quadratic time) up to this many faces")
        ->capture_default_str();
}

//! --threads of the OpenMesh baselines' threaded run; 0 (the default)
//! becomes every hardware thread once parsed (all_hardware_threads).
inline CLI::Option* add_threads(CLI::App& cli, int& threads)
{
    return cli
        .add_option("--threads", threads, "threads of the threaded run (0: all the hardware's)")
        ->capture_default_str();
}
inline void all_hardware_threads(int& threads)
{
    if (threads <= 0) threads = std::max(1, int(std::thread::hardware_concurrency()));
}

//! --tol and --dt-scale of one implicit MCF step (bench_mcf, bench_mcf_openmesh).
inline void add_mcf_step(CLI::App& cli, double& tol, double& dt_scale)
{
    cli.add_option("--tol", tol, "CG stops when |r| <= tol |r0|")
        ->check(CLI::Range(1e-12, 1.0))
        ->capture_default_str();
    cli.add_option("--dt-scale", dt_scale, "time step relative to the mean edge length squared")
        ->check(CLI::Range(1e-12, 1e12))
        ->capture_default_str();
}

//! --mesh (optional: `otherwise` says what runs without it), --levels,
//! --min-level, --runs: the GPU drivers over one input and its refinements.
inline void add_mesh_levels_runs(CLI::App& cli, std::string& mesh, const std::string& otherwise,
                                 int& levels, int& min_level, int& runs)
{
    add_mesh(cli, mesh, otherwise);
    add_levels(cli, levels);
    add_min_level(cli, min_level);
    add_runs(cli, runs);
}

//! --mesh (repeatable), --levels, --min-level: the changing-topology
//! benchmarks' inputs, each refined 1-to-4 (for_each_mesh_level's).
inline void add_refined_meshes(CLI::App& cli, std::vector<std::string>& meshes, int& levels,
                               int& min_level)
{
    cli.add_option("--mesh", meshes,
                   "input mesh, refined 1-to-4 up to --levels times (repeatable); default: a "
                   "noisy icosphere (5 subdivisions, noise 0.3 x the mean edge length)")
        ->allow_extra_args(false);
    add_levels(cli, levels);
    add_min_level(cli, min_level);
}

//! What bench_geodesic_cpu and bench_geodesic_exact take to recompute one
//! size of bench_geodesic and compare with its --dump: --mesh, --level (the
//! refinements), --distances (bench_geodesic's float32 file), --source.
inline void add_geodesic_file_options(CLI::App& cli, std::string& mesh, int& level,
                                      std::string& distances, std::uint32_t& source)
{
    add_mesh(cli, mesh, "required")->required();
    cli.add_option("--level", level, "refine the input 1-to-4 this many times")
        ->check(CLI::Range(0, 20))
        ->capture_default_str();
    cli.add_option("--distances", distances,
                   "bench_geodesic's distances at that size (float32 per input vertex)")
        ->required();
    cli.add_option("--source", source, "the source vertex (an input index)")->capture_default_str();
}

}  // namespace rxmesh::bench
