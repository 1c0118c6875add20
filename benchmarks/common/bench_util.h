// Shared helpers of the benchmark drivers: timing, medians, bandwidth.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"

namespace rxmesh::bench {

//! Calls measure(level, soup) for `soup` and its 1-to-4 refinements from
//! min_level to levels (the levels below are refined through, not measured).
template <typename Measure>
void for_each_level(TriangleSoup soup, int min_level, int levels, Measure&& measure)
{
    if (min_level > levels)  // a run that measures nothing must not pass as verified
        throw std::invalid_argument("--min-level " + std::to_string(min_level) +
                                    " is above --levels " + std::to_string(levels) +
                                    ": nothing to measure");
    for (int level = 0; level <= levels; ++level) {
        if (level > 0) soup = generate::refine(soup);
        if (level >= min_level) measure(level, soup);
    }
}

//! Calls measure(name, level, soup) for each mesh file (a noisy
//! icosphere(5) when none is given) and each of its 1-to-4 refinements
//! from min_level to levels.
template <typename Measure>
void for_each_mesh_level(const std::vector<std::string>& paths, int min_level, int levels,
                         Measure&& measure)
{
    std::vector<std::string> names = paths;
    if (names.empty()) names.push_back("");
    for (const std::string& path : names) {
        const std::string name =
            path.empty() ? "noisy icosphere(5)" : path.substr(path.find_last_of('/') + 1);
        for_each_level(
            path.empty() ? generate::noisy(generate::icosphere(5), 0.3f, 1) : io::read(path),
            min_level, levels,
            [&](int level, const TriangleSoup& soup) { measure(name, level, soup); });
    }
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

//! Median GPU time (CUDA events) of `runs` calls after `warmup` calls.
inline double gpu_median_ms(const std::function<void()>& work, int warmup, int runs)
{
    for (int i = 0; i < warmup; ++i)
        work();
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    GpuTimer            timer;
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        timer.start();
        work();
        ms.push_back(timer.stop_ms());
    }
    return median(ms);
}

//! The same, where `reset` runs before every call, outside the timing (an
//! in-place algorithm timed from the same input each time).
inline double gpu_median_ms(const std::function<void()>& reset, const std::function<void()>& work,
                            int warmup, int runs)
{
    for (int i = 0; i < warmup; ++i)
        reset(), work();
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    GpuTimer            timer;
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        reset();
        timer.start();
        work();
        ms.push_back(timer.stop_ms());
    }
    return median(ms);
}

//! Where a short launch's time goes: the host's time to enqueue one call
//! (no synchronisation between calls), and the GPU time per call when
//! `calls` are queued back to back (no idle gaps between kernels).
struct LaunchCost
{
    double host_us      = 0;
    double pipelined_ms = 0;
};

inline LaunchCost launch_cost(const std::function<void()>& work, int calls)
{
    work();
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    LaunchCost cost;
    GpuTimer   timer;
    timer.start();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i)
        work();
    cost.host_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
        calls;
    cost.pipelined_ms = timer.stop_ms() / calls;
    return cost;
}

//! Median host wall time of `runs` calls (for CPU baselines).
inline double cpu_median_ms(const std::function<void()>& work, int runs)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        work();
        ms.push_back(std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - t0)
                         .count());
    }
    return median(ms);
}

//! Device-to-device copy bandwidth in GB/s, counting bytes read + written.
inline double measured_copy_gbps(std::size_t bytes = std::size_t(1) << 30)
{
    void *a = nullptr, *b = nullptr;
    RXMESH_CHECK_CUDA(cudaMalloc(&a, bytes));
    RXMESH_CHECK_CUDA(cudaMalloc(&b, bytes));
    RXMESH_CHECK_CUDA(cudaMemset(a, 1, bytes));
    const double ms = gpu_median_ms(
        [&] { RXMESH_CHECK_CUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); }, 3,
        20);
    RXMESH_CHECK_CUDA(cudaFree(a));
    RXMESH_CHECK_CUDA(cudaFree(b));
    return 2.0 * bytes / (ms * 1e6);
}

//! Keeps freed pool memory cached, so repeated runs time the work and not
//! the operating system's page mapping (a long-running application sees the
//! same after its first call).
inline void keep_pool_memory()
{
    cudaMemPool_t pool;
    RXMESH_CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
    std::uint64_t threshold = std::numeric_limits<std::uint64_t>::max();
    RXMESH_CHECK_CUDA(
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
}

//! A number as JSON text: %.9g, or null when not finite.
inline std::string json_number(double v)
{
    if (!std::isfinite(v))
        return "null";
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    return buf;
}

//! A markdown table's head: `columns` ("| a | b |") and its rule, one
//! "|---" per column.
inline void print_table_head(const std::string& columns)
{
    std::string rule;
    for (std::size_t i = 1; i < std::size_t(std::count(columns.begin(), columns.end(), '|')); ++i)
        rule += "|---";
    std::printf("%s\n%s|\n", columns.c_str(), rule.c_str());
}

//! A verdict in a table's cell.
inline const char* yes(bool ok) { return ok ? "yes" : "NO"; }

//! A string as JSON text: quoted, with '"' and '\\' escaped (paths).
inline std::string json_string(const std::string& s)
{
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

//! Writes `text` to `path` through a temporary and a rename: the file is
//! either complete or absent. \throw std::runtime_error naming the path.
inline void write_text_file(const std::string& path, const std::string& text)
{
    const std::string tmp = path + ".partial";
    std::FILE*        f   = std::fopen(tmp.c_str(), "wb");
    bool              ok  = f != nullptr && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    ok = f != nullptr && std::fclose(f) == 0 && ok;
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw std::runtime_error("cannot write " + path);
    }
}

//! Writes `text` to `path` unless the path is empty (an option not given).
inline void write_text_file_if(const std::string& path, const std::string& text)
{
    if (!path.empty()) write_text_file(path, text);
}

inline std::string gpu_name()
{
    cudaDeviceProp prop{};
    RXMESH_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    return prop.name;
}

}  // namespace rxmesh::bench
