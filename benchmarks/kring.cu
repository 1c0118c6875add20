// bench_kring: RXMesh's k-ring queries (k = 2, 3, and the bilateral ball
// grown while |p_u - p_v| <= 2 sigma_c) against the same growth over a
// global vertex-vertex CSR (baselines/csr_kring.cuh), on a mesh and its
// 1-to-4 refinements.
//
// Workload per vertex: an order-independent checksum of its rings (size +
// sum of hash(id) * (ring + 1)), written once. Timing: CUDA events, median
// of --runs after warm-ups, each method at its best block size of a sweep.
// The CSR runs in RXMesh's numbering (the same ids, like for like) and in
// the input's. Verification at every size: each method's checksums, with
// ids mapped to input ids, equal for every vertex, and equal to a serial
// BFS (reference/kring.h) on a sample of vertices.
// Memory: device bytes each method keeps (the RXMesh column counts the
// whole mesh object; the CSR the rows it reads).
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "bench_cli.h"
#include "bench_main.h"
#include "bench_mesh.h"
#include "bench_util.h"
#include "csr.cuh"
#include "csr_kring.cuh"
#include "rxmesh/algo/detail/bilateral_terms.h"
#include "rxmesh/build/topology.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/kring.h"
#include "rxmesh/rxmesh.cuh"

using namespace rxmesh;

namespace {

constexpr rxmesh::bench::About kAbout{
    "bench_kring",
    "k-ring queries, RXMesh vs a global vertex-vertex CSR"};

__host__ __device__ inline std::uint32_t mix(std::uint32_t x)
{
    x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
    return x;
}

//! The per-vertex workload. to_common (null: identity) maps the method's
//! ids to input ids for verification; then the result lands at v's input id.
struct Checksum
{
    std::uint32_t*       out;
    const std::uint32_t* to_common;
    __device__ std::uint32_t common(VertexId v) const
    {
        return to_common ? to_common[v.id()] : v.id();
    }
    template <typename View>
    __device__ void operator()(VertexId v, const View& r) const
    {
        std::uint32_t s = r.size();
        for (std::uint32_t d = 0; d < r.num_rings(); ++d)
            for (std::uint32_t i = r.ring_begin(d); i < r.ring_end(d); ++i)
                s += mix(common(r[i])) * (d + 1);
        out[common(v)] = s;
    }
};

//! The bilateral ball's test (sc2 per vertex in the method's numbering);
//! every method binds it to the centre once (its position and sc2).
struct InBall
{
    const float* x;
    const float* sc2;
    struct Bound
    {
        const float* x;
        float        p[3], sc2;
        __device__ bool operator()(VertexId u) const
        {
            return bilateral::in_ball(p, x + 3 * std::uint64_t(u.id()), sc2);
        }
    };
    __device__ Bound bind(VertexId c) const
    {
        const float* pc = x + 3 * std::uint64_t(c.id());
        return {x, {pc[0], pc[1], pc[2]}, sc2[c.id()]};
    }
    __device__ bool operator()(VertexId c, VertexId u) const { return bind(c)(u); }
};

//! The same test on RXMesh's staged positions (for_each_kring_while with a
//! VertexInput: the positions a patch's balls reach sit in shared memory).
struct InBallStaged
{
    const float* sc2;
    struct Bound
    {
        float           p[3], sc2;
        __device__ bool operator()(const KRingVertex<float, 3>& u) const
        {
            return bilateral::in_ball(p, u.value, sc2);
        }
    };
    __device__ Bound bind(const KRingVertex<float, 3>& c) const
    {
        return {{c.value[0], c.value[1], c.value[2]}, sc2[c.id.id()]};
    }
};

struct Args
{
    std::string file, json;
    int         levels = 4, min_level = 0, runs = 15;
    std::uint32_t sample = 20000;  // vertices checked against the CPU BFS per size
    std::uint32_t capacity = 0;    // faces per patch (0: the library's default)
};

struct Timing
{
    double ms = 0;
    int    block = 0;
    int    min_blocks = 0;  // RXMesh's patch kernel: 0 no bound, 1 (ptxas takes more registers)
    bool   ok = false;
};

constexpr int kQueries = 3;  // k = 2, k = 3, ball
const char*   kQueryName[kQueries] = {"k=2", "k=3", "ball"};  // RXMesh's ball: staged positions

struct Row
{
    int           level = 0;
    std::uint64_t faces = 0, vertices = 0;
    Timing        rx[kQueries], csr_sorted[kQueries], csr_input[kQueries];
    bool          reference_ok[kQueries] = {};
    double        rx_store_bytes = 0, rx_rows_bytes = 0, rx_total_bytes = 0;
    double        csr_vv_bytes = 0, csr8_bytes = 0;
    double        halo_build_ms = 0;  // RXMesh::kring_halo(), on the first k-ring query
};

//! One numbering's data for the CSR: rows, positions and sc2.
struct CsrSide
{
    DeviceTopology      topo;
    DeviceBuffer<float> x, sc2;
    baselines::CsrRows  rows() const
    {
        return {topo.vv.offsets.data(), topo.vv.indices.data(), topo.num_vertices};
    }
};

}  // namespace


namespace {

__global__ void gather_by_map(const float* from, const std::uint32_t* input_to_global,
                              std::uint32_t n, int width, float* to)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const std::uint32_t g = input_to_global[i];
    for (int d = 0; d < width; ++d)
        to[std::uint64_t(i) * width + d] = g == ~0u ? 0.f : from[std::uint64_t(g) * width + d];
}

//! sigma_c^2 per vertex in RXMesh's numbering.
DeviceBuffer<float> sigma_c2(const RXMesh& mesh)
{
    DeviceBuffer<float> sc2(mesh.num_vertices());
    const float*        x   = mesh.positions().device_data();
    float*              out = sc2.data();
    mesh.for_each<Op::VV>([=] __device__(VertexId v, const RowView<VertexId>& vv) {
        float least = vv.size() ? INFINITY : 0.f;
        for (std::uint32_t i = 0; i < vv.size(); ++i)
            least = fminf(least, bilateral::squared_distance(x + 3 * std::uint64_t(vv[i].id()),
                                                             x + 3 * std::uint64_t(v.id())));
        out[v.id()] = least;
    });
    return sc2;
}

CsrSide csr_side(const std::vector<Triangle>& faces, std::uint32_t V, DeviceBuffer<float> x,
                 DeviceBuffer<float> sc2)
{
    auto    d_faces = DeviceBuffer<std::uint32_t>::from_host(
        std::vector<std::uint32_t>(&faces[0][0], &faces[0][0] + 3 * faces.size()));
    CsrSide s;
    TopologyParts parts;
    parts.face_adjacency = false, parts.vertex_faces = false;
    s.topo = build_topology(d_faces.data(), std::uint32_t(faces.size()), V, parts);
    s.x    = std::move(x);
    s.sc2  = std::move(sc2);
    return s;
}

template <typename Run>
Timing best_of(const std::vector<int>& blocks, int runs, const Run& run)
{
    Timing t;
    t.ms = 1e30;
    for (int b : blocks) {
        const double ms = bench::gpu_median_ms([&] { run(b); }, 2, runs);
        if (ms < t.ms)
            t.ms = ms, t.block = b;
    }
    return t;
}

//! RXMesh's query q with BlockThreads threads, MinBlocks blocks per SM.
template <int B, int MinBlocks>
void rx_query(const RXMesh& m, int q, const InBall& ball, const Checksum& f)
{
    if (q < 2)
        m.for_each_kring<B, MinBlocks>(q + 2, f);
    else
        m.for_each_kring_while<B, MinBlocks>(VertexInput<float, 3>{ball.x}, InBallStaged{ball.sc2},
                                             kMaxKRingRings, f);
}

template <int MinBlocks>
void rx_query(const RXMesh& m, int q, int block, const InBall& ball, const Checksum& f)
{
    if (block == 64)
        rx_query<64, MinBlocks>(m, q, ball, f);
    else if (block == 128)
        rx_query<128, MinBlocks>(m, q, ball, f);
    else
        rx_query<256, MinBlocks>(m, q, ball, f);
}

void rx_query(const RXMesh& m, int q, const Timing& launch, const InBall& ball, const Checksum& f)
{
    if (launch.min_blocks == 1)
        rx_query<1>(m, q, launch.block, ball, f);
    else
        rx_query<0>(m, q, launch.block, ball, f);
}

//! RXMesh at its best launch: 64, 128 and 256 threads without a register
//! bound, and 128 and 256 with MinBlocks 1 (ptxas compiles that unlike no
//! bound); every launch's time on stderr.
Timing rx_best(const RXMesh& m, int q, int runs, const InBall& ball, const Checksum& f)
{
    Timing best;
    best.ms = 1e30;
    for (const auto& [block, min_blocks] : {std::pair{64, 0}, std::pair{128, 0}, std::pair{256, 0},
                                            std::pair{128, 1}, std::pair{256, 1}}) {
        Timing t;
        t.block = block, t.min_blocks = min_blocks;
        t.ms    = bench::gpu_median_ms([&] { rx_query(m, q, t, ball, f); }, 2, runs);
        std::fprintf(stderr, "  %u vertices, %s: %d threads, MinBlocks %d: %.4f ms\n",
                     m.num_vertices(), kQueryName[q], block, min_blocks, t.ms);
        if (t.ms < best.ms)
            best = t;
    }
    return best;
}

void csr_query(const CsrSide& s, int q, int block, const Checksum& f, std::uint32_t* overflow)
{
    const InBall ball{s.x.data(), s.sc2.data()};
    if (q == 0)
        baselines::csr_kring<64>(s.rows(), 2, detail::AcceptAll{}, f, block, overflow);
    else if (q == 1)
        baselines::csr_kring<128>(s.rows(), 3, detail::AcceptAll{}, f, block, overflow);
    else
        baselines::csr_kring<64>(s.rows(), kMaxKRingRings, ball, f, block, overflow);
}

//! The serial BFS's checksum of input vertex v (ids are input ids).
std::uint32_t reference_checksum(const reference::Csr& vv, const std::vector<float>& x,
                                 const std::vector<float>& sc2, std::uint32_t v, int q)
{
    auto in_ball = [&](std::uint32_t u) {
        return bilateral::in_ball(&x[3 * std::size_t(v)], &x[3 * std::size_t(u)], sc2[v]);
    };
    const auto rings = q < 2 ? reference::kring(vv, v, q + 2)
                             : reference::grow(vv, v, in_ball, kMaxKRingRings);
    std::uint32_t s = 0;
    for (std::size_t d = 0; d < rings.size(); ++d)
        for (std::uint32_t u : rings[d])
            s += 1 + mix(u) * std::uint32_t(d + 1);
    return s;
}

reference::Csr download(const DeviceCsr& c)
{
    return {c.offsets.to_host(), c.indices.to_host()};
}

//! Every checksum equal across methods (input ids), and to the serial BFS
//! on a sample of vertices.
void verify(Row& r, int q, const std::vector<std::vector<std::uint32_t>>& sums,
            const std::vector<std::uint32_t>& used, const CsrSide& input, std::uint32_t sample)
{
    bool same = true;
    for (std::uint32_t v : used)
        same = same && sums[0][v] == sums[1][v] && sums[0][v] == sums[2][v];
    const reference::Csr vv  = download(input.topo.vv);
    const auto           x   = input.x.to_host();
    const auto           sc2 = input.sc2.to_host();
    bool                 ref = true;
    const std::size_t    step = std::max<std::size_t>(1, used.size() / sample);
    for (std::size_t i = 0; i < used.size(); i += step)
        ref = ref && sums[2][used[i]] == reference_checksum(vv, x, sc2, used[i], q);
    r.reference_ok[q] = ref;
    r.rx[q].ok = r.csr_sorted[q].ok = r.csr_input[q].ok = same && ref;
}

}  // namespace

namespace {

DeviceBuffer<float> to_input_order(const float* from, const RXMesh& m, std::uint32_t num_input,
                                   int width)
{
    DeviceBuffer<float> to(std::size_t(num_input) * width);
    gather_by_map<<<(num_input + 255) / 256, 256>>>(from, m.input_vertex_to_global().data(),
                                                    num_input, width, to.data());
    RXMESH_CHECK_LAUNCH();
    return to;
}


void time_and_verify(Row& r, const Args& a, int q, const RXMesh& mesh, const InBall& rx_ball,
                     const CsrSide& sorted, const CsrSide& input,
                     const std::vector<std::uint32_t>& used)
{
    const std::uint32_t         n_in = input.topo.num_vertices;
    DeviceBuffer<std::uint32_t> out(std::max(mesh.num_vertices(), n_in)), overflow(1);
    overflow.memset(0);
    const Checksum timed{out.data(), nullptr};
    r.rx[q] = rx_best(mesh, q, a.runs, rx_ball, timed);
    r.csr_sorted[q] = best_of({64, 128, 256, 512}, a.runs,
                              [&](int b) { csr_query(sorted, q, b, timed, overflow.data()); });
    r.csr_input[q]  = best_of({64, 128, 256, 512}, a.runs,
                              [&](int b) { csr_query(input, q, b, timed, overflow.data()); });
    std::vector<std::vector<std::uint32_t>> sums;
    DeviceBuffer<std::uint32_t>             ver(n_in);
    const std::uint32_t*                    g2i = mesh.global_vertex_to_input().data();
    for (int method = 0; method < 3; ++method) {
        ver.memset(0);
        if (method == 0)
            rx_query(mesh, q, r.rx[q], rx_ball, Checksum{ver.data(), g2i});
        else if (method == 1)
            csr_query(sorted, q, r.csr_sorted[q].block, Checksum{ver.data(), g2i}, overflow.data());
        else
            csr_query(input, q, r.csr_input[q].block, Checksum{ver.data(), nullptr}, overflow.data());
        sums.push_back(ver.to_host());
    }
    verify(r, q, sums, used, input, a.sample);
    if (overflow.to_host()[0] != 0)  // a CSR list was too short: those vertices are missing
        r.csr_sorted[q].ok = r.csr_input[q].ok = r.rx[q].ok = false;
}

Row measure(const TriangleSoup& soup, const Args& a, int level)
{
    Row r;
    r.level = level, r.faces = soup.faces.size();
    BuildOptions options;
    if (a.capacity)
        options.patcher.capacity = a.capacity;
    const RXMesh mesh(soup, options);
    r.vertices = mesh.num_vertices();
    GpuTimer timer;
    timer.start();
    mesh.kring_halo();
    r.halo_build_ms = timer.stop_ms();
    const auto    n_in = std::uint32_t(soup.num_vertices());
    const auto    sc2  = sigma_c2(mesh);
    const CsrSide sorted =
        csr_side(bench::global_faces(mesh), mesh.num_vertices(),
                 bench::copy_of(mesh.positions().device_data(), mesh.positions().num_values()),
                 bench::copy_of(sc2.data(), sc2.size()));
    const CsrSide input  = csr_side(soup.faces, n_in, to_input_order(mesh.positions().device_data(), mesh, n_in, 3),
                                    to_input_order(sc2.data(), mesh, n_in, 1));
    std::vector<std::uint32_t> used;
    const auto                 i2g = mesh.input_vertex_to_global().to_host();
    for (std::uint32_t v = 0; v < n_in; ++v)
        if (i2g[v] != ~0u)
            used.push_back(v);
    const InBall rx_ball{mesh.positions().device_data(), sc2.data()};
    for (int q = 0; q < kQueries; ++q)
        time_and_verify(r, a, q, mesh, rx_ball, sorted, input, used);
    r.rx_store_bytes = double(mesh.store().bytes());
    r.rx_rows_bytes  = double(mesh.kring_bytes());
    r.rx_total_bytes = double(mesh.memory().total());  // every device byte, k-ring halo included
    r.csr_vv_bytes   = double(sorted.topo.vv.offsets.bytes() + sorted.topo.vv.indices.bytes());
    r.csr8_bytes =
        double(baselines::CsrMesh(bench::global_faces(mesh), mesh.num_vertices()).bytes());
    std::fprintf(stderr,
                 "level %d: %llu faces, k=2 %.3f / %.3f ms, k=3 %.3f / %.3f ms\n",
                 level, (unsigned long long)r.faces, r.rx[0].ms, r.csr_sorted[0].ms,
                 r.rx[1].ms, r.csr_sorted[1].ms);
    return r;
}

const char* yes(bool b) { return b ? "yes" : "**NO**"; }

void print_tables(const std::vector<Row>& rows)
{
    std::printf("| faces | query | RXMesh ms (block, MinBlocks) | CSR, RXMesh ids, ms (block) | CSR, input ids, ms (block) "
                "| RXMesh vs CSR same ids / input ids | verified |\n|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows)
        for (int q = 0; q < kQueries; ++q)
            std::printf("| %llu | %s | %.3f (%d, %d) | %.3f (%d) | %.3f (%d) | %.2fx / %.2fx | %s |\n",
                        (unsigned long long)r.faces, kQueryName[q], r.rx[q].ms, r.rx[q].block,
                        r.rx[q].min_blocks,
                        r.csr_sorted[q].ms, r.csr_sorted[q].block, r.csr_input[q].ms,
                        r.csr_input[q].block, r.csr_sorted[q].ms / r.rx[q].ms,
                        r.csr_input[q].ms / r.rx[q].ms,
                        yes(r.rx[q].ok && r.csr_sorted[q].ok && r.csr_input[q].ok));
    std::printf("\nDevice memory (MB; bytes per face in brackets)\n\n| faces | RXMesh store | k-ring halo "
                "| RXMesh total kept | CSR VV (what the baseline reads) | CSR, 8 relations | halo build ms |\n"
                "|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows) {
        const double F = double(r.faces);
        std::printf("| %llu | %.1f (%.1f) | %.1f (%.1f) | %.1f (%.1f) | %.1f (%.1f) | %.1f (%.1f) | %.1f |\n",
                    (unsigned long long)r.faces, r.rx_store_bytes / 1e6, r.rx_store_bytes / F,
                    r.rx_rows_bytes / 1e6, r.rx_rows_bytes / F, r.rx_total_bytes / 1e6,
                    r.rx_total_bytes / F, r.csr_vv_bytes / 1e6, r.csr_vv_bytes / F,
                    r.csr8_bytes / 1e6, r.csr8_bytes / F, r.halo_build_ms);
    }
}

std::string timing_json(const Timing& t)
{
    return "{\"ms\": " + bench::json_number(t.ms) + ", \"block\": " + std::to_string(t.block) +
           ", \"min_blocks\": " + std::to_string(t.min_blocks) +
           ", \"verified\": " + (t.ok ? "true" : "false") + "}";
}

std::string row_json(const Row& r)
{
    std::string s = "{\"level\": " + std::to_string(r.level) + ", \"faces\": " +
                    std::to_string(r.faces) + ", \"vertices\": " + std::to_string(r.vertices);
    for (int q = 0; q < kQueries; ++q)
        s += std::string(", \"") + kQueryName[q] + "\": {\"rxmesh\": " + timing_json(r.rx[q]) +
             ", \"csr_rxmesh_ids\": " + timing_json(r.csr_sorted[q]) +
             ", \"csr_input_ids\": " + timing_json(r.csr_input[q]) + "}";
    return s + ", \"bytes\": {\"rxmesh_store\": " + bench::json_number(r.rx_store_bytes) +
           ", \"kring_rows\": " + bench::json_number(r.rx_rows_bytes) +
           ", \"rxmesh_total\": " + bench::json_number(r.rx_total_bytes) +
           ", \"csr_vv\": " + bench::json_number(r.csr_vv_bytes) +
           ", \"csr_8_relations\": " + bench::json_number(r.csr8_bytes) +
           "}, \"halo_build_ms\": " + bench::json_number(r.halo_build_ms) + "}";
}

void add_options(CLI::App& cli, Args& a)
{
    bench::add_mesh_levels_runs(cli, a.file, "default: an icosphere of 5 subdivisions", a.levels,
                                a.min_level, a.runs);
    cli.add_option("--sample", a.sample, "vertices checked against the serial BFS per size")
        ->capture_default_str();
    bench::add_json(cli, a.json);
    cli.add_option("--capacity", a.capacity, "faces per patch (0: the library's default)")
        ->capture_default_str();
}

//! Whether every method found every k-ring of the row.
bool verified(const Row& r)
{
    for (int q = 0; q < kQueries; ++q)
        if (!(r.rx[q].ok && r.csr_sorted[q].ok && r.csr_input[q].ok)) return false;
    return true;
}

//! Measures every size, prints the tables, writes --json; the exit status.
int run(const Args& a)
{
    TriangleSoup soup = bench::gpu_driver_input(a.file);
    std::printf("GPU: %s; mesh %s; median of %d runs after 2 warm-ups; every method at its "
                "best block size\n\n",
                bench::gpu_name().c_str(), bench::input_name(a.file), a.runs);
    const auto rows = bench::rows_of_levels<Row>(std::move(soup), a, measure);
    print_tables(rows);
    const bool all = bench::write_rows_json(
        a.json, "{\"gpu\": \"" + bench::gpu_name() + "\", \"rows\": [", rows, row_json,
        verified, ", ");
    return all ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv)
{
    return bench::driver_main<Args>(argc, argv, kAbout, add_options, run);
}
