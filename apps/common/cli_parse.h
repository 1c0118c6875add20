// Parsing a CLI11 command line for a program of this repository (the apps,
// through policy.h, and the benchmark drivers, through
// benchmarks/common/bench_cli.h): --help prints the options and exits 0
// (--version, where a program has it: its version); a
// bad value, an unknown option or a missing required one is one line on
// stderr naming the program. Host code, no CUDA.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

namespace rxmesh::cli {

//! Parses the command line; returns -1 to go on, else the exit status: 0
//! after --help or --version, `bad_option_status` after one line on stderr.
inline int parse_command_line(CLI::App& cli, int argc, char** argv, const std::string& program,
                              int bad_option_status)
{
    try {
        cli.parse(argc, argv);
        return -1;
    } catch (const CLI::CallForHelp& e) {
        return cli.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return cli.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "%s: %s\n", program.c_str(), e.what());
        return bad_option_status;
    }
}

}  // namespace rxmesh::cli
