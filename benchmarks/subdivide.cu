// bench_subdivide: Loop subdivision, L levels from the input, on meshes
// given by --mesh (levels 1..--levels) and on the refined armadillo (one
// level). In the same run: RXMesh (algo/loop_subdivision.cuh), the seed
// paper's global-CSR method on the GPU (baselines/csr_loop.cuh, closed
// manifold meshes only), and OpenSubdiv on the CPU (Far refiner + primvar
// refiner on 1 thread; stencils evaluated by Osd::OmpEvaluator on
// --threads). GPU times: CUDA events, median of --runs after warm-ups, each
// GPU method at its best block size of a sweep. Like for like, each GPU
// method is timed as one whole call from the input mesh (RXMesh's level-0
// setup, its topology build, inside as the CSR method's sorts are); RXMesh's
// setup and levels, timed apart with events inside the call, are shown too. Every size is verified: RXMesh against
// the CSR method and OpenSubdiv face corner by face corner, and against
// the serial reference (same numbering) up to --ref-max-faces.
// The floor: the bytes of the output (positions and faces) divided by the
// measured device copy bandwidth (bytes read + written per second).
#include <cuda_runtime.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_util.h"
#include "csr_loop.cuh"
#include "face_corners.h"
#include "osd_loop.h"
#include "rxmesh/algo/loop_subdivision.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/loop_subdivision.h"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_subdivide",
    "Loop subdivision, RXMesh vs the seed's global-CSR method vs OpenSubdiv"};

using namespace rxmesh;
using bench::json_number;
using bench::median;

const std::vector<int> kBlocks = {128, 256, 512, 1024};

struct Args
{
    std::vector<std::string> meshes;
    int         levels = 7, runs = 15, cpu_runs = 3, threads = 16;
    std::string armadillo;  // refined --armadillo-refine times, one level of Loop
    int         armadillo_refine = 4;
    std::size_t ref_max_faces    = 800000;
    std::string json;
};

//! The seed's Table 1 (RTX 3060, quoted, levels 2..7), by mesh file name.
double seed_quoted_ms(const std::string& name, int level)
{
    static const double bigguy[] = {0.04, 0.14, 0.45, 1.79, 7.16, 28.16};
    static const double frog[]   = {0.04, 0.11, 0.39, 1.49, 5.97, 24.15};
    if (level < 2 || level > 7)
        return NAN;
    if (name.find("bigguyT") != std::string::npos)
        return bigguy[level - 2];
    if (name.find("monsterfrogT") != std::string::npos)
        return frog[level - 2];
    return NAN;
}

struct Input
{
    std::string                 name;
    TriangleSoup                soup;
    std::vector<float>          pos;
    std::vector<std::uint32_t>  faces;
    DeviceBuffer<float>         d_pos;
    DeviceBuffer<std::uint32_t> d_faces;
    double                      diagonal = 0;

    VertexView<const float, 3> positions() const
    {
        return {d_pos.data(), std::uint32_t(soup.positions.size())};
    }
    FaceView<const std::uint32_t, 3> faces_view() const
    {
        return {d_faces.data(), std::uint32_t(soup.faces.size())};
    }
};

Input make_input(const std::string& name, TriangleSoup soup)
{
    Input in;
    in.name = name, in.soup = std::move(soup);
    std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    for (const Vec3f& p : in.soup.positions)
        for (int d = 0; d < 3; ++d) {
            in.pos.push_back(p[d]);
            lo[d] = std::min(lo[d], double(p[d])), hi[d] = std::max(hi[d], double(p[d]));
        }
    for (const Triangle& f : in.soup.faces)
        in.faces.insert(in.faces.end(), f.begin(), f.end());
    for (int d = 0; d < 3; ++d)
        in.diagonal += (hi[d] - lo[d]) * (hi[d] - lo[d]);
    in.diagonal = std::sqrt(in.diagonal);
    in.d_pos    = DeviceBuffer<float>::from_host(in.pos);
    in.d_faces  = DeviceBuffer<std::uint32_t>::from_host(in.faces);
    return in;
}

//! Bytes the default pool hands out during `work`, beyond what it held before.
std::size_t pool_peak_bytes(const std::function<void()>& work)
{
    cudaMemPool_t pool;
    RXMESH_CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    std::uint64_t used = 0, zero = 0, high = 0;
    RXMESH_CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    RXMESH_CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
    work();
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    RXMESH_CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
    return std::size_t(high - std::min(high, used));
}

struct Ours
{
    int                 block    = 0;
    double              total_ms = 1e300, setup_ms = 0;  // levels, setup: from the report
    double              call_ms = 1e300;  // the whole call, timed as the CSR method's
    std::vector<double> level_ms;
    std::size_t         peak_measured = 0, peak_model = 0;
    std::vector<float>         pos;
    std::vector<std::uint32_t> faces;
};

Ours run_ours(const Input& in, int levels, const Args& a)
{
    Ours best;
    for (int block : kBlocks) {
        std::vector<double>              totals, setups;
        std::vector<std::vector<double>> per_level(levels);
        for (int r = -2; r < a.runs; ++r) {  // two warm-ups
            LoopOptions opt;
            opt.block_threads = block, opt.time_levels = true;
            const LoopReport   rep   = loop_subdivide(in.positions(), in.faces_view(), levels, opt).report;
            const auto&        lv    = rep.level_ms;
            const float        setup = rep.setup_ms;
            if (r < 0)
                continue;
            double sum = 0;
            for (int l = 0; l < levels; ++l)
                sum += lv[l], per_level[l].push_back(lv[l]);
            totals.push_back(sum), setups.push_back(setup);
        }
        LoopOptions untimed;
        untimed.block_threads = block;
        const double call = bench::gpu_median_ms(
            [&] { (void)loop_subdivide(in.positions(), in.faces_view(), levels, untimed); }, 2,
            a.runs);
        if (call < best.call_ms) {
            best.block = block, best.call_ms = call;
            best.total_ms = median(totals), best.setup_ms = median(setups);
            best.level_ms.clear();
            for (auto& v : per_level)
                best.level_ms.push_back(median(v));
        }
    }
    LoopOptions opt;
    opt.block_threads = best.block;
    LoopMesh result;
    best.peak_measured = pool_peak_bytes([&] {
        result = loop_subdivide(in.positions(), in.faces_view(), levels, opt);
    });
    best.peak_model = result.report.peak_bytes;
    best.pos        = result.positions.to_host();
    best.faces      = result.faces.to_host();
    return best;
}

struct Csr
{
    bool        ran = false;
    std::string why;
    int         block    = 0;
    double      total_ms = 1e300;
    std::size_t peak     = 0;
    double      error    = NAN;  // face-corner error vs ours / diagonal
};

Csr run_csr(const Input& in, int levels, const Args& a, const Ours& ours)
{
    Csr c;
    try {
        const auto V = std::uint32_t(in.soup.positions.size());
        const auto F = std::uint32_t(in.soup.faces.size());
        for (int block : kBlocks) {
            bench::CsrLoop csr;
            const std::size_t peak = pool_peak_bytes(
                [&] { csr.run(in.d_pos.data(), V, in.d_faces.data(), F, levels, block); });
            const double ms = bench::gpu_median_ms(
                [&] { csr.run(in.d_pos.data(), V, in.d_faces.data(), F, levels, block); }, 2, a.runs);
            if (ms < c.total_ms)
                c.total_ms = ms, c.block = block, c.peak = peak;
            if (block == kBlocks.front()) {
                std::vector<float>         p(3 * std::size_t(csr.num_vertices()));
                std::vector<std::uint32_t> f(3 * std::size_t(csr.num_faces()));
                RXMESH_CHECK_CUDA(cudaMemcpy(p.data(), csr.positions(), p.size() * 4, cudaMemcpyDeviceToHost));
                RXMESH_CHECK_CUDA(cudaMemcpy(f.data(), csr.faces(), f.size() * 4, cudaMemcpyDeviceToHost));
                c.error = bench::max_face_corner_error(ours.pos, ours.faces, p, f) / in.diagonal;
            }
        }
        c.ran = true;
    } catch (const Error& e) {
        c.why = e.what();
    }
    return c;
}

struct Osd
{
    bool   ran = false;
    std::string why;
    double serial_ms = NAN, threaded_ms = NAN, stencil_build_ms = NAN, refine_ms = NAN;
    double error = NAN;
};

Osd run_osd(const Input& in, int levels, const Args& a, const Ours& ours)
{
    Osd o;
    if (!bench::osd_available() || a.cpu_runs < 1) {
        o.why = a.cpu_runs < 1 ? "skipped (--cpu-runs 0)" : "OpenSubdiv not found at build time";
        return o;
    }
    std::vector<double> serial, threaded, build, refine;
    for (int r = 0; r < a.cpu_runs; ++r) {
        bench::OsdLoopTimes t1, tn;
        const auto res1 = bench::osd_loop_subdivide(in.pos, in.faces, levels, 1, &t1);
        const auto resn = bench::osd_loop_subdivide(in.pos, in.faces, levels, a.threads, &tn);
        serial.push_back(t1.refine_ms + t1.primvar_ms + t1.faces_ms);
        threaded.push_back(tn.refine_ms + tn.stencil_eval_ms + tn.faces_ms);
        build.push_back(tn.stencil_build_ms), refine.push_back(t1.refine_ms);
        if (r == 0)
            o.error = std::max(bench::max_face_corner_error(ours.pos, ours.faces, res1.positions, res1.faces),
                               bench::max_face_corner_error(ours.pos, ours.faces, resn.positions, resn.faces)) /
                      in.diagonal;
    }
    o.ran = true, o.serial_ms = median(serial), o.threaded_ms = median(threaded);
    o.stencil_build_ms = median(build), o.refine_ms = median(refine);
    return o;
}

//! Largest difference to the serial reference (same numbering; faces must
//! be equal), relative to the diagonal; NaN when the level is too large.
double reference_error(const Input& in, int levels, const Ours& ours, const Args& a)
{
    if (ours.faces.size() / 3 > a.ref_max_faces)
        return NAN;
    const auto ref = reference::loop_subdivide(in.soup.positions, in.soup.faces, levels);
    if (ref.faces.size() * 3 != ours.faces.size())
        return INFINITY;
    for (std::size_t f = 0; f < ref.faces.size(); ++f)
        for (int j = 0; j < 3; ++j)
            if (ref.faces[f][j] != ours.faces[3 * f + j])
                return INFINITY;
    double err = 0;
    for (std::size_t v = 0; v < ref.positions.size(); ++v)
        for (int d = 0; d < 3; ++d)
            err = std::max(err, std::abs(ref.positions[v][d] - ours.pos[3 * v + d]));
    return err / in.diagonal;
}

struct Row : bench::MeshLevel
{
    Ours        ours;
    Csr         csr;
    Osd         osd;
    double      ref_error = NAN, floor_ms = 0, seed_estimate_bytes = 0, quoted = NAN;
    bool        verified  = false;
};

double mib(std::size_t b) { return double(b) / (1 << 20); }

std::string cell(double v, const char* fmt = "%.3f")
{
    if (!std::isfinite(v))
        return "-";
    char buf[64];
    std::snprintf(buf, sizeof(buf), fmt, v);
    return buf;
}

void print_row(const Row& r)
{
    const double fraction = r.floor_ms / r.ours.total_ms;
    std::printf("| %s | %d | %zu | %s | %s (+%s) | %s | %s | %s | %s | %s | %s | %s (%.2f) | %s / %s | %s | %s | %s |\n",
                r.name.c_str(), r.level, r.F, cell(r.ours.call_ms).c_str(), cell(r.ours.total_ms).c_str(),
                cell(r.ours.setup_ms).c_str(), cell(r.ours.level_ms.back()).c_str(),
                r.csr.ran ? cell(r.csr.total_ms).c_str() : "refused",
                cell(r.osd.serial_ms, "%.1f").c_str(), cell(r.osd.threaded_ms, "%.1f").c_str(),
                cell(r.quoted, "%.2f").c_str(), cell(r.floor_ms).c_str(), cell(fraction, "%.2f").c_str(),
                r.ours.total_ms / r.floor_ms, cell(mib(r.ours.peak_measured), "%.1f").c_str(),
                cell(mib(r.ours.peak_model), "%.1f").c_str(),
                r.csr.ran ? cell(mib(r.csr.peak), "%.1f").c_str() : "-",
                cell(r.seed_estimate_bytes / (1 << 20), "%.1f").c_str(), r.verified ? "yes" : "NO");
    std::fflush(stdout);
}

Row measure(const Input& in, int levels, const Args& a, double copy_gbps)
{
    Row r;
    r.name = in.name, r.level = levels;
    r.ours = run_ours(in, levels, a);
    r.V = r.ours.pos.size() / 3, r.F = r.ours.faces.size() / 3;
    r.csr = run_csr(in, levels, a, r.ours);
    r.osd = run_osd(in, levels, a, r.ours);
    r.ref_error = reference_error(in, levels, r.ours, a);
    r.floor_ms  = double(12 * r.V + 12 * r.F) / (copy_gbps * 1e6);
    r.seed_estimate_bytes = 66.0 * std::pow(2.0, 2 * levels - 1) * double(in.soup.faces.size());
    r.quoted = seed_quoted_ms(in.name, levels);
    const double tol = 1e-5;
    r.verified = (!r.csr.ran || r.csr.error <= tol) && (!r.osd.ran || r.osd.error <= tol) &&
                 (!std::isfinite(r.ref_error) ? !std::isinf(r.ref_error) : r.ref_error <= tol);
    print_row(r);
    return r;
}

std::string row_json(const Row& r)
{
    std::string lv;
    for (double v : r.ours.level_ms)
        lv += (lv.empty() ? "" : ",") + json_number(v);
    return "{\"mesh\":\"" + r.name + "\",\"level\":" + std::to_string(r.level) +
           ",\"vertices\":" + std::to_string(r.V) + ",\"faces\":" + std::to_string(r.F) +
           ",\"rxmesh_call_ms\":" + json_number(r.ours.call_ms) + ",\"rxmesh_ms\":" + json_number(r.ours.total_ms) + ",\"rxmesh_setup_ms\":" +
           json_number(r.ours.setup_ms) + ",\"rxmesh_level_ms\":[" + lv + "],\"rxmesh_block\":" +
           std::to_string(r.ours.block) + ",\"rxmesh_peak_bytes\":" + std::to_string(r.ours.peak_measured) +
           ",\"rxmesh_peak_model_bytes\":" + std::to_string(r.ours.peak_model) +
           ",\"csr_ms\":" + json_number(r.csr.ran ? r.csr.total_ms : NAN) + ",\"csr_block\":" +
           std::to_string(r.csr.block) + ",\"csr_peak_bytes\":" + std::to_string(r.csr.peak) +
           ",\"csr_error\":" + json_number(r.csr.error) + ",\"osd_serial_ms\":" + json_number(r.osd.serial_ms) +
           ",\"osd_threaded_ms\":" + json_number(r.osd.threaded_ms) + ",\"osd_refine_ms\":" +
           json_number(r.osd.refine_ms) + ",\"osd_stencil_build_ms\":" + json_number(r.osd.stencil_build_ms) +
           ",\"osd_error\":" + json_number(r.osd.error) + ",\"reference_error\":" + json_number(r.ref_error) +
           ",\"floor_ms\":" + json_number(r.floor_ms) + ",\"seed_estimate_bytes\":" +
           json_number(r.seed_estimate_bytes) + ",\"seed_quoted_ms\":" + json_number(r.quoted) +
           ",\"verified\":" + (r.verified ? "true" : "false") + "}";
}

void add_options(CLI::App& cli, Args& a)
{
    cli.add_option("--mesh", a.meshes, "input mesh, subdivided levels 1..--levels (repeatable)")
        ->allow_extra_args(false);
    cli.add_option("--levels", a.levels, "levels of subdivision of each --mesh")
        ->check(CLI::Range(1, 16))
        ->capture_default_str();
    bench::add_runs(cli, a.runs);
    cli.add_option("--cpu-runs", a.cpu_runs, "runs of OpenSubdiv per size (0: skip it)")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    cli.add_option("--threads", a.threads, "threads of the threaded OpenSubdiv evaluation")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    cli.add_option("--armadillo", a.armadillo,
                   "a mesh refined --armadillo-refine times, then one level");
    cli.add_option("--armadillo-refine", a.armadillo_refine, "1-to-4 refinements of --armadillo")
        ->check(CLI::Range(0, 10))
        ->capture_default_str();
    cli.add_option("--ref-max-faces", a.ref_max_faces,
                   "check against the serial reference up to this many faces")
        ->capture_default_str();
    bench::add_json(cli, a.json);
}

//! Every row written to --json, the CSR method's refusals and the verdict
//! printed; the exit status (1 when a size is not verified).
int finish(const std::vector<Row>& rows, const Args& a, double gbps)
{
    for (const Row& r : rows)
        if (!r.csr.ran)
            std::printf("CSR refused %s level %d: %s\n", r.name.c_str(), r.level, r.csr.why.c_str());
    return bench::finish_verified_rows(
        a.json, bench::gpu_rows_head("\"copy_gbps\":" + json_number(gbps)),
        rows, row_json, [](const Row& r) { return r.verified; },
        "errors relative to the bounding-box diagonal, limit 1e-5");
}

//! Measures every size, prints the tables, writes --json; the exit status.
int run(const Args& a)
{
    bench::keep_pool_memory();
    const double gbps = bench::measured_copy_gbps();
    std::printf("GPU: %s; copy bandwidth %.0f GB/s (read + write); OpenSubdiv threaded: %d threads\n\n",
                bench::gpu_name().c_str(), gbps, a.threads);
    std::printf("| mesh | L | faces | RXMesh whole call ms | RXMesh levels ms (+setup) | last level | CSR whole call (seed's method) | OpenSubdiv 1 thread | "
                "OpenSubdiv %d threads | seed quoted (RTX 3060) | floor ms | fraction of floor (x floor) | "
                "peak MiB measured / model | CSR peak MiB | seed estimate MiB | verified |\n",
                a.threads);
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    std::vector<Row> rows;
    for (const std::string& path : a.meshes) {
        const Input in = make_input(path.substr(path.find_last_of('/') + 1), io::read(path));
        for (int l = 1; l <= a.levels; ++l)
            rows.push_back(measure(in, l, a, gbps));
    }
    if (!a.armadillo.empty()) {
        TriangleSoup s = io::read(a.armadillo);
        for (int i = 0; i < a.armadillo_refine; ++i)
            s = generate::refine(s);
        const Input in = make_input("armadillo refined " + std::to_string(a.armadillo_refine) + "x", s);
        rows.push_back(measure(in, 1, a, gbps));
    }
    return finish(rows, a, gbps);
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
