// What the apps that make a new mesh through DynamicMesh (rxmesh-remesh,
// rxmesh-simplify) print and report the same way, on the GPU and with
// --device cpu: the sizes line, the edge-length quality line, the lines of
// the distance and the times, and the JSON report (the CPU path's has the
// GPU path's keys where they apply).
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app.h"
#include "dynamic_app.h"
#include "json.h"
#include "rxmesh/reference/isotropic_remesh.h"

namespace rxmesh::app {

//! "4:12 5:300 6:900 7+:10" (the last entry counts every larger valence too).
inline std::string valence_list(const std::vector<std::uint32_t>& valences)
{
    std::string s;
    for (std::size_t v = 0; v < valences.size(); ++v) {
        if (valences[v] == 0) continue;
        s += (s.empty() ? "" : " ") + std::to_string(v) + (v + 1 == valences.size() ? "+:" : ":") +
             std::to_string(valences[v]);
    }
    return s.empty() ? "none" : s;
}

//! A JSON array of counts, as SurfaceQuality::to_json writes its lists.
inline std::string json_list(const std::vector<std::uint32_t>& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
}

//! The header, then "  V vertices, F faces -> v vertices, f faces" (the
//! input's sizes, the result's) and `more`.
inline void print_sizes(const Session& s, std::size_t vertices, std::size_t faces,
                        const std::string& more = "")
{
    s.print_header();
    std::printf("  %zu vertices, %zu faces -> %zu vertices, %zu faces%s\n",
                s.input().soup.positions.size(), s.input().soup.faces.size(), vertices, faces,
                more.c_str());
}

//! The edge-length quality line of a SurfaceQuality (GPU) or a
//! reference::MeshQuality (CPU), which name these figures alike.
template <typename Quality>
void print_band_quality(const Quality& q)
{
    std::printf(
        "  edges within [4/5 L, 4/3 L]: %.1f%%, min angle %.2f degrees, interior "
        "valences %s\n",
        100 * q.share_in_band, q.min_angle_degrees, valence_list(q.interior_valences).c_str());
}

//! The times of a GPU run over DynamicMesh (the algorithm's as `name`) and
//! the device memory. `Run` holds upload_ms, report.ms, wall_ms and memory.
template <typename Run>
void print_gpu_times(const Session& s, const Run& run, const char* name)
{
    std::printf("  import %.1f ms, upload %.1f ms, %s %.3f ms (device), %.3f ms (wall)\n",
                s.import_ms(), run.upload_ms, name, run.report.ms, run.wall_ms);
    print_memory(run.memory);
}

//! The last lines of a GPU run (NewMeshRun): the distance to the input,
//! the times (the algorithm's as `name`) and the device memory.
template <typename Run>
void print_gpu_end(const Session& s, const Run& run, const char* name)
{
    run.distance.print();
    print_gpu_times(s, run, name);
}

//! The report's "times_ms" of such a run: import, upload, NAME, NAME_wall.
template <typename Run>
Json gpu_times(const Session& s, const Run& run, const std::string& name)
{
    Json times;
    times.num("import", s.import_ms())
        .num("upload", run.upload_ms)
        .num(name, run.report.ms)
        .num(name + "_wall", run.wall_ms);
    return times;
}

//! The last lines of a --device cpu run (CpuNewMeshRun): the distance to
//! the input and the times (the reference's as `name`).
template <typename Run>
void print_cpu_end(const Session& s, const Run& run, const char* name)
{
    run.distance.print();
    std::printf("  import %.1f ms, %s %.3f ms\n", s.import_ms(), name, run.ms);
}

//! The report of a GPU run: the common keys, the sizes of the input and of
//! the result (`vertices`, `faces`), the app's `params`, the algorithm's
//! report under `name`, the result's quality and distance to the input, the
//! times (import, upload, NAME, NAME_wall) and the device memory. `Run`
//! holds report (with ms and to_json), quality, distance, upload_ms,
//! wall_ms and memory (NewMeshRun).
template <typename Run>
Json new_mesh_report(const Session& s, const Run& run, const std::string& name, const Json& params,
                     double vertices, double faces)
{
    Json mesh;
    mesh.num("input_vertices", double(s.input().soup.positions.size()))
        .num("input_faces", double(s.input().soup.faces.size()))
        .num("vertices", vertices)
        .num("faces", faces);
    Json j = s.report();
    j.obj("mesh", mesh)
        .obj("parameters", params)
        .embed(name, run.report.to_json())
        .embed("quality", run.quality.to_json())
        .obj("hausdorff", run.distance.to_json())
        .obj("times_ms", gpu_times(s, run, name))
        .obj("device_memory_bytes", memory_json(run.memory))
        .flag("checked", s.check());
    return j;
}

//! The CPU path's "quality": the GPU path's keys that the serial figures
//! have. With `band_length` (L: remesh) also those measured against L;
//! without (simplify, whose figures need no L) the shape alone.
inline Json cpu_quality_json(const reference::MeshQuality& q,
                             std::optional<double>         band_length = std::nullopt)
{
    Json j;
    j.num("faces", q.faces);
    if (band_length) j.num("target_length", *band_length);
    j.num("mean_edge", q.mean_edge);
    if (band_length) j.num("share_in_band", q.share_in_band);
    j.num("min_angle_degrees", q.min_angle_degrees);
    if (band_length) j.embed("interior_valences", json_list(q.interior_valences));
    return j;
}

//! The report of a --device cpu run (CpuNewMeshRun), new_mesh_report's keys
//! where they apply: the common keys with the input's and the result's
//! sizes and "device": "cpu", the app's `params`, the reference's figures
//! `result` under `name`, `quality`, the distance to the input, the times
//! (import, NAME); never checked (--device cpu refuses --check).
template <typename Run>
Json cpu_new_mesh_report(const Session& s, const Run& run, const std::string& name,
                         const Json& params, const Json& result, const Json& quality,
                         std::size_t vertices, std::size_t faces)
{
    Json times;
    times.num("import", s.import_ms()).num(name, run.ms);
    Json j = s.report(vertices, faces);
    j.obj("parameters", params)
        .obj(name, result)
        .obj("quality", quality)
        .obj("hausdorff", run.distance.to_json())
        .obj("times_ms", times)
        .flag("checked", false);
    return j;
}

}  // namespace rxmesh::app
