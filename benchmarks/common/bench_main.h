// The frame of a benchmark driver's main(): the command line parsed as
// bench_cli.h says, an error as one line on stderr and exit status 1, the
// input refined level by level, and the rows as one JSON document, so that
// every driver reads its options, reports failures and writes --json alike.
//
//   constexpr bench::About kAbout{"bench_x", "what it measures"};
//   int run(const Args& a) { ...; return 0; }
//   int main(int argc, char** argv)
//   {
//       return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
//   }
#pragma once

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "bench_cli.h"
#include "bench_util.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"

namespace rxmesh::bench {

//! Returns body()'s exit status; an exception escaping it is printed as
//! "name: what" on stderr and gives 1.
template <typename Body>
int guarded_main(const char* name, Body&& body)
{
    try {
        return body();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", name, e.what());
        return 1;
    }
}

//! A driver's name (its executable's) and what it measures: the head of
//! its --help ("name: what").
struct About
{
    const char* name;
    const char* what;
};

//! Parses the command line into a fresh Args (add_options(cli, args) names
//! the options), then returns run(args)'s exit status under guarded_main.
template <typename Args, typename AddOptions, typename Run>
int driver_main(int argc, char** argv, const About& about, AddOptions&& add_options, Run&& run)
{
    Args     a;
    CLI::App cli{std::string(about.name) + ": " + about.what, about.name};
    add_options(cli, a);
    if (const int rc = parse(cli, argc, argv); rc >= 0) return rc;
    return guarded_main(about.name, [&] { return run(a); });
}

//! The options of every driver over refined meshes (for_each_mesh_level's
//! inputs, --runs, --json), its own ones aside.
struct RefinedMeshArgs
{
    std::vector<std::string> meshes;
    int                      levels = 3, min_level = 0, runs = 5;
    std::string              json;
};

//! --mesh (repeatable), --levels, --min-level and --runs of RefinedMeshArgs.
inline void add_refined_mesh_runs(CLI::App& cli, RefinedMeshArgs& a)
{
    add_refined_meshes(cli, a.meshes, a.levels, a.min_level);
    add_runs(cli, a.runs);
}

//! What a row says of its input: the mesh's name, the refinement level,
//! its vertices and faces.
struct MeshLevel
{
    std::string name;
    int         level = 0;
    std::size_t V = 0, F = 0;

    void set_input(const std::string& mesh, int at, const TriangleSoup& soup)
    {
        name = mesh, level = at, V = soup.positions.size(), F = soup.faces.size();
    }
};

//! The rows measure(soup, a, level) returns over the input and its
//! refinements from a.min_level to a.levels (for_each_level).
template <typename Row, typename Args, typename Measure>
std::vector<Row> rows_of_levels(TriangleSoup soup, const Args& a, Measure&& measure)
{
    std::vector<Row> rows;
    for_each_level(std::move(soup), a.min_level, a.levels,
                   [&](int level, const TriangleSoup& s) { rows.push_back(measure(s, a, level)); });
    return rows;
}

//! The rows measure(name, level, soup, a) returns over a.meshes and their
//! refinements (for_each_mesh_level).
template <typename Row, typename Args, typename Measure>
std::vector<Row> rows_of_mesh_levels(const Args& a, Measure&& measure)
{
    std::vector<Row> rows;
    for_each_mesh_level(a.meshes, a.min_level, a.levels,
                        [&](const std::string& name, int level, const TriangleSoup& soup) {
                            rows.push_back(measure(name, level, soup, a));
                        });
    return rows;
}

//! The input of the GPU drivers whose --mesh is optional, read after
//! keep_pool_memory(): the file, or an icosphere of 5 subdivisions when
//! none is given; and its name in their header line.
inline TriangleSoup gpu_driver_input(const std::string& file)
{
    keep_pool_memory();
    return file.empty() ? generate::icosphere(5) : io::read(file);
}
inline const char* input_name(const std::string& file)
{
    return file.empty() ? "icosphere(5)" : file.c_str();
}

//! `head` (the document's opening, up to and with the rows' "[") with
//! row_json of every row, `separator` between them, closed by "]}\n".
template <typename Row, typename RowJson>
std::string rows_document(std::string head, const std::vector<Row>& rows, RowJson&& row_json,
                          const char* separator = ",")
{
    for (std::size_t i = 0; i < rows.size(); ++i) head += (i ? separator : "") + row_json(rows[i]);
    return head + "]}\n";
}

//! Writes `head` and row_json of every row to `path` (rows_document),
//! unless the path is empty; returns whether verified(row) holds for every
//! row.
template <typename Row, typename RowJson, typename Verified>
bool write_rows_json(const std::string& path, std::string head, const std::vector<Row>& rows,
                     RowJson&& row_json, Verified&& verified, const char* separator = ",")
{
    bool all = true;
    for (const Row& r : rows) all = all && verified(r);
    write_text_file_if(path, rows_document(std::move(head), rows, row_json, separator));
    return all;
}

//! The end of a driver that verifies every size: the rows written as
//! write_rows_json does, then "verified: every size" or "FAILED" with what
//! was checked (`checked`, in parentheses); returns the exit status, 1 on a
//! failure.
template <typename Row, typename RowJson, typename Verified>
int finish_verified_rows(const std::string& path, std::string head, const std::vector<Row>& rows,
                         RowJson&& row_json, Verified&& verified, const std::string& checked)
{
    const bool all = write_rows_json(path, std::move(head), rows, row_json, verified);
    std::printf("\nverified: %s (%s)\n", all ? "every size" : "FAILED", checked.c_str());
    return all ? 0 : 1;
}

//! The input of the drivers that measure one large mesh (bench_queries,
//! bench_vertex_normals): a file or a generated torus, refined 1-to-4 to
//! at least min_faces, built with `capacity` faces per patch.
struct LargeMeshArgs
{
    std::string   file;
    std::uint64_t min_faces = 5'000'000;
    int           runs      = 21;
    std::uint32_t capacity  = 512;
};

//! --mesh, --min-faces, --runs, --capacity of LargeMeshArgs.
inline void add_large_mesh(CLI::App& cli, LargeMeshArgs& a)
{
    add_mesh(cli, a.file, "default: a generated torus");
    cli.add_option("--min-faces", a.min_faces, "refine 1-to-4 to at least this many faces")
        ->capture_default_str();
    add_runs(cli, a.runs);
    cli.add_option("--capacity", a.capacity, "faces per patch")->capture_default_str();
}

//! The large mesh's soup, read after keep_pool_memory(): the file or a
//! 2048 x 1280 torus, refined to at least a.min_faces.
inline TriangleSoup large_mesh_soup(const LargeMeshArgs& a)
{
    keep_pool_memory();
    TriangleSoup soup = a.file.empty() ? generate::torus(2048, 1280) : io::read(a.file);
    while (soup.faces.size() < a.min_faces) soup = generate::refine(soup);
    return soup;
}

//! The opening of a GPU driver's compact JSON document, up to and with the
//! rows' "[": the GPU's name, then `fields` ("\"key\":value,..." pairs).
inline std::string gpu_rows_head(const std::string& fields)
{
    return "{\"gpu\":\"" + gpu_name() + "\"," + fields + ",\"rows\":[";
}

//! The drivers over refined meshes that verify every size: the rows of
//! rows_of_mesh_levels(a, measure), then finish_verified_rows.
template <typename Row, typename Args, typename Measure, typename RowJson, typename Verified>
int verified_mesh_levels(const Args& a, Measure&& measure, std::string head, RowJson&& row_json,
                         Verified&& verified, const std::string& checked)
{
    const std::vector<Row> rows = rows_of_mesh_levels<Row>(a, measure);
    return finish_verified_rows(a.json, std::move(head), rows, row_json, verified, checked);
}

}  // namespace rxmesh::bench
