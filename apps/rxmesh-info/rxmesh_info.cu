// rxmesh-info FILE [--weld] [--cpu] [--capacity N] [--generate NAME]
//
// Prints one JSON object with the mesh's statistics. Runs the GPU import
// pipeline when a CUDA device is present, the CPU reference otherwise (or
// with --cpu). With a GPU it also builds the RXMesh patch store and reports
// its statistics and validation. Without FILE it uses a generated icosphere.
// Bad input or a bad option: exit status 1 and one line on stderr;
// --version prints the version.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>

#include "../common/integer_text.h"
#include "rxmesh/build/import.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/topology.h"
#include "rxmesh/rxmesh.h"

namespace {

struct Options
{
    std::string file;
    std::string generator = "icosphere";
    bool        weld      = false;
    bool        force_cpu = false;
    std::uint32_t capacity = 512;
    bool          validate = false;
};

const std::map<std::string, std::function<rxmesh::TriangleSoup()>>& generators()
{
    namespace g = rxmesh::generate;
    static const std::map<std::string, std::function<rxmesh::TriangleSoup()>> table = {
        {"icosphere", [] { return g::icosphere(5); }},
        {"torus", [] { return g::torus(256, 128); }},
        {"grid", [] { return g::grid(512, 512); }},
        {"quad_grid", [] { return g::duplicated_quad_grid(256); }},
    };
    return table;
}

void usage(FILE* out)
{
    std::fprintf(out,
                 "usage: rxmesh-info [FILE] [--weld] [--cpu] [--capacity N] [--validate] [--generate NAME] [--version]\n"
                 "  FILE        OBJ, OFF, PLY or STL mesh (default: a generated mesh)\n"
                 "  --weld      merge vertices with bit-identical positions first\n"
                 "  --cpu       use the CPU reference even when a GPU is present\n"
                 "  --capacity  faces per patch of the RXMesh store, 64..4096 (default 512)\n"
                 "  --validate  check every contract of the patch store (slow; needs the GPU path)\n"
                 "  --generate  icosphere | torus | grid | quad_grid (without FILE)\n"
                 "  --version   print the version\n"
                 "Exit status: 0 done; 1 bad input or option (one line on stderr).\n");
}

//! --capacity's value: an integer in [64, 4096], as the other apps take it.
std::uint32_t capacity_from(const std::string& text)
{
    long long v = 0;
    if (!rxmesh::app::integer_in_range(text, 64, 4096, &v))
        throw std::invalid_argument("--capacity must be an integer in " +
                                    rxmesh::app::range_text(64, 4096) + ", got " + text);
    return static_cast<std::uint32_t>(v);
}

Options parse_args(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--weld")
            o.weld = true;
        else if (a == "--cpu")
            o.force_cpu = true;
        else if (a == "--validate")
            o.validate = true;
        else if (a == "--capacity" || a == "--generate") {
            if (i + 1 == argc)
                throw std::invalid_argument(a + " needs a value");
            if (a == "--capacity")
                o.capacity = capacity_from(argv[++i]);
            else
                o.generator = argv[++i];
        } else if (a == "-h" || a == "--help") {
            usage(stdout);
            std::exit(0);
        } else if (a == "--version") {
            std::printf("rxmesh-info %s\n", rxmesh::version());
            std::exit(0);
        } else if (!a.empty() && a[0] != '-' && o.file.empty())
            o.file = a;
        else
            throw std::invalid_argument("unknown or repeated argument '" + a + "'");
    }
    if (o.file.empty() && generators().count(o.generator) == 0)
        throw std::invalid_argument("unknown generator '" + o.generator + "'");
    return o;
}

bool gpu_present()
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
        .count();
}

std::string json_escape(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) < 0x20)
            continue;
        out += c;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv)
{
    try {
        const Options o = parse_args(argc, argv);

        auto                 t0 = std::chrono::steady_clock::now();
        rxmesh::TriangleSoup soup =
            o.file.empty() ? generators().at(o.generator)() : rxmesh::io::read(o.file);
        const double read_ms = ms_since(t0);
        const std::string input =
            o.file.empty() ? "generated:" + o.generator : o.file;

        const bool use_gpu = !o.force_cpu && gpu_present();
        if (o.validate && !use_gpu)
            throw std::invalid_argument("--validate checks the RXMesh patch store, which is "
                                        "built on a GPU: not with --cpu or without a device");
        rxmesh::MeshStats stats;
        std::uint64_t     dropped = soup.dropped_faces;
        std::string       device, timings, patches = "null";
        char              buf[512];

        if (use_gpu) {
            cudaDeviceProp prop{};
            RXMESH_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
            device = prop.name;
            rxmesh::ImportOptions options;
            options.weld = o.weld;
            const auto mesh = rxmesh::import_mesh(soup, options);
            rxmesh::GpuTimer timer;
            timer.start();
            stats = rxmesh::compute_stats(mesh.topology, mesh.faces.data());
            const float stats_ms = timer.stop_ms();
            dropped += mesh.dropped_faces;
            if (stats.faces > 0) {
                rxmesh::BuildOptions build;
                build.weld             = o.weld;
                build.patcher.capacity = o.capacity;
                const rxmesh::RXMesh rx(soup, build);
                patches = rx.stats().to_json();
                if (o.validate) {
                    const auto report = rx.validate(1);
                    patches.insert(patches.size() - 1,
                                   std::string(", \"validate\": \"") +
                                       (report.ok() ? "ok" : json_escape(report.summary())) + "\"");
                }
            }
            std::snprintf(buf, sizeof(buf),
                          "{\"read_ms\": %.3f, \"upload_ms\": %.3f, \"reindex_ms\": %.3f, "
                          "\"topology_ms\": %.3f, \"stats_ms\": %.3f}",
                          read_ms, mesh.timings.upload_ms, mesh.timings.reindex_ms,
                          mesh.timings.topology_ms, stats_ms);
        } else {
            device = o.force_cpu ? "cpu (reference, --cpu)"
                                 : "cpu (reference; no CUDA device found)";
            t0            = std::chrono::steady_clock::now();
            const auto r  = rxmesh::reference::reindex(soup.positions, soup.faces, o.weld);
            const double reindex_ms = ms_since(t0);
            t0            = std::chrono::steady_clock::now();
            const auto topo = rxmesh::reference::build_topology(
                static_cast<std::uint32_t>(r.positions.size()), r.faces);
            const double topology_ms = ms_since(t0);
            t0    = std::chrono::steady_clock::now();
            stats = rxmesh::reference::compute_stats(topo, r.faces);
            const double stats_ms = ms_since(t0);
            dropped += r.dropped_faces;
            std::snprintf(buf, sizeof(buf),
                          "{\"read_ms\": %.3f, \"reindex_ms\": %.3f, \"topology_ms\": %.3f, "
                          "\"stats_ms\": %.3f}",
                          read_ms, reindex_ms, topology_ms, stats_ms);
        }
        timings = buf;

        std::printf("{\n"
                    "  \"input\": \"%s\",\n"
                    "  \"device\": \"%s\",\n"
                    "  \"welded\": %s,\n"
                    "  \"vertices\": %llu,\n"
                    "  \"faces\": %llu,\n"
                    "  \"edges\": %llu,\n"
                    "  \"boundary_edges\": %llu,\n"
                    "  \"nonmanifold_edges\": %llu,\n"
                    "  \"nonmanifold_vertices\": %llu,\n"
                    "  \"components\": %llu,\n"
                    "  \"euler\": %lld,\n"
                    "  \"dropped_faces\": %llu,\n"
                    "  \"timings\": %s,\n"
                    "  \"rxmesh\": %s\n"
                    "}\n",
                    json_escape(input).c_str(), json_escape(device).c_str(),
                    o.weld ? "true" : "false", (unsigned long long)stats.vertices,
                    (unsigned long long)stats.faces, (unsigned long long)stats.edges,
                    (unsigned long long)stats.boundary_edges,
                    (unsigned long long)stats.nonmanifold_edges,
                    (unsigned long long)stats.nonmanifold_vertices,
                    (unsigned long long)stats.components, (long long)stats.euler,
                    (unsigned long long)dropped, timings.c_str(), patches.c_str());
        return 0;
    } catch (const std::invalid_argument& e) {  // a bad option: one line, status 1
        std::fprintf(stderr, "rxmesh-info: %s (--help lists the options)\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rxmesh-info: %s\n", e.what());
        return 1;
    }
}
