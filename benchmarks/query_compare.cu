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
// Every system's output is checked against reference::build_topology on
// meshes up to --verify-max-faces faces; a mismatch exits with status 1.
//
// "output GB/s" counts the bytes any system must move for the workload: the
// ids written plus, for variable-size ops, the offsets read (4 bytes each).
//
// With --sweep, also times RXMesh alone at each patch capacity of
// --capacities on the largest sorted mesh (the paper's Figure 5b).
//
// usage: bench_query_compare --mesh FILE[:L0,L1,...] [--mesh ...] [--runs R]
//            [--capacity C] [--verify-max-faces N] [--json OUT]
//            [--dump-orders DIR] [--dump-max-faces N] [--sweep]
//            [--capacities 256,512,...] [--orders given,sorted,shuffled]
// (levels: how many times the mesh is refined 1-to-4; default 0)
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench_util.h"
#include "csr.cuh"
#include "pde.cuh"
#include "query_workload.h"
#include "rxmesh/reference/topology.h"
#include "rxmesh/rxmesh.cuh"

namespace {

using namespace rxmesh;
using namespace rxmesh::baselines;

struct IndexedMesh
{
    std::vector<Vec3f>    positions;
    std::vector<Triangle> faces;
    TriangleSoup          soup() const
    {
        TriangleSoup s;
        s.positions = positions;
        s.faces     = faces;
        return s;
    }
};

//! The file's mesh in the file's order (reference::reindex would renumber
//! vertices by first use, which is already a reordering): vertices with
//! bit-identical
//! positions merged (first copy kept), faces that repeat a vertex dropped,
//! unused vertices dropped; the survivors keep their relative order.
IndexedMesh compact_in_input_order(const TriangleSoup& soup)
{
    struct Hash
    {
        std::size_t operator()(const Vec3f& p) const
        {
            std::uint32_t b[3];
            std::memcpy(b, p.data(), sizeof(b));
            return (std::size_t(b[0]) * 73856093u) ^ (std::size_t(b[1]) * 19349663u) ^
                   (std::size_t(b[2]) * 83492791u);
        }
    };
    struct Equal
    {
        bool operator()(const Vec3f& a, const Vec3f& b) const
        {
            return std::memcmp(a.data(), b.data(), sizeof(Vec3f)) == 0;
        }
    };
    std::unordered_map<Vec3f, std::uint32_t, Hash, Equal> first;
    std::vector<std::uint32_t>                            weld(soup.positions.size());
    for (std::uint32_t v = 0; v < soup.positions.size(); ++v)
        weld[v] = first.emplace(soup.positions[v], v).first->second;
    IndexedMesh                out;
    std::vector<std::uint32_t> compact(soup.positions.size(), ~0u);
    for (const Triangle& t : soup.faces) {
        const Triangle w{weld[t[0]], weld[t[1]], weld[t[2]]};
        if (w[0] == w[1] || w[1] == w[2] || w[0] == w[2])
            continue;
        out.faces.push_back(w);
    }
    std::vector<bool> used(soup.positions.size(), false);
    for (const Triangle& t : out.faces)
        for (std::uint32_t v : t)
            used[v] = true;
    for (std::uint32_t v = 0; v < soup.positions.size(); ++v)
        if (used[v]) {
            compact[v] = static_cast<std::uint32_t>(out.positions.size());
            out.positions.push_back(soup.positions[v]);
        }
    for (Triangle& t : out.faces)
        for (std::uint32_t& v : t)
            v = compact[v];
    return out;
}

IndexedMesh shuffled(const IndexedMesh& m, std::uint32_t seed)
{
    std::mt19937               rng(seed);
    std::vector<std::uint32_t> vperm(m.positions.size()), fperm(m.faces.size());
    std::iota(vperm.begin(), vperm.end(), 0u);
    std::iota(fperm.begin(), fperm.end(), 0u);
    std::shuffle(vperm.begin(), vperm.end(), rng);
    std::shuffle(fperm.begin(), fperm.end(), rng);
    IndexedMesh out;
    out.positions.resize(m.positions.size());
    out.faces.resize(m.faces.size());
    for (std::uint32_t v = 0; v < vperm.size(); ++v)
        out.positions[vperm[v]] = m.positions[v];
    for (std::uint32_t f = 0; f < fperm.size(); ++f)
        for (int k = 0; k < 3; ++k)
            out.faces[fperm[f]][k] = vperm[m.faces[f][k]];
    return out;
}

//! The mesh in RXMesh's global (patch) numbering.
IndexedMesh sorted_by_patch(const RXMesh& mesh)
{
    IndexedMesh out;
    const auto  p = mesh.positions().to_host();
    const auto  f = mesh.faces().to_host();
    out.positions.resize(mesh.num_vertices());
    out.faces.resize(mesh.num_faces());
    std::memcpy(out.positions.data(), p.data(), p.size() * sizeof(float));
    std::memcpy(out.faces.data(), f.data(), f.size() * sizeof(std::uint32_t));
    return out;
}

constexpr std::uint32_t fixed_row_size(Op op)
{
    return op == Op::EV ? 2 : (op == Op::FV || op == Op::FE) ? 3 : 0;
}

template <Op op>
struct CountRows
{
    std::uint32_t* counts;
    __device__ void operator()(typename OpTraits<op>::Source s,
                               const Iterator<typename OpTraits<op>::Output>& it) const
    {
        counts[s.id()] = it.size();
    }
};

//! The timed workload: row s's output ids to values[offset(s) ...].
template <Op op>
struct WriteRows
{
    const std::uint32_t* offsets;
    std::uint32_t*       values;
    __device__ void operator()(typename OpTraits<op>::Source s,
                               const Iterator<typename OpTraits<op>::Output>& it) const
    {
        constexpr std::uint32_t k = fixed_row_size(op);
        // read-only load, as the baselines' __restrict__ / __ldg offsets: it
        // does not wait for the previous element's stores
        const std::uint32_t     o = k ? k * s.id() : __ldg(offsets + s.id());
        // (Iterator::for_each: short rows unroll, so the next elements'
        // offset loads need not wait for this row's stores)
        it.for_each([&](std::uint32_t i, auto out) { values[o + i] = out.id(); });
    }
};

//! RXMesh with the same interface as PdeMesh / CsrMesh (BlockThreads: the
//! query blocks' size).
template <int BlockThreads = 0>
class RXMeshQueries
{
   public:
    explicit RXMeshQueries(const RXMesh& mesh) : m_mesh(mesh) {}

    std::uint32_t num_sources(Op op) const
    {
        return baselines::num_sources(op, m_mesh.num_vertices(), m_mesh.num_edges(),
                                      m_mesh.num_faces());
    }

    QueryOutput allocate(Op op) const
    {
        switch (op) {
            case Op::VV: return allocate_impl<Op::VV>();
            case Op::VE: return allocate_impl<Op::VE>();
            case Op::VF: return allocate_impl<Op::VF>();
            case Op::EV: return allocate_impl<Op::EV>();
            case Op::EF: return allocate_impl<Op::EF>();
            case Op::FV: return allocate_impl<Op::FV>();
            case Op::FE: return allocate_impl<Op::FE>();
            case Op::FF: return allocate_impl<Op::FF>();
        }
        return {};
    }

    void run(Op op, QueryOutput& out) const
    {
        switch (op) {
            case Op::VV: return run_impl<Op::VV>(out);
            case Op::VE: return run_impl<Op::VE>(out);
            case Op::VF: return run_impl<Op::VF>(out);
            case Op::EV: return run_impl<Op::EV>(out);
            case Op::EF: return run_impl<Op::EF>(out);
            case Op::FV: return run_impl<Op::FV>(out);
            case Op::FE: return run_impl<Op::FE>(out);
            case Op::FF: return run_impl<Op::FF>(out);
        }
    }

    //! RXMesh edge id -> vertex pair (from its own EV).
    EdgeVertices edge_vertices() const
    {
        QueryOutput out = allocate(Op::EV);
        run(Op::EV, out);
        const auto   v = out.values.to_host();
        EdgeVertices e(m_mesh.num_edges());
        for (std::size_t i = 0; i < e.size(); ++i)
            e[i] = {std::min(v[2 * i], v[2 * i + 1]), std::max(v[2 * i], v[2 * i + 1])};
        return e;
    }

   private:
    template <Op op>
    static constexpr int threads()
    {
        return BlockThreads != 0 ? BlockThreads : default_query_threads(op);
    }

    template <Op op>
    QueryOutput allocate_impl() const
    {
        const std::uint32_t n = num_sources(op);
        QueryOutput         out;
        if constexpr (fixed_row_size(op) != 0) {
            out.offsets = baselines::detail::fixed_offsets(n, fixed_row_size(op));
            out.values  = DeviceBuffer<std::uint32_t>(std::size_t(fixed_row_size(op)) * n);
        } else {
            DeviceBuffer<std::uint32_t> counts(std::size_t(n) + 1);
            counts.memset(0);
            m_mesh.for_each<op, threads<op>()>(CountRows<op>{counts.data()});
            RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
            std::uint32_t total = 0;
            out.offsets         = baselines::detail::offsets_from_counts(counts, total);
            out.values          = DeviceBuffer<std::uint32_t>(std::max(1u, total));
            out.values.shrink(total);
        }
        return out;
    }

    template <Op op>
    void run_impl(QueryOutput& out) const
    {
        m_mesh.for_each<op, threads<op>()>(WriteRows<op>{out.offsets.data(), out.values.data()});
    }

    const RXMesh& m_mesh;
};

struct Record
{
    std::string mesh, order, system, op;
    std::uint64_t faces = 0, vertices = 0, edges = 0;
    double        ms = -1, gbps = 0;
    std::string   verified;  // "yes", "skipped", "n/a" or "MISMATCH"
    std::string   note;
    // capacity sweep only
    std::uint32_t capacity = 0, patches = 0, block = 0;  // 0: the default per op
    double        bytes_per_face = 0;
};

struct MemoryRecord
{
    std::string   mesh;
    std::uint64_t faces = 0;
    std::size_t   rxmesh = 0, pde = 0, csr = 0;
};

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
};

int g_failures = 0;

//! Times every op of one system; appends records.
template <typename System>
void measure(const System& sys, const char* system, const std::string& mesh_name,
             const std::string& order, const IndexedMesh& m, std::uint64_t edges,
             const reference::Topology* ref, const Options& opt, std::vector<Record>& records)
{
    const EdgeVertices ev = ref ? sys.edge_vertices() : EdgeVertices{};
    for (const Op op : kAllOps) {
        Record r;
        r.mesh     = mesh_name;
        r.order    = order;
        r.system   = system;
        r.op       = to_string(op);
        r.faces    = m.faces.size();
        r.vertices = m.positions.size();
        r.edges    = edges;
        QueryOutput out = sys.allocate(op);
        sys.run(op, out);
        RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
        if (ref) {
            std::string why;
            if (verify_against_reference(out, op, *ref, ev, why)) {
                r.verified = "yes";
            } else {
                r.verified = "MISMATCH";
                r.note     = why;
                ++g_failures;
                std::fprintf(stderr, "%s %s %s %s: %s\n", system, mesh_name.c_str(),
                             order.c_str(), r.op.c_str(), why.c_str());
            }
        } else {
            r.verified = "skipped";
        }
        r.ms = time_query([&] { sys.run(op, out); }, 3, opt.runs);
        const double bytes =
            4.0 * out.values.size() + (fixed_row_size(op) ? 0.0 : 4.0 * sys.num_sources(op));
        r.gbps = bytes / (r.ms * 1e6);
        records.push_back(r);
    }
}

std::vector<std::uint32_t> parse_list(const std::string& s)
{
    std::vector<std::uint32_t> out;
    std::stringstream          ss(s);
    std::string                item;
    while (std::getline(ss, item, ','))
        if (!item.empty())
            out.push_back(static_cast<std::uint32_t>(std::stoul(item)));
    return out;
}

std::string json_escape(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv)
{
    Options opt;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw Error("bench_query_compare: " + a + " needs a value");
            return argv[++i];
        };
        if (a == "--mesh") {
            std::string v = value(), file = v;
            std::vector<int> levels{0};
            const auto colon = v.rfind(':');
            if (colon != std::string::npos && colon + 1 < v.size() &&
                std::isdigit(static_cast<unsigned char>(v[colon + 1]))) {
                file = v.substr(0, colon);
                levels.clear();
                for (auto l : parse_list(v.substr(colon + 1)))
                    levels.push_back(int(l));
            }
            opt.meshes.push_back({file, levels});
        } else if (a == "--runs") {
            opt.runs = std::stoi(value());
        } else if (a == "--capacity") {
            opt.capacity = static_cast<std::uint32_t>(std::stoul(value()));
        } else if (a == "--verify-max-faces") {
            opt.verify_max_faces = std::stoull(value());
        } else if (a == "--json") {
            opt.json = value();
        } else if (a == "--dump-orders") {
            opt.dump_dir = value();
        } else if (a == "--dump-max-faces") {
            opt.dump_max_faces = std::stoull(value());
        } else if (a == "--sweep") {
            opt.sweep = true;
        } else if (a == "--capacities") {
            opt.capacities = parse_list(value());
        } else if (a == "--orders") {
            opt.orders.clear();
            std::stringstream list(value());
            for (std::string o; std::getline(list, o, ',');) {
                if (o != "given" && o != "sorted" && o != "shuffled")
                    throw Error("bench_query_compare: unknown order '" + o +
                                "' (given, sorted or shuffled)");
                opt.orders.push_back(o);
            }
        } else {
            std::fprintf(stderr,
                         "usage: bench_query_compare --mesh FILE[:L0,L1,...] [--runs R] "
                         "[--capacity C] [--verify-max-faces N] [--json OUT] "
                         "[--dump-orders DIR] [--dump-max-faces N] [--sweep] "
                         "[--capacities 256,512,...] [--orders given,sorted,shuffled]\n");
            return 2;
        }
    }
    if (opt.meshes.empty())
        opt.meshes.push_back({"", {0}});

    bench::keep_pool_memory();
    const double copy = bench::measured_copy_gbps();
    std::printf("GPU: %s, device copy %.0f GB/s (read + write); median of %d runs\n\n",
                bench::gpu_name().c_str(), copy, opt.runs);

    std::vector<Record>       records, sweep, block_sweep;
    std::vector<MemoryRecord> memory;
    IndexedMesh               largest_sorted;
    std::string               largest_name;
    for (const auto& [file, levels] : opt.meshes) {
        const TriangleSoup raw  = file.empty() ? generate::torus(256, 160) : io::read(file);
        IndexedMesh        base = compact_in_input_order(raw);
        const std::string  stem = file.empty() ? std::string("torus")
                                              : file.substr(file.find_last_of('/') + 1);
        int level = 0;
        for (int want : levels) {
            while (level < want) {
                TriangleSoup s = generate::refine(base.soup());
                base.positions = std::move(s.positions);
                base.faces     = std::move(s.faces);
                ++level;
            }
            const std::string name = stem + " x4^" + std::to_string(level);
            BuildOptions      build;
            build.patcher.capacity = opt.capacity;

            // the sorted order comes from RXMesh's patches of the given order
            IndexedMesh sorted;
            {
                const RXMesh m(base.soup(), build);
                sorted = sorted_by_patch(m);
            }
            const IndexedMesh shuffle = shuffled(base, 12345u + level);
            const std::pair<const char*, const IndexedMesh*> orders[] = {
                {"given", &base}, {"sorted", &sorted}, {"shuffled", &shuffle}};
            if (base.faces.size() >= largest_sorted.faces.size()) {
                largest_sorted = sorted;
                largest_name   = name;
            }
            std::printf("%s: %zu vertices, %zu faces\n", name.c_str(), base.positions.size(),
                        base.faces.size());
            std::fflush(stdout);
            for (const auto& [order, mesh] : orders) {
                if (std::find(opt.orders.begin(), opt.orders.end(), order) == opt.orders.end())
                    continue;
                const auto nv = static_cast<std::uint32_t>(mesh->positions.size());
                if (!opt.dump_dir.empty() && mesh->faces.size() <= opt.dump_max_faces)
                    io::write_ply(opt.dump_dir + "/" + stem + ".x4_" + std::to_string(level) +
                                      "." + order + ".ply",
                                  mesh->soup());
                const bool verify = mesh->faces.size() <= opt.verify_max_faces;
                std::unique_ptr<reference::Topology> ref;
                if (verify)
                    ref = std::make_unique<reference::Topology>(
                        reference::build_topology(nv, mesh->faces));
                MemoryRecord mem;
                mem.mesh  = name;
                mem.faces = mesh->faces.size();
                std::uint64_t edges = 0;
                {
                    const RXMesh rx(mesh->soup(), build);
                    edges      = rx.num_edges();
                    mem.rxmesh = rx.stats().store_bytes;
                    // RXMesh's ids are its own: check against its own numbering
                    std::unique_ptr<reference::Topology> rx_ref;
                    if (verify) {
                        const IndexedMesh g = sorted_by_patch(rx);
                        rx_ref = std::make_unique<reference::Topology>(
                            reference::build_topology(rx.num_vertices(), g.faces));
                    }
                    measure(RXMeshQueries<>(rx), "RXMesh", name, order, *mesh, edges,
                            rx_ref.get(), opt, records);
                }
                {
                    const CsrMesh csr(mesh->faces, nv);
                    mem.csr = csr.bytes();
                    measure(csr, "CSR", name, order, *mesh, edges, ref.get(), opt, records);
                }
                try {
                    const PdeMesh pde(mesh->faces, nv);
                    mem.pde = pde.bytes();
                    measure(pde, "PDE", name, order, *mesh, edges, ref.get(), opt, records);
                } catch (const InvalidInputError& e) {
                    // PDE cannot represent non-manifold or inconsistently oriented meshes
                    for (const Op op : kAllOps) {
                        Record r;
                        r.mesh = name, r.order = order, r.system = "PDE", r.op = to_string(op);
                        r.faces = mesh->faces.size(), r.vertices = nv, r.edges = edges;
                        r.verified = "n/a";
                        r.note     = e.what();
                        records.push_back(r);
                    }
                }
                if (std::string(order) == "sorted")
                    memory.push_back(mem);
            }
        }
    }

    if (opt.sweep && !largest_sorted.faces.empty()) {
        for (std::uint32_t c : opt.capacities) {
            BuildOptions build;
            build.patcher.capacity = c;
            const RXMesh rx(largest_sorted.soup(), build);
            const std::string name = largest_name + " capacity " + std::to_string(c);
            std::vector<Record> rs;
            measure(RXMeshQueries<>(rx), "RXMesh", name, "sorted", largest_sorted,
                    rx.num_edges(), nullptr, opt, rs);
            for (auto& r : rs) {
                r.capacity       = c;
                r.patches        = rx.num_patches();
                r.bytes_per_face = rx.stats().store_bytes_per_face;
                sweep.push_back(r);
            }
        }
    }

    if (opt.sweep && !largest_sorted.faces.empty()) {
        // block size of the query kernels, at the default capacity
        BuildOptions build;
        build.patcher.capacity = opt.capacity;
        const RXMesh rx(largest_sorted.soup(), build);
        auto         add = [&](auto&& queries, std::uint32_t block) {
            std::vector<Record> rs;
            measure(queries, "RXMesh", largest_name + " block " + std::to_string(block), "sorted",
                    largest_sorted, rx.num_edges(), nullptr, opt, rs);
            for (auto& r : rs) {
                r.capacity       = opt.capacity;
                r.patches        = rx.num_patches();
                r.bytes_per_face = rx.stats().store_bytes_per_face;
                r.block          = block;
                block_sweep.push_back(r);
            }
        };
        add(RXMeshQueries<64>(rx), 64);
        add(RXMeshQueries<128>(rx), 128);
        add(RXMeshQueries<256>(rx), 256);
        add(RXMeshQueries<512>(rx), 512);
    }

    // ---- tables ----
    std::map<std::string, double> ms;  // key: mesh|order|system|op
    for (const Record& r : records)
        ms[r.mesh + "|" + r.order + "|" + r.system + "|" + r.op] = r.ms;
    auto get = [&](const Record& r, const char* system) {
        const auto it = ms.find(r.mesh + "|" + r.order + "|" + system + "|" + r.op);
        return it == ms.end() ? -1.0 : it->second;
    };
    std::printf("\n| mesh | order | op | RXMesh ms | PDE ms | CSR ms | vs PDE | vs CSR | RXMesh "
                "output GB/s | verified |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Record& r : records) {
        if (r.system != "RXMesh")
            continue;
        const double pde = get(r, "PDE"), csr = get(r, "CSR");
        char         vs_pde[32] = "n/a", pde_ms[32] = "n/a";
        if (pde > 0) {
            std::snprintf(vs_pde, sizeof vs_pde, "%.2fx", pde / r.ms);
            std::snprintf(pde_ms, sizeof pde_ms, "%.3f", pde);
        }
        std::printf("| %s | %s | %s | %.3f | %s | %.3f | %s | %.2fx | %.0f | %s |\n",
                    r.mesh.c_str(), r.order.c_str(), r.op.c_str(), r.ms, pde_ms, csr, vs_pde,
                    csr / r.ms, r.gbps, r.verified.c_str());
    }
    std::printf("\n| mesh | faces | RXMesh store MB | PDE MB | CSR (8 relations) MB | RXMesh / "
                "CSR |\n|---|---|---|---|---|---|\n");
    for (const auto& m : memory)
        std::printf("| %s | %llu | %.1f | %.1f | %.1f | %.2f |\n", m.mesh.c_str(),
                    (unsigned long long)m.faces, m.rxmesh / 1e6, m.pde / 1e6, m.csr / 1e6,
                    double(m.rxmesh) / std::max<std::size_t>(1, m.csr));
    if (!sweep.empty()) {
        std::printf("\n| capacity | patches | store bytes/face | op | ms |\n|---|---|---|---|---|\n");
        for (const Record& r : sweep)
            std::printf("| %u | %u | %.1f | %s | %.3f |\n", r.capacity, r.patches,
                        r.bytes_per_face, r.op.c_str(), r.ms);
        std::printf("\n| block threads | op | ms |\n|---|---|---|\n");
        for (const Record& r : block_sweep)
            std::printf("| %u | %s | %.3f |\n", r.block, r.op.c_str(), r.ms);
    }

    if (!opt.json.empty()) {
        FILE* f = std::fopen(opt.json.c_str(), "w");
        if (!f)
            throw Error("bench_query_compare: cannot write " + opt.json);
        std::fprintf(f, "{\n  \"gpu\": \"%s\",\n  \"copy_gbps\": %.1f,\n  \"runs\": %d,\n"
                        "  \"capacity\": %u,\n  \"results\": [\n",
                     json_escape(bench::gpu_name()).c_str(), copy, opt.runs, opt.capacity);
        auto write_records = [&](const std::vector<Record>& rs) {
            for (std::size_t i = 0; i < rs.size(); ++i) {
                const Record& r = rs[i];
                std::fprintf(f,
                             "    {\"mesh\": \"%s\", \"order\": \"%s\", \"system\": \"%s\", "
                             "\"op\": \"%s\", \"faces\": %llu, \"vertices\": %llu, \"edges\": "
                             "%llu, \"ms\": %s, \"output_gbps\": %.1f, \"verified\": \"%s\", "
                             "\"note\": \"%s\", \"capacity\": %u, \"patches\": %u, "
                             "\"block\": %u, \"store_bytes_per_face\": %.2f}%s\n",
                             json_escape(r.mesh).c_str(), r.order.c_str(), r.system.c_str(),
                             r.op.c_str(), (unsigned long long)r.faces,
                             (unsigned long long)r.vertices, (unsigned long long)r.edges,
                             r.ms < 0 ? "null" : std::to_string(r.ms).c_str(), r.gbps,
                             r.verified.c_str(), json_escape(r.note).c_str(), r.capacity,
                             r.patches, r.block, r.bytes_per_face, i + 1 < rs.size() ? "," : "");
            }
        };
        write_records(records);
        std::fprintf(f, "  ],\n  \"memory\": [\n");
        for (std::size_t i = 0; i < memory.size(); ++i)
            std::fprintf(f,
                         "    {\"mesh\": \"%s\", \"faces\": %llu, \"rxmesh_bytes\": %zu, "
                         "\"pde_bytes\": %zu, \"csr_bytes\": %zu}%s\n",
                         json_escape(memory[i].mesh).c_str(),
                         (unsigned long long)memory[i].faces, memory[i].rxmesh, memory[i].pde,
                         memory[i].csr, i + 1 < memory.size() ? "," : "");
        std::fprintf(f, "  ],\n  \"capacity_sweep\": [\n");
        write_records(sweep);
        std::fprintf(f, "  ],\n  \"block_sweep\": [\n");
        write_records(block_sweep);
        std::fprintf(f, "  ]\n}\n");
        std::fclose(f);
    }
    if (g_failures)
        std::fprintf(stderr, "FAILED: %d mismatches against the reference\n", g_failures);
    return g_failures ? 1 : 0;
}
