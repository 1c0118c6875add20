// What the CPU baselines share (host code, no CUDA): wall-clock timing, the
// upper median, and one method's timed outcome on a mesh.
#pragma once

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "rxmesh/io/triangle_soup.h"

namespace rxmesh::bench {

//! The upper median (0 for none).
inline double upper_median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

//! Wall-clock milliseconds of f().
template <typename F>
double wall_ms(F&& f)
{
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

//! A method's output mesh and its median time.
struct Outcome
{
    std::string  method;
    double       ms = 0;
    TriangleSoup output;
};

//! Runs `run(output)` `runs` times; each run builds its own input and
//! returns the milliseconds of the work alone (setup and read-back outside).
template <typename Run>
Outcome timed(const std::string& method, int runs, Run&& run)
{
    Outcome             o;
    std::vector<double> times;
    o.method = method;
    for (int r = 0; r < runs; ++r) times.push_back(run(o.output));
    o.ms = upper_median(times);
    return o;
}

}  // namespace rxmesh::bench
