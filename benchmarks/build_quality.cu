#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "build_quality.h"
#include "metis_partition.h"
#include "rxmesh/build/import.h"
#include "rxmesh/io/io.h"
#include "rxmesh/patch/build_store.h"
#include "rxmesh/patch/patcher.h"

namespace rxmesh::bench {

std::string Quality::to_json() const
{
    char buf[256];
    std::snprintf(buf, sizeof(buf),
                  "{\"ribbon_faces\": %.4f, \"patches\": %u, \"largest\": %u, "
                  "\"disconnected\": %u, \"valid\": %s}",
                  ribbon_faces, patches, largest, disconnected, valid ? "true" : "false");
    return buf;
}

const char* method_name(PatcherMethod method)
{
    return method == PatcherMethod::Curve ? "curve" : "lloyd";
}

Quality assess_build(const TriangleSoup& soup, const RXMesh& mesh, const PatcherOptions& options)
{
    Quality q;
    q.ribbon_faces        = mesh.stats().ribbon_overhead_faces;
    q.patches             = mesh.num_patches();
    q.largest             = mesh.stats().max_patch_faces;
    q.valid               = mesh.validate().ok();
    const auto imported   = import_mesh(soup);
    const auto patches    = make_patches(patcher_input(imported), options);
    const auto assessment = assess_partition(imported.topology.ff.offsets.to_host(),
                                             imported.topology.ff.indices.to_host(),
                                             patches.face_patch.to_host(), patches.num_patches);
    q.disconnected        = assessment.disconnected_parts;
    return q;
}

std::string metis_reference(const std::string& name, const TriangleSoup& soup,
                            std::uint32_t capacity, std::uint32_t parts)
{
    const auto                 mesh = import_mesh(soup);
    std::vector<std::uint32_t> part;
    const auto                 metis = metis_kway(mesh.topology.ff.offsets.to_host(),
                                                  mesh.topology.ff.indices.to_host(), parts, &part);
    char                       buf[512];
    if (!metis.available || part.empty()) {
        std::snprintf(buf, sizeof(buf), "- %s: %s", name.c_str(), metis.note.c_str());
        return buf;
    }
    // the same ribbon measure as RXMesh's: METIS's parts built into a store
    const auto d_part = DeviceBuffer<std::uint32_t>::from_host(part);
    const auto built  = build_patch_store(mesh.faces.data(), mesh.topology, d_part.data(), parts,
                                          std::max(capacity, metis.largest));
    std::snprintf(buf, sizeof(buf),
                  "- %s: METIS %.0f ms (CPU), %u parts, largest %u, disconnected %u, ribbon "
                  "faces %.3f",
                  name.c_str(), metis.ms, parts, metis.largest, metis.disconnected_parts,
                  double(built.store.ribbon_f.size()) / mesh.num_faces);
    return buf;
}

namespace {

bool is_mesh_file(const std::filesystem::path& p)
{
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
    return ext == ".obj" || ext == ".off" || ext == ".ply" || ext == ".stl";
}

std::vector<std::string> mesh_files(const std::string& dir)
{
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.is_regular_file() && is_mesh_file(e.path())) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

struct Summary
{
    double log_sum  = 0;
    int    compared = 0, worse = 0, meshes = 0, invalid = 0, disconnected = 0;
    double worst = 0;
};

}  // namespace

std::string quality_table(const std::string& dir, std::uint64_t max_faces, std::uint32_t capacity,
                          const std::vector<PatcherMethod>& methods)
{
    std::printf(
        "\nPatch quality on every mesh under %s up to %llu faces (capacity %u):\n\n"
        "| mesh | faces |",
        dir.c_str(), (unsigned long long)max_faces, capacity);
    for (PatcherMethod m : methods)
        std::printf(" %s patches | %s largest | %s disconnected | %s ribbon |", method_name(m),
                    method_name(m), method_name(m), method_name(m));
    std::printf("\n|---|---|");
    for (std::size_t i = 0; i < 4 * methods.size(); ++i) std::printf("---|");
    std::printf("\n");
    std::ostringstream json;
    json << "[";
    Summary s;
    for (const auto& file : mesh_files(dir)) {
        TriangleSoup soup;
        try {
            soup = io::read(file);
        } catch (const Error&) {
            continue;  // not a triangle mesh we read: not part of the table
        }
        if (soup.faces.empty() || soup.faces.size() > max_faces) continue;
        std::vector<Quality> q;
        for (PatcherMethod m : methods) {
            BuildOptions options;
            options.patcher.capacity = capacity;
            options.patcher.method   = m;
            try {
                const RXMesh mesh(soup, options);
                q.push_back(assess_build(soup, mesh, options.patcher));
            } catch (const InvalidInputError&) {
                break;  // e.g. every face degenerate: no mesh to assess
            }
        }
        if (q.size() != methods.size()) continue;
        const std::string name = std::filesystem::path(file).filename().string();
        std::printf("| %s | %zu |", name.c_str(), soup.faces.size());
        json << (s.meshes ? ", " : "") << "{\"mesh\": \"" << name
             << "\", \"faces\": " << soup.faces.size();
        for (std::size_t i = 0; i < q.size(); ++i) {
            std::printf(" %u | %u | %u | %.3f |", q[i].patches, q[i].largest, q[i].disconnected,
                        q[i].ribbon_faces);
            json << ", \"" << method_name(methods[i]) << "\": " << q[i].to_json();
            s.invalid += !q[i].valid;
            s.disconnected += q[i].disconnected > 0;
        }
        std::printf("\n");
        json << "}";
        ++s.meshes;
        if (q.size() == 2 && q[0].ribbon_faces > 0 && q[1].ribbon_faces > 0) {
            const double ratio = q[0].ribbon_faces / q[1].ribbon_faces;
            s.log_sum += std::log(ratio);
            s.worst = std::max(s.worst, ratio);
            s.worse += ratio > 1.01;
            ++s.compared;
        }
    }
    json << "]";
    std::printf("\n%d meshes; %d builds failed validate(), %d had a disconnected patch.\n",
                s.meshes, s.invalid, s.disconnected);
    if (s.compared > 0)
        std::printf(
            "Ribbon faces, %s / %s over the %d meshes with more than one patch: "
            "geometric mean %.3f, worst %.3f, %d meshes more than 1%% worse.\n",
            method_name(methods[0]), method_name(methods[1]), s.compared,
            std::exp(s.log_sum / s.compared), s.worst, s.worse);
    return json.str();
}

}  // namespace rxmesh::bench
