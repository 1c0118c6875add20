// The eight first-order queries on RXMesh, Parallel Directed Edges (PDE) and
// a global CSR, side by side in one run (RXMesh paper, section 7.1 and
// Table 2), over 1-to-4 refinements of real meshes and three input orders:
//   given     the file's order (welded bit-exactly, unused vertices dropped)
//   sorted    vertices and faces renumbered by RXMesh's patches
//   shuffled  vertices and faces randomly permuted
//
// Workload (the paper's): every source element writes its output ids to a
// pre-allocated buffer at its row's offset (offsets from each system's own
// output sizes; fixed-size ops EV, FV, FE write at k * s). Allocation and
// offsets are outside the timing. CUDA events, warm-up, median of --runs.
// Every system runs at block sizes of 64, 128, 256 and 512 threads and is
// reported at its best (RXMesh's default per op is one of them).
//
// Checks, at every size: each system's output has a canonical-id checksum
// (baselines/query_checksum.h) that must equal CSR's; on meshes up to
// --verify-max-faces faces every row is also compared with
// reference::build_topology. A mismatch exits with status 1.
//
// Numbering: the baselines run on the order's ids, RXMesh on its own
// (renumbered by patch); the "sorted" order is the input renumbered by
// RXMesh's patches, so its rows compare all systems in the same numbering.
//
// "output GB/s" counts the bytes any system must move for the workload: the
// ids written plus, for variable-size ops, the offsets read (4 bytes each).
//
// Memory: every device byte of each system after construction
// (RXMesh::memory() for RXMesh, with the patch store apart).
//
// With --sweep, also times RXMesh alone at each patch capacity of
// --capacities on the largest sorted mesh (the paper's Figure 5b).
//
// usage: bench_query_compare --mesh FILE[:L0,L1,...] [--mesh ...] [--runs R]
//            [--capacity C] [--verify-max-faces N] [--json OUT]
//            [--dump-orders DIR] [--dump-max-faces N] [--sweep]
//            [--capacities 256,512,...] [--orders given,sorted,shuffled]
//            [--patcher curve|lloyd]  (RXMesh's patcher; the sorted order follows it)
//            [--ops VV,EF,...] [--block-sizes 64,...] [--no-launch-cost]
// (levels: how many times the mesh is refined 1-to-4; default 0)
//
// The input orders and refinement are in query_compare_orders.{h,cu}, the
// RXMesh side of the workload in query_compare_rxmesh.cuh, the tables and
// JSON in query_compare_report.{h,cpp}.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_util.h"
#include "csr.cuh"
#include "pde.cuh"
#include "query_checksum.h"
#include "query_compare_orders.h"
#include "query_compare_report.h"
#include "query_compare_rxmesh.cuh"
#include "query_workload.h"
#include "rxmesh/reference/topology.h"
#include "rxmesh/rxmesh.cuh"

namespace {

using namespace rxmesh;
using namespace rxmesh::baselines;
using namespace rxmesh::bench::query_compare;

//! The block sizes a system can be timed at (--block-sizes picks among
//! them; each system is reported at its best).
constexpr int kBlockSizes[] = {64, 128, 256, 512};

struct Options
{
    std::vector<std::pair<std::string, std::vector<int>>> meshes;
    int                                                   runs             = 15;
    std::uint32_t                                         capacity         = 512;
    std::uint64_t                                         verify_max_faces = 1'000'000;
    std::string                                           json, dump_dir;
    std::uint64_t                                         dump_max_faces = 20'000'000;
    bool                                                  sweep          = false;
    std::vector<std::uint32_t> capacities{256, 384, 512, 768, 1024, 1536, 2048};
    std::vector<std::string>   orders{"given", "sorted", "shuffled"};  // which to time
    PatcherMethod              patcher = PatcherMethod::Curve;
    std::vector<Op>            ops{std::begin(kAllOps), std::end(kAllOps)};  // which to time
    std::vector<int>           block_sizes{std::begin(kBlockSizes), std::end(kBlockSizes)};
    bool no_launch_cost = false;  // skip the 200-launch split below 1M faces
};

int g_failures = 0;

__global__ void empty_kernel() {}

//! What one timed launch of nothing costs: the floor of every small query.
double launch_floor_ms(int runs)
{
    return time_query(
        [] {
            empty_kernel<<<1, 32>>>();
            RXMESH_CHECK_LAUNCH();
        },
        3, runs);
}

//! RXMesh at each block size of kBlockSizes (a template parameter there),
//! behind the baselines' run(op, out, stream, block_threads).
class RXMeshSystem
{
   public:
    explicit RXMeshSystem(const RXMesh& mesh) : m_mesh(mesh), m_default(mesh) {}
    std::uint32_t        num_sources(Op op) const { return m_default.num_sources(op); }
    QueryOutput          allocate(Op op) const { return m_default.allocate(op); }
    EdgeVertices         edge_vertices() const { return m_default.edge_vertices(); }
    const std::uint32_t* vertex_to_input() const { return m_mesh.global_vertex_to_input().data(); }
    void                 run(Op op, QueryOutput& out, cudaStream_t, int block) const
    {
        switch (block) {
            case 64:
                return RXMeshQueries<64>(m_mesh).run(op, out);
            case 128:
                return RXMeshQueries<128>(m_mesh).run(op, out);
            case 256:
                return RXMeshQueries<256>(m_mesh).run(op, out);
            case 512:
                return RXMeshQueries<512>(m_mesh).run(op, out);
            default:
                throw Error("RXMeshSystem: no instance of " + std::to_string(block) + " threads");
        }
    }

   private:
    const RXMesh&   m_mesh;
    RXMeshQueries<> m_default;
};

//! A baseline that keeps the input's ids (vertex map: identity).
template <typename Baseline>
struct InputIds
{
    const Baseline&      sys;
    std::uint32_t        num_sources(Op op) const { return sys.num_sources(op); }
    QueryOutput          allocate(Op op) const { return sys.allocate(op); }
    EdgeVertices         edge_vertices() const { return sys.edge_vertices(); }
    const std::uint32_t* vertex_to_input() const { return nullptr; }
    void                 run(Op op, QueryOutput& out, cudaStream_t stream, int block) const
    {
        sys.run(op, out, stream, block);
    }
};

//! Checksums of one order of one mesh: the first system's are the anchor.
struct Checksums
{
    bool          set = false;
    std::string   system;
    std::uint64_t of[8] = {};
};

std::string hex(std::uint64_t x)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
    return buf;
}

//! Canonical keys from the system's own EV and FV.
template <typename System>
CanonicalKeys keys_of(const System& sys, std::uint32_t num_vertices)
{
    QueryOutput ev = sys.allocate(Op::EV), fv = sys.allocate(Op::FV);
    sys.run(Op::EV, ev, 0, 256);
    sys.run(Op::FV, fv, 0, 256);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    return canonical_keys(ev, fv, sys.vertex_to_input(), num_vertices);
}

//! The output of `op` checked against the CPU reference (when given) and
//! its checksum against the anchor's (or made the anchor); sets r.verified,
//! r.checksum, r.note.
template <typename System>
void check_output(const System& sys, Op op, const QueryOutput& out, const CanonicalKeys& keys,
                  const reference::Topology* ref, const EdgeVertices& ev, Checksums& anchor,
                  Record& r)
{
    std::string why;
    if (ref)
        r.verified = verify_against_reference(out, op, *ref, ev, why) ? "yes" : "MISMATCH";
    else
        r.verified = "skipped";
    const std::uint64_t sum = query_checksum(op, out, keys);
    r.checksum              = hex(sum);
    const int i             = int(op);
    if (!anchor.set) {
        r.checksum_vs = "anchor";
    } else if (anchor.of[i] == sum) {
        r.checksum_vs = "= " + anchor.system;
    } else {
        r.checksum_vs = "MISMATCH vs " + anchor.system;
        why += (why.empty() ? "" : "; ") + std::string("checksum differs from ") + anchor.system;
    }
    if (!anchor.set) anchor.of[i] = sum;
    if (r.verified == "MISMATCH" || r.checksum_vs.rfind("MISMATCH", 0) == 0) {
        r.note = why;
        ++g_failures;
        std::fprintf(stderr, "%s %s %s %s: %s\n", r.system.c_str(), r.mesh.c_str(), r.order.c_str(),
                     r.op.c_str(), why.c_str());
    }
}

//! Times every op of one system at every block size of --block-sizes, keeps
//! the best, checks the output; appends records.
template <typename System>
void measure(const System& sys, const char* system, const std::string& mesh_name,
             const std::string& order, const IndexedMesh& m, std::uint64_t edges,
             const reference::Topology* ref, const Options& opt, Checksums& anchor,
             std::vector<Record>& records)
{
    const auto          nv   = static_cast<std::uint32_t>(m.positions.size());
    const EdgeVertices  ev   = ref ? sys.edge_vertices() : EdgeVertices{};
    const CanonicalKeys keys = keys_of(sys, nv);
    for (const Op op : opt.ops) {
        Record r;
        r.mesh          = mesh_name;
        r.order         = order;
        r.system        = system;
        r.op            = to_string(op);
        r.faces         = m.faces.size();
        r.vertices      = nv;
        r.edges         = edges;
        QueryOutput out = sys.allocate(op);
        for (const int block : opt.block_sizes) {
            const double ms = time_query([&] { sys.run(op, out, 0, block); }, 3, opt.runs);
            r.block_ms.push_back({block, ms});
            if (r.ms < 0 || ms < r.ms) {
                r.ms    = ms;
                r.block = block;
            }
        }
        if (!opt.no_launch_cost && m.faces.size() < 1'000'000) {  // where a small query's time goes
            const auto cost = bench::launch_cost([&] { sys.run(op, out, 0, r.block); }, 200);
            r.host_us       = cost.host_us;
            r.pipelined_ms  = cost.pipelined_ms;
        }
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        check_output(sys, op, out, keys, ref, ev, anchor, r);
        const double bytes =
            4.0 * out.values.size() + (fixed_row_size(op) ? 0.0 : 4.0 * sys.num_sources(op));
        r.gbps = bytes / (r.ms * 1e6);
        records.push_back(r);
    }
    anchor.set    = true;
    anchor.system = anchor.system.empty() ? system : anchor.system;
}

//! RXMesh alone at its per-op default block size, unchecked (the sweeps).
void measure_rxmesh(const RXMesh& rx, const std::string& name, const IndexedMesh& m,
                    const Options& opt, std::vector<Record>& out)
{
    const RXMeshQueries<> q(rx);
    for (const Op op : kAllOps) {
        Record r;
        r.mesh = name, r.order = "sorted", r.system = "RXMesh", r.op = to_string(op);
        r.faces = m.faces.size(), r.vertices = m.positions.size(), r.edges = rx.num_edges();
        r.verified    = "skipped";
        QueryOutput o = q.allocate(op);
        r.ms          = time_query([&] { q.run(op, o); }, 3, opt.runs);
        out.push_back(r);
    }
}

std::vector<std::uint32_t> parse_list(const std::string& s)
{
    std::vector<std::uint32_t> out;
    std::stringstream          ss(s);
    std::string                item;
    while (std::getline(ss, item, ','))
        if (!item.empty()) out.push_back(static_cast<std::uint32_t>(std::stoul(item)));
    return out;
}

// ---- arguments ----

//! --mesh FILE[:L0,L1,...]: the file and its refinement levels (default 0).
std::pair<std::string, std::vector<int>> parse_mesh(const std::string& v)
{
    std::string      file = v;
    std::vector<int> levels{0};
    const auto       colon = v.rfind(':');
    if (colon != std::string::npos && colon + 1 < v.size() &&
        std::isdigit(static_cast<unsigned char>(v[colon + 1]))) {
        file = v.substr(0, colon);
        levels.clear();
        for (auto l : parse_list(v.substr(colon + 1))) levels.push_back(int(l));
    }
    return {file, levels};
}

//! The command line into opt; returns -1 to go on, else the exit status.
int parse_args(int argc, char** argv, Options& opt)
{
    CLI::App cli{"bench_query_compare: the eight queries on RXMesh, PDE and a global CSR",
                 "bench_query_compare"};
    std::vector<std::string> meshes;
    std::string              patcher = "curve";
    cli.add_option("--mesh", meshes,
                   "FILE[:L0,L1,...]: a mesh file and its 1-to-4 refinement levels (default 0); "
                   "repeatable")
        ->allow_extra_args(false);
    bench::add_runs(cli, opt.runs);
    cli.add_option("--capacity", opt.capacity, "faces per patch")->capture_default_str();
    cli.add_option("--verify-max-faces", opt.verify_max_faces,
                   "compare every row with the reference up to this many faces")
        ->capture_default_str();
    bench::add_json(cli, opt.json);
    cli.add_option("--dump-orders", opt.dump_dir,
                   "write each order's mesh as PLY to this directory");
    cli.add_option("--dump-max-faces", opt.dump_max_faces, "--dump-orders up to this many faces")
        ->capture_default_str();
    cli.add_flag("--sweep", opt.sweep, "also time RXMesh alone at each of --capacities");
    cli.add_option("--capacities", opt.capacities,
                   "the patch capacities of --sweep, comma separated")
        ->delimiter(',')
        ->capture_default_str();
    cli.add_option("--orders", opt.orders, "the input orders to time, comma separated")
        ->delimiter(',')
        ->check(CLI::IsMember({"given", "sorted", "shuffled"}))
        ->capture_default_str();
    std::vector<std::string> ops;
    cli.add_option("--ops", ops, "the queries to time, comma separated (default: all eight)")
        ->delimiter(',')
        ->check(CLI::IsMember({"VV", "VE", "VF", "EV", "EF", "FV", "FE", "FF"}));
    cli.add_option("--block-sizes", opt.block_sizes,
                   "the block sizes every system is timed at, comma separated")
        ->delimiter(',')
        ->check(CLI::IsMember(std::vector<int>(std::begin(kBlockSizes), std::end(kBlockSizes))))
        ->capture_default_str();
    cli.add_flag("--no-launch-cost", opt.no_launch_cost,
                 "skip the 200 back-to-back launches per query below 1M faces (e.g. under ncu)");
    cli.add_option("--patcher", patcher, "the patcher")
        ->check(CLI::IsMember({"curve", "lloyd"}))
        ->capture_default_str();
    if (const int rc = bench::parse(cli, argc, argv); rc >= 0) return rc;
    for (const std::string& m : meshes) opt.meshes.push_back(parse_mesh(m));
    if (opt.meshes.empty()) opt.meshes.push_back({"", {0}});
    opt.patcher = patcher == "curve" ? PatcherMethod::Curve : PatcherMethod::Lloyd;
    if (!ops.empty()) {
        opt.ops.clear();
        for (const Op op : kAllOps)
            if (std::find(ops.begin(), ops.end(), to_string(op)) != ops.end())
                opt.ops.push_back(op);
    }
    return -1;
}

// ---- the per-mesh loop ----

//! One mesh at one refinement level, as the loop over orders needs it.
struct Level
{
    std::string    stem;  // file name without the directory
    int            level = 0;
    std::string    name;  // "stem x4^level"
    BuildOptions   build;
    const Options* opt = nullptr;
    Results*       res = nullptr;
};

//! PDE cannot represent non-manifold or inconsistently oriented meshes: one
//! "n/a" record per op with the reason.
void pde_not_applicable(const Level& lv, const char* order, std::uint64_t faces, std::uint32_t nv,
                        std::uint64_t edges, const char* why)
{
    for (const Op op : kAllOps) {
        Record r;
        r.mesh = lv.name, r.order = order, r.system = "PDE", r.op = to_string(op);
        r.faces = faces, r.vertices = nv, r.edges = edges;
        r.verified = "n/a";
        r.note     = why;
        lv.res->records.push_back(r);
    }
}

//! Times RXMesh, CSR and PDE on one order of one level.
void run_order(const Level& lv, const char* order, const IndexedMesh& mesh)
{
    const Options& opt     = *lv.opt;
    auto&          records = lv.res->records;
    const auto     nv      = static_cast<std::uint32_t>(mesh.positions.size());
    if (!opt.dump_dir.empty() && mesh.faces.size() <= opt.dump_max_faces)
        io::write_ply(
            opt.dump_dir + "/" + lv.stem + ".x4_" + std::to_string(lv.level) + "." + order + ".ply",
            mesh.soup());
    const bool                           verify = mesh.faces.size() <= opt.verify_max_faces;
    std::unique_ptr<reference::Topology> ref;
    if (verify)
        ref = std::make_unique<reference::Topology>(reference::build_topology(nv, mesh.faces));
    MemoryRecord mem;
    mem.mesh  = lv.name;
    mem.faces = mesh.faces.size();
    Checksums     anchor;  // CSR's: the other systems must agree at every size
    std::uint64_t edges = 0;
    {
        const CsrMesh csr(mesh.faces, nv);
        mem.csr = csr.bytes();
        edges   = csr.num_edges();
        measure(InputIds<CsrMesh>{csr}, "CSR", lv.name, order, mesh, edges, ref.get(), opt, anchor,
                records);
    }
    {
        const RXMesh rx(mesh.soup(), lv.build);
        if (rx.num_vertices() != nv || rx.num_edges() != edges)
            throw Error("bench_query_compare: RXMesh has " + std::to_string(rx.num_vertices()) +
                        " vertices and " + std::to_string(rx.num_edges()) + " edges, CSR " +
                        std::to_string(nv) + " and " + std::to_string(edges));
        mem.rxmesh_store = rx.stats().store_bytes;
        mem.rxmesh       = rx.memory();
        // positions(), the "position" attribute: what no baseline stores
        mem.rxmesh_geometry = mem.rxmesh.positions;
        // RXMesh's ids are its own: check against its own numbering
        std::unique_ptr<reference::Topology> rx_ref;
        if (verify) {
            const IndexedMesh g = sorted_by_patch(rx);
            rx_ref              = std::make_unique<reference::Topology>(
                reference::build_topology(rx.num_vertices(), g.faces));
        }
        measure(RXMeshSystem(rx), "RXMesh", lv.name, order, mesh, edges, rx_ref.get(), opt, anchor,
                records);
    }
    try {
        const PdeMesh pde(mesh.faces, nv);
        mem.pde = pde.bytes();
        measure(InputIds<PdeMesh>{pde}, "PDE", lv.name, order, mesh, edges, ref.get(), opt, anchor,
                records);
    } catch (const InvalidInputError& e) {
        pde_not_applicable(lv, order, mesh.faces.size(), nv, edges, e.what());
    }
    if (std::string(order) == "sorted") lv.res->memory.push_back(mem);
}

//! The largest sorted mesh so far: the sweeps run on it.
struct Largest
{
    IndexedMesh sorted;
    std::string name;
};

//! Builds the three orders of `base` and times the selected ones.
void run_level(const IndexedMesh& base, const Level& lv, Largest& largest)
{
    // the sorted order comes from RXMesh's patches of the given order
    const IndexedMesh                                sorted   = sorted_order(base, lv.build);
    const IndexedMesh                                shuffle  = shuffled(base, 12345u + lv.level);
    const std::pair<const char*, const IndexedMesh*> orders[] = {
        {"given", &base}, {"sorted", &sorted}, {"shuffled", &shuffle}};
    if (base.faces.size() >= largest.sorted.faces.size()) {
        largest.sorted = sorted;
        largest.name   = lv.name;
    }
    std::printf("%s: %zu vertices, %zu faces\n", lv.name.c_str(), base.positions.size(),
                base.faces.size());
    std::fflush(stdout);
    const auto& want = lv.opt->orders;
    for (const auto& [order, mesh] : orders)
        if (std::find(want.begin(), want.end(), order) != want.end()) run_order(lv, order, *mesh);
}

//! Every requested refinement level of one file (the torus when empty).
void run_file(const std::string& file, const std::vector<int>& levels, const Options& opt,
              Results& res, Largest& largest)
{
    const TriangleSoup raw  = file.empty() ? generate::torus(256, 160) : io::read(file);
    IndexedMesh        base = compact_in_input_order(raw);
    Level              lv;
    lv.stem = file.empty() ? std::string("torus") : file.substr(file.find_last_of('/') + 1);
    lv.build.patcher.capacity = opt.capacity;
    lv.build.patcher.method   = opt.patcher;
    lv.opt                    = &opt;
    lv.res                    = &res;
    for (int want : levels) {
        refine_to(base, lv.level, want);
        lv.name = lv.stem + " x4^" + std::to_string(lv.level);
        run_level(base, lv, largest);
    }
}

// ---- sweeps (--sweep) ----

//! RXMesh alone at each patch capacity of --capacities (Figure 5b).
void capacity_sweep(const Largest& largest, const Options& opt, std::vector<Record>& sweep)
{
    for (std::uint32_t c : opt.capacities) {
        BuildOptions build;
        build.patcher.capacity = c;
        build.patcher.method   = opt.patcher;
        const RXMesh        rx(largest.sorted.soup(), build);
        std::vector<Record> rs;
        measure_rxmesh(rx, largest.name + " capacity " + std::to_string(c), largest.sorted, opt,
                       rs);
        for (auto& r : rs) {
            r.capacity       = c;
            r.patches        = rx.num_patches();
            r.bytes_per_face = rx.stats().store_bytes_per_face;
            sweep.push_back(r);
        }
    }
}

}  // namespace

int main(int argc, char** argv)
{
    Options opt;
    if (const int rc = parse_args(argc, argv, opt); rc >= 0) return rc;

    bench::keep_pool_memory();
    const double copy = bench::measured_copy_gbps();
    Results      res;
    res.launch_floor_ms = launch_floor_ms(opt.runs);
    std::printf(
        "GPU: %s, device copy %.0f GB/s (read + write); median of %d runs; an empty "
        "kernel times %.4f ms\n\n",
        bench::gpu_name().c_str(), copy, opt.runs, res.launch_floor_ms);

    Largest largest;
    for (const auto& [file, levels] : opt.meshes) run_file(file, levels, opt, res, largest);
    if (opt.sweep && !largest.sorted.faces.empty()) capacity_sweep(largest, opt, res.sweep);

    print_tables(res);
    if (!opt.json.empty())
        write_json(opt.json, bench::gpu_name(), copy, opt.runs, opt.capacity, res);
    if (g_failures)
        std::fprintf(stderr, "FAILED: %d mismatches against the reference\n", g_failures);
    return g_failures ? 1 : 0;
}
