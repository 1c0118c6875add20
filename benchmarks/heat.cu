// Geodesic distance by the heat method (algo/heat_geodesic.h) against the
// parallel toplesets propagation (algo/geodesic.h) on the same mesh from the
// same source: per size (the input refined, levels K..L), the heat method's
// one-time setup (assembly, analysis, the two factors; median of --setup-runs
// constructions after a warm-up one) and its query (median of --runs after a
// warm-up, CUDA events), and rxmesh-geodesic's query with its default
// options (median of --runs after a warm-up). Verified at every size: the
// heat distances against the serial double reference of the same steps
// (reference/heat_geodesic.h, within 1e-6 of the largest distance) up to
// --oracle-max-faces, and at every size against the propagation's (the same
// unreachable set; both approximate one geodesic distance, so a mean
// relative difference under 5%). --dump DIR writes both methods' distances
// in input order (float32; heat_levelK.f32, ptp_levelK.f32) up to
// --dump-max-faces for the accuracy against exact geodesics
// (bench_geodesic_exact, CGAL).
//
// usage: bench_heat [--mesh FILE] [--levels L] [--min-level K] [--runs R] [--setup-runs S]
//                   [--source I] [--json FILE] [--dump DIR] [--dump-max-faces N]
//                   [--oracle-max-faces N]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_mesh.h"
#include "bench_util.h"
#include "rxmesh/algo/geodesic.h"
#include "rxmesh/algo/heat_geodesic.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/heat_geodesic.h"
#include "rxmesh/rxmesh.cuh"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_heat",
    "geodesic distance by the heat method (setup and query) against the toplesets propagation"};

using namespace rxmesh;

struct Args
{
    std::string   file, json, dump;
    int           levels = 3, runs = 15, setup_runs = 2;
    std::uint32_t source         = 0;
    std::uint64_t dump_max_faces = 1000000, oracle_max_faces = 60000;
    int           min_level = 0;
};

struct Row
{
    std::uint64_t faces = 0, vertices = 0;
    double        setup_ms = 0, assembly_ms = 0, analysis_ms = 0, factor_ms = 0;  // medians
    double        ordering_ms = 0, symbolic_ms = 0, plan_ms = 0;  // the analysis's parts (last)
    double        query_ms = 0, heat_solve_ms = 0, field_ms = 0, poisson_ms = 0, shift_ms = 0;
    double        ptp_ms         = 0;
    double        first_query_ms = 0, time_factor = 1;  // t / h^2 after the first query
    std::uint32_t heat_rescales = 0, time_step_raises = 0, low_heat_vertices = 0;
    std::uint64_t factor_nonzeros = 0;
    std::size_t   factor_bytes    = 0;
    double        oracle_diff     = NAN;  // of the largest distance
    double        ptp_mean_rel = 0, ptp_max_rel = 0;
    double        max_distance = 0;
    bool          oracle_ok = true, ptp_ok = false;
};

double host_ms_since(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

//! The setup's medians over a.setup_runs constructions after a warm-up one;
//! returns the last.
std::unique_ptr<HeatGeodesic> time_setup(const RXMesh& mesh, const Args& a, Row& row)
{
    std::unique_ptr<HeatGeodesic> heat = std::make_unique<HeatGeodesic>(mesh);  // warm-up
    std::vector<double>           total, assembly, analysis, factor;
    for (int r = 0; r < a.setup_runs; ++r) {
        heat.reset();
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        const auto start = std::chrono::steady_clock::now();
        heat             = std::make_unique<HeatGeodesic>(mesh);
        total.push_back(host_ms_since(start));
        assembly.push_back(heat->setup().assembly_ms);
        analysis.push_back(heat->setup().analysis_ms);
        factor.push_back(heat->setup().factor_ms);
    }
    row.setup_ms        = bench::median(total);
    row.assembly_ms     = bench::median(assembly);
    row.analysis_ms     = bench::median(analysis);
    row.factor_ms       = bench::median(factor);
    row.factor_nonzeros = heat->setup().analysis.factor_nonzeros;
    row.ordering_ms     = heat->setup().analysis.ordering_ms;
    row.symbolic_ms     = heat->setup().analysis.symbolic_ms;
    row.plan_ms         = heat->setup().analysis.plan_ms;
    row.factor_bytes    = heat->setup().analysis.device_bytes;
    return heat;
}

void time_query(const HeatGeodesic& heat, std::uint32_t source, std::uint32_t n, const Args& a,
                DeviceBuffer<float>& d, Row& row)
{
    const VertexView<float> dv(d.data(), n);
    // the first query rescales the heat and raises the time step where the
    // heat underflows (refactoring); the later ones start from both
    const HeatGeodesicReport first = heat.distance({source}, dv);
    row.first_query_ms             = first.total_ms;
    row.time_step_raises           = first.time_step_raises;
    row.heat_rescales              = first.heat_rescales;
    row.low_heat_vertices          = first.low_heat_vertices;
    row.time_factor =
        first.time_step / (heat.setup().mean_edge_length * heat.setup().mean_edge_length);
    std::vector<double> solve, field, poisson, shift;
    row.query_ms = bench::gpu_median_ms(
        [&] {
            const HeatGeodesicReport r = heat.distance({source}, dv);
            solve.push_back(r.heat_solve_ms);
            field.push_back(r.field_ms);
            poisson.push_back(r.poisson_solve_ms);
            shift.push_back(r.shift_ms);
        },
        1, a.runs);
    row.heat_solve_ms = bench::median(solve);
    row.field_ms      = bench::median(field);
    row.poisson_ms    = bench::median(poisson);
    row.shift_ms      = bench::median(shift);
}

double time_ptp(const RXMesh& mesh, std::uint32_t source, const Args& a, DeviceBuffer<float>& d,
                bool& converged)
{
    const VertexView<float> dv(d.data(), mesh.num_vertices());
    GeodesicReport          rep;
    const double            ms = bench::gpu_median_ms(
        [&] { rep = geodesic_distance(mesh, mesh.positions(), {source}, dv); }, 1, a.runs);
    converged = rep.converged;
    return ms;
}

//! The heat distances against the reference's (within 1e-6 of the largest,
//! as tests/algo/test_heat_geodesic.cu holds them).
void verify_against_oracle(const RXMesh& mesh, std::uint32_t source, const std::vector<float>& heat,
                           Row& row)
{
    const reference::HeatGeodesic ref = reference::heat_geodesic(
        bench::global_positions(mesh), bench::global_faces(mesh), {source});
    double largest = 0, worst = 0;
    for (double x : ref.distance)
        if (!std::isinf(x)) largest = std::max(largest, std::abs(x));
    row.oracle_ok = true;
    for (std::size_t v = 0; v < heat.size(); ++v) {
        if (std::isinf(ref.distance[v]) || std::isinf(heat[v])) {
            row.oracle_ok = row.oracle_ok && std::isinf(ref.distance[v]) == std::isinf(heat[v]);
            continue;
        }
        worst = std::max(worst, std::abs(heat[v] - ref.distance[v]));
    }
    row.oracle_diff = largest > 0 ? worst / largest : 0;
    row.oracle_ok   = row.oracle_ok && row.oracle_diff <= 1e-6 &&
                    ref.time_step_raises == row.time_step_raises &&
                    ref.heat_rescales == row.heat_rescales;
}

//! The heat distances against the propagation's: the same unreachable set,
//! the relative differences away from the source (beyond 5 mean edge
//! lengths, where both are smooth).
void compare_with_ptp(const std::vector<float>& heat, const std::vector<float>& ptp, double edge,
                      Row& row)
{
    bool          same_set = true;
    double        sum      = 0;
    std::uint64_t counted  = 0;
    for (std::size_t v = 0; v < heat.size(); ++v) {
        if (std::isinf(heat[v]) || std::isinf(ptp[v])) {
            same_set = same_set && std::isinf(heat[v]) == std::isinf(ptp[v]);
            continue;
        }
        row.max_distance = std::max(row.max_distance, double(heat[v]));
        if (ptp[v] < 5 * edge) continue;
        const double rel = std::abs(double(heat[v]) - ptp[v]) / ptp[v];
        sum += rel;
        row.ptp_max_rel = std::max(row.ptp_max_rel, rel);
        ++counted;
    }
    row.ptp_mean_rel = counted > 0 ? sum / counted : 0;
    row.ptp_ok = same_set && counted > 0 && row.ptp_mean_rel < 0.05 && row.low_heat_vertices == 0;
}

void dump(const std::string& path, const std::vector<float>& global,
          const std::vector<std::uint32_t>& to_global)
{
    const std::vector<float> in_input = bench::in_input_order(global, to_global, INFINITY);
    bench::write_text_file(path, std::string(reinterpret_cast<const char*>(in_input.data()),
                                             in_input.size() * sizeof(float)));
}

Row measure(const TriangleSoup& soup, const Args& a, int level)
{
    BuildOptions opt;
    opt.weld = true;
    const RXMesh mesh(soup, opt);
    const auto   to_global = mesh.input_vertex_to_global().to_host();
    if (a.source >= to_global.size() || to_global[a.source] == ~0u)
        throw InvalidInputError("bench_heat: source " + std::to_string(a.source) +
                                " is not a mesh vertex");
    const std::uint32_t source = to_global[a.source];
    Row                 row;
    row.faces    = mesh.num_faces();
    row.vertices = mesh.num_vertices();
    DeviceBuffer<float> heat_d(mesh.num_vertices()), ptp_d(mesh.num_vertices());
    const auto          heat = time_setup(mesh, a, row);
    time_query(*heat, source, mesh.num_vertices(), a, heat_d, row);
    bool converged             = false;
    row.ptp_ms                 = time_ptp(mesh, source, a, ptp_d, converged);
    const std::vector<float> h = heat_d.to_host(), p = ptp_d.to_host();
    compare_with_ptp(h, p, heat->setup().mean_edge_length, row);
    row.ptp_ok = row.ptp_ok && converged;
    if (row.faces <= a.oracle_max_faces) verify_against_oracle(mesh, source, h, row);
    if (!a.dump.empty() && row.faces <= a.dump_max_faces) {
        dump(a.dump + "/heat_level" + std::to_string(level) + ".f32", h, to_global);
        dump(a.dump + "/ptp_level" + std::to_string(level) + ".f32", p, to_global);
    }
    std::fprintf(stderr,
                 "level %d: %llu faces, setup %.0f ms (analysis: ordering %.0f, symbolic %.0f, "
                 "plan %.0f ms), heat query %.2f ms, PTP %.2f ms\n",
                 level, (unsigned long long)row.faces, row.setup_ms, row.ordering_ms,
                 row.symbolic_ms, row.plan_ms, row.query_ms, row.ptp_ms);
    return row;
}

using bench::yes;

void print_table(const std::vector<Row>& rows)
{
    std::printf(
        "### One source: the heat method's query against the toplesets propagation (ms)\n\n"
        "Query: median of runs after a warm-up (CUDA events), both on the same mesh and source; "
        "the propagation with rxmesh-geodesic's default options. Where the heat underflows the "
        "first query scales its right-hand side up (rescales: one more solve each) and, if "
        "that is not enough, raises t (x4 per raise, refactored; t / h^2 after it); the later "
        "queries start from both: \"first query\" includes them. Setup: the heat method's "
        "construction, once per mesh (host wall time, median).\n\n"
        "| faces | vertices | heat query | heat solve | field | Poisson solve | shift | "
        "propagation | query / propagation | first query | rescales | raises | t / h^2 | setup | "
        "assembly "
        "| analysis (host) | factors | factor nnz | factor MiB |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows)
        std::printf(
            "| %llu | %llu | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.3f | %.2f | %u | %u | "
            "%.0f | %.0f | %.1f | %.0f | %.1f | %llu | %.0f |\n",
            (unsigned long long)r.faces, (unsigned long long)r.vertices, r.query_ms,
            r.heat_solve_ms, r.field_ms, r.poisson_ms, r.shift_ms, r.ptp_ms, r.query_ms / r.ptp_ms,
            r.first_query_ms, r.heat_rescales, r.time_step_raises, r.time_factor, r.setup_ms,
            r.assembly_ms, r.analysis_ms, r.factor_ms, (unsigned long long)r.factor_nonzeros,
            double(r.factor_bytes) / (1 << 20));
    std::printf(
        "\n### Verification\n\n"
        "| faces | vs the double reference (of the largest) | vs propagation: mean / max "
        "relative (beyond 5 edges) | largest distance | verified |\n"
        "|---|---|---|---|---|\n");
    for (const Row& r : rows)
        std::printf("| %llu | %.1e | %.3f / %.3f | %.4g | %s %s |\n", (unsigned long long)r.faces,
                    r.oracle_diff, r.ptp_mean_rel, r.ptp_max_rel, r.max_distance, yes(r.oracle_ok),
                    yes(r.ptp_ok));
}

std::string row_json(const Row& r)
{
    using bench::json_number;
    return "{\"faces\": " + std::to_string(r.faces) +
           ", \"vertices\": " + std::to_string(r.vertices) +
           ", \"query_ms\": " + json_number(r.query_ms) +
           ", \"heat_solve_ms\": " + json_number(r.heat_solve_ms) +
           ", \"field_ms\": " + json_number(r.field_ms) +
           ", \"poisson_solve_ms\": " + json_number(r.poisson_ms) +
           ", \"shift_ms\": " + json_number(r.shift_ms) +
           ", \"propagation_ms\": " + json_number(r.ptp_ms) +
           ", \"first_query_ms\": " + json_number(r.first_query_ms) +
           ", \"heat_rescales\": " + std::to_string(r.heat_rescales) +
           ", \"time_step_raises\": " + std::to_string(r.time_step_raises) +
           ", \"time_factor_after_first_query\": " + json_number(r.time_factor) +
           ", \"low_heat_vertices\": " + std::to_string(r.low_heat_vertices) +
           ", \"setup_ms\": " + json_number(r.setup_ms) +
           ", \"assembly_ms\": " + json_number(r.assembly_ms) +
           ", \"analysis_ms\": " + json_number(r.analysis_ms) +
           ", \"analysis_ordering_ms\": " + json_number(r.ordering_ms) +
           ", \"analysis_symbolic_ms\": " + json_number(r.symbolic_ms) +
           ", \"analysis_plan_ms\": " + json_number(r.plan_ms) +
           ", \"factor_ms\": " + json_number(r.factor_ms) +
           ", \"factor_nonzeros\": " + std::to_string(r.factor_nonzeros) +
           ", \"factor_device_bytes\": " + std::to_string(r.factor_bytes) +
           ", \"oracle_diff_of_largest\": " + json_number(r.oracle_diff) +
           ", \"vs_propagation_mean_rel\": " + json_number(r.ptp_mean_rel) +
           ", \"vs_propagation_max_rel\": " + json_number(r.ptp_max_rel) +
           ", \"max_distance\": " + json_number(r.max_distance) + "}";
}

void add_options(CLI::App& cli, Args& a)
{
    bench::add_mesh_levels_runs(cli, a.file, "default: an icosphere of 5 subdivisions", a.levels,
                                a.min_level, a.runs);
    cli.add_option("--setup-runs", a.setup_runs, "constructions timed after the warm-up one")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cli.add_option("--source", a.source, "the source vertex (an input index)")
        ->capture_default_str();
    bench::add_json(cli, a.json);
    cli.add_option("--dump", a.dump,
                   "write both methods' distances in input order (float32) to this directory");
    cli.add_option("--dump-max-faces", a.dump_max_faces, "--dump only up to this many faces")
        ->capture_default_str();
    cli.add_option("--oracle-max-faces", a.oracle_max_faces,
                   "check against the double reference up to this many faces")
        ->capture_default_str();
}

bool verified(const Row& r) { return r.oracle_ok && r.ptp_ok; }

int run(const Args& a)
{
    TriangleSoup soup = bench::gpu_driver_input(a.file);
    std::printf("GPU: %s; mesh %s; source input vertex %u; median of %d runs after a warm-up\n\n",
                bench::gpu_name().c_str(), bench::input_name(a.file), a.source, a.runs);
    const auto rows = bench::rows_of_levels<Row>(std::move(soup), a, measure);
    print_table(rows);
    const bool all =
        bench::write_rows_json(a.json, "{\"gpu\": \"" + bench::gpu_name() + "\", \"rows\": [", rows,
                               row_json, verified, ", ");
    return all ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
