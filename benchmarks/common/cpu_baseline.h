// What the CPU baselines share (host code, no CUDA kernels): wall-clock
// timing, the upper median, one method's timed outcome on a mesh, and the
// frame of the baselines that turn a mesh into another at each size.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bench_cli.h"
#include "bench_util.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::bench {

//! The upper median (0 for none).
inline double upper_median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

//! Wall-clock milliseconds of f().
template <typename F>
double wall_ms(F&& f)
{
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

//! A method's output mesh and its median time.
struct Outcome
{
    std::string  method;
    double       ms = 0;
    TriangleSoup output;
};

//! Runs `run(output)` `runs` times; each run builds its own input and
//! returns the milliseconds of the work alone (setup and read-back outside).
template <typename Run>
Outcome timed(const std::string& method, int runs, Run&& run)
{
    Outcome             o;
    std::vector<double> times;
    o.method = method;
    for (int r = 0; r < runs; ++r) times.push_back(run(o.output));
    o.ms = upper_median(times);
    return o;
}

//! The options of the CPU baselines that turn a mesh into another
//! (bench_remesh_cpu, bench_simplify_cpu), their own ones aside.
struct OutcomeArgs
{
    std::string   file, json;
    int           levels = 0, min_level = 0, runs = 1;
    std::uint64_t reference_max_faces = 0;

    OutcomeArgs(int default_levels, int default_runs, std::uint64_t default_reference_max_faces)
        : levels(default_levels), runs(default_runs),
          reference_max_faces(default_reference_max_faces)
    {
    }
};

//! --mesh (required), --levels, --min-level: the input of OutcomeArgs.
inline void add_outcome_input(CLI::App& cli, OutcomeArgs& a)
{
    add_required_mesh_levels(cli, a.file, a.levels, a.min_level);
}

//! --runs and --reference-max-faces of OutcomeArgs.
inline void add_outcome_runs(CLI::App& cli, OutcomeArgs& a)
{
    add_runs(cli, a.runs);
    add_reference_max_faces(cli, a.reference_max_faces);
}

//! Their table rows and JSON objects over the input (a.file, read) and its
//! refinements (for_each_level): at each level outcomes(soup, a) gives
//! every method's Outcome, and row(level, soup, outcome, diagonal, a)
//! prints the outcome's table row and returns its JSON object (diagonal:
//! the input's bounding-box diagonal). Returns the objects, comma-separated.
template <typename Args, typename Outcomes, typename Row>
std::string outcome_rows(TriangleSoup input, const Args& a, Outcomes&& outcomes, Row&& row)
{
    std::string objects;
    for_each_level(std::move(input), a.min_level, a.levels,
                   [&](int level, const TriangleSoup& soup) {
                       const std::vector<Outcome> all = outcomes(soup, a);
                       const double diagonal = bounding_box_diagonal(soup.positions);
                       for (const Outcome& o : all) {
                           if (!objects.empty()) objects += ",";
                           objects += row(level, soup, o, diagonal, a);
                       }
                   });
    return objects;
}

//! What such a baseline prints around its rows: its first line (`intro`,
//! then what its time is: the wall clock of `work` alone), the table's
//! columns, and its JSON document's opening (up to and with "\"rows\":[").
struct OutcomeReport
{
    std::string intro;
    const char* work;
    const char* columns;
    std::string json_head;
};

//! The body of such a baseline: reads the input, prints the report's head,
//! then the rows (outcome_rows), and writes them to --json; returns the
//! exit status.
template <typename Args, typename Outcomes, typename Row>
int outcome_baseline(const Args& a, const OutcomeReport& report, Outcomes&& outcomes, Row&& row)
{
    TriangleSoup soup = io::read(a.file);
    std::printf("%s; wall time of the %s alone, median of %d runs; Hausdorff: symmetric, sampled, "
                "/ bounding-box diagonal\n\n",
                report.intro.c_str(), report.work, a.runs);
    print_table_head(report.columns);
    const std::string rows = outcome_rows(std::move(soup), a, outcomes, row);
    write_text_file_if(a.json, report.json_head + rows + "]}\n");
    return 0;
}

}  // namespace rxmesh::bench
