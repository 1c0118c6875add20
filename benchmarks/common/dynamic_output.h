// What bench_remesh and bench_simplify share (CUDA translation units): the
// input surface on the device with its BVH, one timed run of an algorithm
// over a fresh DynamicMesh (build, call, compact output), the checks of
// every run's output, and the sampled Hausdorff distance of the output to
// the input relative to the input's bounding-box diagonal.
//
// The Hausdorff distance is the CPU baselines' figure (bench_remesh_cpu,
// bench_simplify_cpu: reference::hausdorff_fast(input, output).symmetric()
// / bounding_box_diagonal(input positions)) measured on the GPU
// (spatial/hausdorff.h): the same sample set on both sides (every vertex
// used by a face, each face's centroid and its three edge midpoints; the GPU
// visits a shared vertex once per face, which leaves the maximum unchanged),
// the same diagonal; the GPU's closest points are in float, the CPU's in
// double (differences near float rounding of the coordinates).
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench_util.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/dynamic/dynamic_mesh.h"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/spatial/bvh.h"
#include "rxmesh/spatial/hausdorff.h"

namespace rxmesh::bench {

inline double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

inline std::string mib(double bytes)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", bytes / 1048576.0);
    return b;
}

//! The input on the device (its own arrays, kept for the BVH's life) with a
//! BVH over them, its bounding-box diagonal (over every position, as the CPU
//! baselines'), and the topology every output is checked against.
struct InputSurface
{
    DeviceBuffer<float>          positions;
    DeviceBuffer<std::uint32_t>  faces;
    std::unique_ptr<TriangleBvh> bvh;  // null when the input has no face
    double                       diagonal = 0;
    bool                         manifold = false;
    std::int64_t                 euler    = 0;

    explicit InputSurface(const TriangleSoup& soup)
        : positions(3 * soup.positions.size()), faces(3 * soup.faces.size())
    {
        static_assert(
            sizeof(Vec3f) == 3 * sizeof(float) && sizeof(Triangle) == 3 * sizeof(std::uint32_t),
            "TriangleSoup holds packed triples");
        positions.upload(soup.positions.empty() ? nullptr : soup.positions.front().data(),
                         positions.size());
        faces.upload(soup.faces.empty() ? nullptr : soup.faces.front().data(), faces.size());
        if (!soup.faces.empty())
            bvh = std::make_unique<TriangleBvh>(positions.data(),
                                                std::uint32_t(soup.positions.size()), faces.data(),
                                                std::uint32_t(soup.faces.size()));
        diagonal = bounding_box_diagonal(soup.positions);
        DynamicMesh input(soup);
        manifold = input.is_manifold();
        euler    = input.euler_characteristic();
    }
};

//! The output's sampled Hausdorff distance to the input; +inf when either
//! has no face (nothing to measure: a failure, never a good figure).
struct Distance
{
    SampledHausdorff h;
    double           relative = std::numeric_limits<double>::infinity();  // symmetric / diagonal
    double mean_relative      = std::numeric_limits<double>::infinity();  // of the output's faces
};

inline Distance distance_to_input(const InputSurface& in, const CompactMesh& out)
{
    Distance d;
    if (!in.bvh || out.num_faces == 0 || !(in.diagonal > 0)) return d;
    const TriangleBvh output(out.positions.data(), out.num_vertices, out.faces.data(),
                             out.num_faces);
    d.h             = sampled_hausdorff(output, *in.bvh);  // a: the output, b: the input
    d.relative      = d.h.symmetric() / in.diagonal;
    d.mean_relative = d.h.mean_from_a / in.diagonal;
    return d;
}

//! The distance as the benchmarks' JSON: absolute (to and from the input)
//! and relative to the input's bounding-box diagonal.
inline std::string distance_json(const Distance& d)
{
    return "{\"from_output\":" + json_number(d.h.from_a) +
           ",\"from_input\":" + json_number(d.h.from_b) +
           ",\"mean_from_output\":" + json_number(d.h.mean_from_a) +
           ",\"relative\":" + json_number(d.relative) +
           ",\"mean_relative\":" + json_number(d.mean_relative) + "}";
}

//! DynamicMesh's device bytes by part, with their total and the peak.
inline std::string memory_json(const DynamicMemory& m)
{
    return "{\"mesh\":" + std::to_string(m.mesh) +
           ",\"connectivity\":" + std::to_string(m.connectivity) +
           ",\"workspace\":" + std::to_string(m.workspace) +
           ",\"attributes\":" + std::to_string(m.attributes) +
           ",\"total\":" + std::to_string(m.total()) + ",\"peak\":" + std::to_string(m.peak) +
           "}";
}

//! One run's times (host wall clock, synchronised at each step's end).
struct RunTimes
{
    double build_ms   = 0;  // DynamicMesh from the host soup
    double wall_ms    = 0;  // the algorithm's call
    double compact_ms = 0;  // mesh.compact()
    //! Host arrays to compact output: the three above in one span.
    double end_to_end_ms = 0;
};

//! The checks of one run's output, outside the timing.
struct RunCheck
{
    bool          valid = false, manifold = false;
    std::int64_t  euler = 0;
    std::string   first_violation;
    std::uint32_t vertices = 0, faces = 0;
    std::uint64_t fingerprint = 0;  // of the compact output's bytes
};

//! FNV-1a over the compact output's positions and faces: equal outputs in
//! every run, bit for bit, give equal fingerprints.
inline std::uint64_t fingerprint(const TriangleSoup& s)
{
    std::uint64_t h    = 14695981039346656037ull;
    const auto    feed = [&h](const void* p, std::size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
    };
    feed(s.positions.data(), s.positions.size() * sizeof(Vec3f));
    feed(s.faces.data(), s.faces.size() * sizeof(Triangle));
    return h;
}

inline RunCheck check_output(DynamicMesh& mesh, const CompactMesh& out)
{
    RunCheck                c;
    const DynamicValidation v = mesh.validate();
    c.valid                   = v.ok();
    c.first_violation         = v.first;
    c.manifold                = mesh.is_manifold();
    c.euler                   = mesh.euler_characteristic();
    c.vertices                = out.num_vertices;
    c.faces                   = out.num_faces;
    c.fingerprint             = fingerprint(out.to_host());
    return c;
}

//! The verdict over every run of one size: each run's checks, and the
//! same counts as run 0's in every run (faces and vertices out, and the
//! algorithm's own counts, compared by the caller).
struct Verdict
{
    bool         manifold_in  = false;
    std::int64_t euler_in     = 0;
    bool         every_run_ok = true, counts_repeat = true;
    bool         identical_output = true;  // required: the algorithms are deterministic
    std::string  failure;                  // the first failure, in words
    RunCheck     first, last;

    Verdict() = default;
    explicit Verdict(const InputSurface& in) : manifold_in(in.manifold), euler_in(in.euler) {}

    //! Manifoldness and the Euler characteristic are required only where the
    //! input is manifold: only there does the link condition keep them.
    bool run_ok(const RunCheck& c) const
    {
        return c.valid && (!manifold_in || (c.manifold && c.euler == euler_in));
    }

    void add(int run, const RunCheck& c, bool same_algorithm_counts)
    {
        const std::string at = "run " + std::to_string(run) + ": ";
        if (!run_ok(c)) {
            if (failure.empty())
                failure = at + "valid " + (c.valid ? "yes" : "no (" + c.first_violation + ")") +
                          ", manifold " + std::to_string(manifold_in) + " -> " +
                          std::to_string(c.manifold) + ", Euler " + std::to_string(euler_in) +
                          " -> " + std::to_string(c.euler);
            every_run_ok = false;
        }
        if (run == 0) {
            first = c;
        } else {
            const bool same =
                same_algorithm_counts && c.faces == first.faces && c.vertices == first.vertices;
            if (!same && failure.empty()) failure = at + "counts differ from run 0's";
            counts_repeat    = counts_repeat && same;
            const bool identical = c.fingerprint == first.fingerprint;
            if (!identical && failure.empty()) failure = at + "output differs from run 0's";
            identical_output = identical_output && identical;
        }
        last = c;
    }
    bool ok() const { return every_run_ok && counts_repeat && identical_output; }

    std::string to_json() const
    {
        const auto b = [](bool v) { return std::string(v ? "true" : "false"); };
        return "{\"every_run_ok\":" + b(every_run_ok) + ",\"manifold_in\":" + b(manifold_in) +
               ",\"manifold_out\":" + b(last.manifold) +
               ",\"euler_in\":" + std::to_string(euler_in) +
               ",\"euler_out\":" + std::to_string(last.euler) +
               ",\"same_counts_every_run\":" + b(counts_repeat) +
               ",\"identical_output\":" + b(identical_output) + "}";
    }
};

//! What Verdict checks, in words, for the drivers' closing line.
constexpr const char* kDynamicRunChecks =
    "every run: valid, manifold and Euler characteristic kept where the input is manifold; the "
    "same counts in every run";

//! Builds a DynamicMesh from `soup`, calls algorithm(mesh) (which returns
//! its report), compacts the output, each step timed on the host and
//! synchronised at its end; then inspect(mesh, compact, report, times)
//! outside the timing. end_to_end_ms spans all three steps and the
//! synchronisations between them, as an application that reads the output
//! would wait for each.
template <typename Algorithm, typename Inspect>
void timed_run(const TriangleSoup& soup, Algorithm&& algorithm, Inspect&& inspect)
{
    RunTimes t;
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto  t0 = std::chrono::steady_clock::now();
    DynamicMesh mesh(soup);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    t.build_ms    = ms_since(t0);
    auto       t1 = std::chrono::steady_clock::now();
    const auto r  = algorithm(mesh);
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    t.wall_ms       = ms_since(t1);
    t1              = std::chrono::steady_clock::now();
    CompactMesh out = mesh.compact();
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    t.compact_ms    = ms_since(t1);
    t.end_to_end_ms = ms_since(t0);
    inspect(mesh, out, r, t);
}

//! The medians over the runs of timed_runs: the algorithm's own device
//! time (its report's ms) and RunTimes' host figures.
struct RunMedians
{
    double ms = 0, wall_ms = 0, end_to_end_ms = 0, build_ms = 0, compact_ms = 0;

    std::string to_json() const
    {
        return ",\"ms\":" + json_number(ms) + ",\"wall_ms\":" + json_number(wall_ms) +
               ",\"end_to_end_ms\":" + json_number(end_to_end_ms) +
               ",\"build_ms\":" + json_number(build_ms) +
               ",\"compact_ms\":" + json_number(compact_ms);
    }
};

//! The warm-up: algorithm(mesh) once on its own DynamicMesh, untimed.
template <typename Algorithm>
void warm_up(const TriangleSoup& soup, Algorithm&& algorithm)
{
    DynamicMesh warm(soup);
    algorithm(warm);
}

//! `runs` timed_runs of algorithm: each run's output checked into `verdict`
//! with same_counts(report, run 0's report), then inspect(mesh, compact,
//! report, run), all outside the timing.
template <typename Algorithm, typename SameCounts, typename Inspect>
RunMedians timed_runs(const TriangleSoup& soup, int runs, Verdict& verdict, Algorithm&& algorithm,
                      SameCounts&& same_counts, Inspect&& inspect)
{
    using Report = std::decay_t<decltype(algorithm(std::declval<DynamicMesh&>()))>;
    std::vector<double> ms, wall, end_to_end, build, compact;
    Report              first;
    for (int i = 0; i < runs; ++i)
        timed_run(soup, algorithm,
                  [&](DynamicMesh& mesh, const CompactMesh& out, const Report& rep,
                      const RunTimes& t) {
                      ms.push_back(rep.ms), wall.push_back(t.wall_ms);
                      end_to_end.push_back(t.end_to_end_ms), build.push_back(t.build_ms);
                      compact.push_back(t.compact_ms);
                      if (i == 0) first = rep;
                      verdict.add(i, check_output(mesh, out), same_counts(rep, first));
                      inspect(mesh, out, rep, i);
                  });
    return {median(ms), median(wall), median(end_to_end), median(build), median(compact)};
}

}  // namespace rxmesh::bench
