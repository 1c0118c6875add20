// Geodesic distance by parallel toplesets propagation: RXMesh
// (algo/geodesic.cuh: accumulate_scheduled_loop with Min; block size swept;
// its propagation in one cooperative launch and in host-enqueued chunks, and
// in the paper's VF for_each form, geodesic_vf.cuh) against the same
// algorithm over the PDE halfedges (baselines/pde_geodesic.cuh, the same two
// loop structures, block size swept) in
// RXMesh's vertex order and in the input's, and the serial CPU version of the
// same algorithm (baselines/cpu_ptp.h, one core). Per size (the input refined
// 1-to-4, levels 0..L): time to solution (toplesets included; toplesets and
// propagation also apart), iterations, time per iteration; GPU: medians of
// --runs runs after a warm-up, CUDA events; CPU: median of 3 runs (1 above
// 1M faces). Every method's distances are verified at every size: the GPU
// methods against each other (the same float arithmetic: equal up to 1e-6
// relative), the serial CPU version against RXMesh (1e-4 relative: the host
// rounds without fused multiply-adds), and RXMesh against the double oracle
// reference/geodesic.h up to --oracle-max-faces (1e-4 relative).
// --dump DIR writes RXMesh's distances in input order (float32, one per input
// vertex) for sizes up to --dump-max-faces, for the exact-geodesic accuracy
// check (bench_geodesic_exact, with CGAL).
//
// usage: bench_geodesic [--mesh FILE] [--levels L] [--min-level K] [--runs R] [--source I]
//                       [--tol T] [--json FILE] [--dump DIR] [--dump-max-faces N]
//                       [--cpu-max-faces N] [--oracle-max-faces N]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_mesh.h"
#include "bench_util.h"
#include "cpu_ptp.h"
#include "geodesic_vf.cuh"
#include "pde_geodesic.cuh"
#include "rxmesh/algo/geodesic.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/geodesic.h"
#include "rxmesh/rxmesh.cuh"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_geodesic",
    "geodesic distance by parallel toplesets propagation, RXMesh vs PDE vs the serial CPU "
    "version"};

using namespace rxmesh;

struct Args
{
    std::string   file, json, dump;
    int           levels = 4, runs = 5;
    std::uint32_t source = 0;
    double        tol    = 1e-4;
    std::uint64_t dump_max_faces = 1000000, oracle_max_faces = 1000000;
    std::uint64_t cpu_max_faces  = ~0ull;
    int           min_level      = 0;
};

struct Timing
{
    double total_ms = 0, toplesets_ms = 0, propagation_ms = 0;
    long   iterations = 0, sweeps = 0;
    int    block = 0;
    int    min_blocks = 1;  // RXMesh: the kernels' minimum of resident blocks per SM
    bool   ok = false;
    double max_rel_diff = 0;  // against the RXMesh result
    std::uint32_t levels = 0;

    //! The medians of the runs' toplesets and propagation times, and the
    //! last run's counts and verdict.
    void set_runs(const std::vector<double>& topo, const std::vector<double>& prop,
                  const GeodesicReport& last)
    {
        toplesets_ms   = bench::median(topo);
        propagation_ms = bench::median(prop);
        iterations     = last.iterations;
        sweeps         = last.sweeps;
        levels         = last.levels;
        ok             = last.converged;
    }
};

struct Row
{
    std::uint64_t faces = 0, vertices = 0;
    std::uint32_t levels = 0;
    Timing        rx, rx_vf, pde_sorted, pde_input;  // each loop in one cooperative launch
    Timing        rx_chunked;          // RXMesh's best block size, iterations in host-enqueued chunks
    Timing        pde_sorted_chunked;  // PDE (RXMesh order), its best block size, the same
    Timing        rx_no_sweeps;     // RXMesh's best block size, Romero et al.'s stopping rule
    double        cpu_ms = 0, cpu_max_rel = 0, oracle_max_rel = 0;
    bool          cpu_ok = false, oracle_ok = false;
    double        max_distance = 0;
};

double max_relative_difference(const std::vector<float>& a, const std::vector<float>& b)
{
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::isinf(a[i]) || std::isinf(b[i])) {
            if (std::isinf(a[i]) != std::isinf(b[i]))
                return INFINITY;
            continue;
        }
        worst = std::max(worst, std::abs(double(a[i]) - b[i]) / std::max(double(b[i]), 1e-30));
    }
    return worst;
}

//! RXMesh with block size B (and MinBlocks resident blocks per SM asked of
//! the compiler): the library's relaxation (accumulate), or with kVf the
//! paper's form (a VF for_each, geodesic_vf.cuh).
template <int B, bool kVf = false, int MinBlocks = 1>
Timing time_rxmesh_block(const RXMesh& mesh, const std::vector<std::uint32_t>& src, const Args& a,
                         DeviceBuffer<float>& d, bool one_launch = true, bool sweeps = true)
{
    GeodesicOptions o;
    o.tolerance      = a.tol;
    o.one_launch     = one_launch;
    o.closing_sweeps = sweeps;
    const VertexView<float>     dv(d.data(), mesh.num_vertices());
    DeviceBuffer<std::uint32_t> faces;  // the VF form reads faces: made outside the timing
    if constexpr (kVf)
        faces = mesh.faces();
    GeodesicReport      rep;
    std::vector<double> topo, prop;
    Timing              t;
    t.block      = B;
    t.min_blocks = MinBlocks;
    t.total_ms   = bench::gpu_median_ms([&] {
        if constexpr (kVf) {
            GpuTimer timer;
            timer.start();
            const Toplesets top = toplesets(mesh, src);
            const float     ms  = timer.stop_ms();
            rep = bench::propagate_distance_vf<B>(mesh, mesh.positions(), faces.data(), src, top, dv, o);
            rep.toplesets_ms = ms;
        } else {
            rep = geodesic_distance<B, MinBlocks>(mesh, mesh.positions(), src, dv, o);
        }
        topo.push_back(rep.toplesets_ms);
        prop.push_back(rep.propagation_ms);
    }, 1, a.runs);
    t.set_runs(topo, prop, rep);
    return t;
}

Timing fastest(std::initializer_list<Timing> candidates)
{
    Timing best;
    for (const Timing& t : candidates)
        if (best.block == 0 || t.total_ms < best.total_ms)
            best = t;
    return best;
}

//! RXMesh at its best block size and register cap with the iterations in chunks, and without
//! closing sweeps (then also the largest relative difference to `swept`).
template <int B, int MinBlocks>
void time_variants(const RXMesh& mesh, const std::vector<std::uint32_t>& src, const Args& a,
                   const std::vector<float>& swept, Row& row)
{
    DeviceBuffer<float> d(mesh.num_vertices());
    row.rx_chunked              = time_rxmesh_block<B, false, MinBlocks>(mesh, src, a, d, false);
    row.rx_chunked.max_rel_diff = max_relative_difference(d.to_host(), swept);
    row.rx_no_sweeps = time_rxmesh_block<B, false, MinBlocks>(mesh, src, a, d, true, false);
    row.rx_no_sweeps.max_rel_diff = max_relative_difference(d.to_host(), swept);
}

Timing time_rxmesh(const RXMesh& mesh, const std::vector<std::uint32_t>& src, const Args& a,
                   std::vector<float>& result, Row& row)
{
    DeviceBuffer<float> d(mesh.num_vertices());
    // block sizes, and register caps for 10 and 12 blocks of 128 threads,
    // 5 and 6 of 256 (the propagation's kernels otherwise take up to 60
    // registers: 8 and 4 blocks)
    const Timing best = fastest({time_rxmesh_block<64>(mesh, src, a, d),
                                 time_rxmesh_block<128>(mesh, src, a, d),
                                 time_rxmesh_block<128, false, 10>(mesh, src, a, d),
                                 time_rxmesh_block<128, false, 12>(mesh, src, a, d),
                                 time_rxmesh_block<256>(mesh, src, a, d),
                                 time_rxmesh_block<256, false, 5>(mesh, src, a, d),
                                 time_rxmesh_block<256, false, 6>(mesh, src, a, d)});
    result = d.to_host();  // every launch computes the same distances
    const int b = best.block, mb = best.min_blocks;
    if (b == 64) time_variants<64, 1>(mesh, src, a, result, row);
    else if (b == 128 && mb == 10) time_variants<128, 10>(mesh, src, a, result, row);
    else if (b == 128 && mb == 12) time_variants<128, 12>(mesh, src, a, result, row);
    else if (b == 128) time_variants<128, 1>(mesh, src, a, result, row);
    else if (mb == 5) time_variants<256, 5>(mesh, src, a, result, row);
    else if (mb == 6) time_variants<256, 6>(mesh, src, a, result, row);
    else time_variants<256, 1>(mesh, src, a, result, row);
    return best;
}

Timing time_rxmesh_vf(const RXMesh& mesh, const std::vector<std::uint32_t>& src, const Args& a,
                      std::vector<float>& result)
{
    DeviceBuffer<float> d(mesh.num_vertices());
    const Timing        best = fastest({time_rxmesh_block<128, true>(mesh, src, a, d),
                                        time_rxmesh_block<256, true>(mesh, src, a, d)});
    result = d.to_host();
    return best;
}

//! PDE over `faces` (numbered as `positions`), block size swept.
Timing time_pde(const std::vector<Triangle>& faces, const std::vector<float>& positions,
                std::uint32_t num_vertices, const std::vector<std::uint32_t>& src, const Args& a,
                std::vector<float>& result, bool one_launch = true)
{
    const baselines::PdeMesh pde(faces, num_vertices);
    const auto               pos = DeviceBuffer<float>::from_host(positions);
    DeviceBuffer<float>      d(num_vertices);
    GeodesicOptions          o;
    o.tolerance  = a.tol;
    o.one_launch = one_launch;
    Timing best;
    for (int block : {64, 128, 256, 512}) {
        GeodesicReport      rep;
        std::vector<double> topo, prop;
        GpuTimer            topo_timer;
        Timing              t;
        t.block    = block;
        t.total_ms = bench::gpu_median_ms([&] {
            topo_timer.start();
            const baselines::PdeToplesets top = baselines::pde_toplesets(pde, src, block, one_launch);
            topo.push_back(topo_timer.stop_ms());
            rep = baselines::pde_propagate(pde, pos.data(), src, top, d.data(), o, block);
            prop.push_back(rep.propagation_ms);
        }, 1, a.runs);
        t.set_runs(topo, prop, rep);
        if (best.block == 0 || t.total_ms < best.total_ms)
            best = t;
    }
    result = d.to_host();
    return best;
}

std::vector<float> flat_positions(const std::vector<Vec3f>& p)
{
    std::vector<float> out;
    for (const auto& x : p)
        out.insert(out.end(), x.begin(), x.end());
    return out;
}

Row measure(const TriangleSoup& soup, const Args& a, int level)
{
    BuildOptions opt;
    opt.weld = true;
    const RXMesh mesh(soup, opt);
    const auto   to_global = mesh.input_vertex_to_global().to_host();
    if (a.source >= to_global.size() || to_global[a.source] == ~0u)
        throw InvalidInputError("bench_geodesic: source " + std::to_string(a.source) + " is not a mesh vertex");
    const std::vector<std::uint32_t> src_global{to_global[a.source]}, src_input{a.source};
    Row row;
    row.faces    = mesh.num_faces();
    row.vertices = mesh.num_vertices();
    std::vector<float> rx, rx_vf, pde_sorted, pde_input;
    row.rx    = time_rxmesh(mesh, src_global, a, rx, row);
    row.rx_vf = time_rxmesh_vf(mesh, src_global, a, rx_vf);
    row.rx_vf.max_rel_diff = max_relative_difference(rx_vf, rx);
    // PDE in RXMesh's numbering
    const std::vector<float> gpos = to_host(mesh.positions().view());
    const std::vector<Triangle> gfaces = bench::global_faces(mesh);
    row.pde_sorted = time_pde(gfaces, gpos, mesh.num_vertices(), src_global, a, pde_sorted);
    row.pde_sorted.max_rel_diff = max_relative_difference(pde_sorted, rx);
    row.pde_sorted_chunked = time_pde(gfaces, gpos, mesh.num_vertices(), src_global, a, pde_sorted, false);
    row.pde_sorted_chunked.max_rel_diff = max_relative_difference(pde_sorted, rx);
    // PDE in the input's numbering, compared through the input -> global map
    row.pde_input = time_pde(soup.faces, flat_positions(soup.positions),
                             std::uint32_t(soup.positions.size()), src_input, a, pde_input);
    const std::vector<float> rx_in_input = bench::in_input_order(rx, to_global, INFINITY);
    row.pde_input.max_rel_diff = max_relative_difference(pde_input, rx_in_input);
    // the serial CPU baseline (the same float algorithm, tuned for one core)
    // at every size, and the double oracle (reference/geodesic.h) up to
    // --oracle-max-faces, both on the global numbering
    std::vector<Vec3f> hp(mesh.num_vertices());
    for (std::size_t v = 0; v < hp.size(); ++v)
        hp[v] = {gpos[3 * v], gpos[3 * v + 1], gpos[3 * v + 2]};
    row.levels = row.rx.levels;
    if (row.faces <= a.cpu_max_faces) {
        baselines::CpuPtpResult cpu;
        row.cpu_ms = bench::cpu_median_ms([&] { cpu = baselines::cpu_ptp(hp, gfaces, src_global, a.tol); },
                                          row.faces > 1000000 ? 1 : 3);
        row.cpu_max_rel = max_relative_difference(cpu.distance, rx);
        row.cpu_ok      = cpu.converged && row.cpu_max_rel <= 1e-4 && cpu.levels == row.levels;
    } else {
        row.cpu_ms = row.cpu_max_rel = NAN;
        row.cpu_ok = true;
    }
    if (row.faces <= a.oracle_max_faces) {
        const reference::Geodesic ref = reference::geodesic_ptp(hp, gfaces, src_global, a.tol);
        const std::vector<float>  ref_f(ref.distance.begin(), ref.distance.end());
        row.oracle_max_rel = max_relative_difference(rx, ref_f);
        row.oracle_ok = ref.converged && row.oracle_max_rel <= 1e-4 && ref.toplesets.num_levels == row.levels;
    } else {
        row.oracle_max_rel = NAN;
        row.oracle_ok      = true;
    }
    for (float x : rx)
        if (!std::isinf(x))
            row.max_distance = std::max(row.max_distance, double(x));
    row.rx.ok         = row.rx.ok && row.oracle_ok && row.pde_sorted.levels == row.levels;
    row.rx_vf.ok      = row.rx_vf.ok && row.rx_vf.max_rel_diff <= 1e-6;
    row.pde_sorted.ok = row.pde_sorted.ok && row.pde_sorted.max_rel_diff <= 1e-6;
    row.pde_input.ok  = row.pde_input.ok && row.pde_input.max_rel_diff <= 1e-6;
    row.rx_chunked.ok = row.rx_chunked.ok && row.rx_chunked.max_rel_diff == 0;  // the same iterations
    row.pde_sorted_chunked.ok = row.pde_sorted_chunked.ok && row.pde_sorted_chunked.max_rel_diff <= 1e-6;
    if (!a.dump.empty() && row.faces <= a.dump_max_faces)
        bench::write_text_file(a.dump + "/rxmesh_level" + std::to_string(level) + ".f32",
                               std::string(reinterpret_cast<const char*>(rx_in_input.data()),
                                           rx_in_input.size() * sizeof(float)));
    std::fprintf(stderr,
                 "level %d: %llu faces, RXMesh %.2f ms, PDE %.2f / %.2f ms, CPU "
                 "%.0f ms\n",
                 level, (unsigned long long)row.faces, row.rx.total_ms,
                 row.pde_sorted.total_ms, row.pde_input.total_ms, row.cpu_ms);
    return row;
}

using bench::yes;

void print_table(const std::vector<Row>& rows)
{
    std::printf("### Time to solution (ms; toplesets + propagation; median of runs)\n\n"
                "Propagation loops: \"one launch\" runs every iteration in one cooperative launch (the "
                "default of both), \"chunked\" enqueues chunks of iterations from the host (CUDA graphs). "
                "The same for the toplesets.\n\n"
                "RXMesh's block: its best of 64, 128 and 256 threads, 128 and 256 also with the registers "
                "capped for 10 and 12, or 5 and 6, resident blocks per SM (\"N blocks/SM\").\n\n"
                "| faces | levels | iterations (closing sweeps) | RXMesh (block) | RXMesh chunked | RXMesh VF form, chunked (block) "
                "| PDE, RXMesh order (block) | PDE chunked, RXMesh order (block) | PDE, input order (block) | CPU serial, 1 core "
                "| RXMesh vs PDE sorted / input | chunked vs chunked | RXMesh vs CPU | verified |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows)
        std::printf("| %llu | %u | %ld (%ld) | %.2f (%d%s) | %.2f | %.2f (%d) | %.2f (%d) | %.2f (%d) | %.2f (%d) | %.0f "
                    "| %.2fx / %.2fx | %.2fx | %.0fx | %s %s %s %s %s %s %s |\n",
                    (unsigned long long)r.faces, r.levels, r.rx.iterations, r.rx.sweeps, r.rx.total_ms, r.rx.block,
                    r.rx.min_blocks > 1 ? (", " + std::to_string(r.rx.min_blocks) + " blocks/SM").c_str() : "",
                    r.rx_chunked.total_ms, r.rx_vf.total_ms, r.rx_vf.block, r.pde_sorted.total_ms, r.pde_sorted.block,
                    r.pde_sorted_chunked.total_ms, r.pde_sorted_chunked.block, r.pde_input.total_ms,
                    r.pde_input.block, r.cpu_ms, r.pde_sorted.total_ms / r.rx.total_ms,
                    r.pde_input.total_ms / r.rx.total_ms, r.pde_sorted_chunked.total_ms / r.rx_chunked.total_ms,
                    r.cpu_ms / r.rx.total_ms, yes(r.rx.ok), yes(r.rx_chunked.ok), yes(r.rx_vf.ok),
                    yes(r.pde_sorted.ok), yes(r.pde_sorted_chunked.ok), yes(r.pde_input.ok), yes(r.cpu_ok && r.oracle_ok));
    std::printf("\n### Apart: toplesets and propagation (ms), time per propagation iteration (us)\n\n"
                "| faces | RXMesh toplesets | RXMesh propagation | RXMesh us/iter | RXMesh chunked us/iter | VF form us/iter "
                "| PDE sorted toplesets | PDE sorted propagation | PDE us/iter | PDE chunked us/iter "
                "| max rel. diff VF / PDE sorted / input / CPU / oracle |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|\n");
    const auto per_iteration = [](const Timing& t) { return 1e3 * t.propagation_ms / std::max(1L, t.iterations); };
    for (const Row& r : rows)
        std::printf("| %llu | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1e / %.1e / %.1e / %.1e / %.1e |\n",
                    (unsigned long long)r.faces, r.rx.toplesets_ms, r.rx.propagation_ms, per_iteration(r.rx),
                    per_iteration(r.rx_chunked), per_iteration(r.rx_vf), r.pde_sorted.toplesets_ms,
                    r.pde_sorted.propagation_ms, per_iteration(r.pde_sorted), per_iteration(r.pde_sorted_chunked),
                    r.rx_vf.max_rel_diff, r.pde_sorted.max_rel_diff, r.pde_input.max_rel_diff, r.cpu_max_rel,
                    r.oracle_max_rel);
}

void print_sweeps_table(const std::vector<Row>& rows)
{
    std::printf("\n### RXMesh without closing sweeps (Romero et al.'s stopping rule), same block size\n\n"
                "| faces | iterations with / without | ms with / without | max rel. diff to the swept result |\n"
                "|---|---|---|---|\n");
    for (const Row& r : rows)
        std::printf("| %llu | %ld / %ld | %.2f / %.2f | %.1e |\n", (unsigned long long)r.faces, r.rx.iterations,
                    r.rx_no_sweeps.iterations, r.rx.total_ms, r.rx_no_sweeps.total_ms, r.rx_no_sweeps.max_rel_diff);
}

std::string timing_json(const Timing& t)
{
    using bench::json_number;
    return "{\"total_ms\": " + json_number(t.total_ms) + ", \"toplesets_ms\": " + json_number(t.toplesets_ms) +
           ", \"propagation_ms\": " + json_number(t.propagation_ms) + ", \"iterations\": " +
           std::to_string(t.iterations) + ", \"block\": " + std::to_string(t.block) +
           ", \"min_blocks_per_sm\": " + std::to_string(t.min_blocks) + ", \"verified\": " +
           (t.ok ? "true" : "false") + ", \"max_rel_diff_vs_rxmesh\": " + json_number(t.max_rel_diff) + "}";
}

std::string row_json(const Row& r)
{
    using bench::json_number;
    return "{\"faces\": " + std::to_string(r.faces) + ", \"vertices\": " + std::to_string(r.vertices) +
           ", \"levels\": " + std::to_string(r.levels) + ", \"rxmesh\": " + timing_json(r.rx) + ", \"rxmesh_chunked\": " + timing_json(r.rx_chunked) + ", \"pde_rxmesh_order_chunked\": " + timing_json(r.pde_sorted_chunked) + ", \"rxmesh_no_closing_sweeps\": " + timing_json(r.rx_no_sweeps) + ", \"rxmesh_vf_form\": " + timing_json(r.rx_vf) +
           ", \"pde_rxmesh_order\": " + timing_json(r.pde_sorted) + ", \"pde_input_order\": " +
           timing_json(r.pde_input) + ", \"cpu_serial_ms\": " + json_number(r.cpu_ms) +
           ", \"cpu_max_rel_diff\": " + json_number(r.cpu_max_rel) + ", \"oracle_max_rel_diff\": " +
           json_number(r.oracle_max_rel) + ", \"max_distance\": " +
           json_number(r.max_distance) + "}";
}

void add_options(CLI::App& cli, Args& a)
{
    bench::add_mesh_levels_runs(cli, a.file, "default: an icosphere of 5 subdivisions", a.levels,
                                a.min_level, a.runs);
    cli.add_option("--source", a.source, "the source vertex (an input index)")
        ->capture_default_str();
    cli.add_option("--tol", a.tol, "relative tolerance of a level's convergence")
        ->check(CLI::Range(1e-12, 0.5))
        ->capture_default_str();
    bench::add_json(cli, a.json);
    cli.add_option("--dump", a.dump,
                   "write RXMesh's distances in input order (float32) to this directory");
    cli.add_option("--dump-max-faces", a.dump_max_faces, "--dump only up to this many faces")
        ->capture_default_str();
    cli.add_option("--cpu-max-faces", a.cpu_max_faces,
                   "run the serial CPU version up to this many faces");
    cli.add_option("--oracle-max-faces", a.oracle_max_faces,
                   "check against the double oracle up to this many faces")
        ->capture_default_str();
}

//! Whether every method converged to distances that agree.
bool verified(const Row& r)
{
    return r.rx.ok && r.rx_chunked.ok && r.rx_vf.ok && r.pde_sorted.ok && r.pde_sorted_chunked.ok &&
           r.pde_input.ok && r.cpu_ok && r.oracle_ok;
}

//! Measures every size, prints the tables, writes --json; the exit status.
int run(const Args& a)
{
    TriangleSoup soup = bench::gpu_driver_input(a.file);
    std::printf("GPU: %s; mesh %s; source input vertex %u; tol %.1e; median of %d runs "
                "after a warm-up\n\n",
                bench::gpu_name().c_str(), bench::input_name(a.file), a.source, a.tol,
                a.runs);
    const auto rows = bench::rows_of_levels<Row>(std::move(soup), a, measure);
    print_table(rows);
    print_sweeps_table(rows);
    const bool all = bench::write_rows_json(
        a.json,
        "{\"gpu\": \"" + bench::gpu_name() + "\", \"tolerance\": " +
            bench::json_number(a.tol) + ", \"rows\": [",
        rows, row_json, verified, ", ");
    return all ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
