// bench_dynamic: throughput of the changing-topology GPU engine (DynamicMesh,
// dynamic/dynamic_pass.cuh) in edge operations per second, on each --mesh
// and its 1-to-4 refinements (levels --min-level .. --levels; the
// armadillo's 52K faces give 208K, 832K, 3.3M).
//
// Work. A round is the two topology steps of isotropic remeshing: one
// split_pass (every edge longer than 4/3 L, split at its midpoint, longest
// first: priority = -length) then one collapse_pass (every edge shorter
// than 4/5 L, collapsed to its midpoint, shortest first: priority =
// length). L = --scale x the mean edge length of the input at that size
// (computed on the host over its unique edges); the default 0.7 makes many
// edges long, so every size has real work. --rounds rounds per run; a round
// where neither pass applies anything ends the run early (the mesh, and so
// every later round, would be unchanged).
//
// Timing. The DynamicMesh is built from the soup outside the timing; one
// warm-up sequence on its own copy, then --runs fresh copies, each running
// the rounds: device time = the sum of the passes' PassReport::ms (CUDA
// events around the whole pass, its edge table included), wall time = host
// time around all rounds (synchronised). Reported: medians over the runs;
// operations per second = applied operations (splits + collapses) / median
// device seconds and / median wall seconds; the median device ms of one
// split pass and of one collapse pass (over every pass of that kind of
// every run).
//
// No CPU baseline for this figure: the serial reference
// (reference::EditableMesh) exists to check the engine's correctness and is
// too slow to be a fair baseline for throughput.
//
// Verification at every size, outside the timing, on the mesh of the last
// timed run: validate().ok(); manifoldness kept (is_manifold() equals the
// input's when the input is manifold; the armadillo is closed manifold);
// the Euler characteristic unchanged when the input is manifold (the link
// condition keeps it); the same applied counts in every run; and the same
// sequence on two more copies with DynamicOptions::block_threads 128 and
// 512 giving the same slot_faces() and slot_positions() (bitwise) as each
// other and as the timed run (default block_threads).
//
// Back to a static mesh, on the last timed run's mesh, --runs times each,
// interleaved, host-synchronised wall time (each is a build with host
// steps), medians: DynamicMesh::to_rxmesh(); RXMesh built from the same
// compact mesh's device arrays (compacted once beforehand, so it is the
// build alone); and the host path (to_host(), then RXMesh from the soup).
// Verified: the three meshes have the same vertex, edge, face and patch
// counts, and to_rxmesh()'s faces equal the device-array build's.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_util.h"
#include "rxmesh/dynamic/dynamic_pass.cuh"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/rxmesh.h"

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_dynamic",
    "split/collapse rounds of RXMesh's changing-topology GPU engine, in operations per "
    "second"};

using namespace rxmesh;
using bench::json_number;
using bench::median;

struct Args : bench::RefinedMeshArgs
{
    int                      rounds = 5;
    float                    scale  = 0.7f;
};

//! Splits edges longer than sqrt(limit2) at the midpoint, longest first.
struct SplitLong
{
    float limit2;
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        const Vec3  p = e.position(e.a), q = e.position(e.b);
        const float l2 = squared_norm(q - p);
        return EdgeDecision{l2 > limit2, (p + q) * 0.5f, -sqrtf(l2)};
    }
};

//! Collapses edges shorter than sqrt(limit2) to the midpoint, shortest first.
struct CollapseShort
{
    float limit2;
    __device__ EdgeDecision operator()(const EdgeContext& e) const
    {
        const Vec3  p = e.position(e.a), q = e.position(e.b);
        const float l2 = squared_norm(q - p);
        return EdgeDecision{l2 < limit2, (p + q) * 0.5f, sqrtf(l2)};
    }
};

struct Limits
{
    double mean_edge = 0, target = 0;  // target L = scale x mean edge length
    float  split2 = 0, collapse2 = 0;  // squared: (4/3 L)^2, (4/5 L)^2
};

//! One sequence of rounds on one mesh.
struct Sequence
{
    std::vector<PassReport> passes;  // split, collapse, split, ...
    std::uint32_t           rounds  = 0;
    std::uint64_t           splits  = 0, collapses = 0, refused = 0, conflicted = 0;
    double                  ms      = 0;  // device: the sum of the passes' ms
    double                  wall_ms = 0;

    std::uint64_t applied() const { return splits + collapses; }
    bool          same_counts(const Sequence& o) const
    {
        return rounds == o.rounds && splits == o.splits && collapses == o.collapses &&
               refused == o.refused && conflicted == o.conflicted;
    }
};

//! DynamicMesh -> RXMesh: medians of the three ways (see the top).
struct ToStatic
{
    double to_rxmesh_ms = 0, device_arrays_ms = 0, via_host_ms = 0;
    bool   same = false;
};

struct Row : bench::MeshLevel
{
    std::uint32_t faces_out = 0, vertices_out = 0;
    Limits        limits;
    Sequence      last;                    // the last timed run
    double        ms = 0, wall_ms = 0;     // medians over the runs
    double        split_ms = 0, collapse_ms = 0;  // median of one pass
    double        build_ms = 0;            // DynamicMesh from the soup (last run)
    DynamicMemory memory;
    bool          manifold_in = false, manifold_out = false;
    std::int64_t  euler_in = 0, euler_out = 0;
    bool          valid = false, counts_repeat = true, deterministic = false;
    std::string   first_violation;
    ToStatic      to_static;
    bool          verified = false;
};

double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

//! The mean length of the soup's unique edges, in double.
double mean_edge_length(const TriangleSoup& soup)
{
    std::vector<std::uint64_t> keys;
    keys.reserve(3 * soup.faces.size());
    for (const Triangle& t : soup.faces)
        for (int i = 0; i < 3; ++i) {
            const std::uint32_t a = t[i], b = t[(i + 1) % 3];
            keys.push_back(std::uint64_t(std::min(a, b)) << 32 | std::max(a, b));
        }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    double sum = 0;
    for (const std::uint64_t k : keys) {
        const Vec3f& p = soup.positions[k >> 32];
        const Vec3f& q = soup.positions[k & 0xFFFFFFFFu];
        double       s = 0;
        for (int d = 0; d < 3; ++d) s += (double(q[d]) - p[d]) * (double(q[d]) - p[d]);
        sum += std::sqrt(s);
    }
    return keys.empty() ? 0.0 : sum / double(keys.size());
}

Limits limits_for(const TriangleSoup& soup, float scale)
{
    Limits l;
    l.mean_edge = mean_edge_length(soup);
    l.target    = l.mean_edge * scale;
    const double split = 4.0 / 3.0 * l.target, collapse = 4.0 / 5.0 * l.target;
    l.split2    = float(split * split);
    l.collapse2 = float(collapse * collapse);
    return l;
}

Sequence run_rounds(DynamicMesh& mesh, const Limits& l, int rounds)
{
    Sequence s;
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i) {
        const PassReport split    = mesh.split_pass(SplitLong{l.split2});
        const PassReport collapse = mesh.collapse_pass(CollapseShort{l.collapse2});
        for (const PassReport* r : {&split, &collapse}) {
            s.passes.push_back(*r);
            s.refused += r->refused;
            s.conflicted += r->conflicted;
            s.ms += r->ms;
        }
        s.splits += split.applied;
        s.collapses += collapse.applied;
        ++s.rounds;
        if (!split.progress() && !collapse.progress()) break;
    }
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    s.wall_ms = ms_since(t0);
    return s;
}

//! The rounds with `block_threads`; true when the slots equal faces/positions.
bool same_slots(const TriangleSoup& soup, const Limits& l, int rounds,
                std::uint32_t block_threads, const std::vector<std::uint32_t>& faces,
                const std::vector<float>& positions)
{
    DynamicOptions o;
    o.block_threads = block_threads;
    DynamicMesh mesh(soup, o);
    run_rounds(mesh, l, rounds);
    const std::vector<float> p = mesh.slot_positions();
    return mesh.slot_faces() == faces && p.size() == positions.size() &&
           (p.empty() || std::memcmp(p.data(), positions.data(), p.size() * sizeof(float)) == 0);
}

ToStatic time_to_static(const DynamicMesh& mesh, int runs);

//! Warm-up, the timed runs, then the checks of the last run's mesh.
void run_timed(const TriangleSoup& soup, const Args& a, Row& r)
{
    {
        DynamicMesh warm(soup);
        run_rounds(warm, r.limits, a.rounds);
    }
    std::vector<double>        ms, wall, split_ms, collapse_ms;
    std::vector<std::uint32_t> faces;
    std::vector<float>         positions;
    for (int i = 0; i < a.runs; ++i) {
        const auto  t0 = std::chrono::steady_clock::now();
        DynamicMesh mesh(soup);
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        r.build_ms       = ms_since(t0);
        const Sequence s = run_rounds(mesh, r.limits, a.rounds);
        ms.push_back(s.ms);
        wall.push_back(s.wall_ms);
        for (const PassReport& p : s.passes)
            (p.kind == EdgeOpKind::Split ? split_ms : collapse_ms).push_back(p.ms);
        if (i > 0) r.counts_repeat = r.counts_repeat && s.same_counts(r.last);
        r.last = s;
        if (i == a.runs - 1) {  // checks, outside the timing
            r.memory                  = mesh.memory();
            r.faces_out               = mesh.num_faces();
            r.vertices_out            = mesh.num_vertices();
            const DynamicValidation v = mesh.validate();
            r.valid                   = v.ok();
            r.first_violation         = v.first;
            r.manifold_out            = mesh.is_manifold();
            r.euler_out               = mesh.euler_characteristic();
            faces                     = mesh.slot_faces();
            positions                 = mesh.slot_positions();
            r.to_static               = time_to_static(mesh, a.runs);
        }
    }
    r.ms = median(ms), r.wall_ms = median(wall);
    r.split_ms = median(split_ms), r.collapse_ms = median(collapse_ms);
    r.deterministic = same_slots(soup, r.limits, a.rounds, 128, faces, positions) &&
                      same_slots(soup, r.limits, a.rounds, 512, faces, positions);
}

//! The three builds of an RXMesh from `mesh`, interleaved, `runs` times.
ToStatic time_to_static(const DynamicMesh& mesh, int runs)
{
    ToStatic            t;
    const CompactMesh   c = mesh.compact();
    const auto          from_arrays = [&] {
        return RXMesh(VertexView<const float, 3>(c.positions.data(), c.num_vertices),
                      FaceView<const std::uint32_t, 3>(c.faces.data(), c.num_faces));
    };
    const auto timed = [](auto build, std::vector<double>& ms) {
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        const auto   t0 = std::chrono::steady_clock::now();
        const RXMesh m  = build();
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        ms.push_back(ms_since(t0));
        return std::array<std::uint32_t, 4>{m.num_vertices(), m.num_edges(), m.num_faces(),
                                            m.num_patches()};
    };
    std::vector<double> a, b, h;
    t.same = true;
    for (int i = 0; i < runs; ++i) {
        const auto ca = timed([&] { return mesh.to_rxmesh(); }, a);
        const auto cb = timed(from_arrays, b);
        const auto ch = timed([&] { return RXMesh(mesh.to_host()); }, h);
        t.same        = t.same && ca == cb && cb == ch;
    }
    t.same = t.same && mesh.to_rxmesh().faces().to_host() == from_arrays().faces().to_host();
    t.to_rxmesh_ms = median(a), t.device_arrays_ms = median(b), t.via_host_ms = median(h);
    return t;
}

std::string mib(double bytes)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", bytes / 1048576.0);
    return b;
}

double ops_per_s(std::uint64_t ops, double ms) { return ms > 0 ? double(ops) / (ms * 1e-3) : 0; }

//! The table's columns (bench::print_table_head).
constexpr const char* kColumns =
    "| mesh | level | faces | faces after | rounds | splits | collapses | refused | "
    "conflicted | device ms | wall ms | Mops/s (device) | Mops/s (wall) | split pass ms | "
    "collapse pass ms | DynamicMesh MiB (mesh + conn. + workspace + attr.) | verified |";

void print_row(const Row& r)
{
    const DynamicMemory& m = r.memory;
    const Sequence&      s = r.last;
    std::printf(
        "| %s | %d | %zu | %u | %u | %llu | %llu | %llu | %llu | %.3f | %.3f | %.2f | %.2f | "
        "%.3f | %.3f | %s (%s + %s + %s + %s) | %s |\n",
        r.name.c_str(), r.level, r.F, r.faces_out, s.rounds, (unsigned long long)s.splits,
        (unsigned long long)s.collapses, (unsigned long long)s.refused,
        (unsigned long long)s.conflicted, r.ms, r.wall_ms, ops_per_s(s.applied(), r.ms) * 1e-6,
        ops_per_s(s.applied(), r.wall_ms) * 1e-6, r.split_ms, r.collapse_ms,
        mib(double(m.total())).c_str(), mib(double(m.mesh)).c_str(),
        mib(double(m.connectivity)).c_str(), mib(double(m.workspace)).c_str(),
        mib(double(m.attributes)).c_str(), r.verified ? "yes" : "**NO**");
    std::printf("  to a static mesh: to_rxmesh() %.2f ms, RXMesh from device arrays %.2f ms, "
                "through the host %.2f ms (same mesh: %s)\n",
                r.to_static.to_rxmesh_ms, r.to_static.device_arrays_ms, r.to_static.via_host_ms,
                r.to_static.same ? "yes" : "NO");
    if (!r.verified)
        std::printf(
            "  failed: valid %s%s%s, manifold %d -> %d, Euler %lld -> %lld, same counts every "
            "run %s, same slots for block_threads 128 / 256 / 512 %s\n",
            r.valid ? "yes" : "no (", r.valid ? "" : r.first_violation.c_str(),
            r.valid ? "" : ")", int(r.manifold_in), int(r.manifold_out),
            (long long)r.euler_in, (long long)r.euler_out, r.counts_repeat ? "yes" : "no",
            r.deterministic ? "yes" : "no");
    std::fflush(stdout);
}

Row measure(const std::string& name, int level, const TriangleSoup& soup, const Args& a)
{
    Row r;
    r.set_input(name, level, soup);
    r.limits = limits_for(soup, a.scale);
    {
        DynamicMesh input(soup);
        r.manifold_in = input.is_manifold();
        r.euler_in    = input.euler_characteristic();
    }
    run_timed(soup, a, r);
    // a non-manifold input may lose its non-manifold elements to collapses,
    // and only the link condition on a manifold mesh keeps the Euler
    // characteristic: both are required where the input is manifold
    const bool manifold_kept = !r.manifold_in || r.manifold_out;
    const bool euler_kept    = !r.manifold_in || r.euler_out == r.euler_in;
    r.verified = r.valid && manifold_kept && euler_kept && r.counts_repeat && r.deterministic &&
                 r.to_static.same;
    print_row(r);
    return r;
}

std::string row_json(const Row& r)
{
    const DynamicMemory& m = r.memory;
    const Sequence&      s = r.last;
    std::string          passes;
    for (std::size_t i = 0; i < s.passes.size(); ++i)
        passes += (i ? "," : "") + s.passes[i].to_json();
    const auto b = [](bool v) { return std::string(v ? "true" : "false"); };
    return "{\"mesh\":\"" + r.name + "\",\"level\":" + std::to_string(r.level) +
           ",\"vertices\":" + std::to_string(r.V) + ",\"faces\":" + std::to_string(r.F) +
           ",\"vertices_after\":" + std::to_string(r.vertices_out) +
           ",\"faces_after\":" + std::to_string(r.faces_out) +
           ",\"mean_edge_length\":" + json_number(r.limits.mean_edge) +
           ",\"target_edge_length\":" + json_number(r.limits.target) +
           ",\"rounds\":" + std::to_string(s.rounds) +
           ",\"passes\":" + std::to_string(s.passes.size()) +
           ",\"splits\":" + std::to_string(s.splits) +
           ",\"collapses\":" + std::to_string(s.collapses) +
           ",\"applied\":" + std::to_string(s.applied()) +
           ",\"refused\":" + std::to_string(s.refused) +
           ",\"conflicted\":" + std::to_string(s.conflicted) + ",\"ms\":" + json_number(r.ms) +
           ",\"wall_ms\":" + json_number(r.wall_ms) +
           ",\"build_ms\":" + json_number(r.build_ms) +
           ",\"ops_per_s\":" + json_number(ops_per_s(s.applied(), r.ms)) +
           ",\"ops_per_s_wall\":" + json_number(ops_per_s(s.applied(), r.wall_ms)) +
           ",\"split_pass_ms\":" + json_number(r.split_ms) +
           ",\"collapse_pass_ms\":" + json_number(r.collapse_ms) +
           ",\"memory\":{\"mesh\":" + std::to_string(m.mesh) +
           ",\"connectivity\":" + std::to_string(m.connectivity) +
           ",\"workspace\":" + std::to_string(m.workspace) +
           ",\"attributes\":" + std::to_string(m.attributes) +
           ",\"total\":" + std::to_string(m.total()) + "},\"check\":{\"valid\":" + b(r.valid) +
           ",\"manifold_in\":" + b(r.manifold_in) + ",\"manifold_out\":" + b(r.manifold_out) +
           ",\"euler_in\":" + std::to_string(r.euler_in) +
           ",\"euler_out\":" + std::to_string(r.euler_out) +
           ",\"same_counts_every_run\":" + b(r.counts_repeat) +
           ",\"deterministic\":" + b(r.deterministic) +
           ",\"to_static_same_mesh\":" + b(r.to_static.same) +
           "},\"to_static_ms\":{\"to_rxmesh\":" + json_number(r.to_static.to_rxmesh_ms) +
           ",\"rxmesh_from_device_arrays\":" + json_number(r.to_static.device_arrays_ms) +
           ",\"through_host\":" + json_number(r.to_static.via_host_ms) +
           "},\"last_run_passes\":[" + passes +
           "],\"verified\":" + b(r.verified) + "}";
}

void add_options(CLI::App& cli, Args& a)
{
    bench::add_refined_mesh_runs(cli, a);
    cli.add_option("--rounds", a.rounds, "split + collapse rounds per run")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cli.add_option("--scale", a.scale,
                   "target edge length L = scale x the input's mean edge length (split above "
                   "4/3 L, collapse below 4/5 L)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    bench::add_json(cli, a.json);
}

//! Measures every size, prints the tables, writes --json; the exit status.
int run(const Args& a)
{
    bench::keep_pool_memory();
    std::printf("GPU: %s; %d rounds (split > 4/3 L, collapse < 4/5 L, L = %g x mean edge "
                "length); median of %d runs after a warm-up; no CPU baseline (the serial "
                "reference is for correctness)\n\n",
                bench::gpu_name().c_str(), a.rounds, a.scale, a.runs);
    bench::print_table_head(kColumns);
    return bench::verified_mesh_levels<Row>(
        a, measure,
        bench::gpu_rows_head("\"rounds\":" + std::to_string(a.rounds) +
                             ",\"scale\":" + json_number(a.scale) +
                             ",\"runs\":" + std::to_string(a.runs)),
        row_json, [](const Row& r) { return r.verified; },
        "valid, manifold and Euler characteristic kept, same counts every run, same "
        "slots for block_threads 128 / 256 / 512, the same static mesh three ways");
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
