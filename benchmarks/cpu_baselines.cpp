// CPU query baselines: the eight first-order queries (VV VE VF EV EF FV FE
// FF, as in rxmesh/query/op.h) with OpenMesh 9 (TriMesh_ArrayKernelT) and
// CGAL's Surface_mesh, serial and with OpenMP.
//
// Workload (the RXMesh paper's): iterate over the source elements, get each
// one's neighbours with the library's own circulators / iterators and write
// their ids into a pre-allocated vector at precomputed per-source offsets.
// Allocation and offsets are outside the timing. Median of R runs after one
// warm-up (std::chrono). The warm-up output of every (op, library, mode) is
// checked once: the output total must equal the reference total from
// rxmesh::reference::build_topology of the faces the library accepted, every
// slot must be written, and where element ids are shared with the reference
// (vertex and face ids; edge ids differ between libraries) each source's row
// must equal the reference row as a set.
//
// usage: bench_cpu_baselines --mesh FILE [--refine K] [--runs R]
//                            [--threads T] [--json OUT]
//
// Built with whichever of OpenMesh, CGAL and OpenMP CMake found
// (RXMESH_HAVE_OPENMESH, RXMESH_HAVE_CGAL, _OPENMP); it says at run time
// which are missing. See the end of benchmarks/CMakeLists.txt for the
// self-contained bundle (.bench-bin/) that runs on a machine without them.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#ifdef RXMESH_HAVE_CGAL
#include <CGAL/Simple_cartesian.h>
#include <CGAL/Surface_mesh.h>
#endif

#include "common/openmesh_baseline.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/topology.h"

namespace {

using u32 = std::uint32_t;
constexpr u32 kUnset = 0xFFFFFFFFu;
constexpr int kOps   = 8;
const char* const kOpNames[kOps] = {"VV", "VE", "VF", "EV", "EF", "FV", "FE", "FF"};
enum OpIdx { VV, VE, VF, EV, EF, FV, FE, FF };


// What one (library, op) measurement needs: sources, offsets, output, and
// the reference to check the first run against.
struct Reference
{
    u32                          nv = 0, ne = 0, nf = 0;
    std::vector<rxmesh::Triangle> faces;
    rxmesh::reference::Topology  topo;
    std::uint64_t total(int op) const
    {
        switch (op) {
            case VV: case VE: case EV: return 2ull * ne;
            case VF: case FV: case FE: return 3ull * nf;
            case EF: return topo.ef.indices.size();
            case FF: return topo.ff.indices.size();
        }
        return 0;
    }
};

struct Result
{
    double ms    = -1;  // < 0: not run
    bool   ok    = false;
    std::string note;
};

// Row of source s as a sorted vector.
std::vector<u32> sorted_row(const u32* p, u32 n)
{
    std::vector<u32> r(p, p + n);
    std::sort(r.begin(), r.end());
    return r;
}

// Checks one warm-up output. Rows of vertex- and face-valued ops over vertex
// or face sources are compared with the reference rows (ids match when the
// library accepted every face, vertices and faces being added in order).
bool check(int op, const Reference& ref, const std::vector<u32>& off,
           const std::vector<u32>& out, bool ids_match, std::string& note)
{
    const std::uint64_t expect = ref.total(op);
    if (off.back() != expect) {
        note = "total " + std::to_string(off.back()) + " != reference " + std::to_string(expect);
        return false;
    }
    if (std::find(out.begin(), out.end(), kUnset) != out.end()) {
        note = "unwritten output slots";
        return false;
    }
    if (!ids_match)
        return true;
    const rxmesh::reference::Csr* csr = nullptr;
    if (op == VV) csr = &ref.topo.vv;
    if (op == VF) csr = &ref.topo.vf;
    if (op == FF) csr = &ref.topo.ff;
    const u32 n = static_cast<u32>(off.size() - 1);
    for (u32 s = 0; s < n; ++s) {
        const std::vector<u32> got = sorted_row(out.data() + off[s], off[s + 1] - off[s]);
        std::vector<u32>       want;
        if (csr)
            want.assign(csr->indices.begin() + csr->offsets[s],
                        csr->indices.begin() + csr->offsets[s + 1]);
        else if (op == FV)
            want = sorted_row(ref.faces[s].data(), 3);
        else
            return true;  // edge-valued or edge-sourced: totals only
        if (got != want) {
            note = std::string("row ") + std::to_string(s) + " differs from reference";
            return false;
        }
    }
    return true;
}

// Times fill(s, dst) over all sources, serial or OpenMP, after a checked
// warm-up. count(s) gives the per-source output size (offsets, untimed).
template <typename Count, typename Fill>
void run_op(u32 n, Count count, Fill fill, int op, const Reference& ref, bool ids_match,
            int runs, int threads, Result& serial, Result& par)
{
    std::vector<u32> off(n + 1, 0);
    for (u32 s = 0; s < n; ++s)
        off[s + 1] = off[s] + count(s);
    std::vector<u32> out(off.back());
    u32* const       o  = out.data();
    const u32* const of = off.data();

    auto serial_pass = [&] {
        for (u32 s = 0; s < n; ++s)
            fill(s, o + of[s]);
    };
#ifdef _OPENMP
    auto omp_pass = [&] {
#pragma omp parallel for schedule(static) num_threads(threads)
        for (std::int64_t s = 0; s < std::int64_t(n); ++s)
            fill(u32(s), o + of[s]);
    };
#endif
    auto measure = [&](auto pass, Result& r) {
        std::fill(out.begin(), out.end(), kUnset);
        pass();  // warm-up, checked
        r.ok = check(op, ref, off, out, ids_match, r.note);
        r.ms = rxmesh::bench::cpu_median_ms(pass, runs);
    };
    measure(serial_pass, serial);
#ifdef _OPENMP
    measure(omp_pass, par);
#else
    (void)threads;
    (void)par;
#endif
}

Reference make_reference(u32 nv, std::vector<rxmesh::Triangle> faces)
{
    Reference r;
    r.topo  = rxmesh::reference::build_topology(nv, faces);
    r.nv    = nv;
    r.ne    = static_cast<u32>(r.topo.ev.size());
    r.nf    = static_cast<u32>(faces.size());
    r.faces = std::move(faces);
    return r;
}

struct LibResults
{
    explicit LibResults(const char* library) : name(library) {}
    const char*   name;
    bool          built = false;
    std::uint64_t skipped = 0;
    double        build_ms = 0;
    Result        serial[kOps], par[kOps];
};

//! Builds a library's mesh, timed into lr.build_ms: reserve(), then
//! add_vertex(i) for every position and add_face(f) -> accepted? for every
//! face. Faces the library refuses (non-manifold for a halfedge mesh) are
//! counted in lr.skipped; then the reference of the faces it kept is
//! returned, else an empty one (use `full`).
template <typename Reserve, typename AddVertex, typename AddFace>
Reference build_library_mesh(const std::vector<rxmesh::Vec3f>&    pos,
                             const std::vector<rxmesh::Triangle>& faces,
                             LibResults&                          lr,
                             Reserve                              reserve,
                             AddVertex                            add_vertex,
                             AddFace                              add_face)
{
    const auto t0 = std::chrono::steady_clock::now();
    reserve();
    for (std::size_t i = 0; i < pos.size(); ++i)
        add_vertex(i);
    std::vector<rxmesh::Triangle> kept;
    kept.reserve(faces.size());
    for (const auto& f : faces) {
        if (add_face(f))
            kept.push_back(f);
        else
            ++lr.skipped;
    }
    lr.build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    lr.built    = true;
    return lr.skipped == 0 ? Reference{} : make_reference(static_cast<u32>(pos.size()), kept);
}

#ifdef RXMESH_HAVE_OPENMESH
void bench_openmesh(const std::vector<rxmesh::Vec3f>& pos, const std::vector<rxmesh::Triangle>& faces,
                    const Reference& full, int runs, int threads, LibResults& lr)
{
    using Mesh = OpenMesh::TriMesh_ArrayKernelT<>;
    Mesh                            m;
    std::vector<Mesh::VertexHandle> vh(pos.size());
    const Reference                 own = build_library_mesh(
        pos, faces, lr, [&] { m.reserve(pos.size(), full.ne, faces.size()); },
        [&](std::size_t i) { vh[i] = m.add_vertex(Mesh::Point(pos[i][0], pos[i][1], pos[i][2])); },
        [&](const rxmesh::Triangle& f) { return m.add_face(vh[f[0]], vh[f[1]], vh[f[2]]).is_valid(); });
    const bool       all = lr.skipped == 0;  // ids match the input's
    const Reference& ref = all ? full : own;

    const u32 nv = u32(m.n_vertices()), ne = u32(m.n_edges()), nf = u32(m.n_faces());
    using VH = OpenMesh::VertexHandle;
    using EH = OpenMesh::EdgeHandle;
    using FH = OpenMesh::FaceHandle;
    const Mesh& c = m;
    auto* S = lr.serial;
    auto* P = lr.par;

    run_op(nv, [&](u32 s) { return u32(c.valence(VH(int(s)))); },
           [&](u32 s, u32* d) {
               for (auto it = c.cvv_iter(VH(int(s))); it.is_valid(); ++it) *d++ = u32(it->idx());
           }, VV, ref, all, runs, threads, S[VV], P[VV]);
    run_op(nv, [&](u32 s) { return u32(c.valence(VH(int(s)))); },
           [&](u32 s, u32* d) {
               for (auto it = c.cve_iter(VH(int(s))); it.is_valid(); ++it) *d++ = u32(it->idx());
           }, VE, ref, all, runs, threads, S[VE], P[VE]);
    run_op(nv, [&](u32 s) { u32 k = 0; for (auto it = c.cvf_iter(VH(int(s))); it.is_valid(); ++it) ++k; return k; },
           [&](u32 s, u32* d) {
               for (auto it = c.cvf_iter(VH(int(s))); it.is_valid(); ++it) *d++ = u32(it->idx());
           }, VF, ref, all, runs, threads, S[VF], P[VF]);
    run_op(ne, [&](u32) { return 2u; },
           [&](u32 s, u32* d) {
               const auto h = c.halfedge_handle(EH(int(s)), 0);
               d[0] = u32(c.from_vertex_handle(h).idx());
               d[1] = u32(c.to_vertex_handle(h).idx());
           }, EV, ref, false, runs, threads, S[EV], P[EV]);
    run_op(ne, [&](u32 s) { return u32(!c.is_boundary(c.halfedge_handle(EH(int(s)), 0))) +
                                   u32(!c.is_boundary(c.halfedge_handle(EH(int(s)), 1))); },
           [&](u32 s, u32* d) {
               for (int i = 0; i < 2; ++i) {
                   const FH f = c.face_handle(c.halfedge_handle(EH(int(s)), i));
                   if (f.is_valid()) *d++ = u32(f.idx());
               }
           }, EF, ref, false, runs, threads, S[EF], P[EF]);
    run_op(nf, [&](u32) { return 3u; },
           [&](u32 s, u32* d) {
               for (auto it = c.cfv_iter(FH(int(s))); it.is_valid(); ++it) *d++ = u32(it->idx());
           }, FV, ref, all, runs, threads, S[FV], P[FV]);
    run_op(nf, [&](u32) { return 3u; },
           [&](u32 s, u32* d) {
               for (auto it = c.cfe_iter(FH(int(s))); it.is_valid(); ++it) *d++ = u32(it->idx());
           }, FE, ref, false, runs, threads, S[FE], P[FE]);
    run_op(nf, [&](u32 s) { u32 k = 0; for (auto it = c.cff_iter(FH(int(s))); it.is_valid(); ++it) ++k; return k; },
           [&](u32 s, u32* d) {
               for (auto it = c.cff_iter(FH(int(s))); it.is_valid(); ++it) *d++ = u32(it->idx());
           }, FF, ref, all, runs, threads, S[FF], P[FF]);
}
#endif

#ifdef RXMESH_HAVE_CGAL
void bench_cgal(const std::vector<rxmesh::Vec3f>& pos, const std::vector<rxmesh::Triangle>& faces,
                const Reference& full, int runs, int threads, LibResults& lr)
{
    using K    = CGAL::Simple_cartesian<double>;
    using Mesh = CGAL::Surface_mesh<K::Point_3>;
    using VI = Mesh::Vertex_index;
    using EI = Mesh::Edge_index;
    using FI = Mesh::Face_index;
    using HI = Mesh::Halfedge_index;
    Mesh            m;
    std::vector<VI> vi(pos.size());
    const Reference own = build_library_mesh(
        pos, faces, lr,
        [&] {
            m.reserve(Mesh::size_type(pos.size()), Mesh::size_type(full.ne),
                      Mesh::size_type(faces.size()));
        },
        [&](std::size_t i) { vi[i] = m.add_vertex(K::Point_3(pos[i][0], pos[i][1], pos[i][2])); },
        [&](const rxmesh::Triangle& f) {
            return m.add_face(vi[f[0]], vi[f[1]], vi[f[2]]) != Mesh::null_face();
        });
    const bool       all = lr.skipped == 0;  // ids match the input's
    const Reference& ref = all ? full : own;

    const u32 nv = u32(m.number_of_vertices()), ne = u32(m.number_of_edges()),
              nf = u32(m.number_of_faces());
    const Mesh& c = m;
    auto* S = lr.serial;
    auto* P = lr.par;
    // halfedge(v) is null for an isolated vertex: it has no neighbours.
    auto vh = [&](u32 s) { return c.halfedge(VI(s)); };

    run_op(nv, [&](u32 s) { return vh(s) == Mesh::null_halfedge() ? 0u : u32(c.degree(VI(s))); },
           [&](u32 s, u32* d) {
               const HI h = vh(s);
               if (h == Mesh::null_halfedge()) return;
               for (VI v : c.vertices_around_target(h)) *d++ = u32(v.idx());
           }, VV, ref, all, runs, threads, S[VV], P[VV]);
    run_op(nv, [&](u32 s) { return vh(s) == Mesh::null_halfedge() ? 0u : u32(c.degree(VI(s))); },
           [&](u32 s, u32* d) {
               const HI h = vh(s);
               if (h == Mesh::null_halfedge()) return;
               for (HI x : c.halfedges_around_target(h)) *d++ = u32(c.edge(x).idx());
           }, VE, ref, all, runs, threads, S[VE], P[VE]);
    run_op(nv,
           [&](u32 s) {
               u32 k = 0;
               if (vh(s) != Mesh::null_halfedge())
                   for (FI f : c.faces_around_target(vh(s))) k += f != Mesh::null_face();
               return k;
           },
           [&](u32 s, u32* d) {
               const HI h = vh(s);
               if (h == Mesh::null_halfedge()) return;
               for (FI f : c.faces_around_target(h))
                   if (f != Mesh::null_face()) *d++ = u32(f.idx());
           }, VF, ref, all, runs, threads, S[VF], P[VF]);
    run_op(ne, [&](u32) { return 2u; },
           [&](u32 s, u32* d) {
               const HI h = c.halfedge(EI(s));
               d[0] = u32(c.source(h).idx());
               d[1] = u32(c.target(h).idx());
           }, EV, ref, false, runs, threads, S[EV], P[EV]);
    run_op(ne, [&](u32 s) { return u32(!c.is_border(c.halfedge(EI(s), 0))) +
                                   u32(!c.is_border(c.halfedge(EI(s), 1))); },
           [&](u32 s, u32* d) {
               for (unsigned i = 0; i < 2; ++i) {
                   const FI f = c.face(c.halfedge(EI(s), i));
                   if (f != Mesh::null_face()) *d++ = u32(f.idx());
               }
           }, EF, ref, false, runs, threads, S[EF], P[EF]);
    run_op(nf, [&](u32) { return 3u; },
           [&](u32 s, u32* d) {
               for (VI v : c.vertices_around_face(c.halfedge(FI(s)))) *d++ = u32(v.idx());
           }, FV, ref, all, runs, threads, S[FV], P[FV]);
    run_op(nf, [&](u32) { return 3u; },
           [&](u32 s, u32* d) {
               for (HI x : c.halfedges_around_face(c.halfedge(FI(s)))) *d++ = u32(c.edge(x).idx());
           }, FE, ref, false, runs, threads, S[FE], P[FE]);
    run_op(nf,
           [&](u32 s) {
               u32 k = 0;
               for (FI f : c.faces_around_face(c.halfedge(FI(s)))) k += f != Mesh::null_face();
               return k;
           },
           [&](u32 s, u32* d) {
               for (FI f : c.faces_around_face(c.halfedge(FI(s))))
                   if (f != Mesh::null_face()) *d++ = u32(f.idx());
           }, FF, ref, all, runs, threads, S[FF], P[FF]);
}
#endif

std::string cell(const Result& r)
{
    if (r.ms < 0) return "n/a";
    char b[64];
    std::snprintf(b, sizeof b, "%.3f", r.ms);
    return b;
}

std::string json_num(const Result& r)
{
    if (r.ms < 0) return "null";
    char b[64];
    std::snprintf(b, sizeof b, "%.4f", r.ms);
    return b;
}

}  // namespace

int main(int argc, char** argv)
{
    std::string file, json;
    int         refine = 0, runs = 10, threads = 0;
    CLI::App cli{"bench_cpu_baselines: the eight queries on OpenMesh and CGAL, serial and OpenMP",
                 "bench_cpu_baselines"};
    rxmesh::bench::add_mesh(cli, file, "required")->required();
    rxmesh::bench::add_refine(cli, refine);
    rxmesh::bench::add_runs(cli, runs);
    cli.add_option("--threads", threads, "OpenMP threads (0: all)")->capture_default_str();
    rxmesh::bench::add_json(cli, json);
    if (const int rc = rxmesh::bench::parse(cli, argc, argv); rc >= 0) return rc;
#ifdef _OPENMP
    if (threads <= 0) threads = omp_get_max_threads();
#else
    threads = 1;
#endif

    std::vector<std::string> missing;
#ifndef RXMESH_HAVE_OPENMESH
    missing.push_back("OpenMesh");
#endif
#ifndef RXMESH_HAVE_CGAL
    missing.push_back("CGAL");
#endif
#ifndef _OPENMP
    missing.push_back("OpenMP");
#endif
    for (const auto& m : missing)
        std::printf("note: built without %s: its columns are n/a\n", m.c_str());

    std::vector<rxmesh::Vec3f>    pos;
    std::vector<rxmesh::Triangle> faces;
    try {
        const rxmesh::TriangleSoup soup = rxmesh::io::read(file);
        auto r = rxmesh::reference::reindex(soup.positions, soup.faces, true);
        rxmesh::TriangleSoup mesh;
        mesh.positions = std::move(r.positions);
        mesh.faces     = std::move(r.faces);
        for (int k = 0; k < refine; ++k)
            mesh = rxmesh::generate::refine(mesh);
        pos   = std::move(mesh.positions);
        faces = std::move(mesh.faces);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    const Reference full = make_reference(static_cast<u32>(pos.size()), faces);
    std::printf("mesh: %s refined %d times: %u vertices, %u edges, %u faces; runs %d (median, "
                "after 1 warm-up), OpenMP threads %d\n",
                file.c_str(), refine, full.nv, full.ne, full.nf, runs, threads);

    LibResults om("OpenMesh"), cg("CGAL");
#ifdef RXMESH_HAVE_OPENMESH
    bench_openmesh(pos, faces, full, runs, threads, om);
#endif
#ifdef RXMESH_HAVE_CGAL
    bench_cgal(pos, faces, full, runs, threads, cg);
#endif
    for (const LibResults* l : {&om, &cg})
        if (l->built)
            std::printf("%s: built in %.0f ms, %llu faces rejected%s\n", l->name, l->build_ms,
                        (unsigned long long)l->skipped,
                        l->skipped ? " (checked against the topology of the accepted faces)" : "");

    std::printf("\n| op | OpenMesh serial ms | OpenMesh OMP ms | CGAL serial ms | CGAL OMP ms | check |\n"
                "|---|---|---|---|---|---|\n");
    bool all_ok = true;
    for (int op = 0; op < kOps; ++op) {
        std::string chk;
        bool        ok = true, any = false;
        for (const LibResults* l : {&om, &cg})
            for (const Result* r : {&l->serial[op], &l->par[op]})
                if (r->ms >= 0) {
                    any = true;
                    if (!r->ok) {
                        ok = false;
                        chk += std::string(" ") + l->name + ": " + r->note + ";";
                    }
                }
        all_ok = all_ok && ok;
        std::printf("| %s | %s | %s | %s | %s | %s%s |\n", kOpNames[op], cell(om.serial[op]).c_str(),
                    cell(om.par[op]).c_str(), cell(cg.serial[op]).c_str(), cell(cg.par[op]).c_str(),
                    !any ? "n/a" : ok ? "OK" : "MISMATCH", chk.c_str());
    }

    if (!json.empty()) {
        std::ofstream js(json);
        js << "{\n  \"mesh\": \"" << file << "\",\n  \"refine\": " << refine
           << ",\n  \"vertices\": " << full.nv << ",\n  \"edges\": " << full.ne
           << ",\n  \"faces\": " << full.nf << ",\n  \"runs\": " << runs
           << ",\n  \"threads\": " << threads << ",\n  \"missing\": [";
        for (std::size_t i = 0; i < missing.size(); ++i)
            js << (i ? ", " : "") << '"' << missing[i] << '"';
        js << "],\n  \"openmesh_rejected_faces\": " << om.skipped
           << ",\n  \"cgal_rejected_faces\": " << cg.skipped << ",\n  \"ops\": {\n";
        for (int op = 0; op < kOps; ++op) {
            auto ok = [](const Result& r) { return r.ms < 0 ? "null" : r.ok ? "true" : "false"; };
            js << "    \"" << kOpNames[op] << "\": {\"openmesh_serial_ms\": " << json_num(om.serial[op])
               << ", \"openmesh_omp_ms\": " << json_num(om.par[op])
               << ", \"cgal_serial_ms\": " << json_num(cg.serial[op])
               << ", \"cgal_omp_ms\": " << json_num(cg.par[op])
               << ", \"openmesh_ok\": " << ok(om.serial[op]) << ", \"openmesh_omp_ok\": " << ok(om.par[op])
               << ", \"cgal_ok\": " << ok(cg.serial[op]) << ", \"cgal_omp_ok\": " << ok(cg.par[op])
               << "}" << (op + 1 < kOps ? "," : "") << "\n";
        }
        js << "  }\n}\n";
    }
    return all_ok ? 0 : 3;
}
