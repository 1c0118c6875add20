// Wall-clock times of the apps' stages (host code, no CUDA).
#pragma once

#include <chrono>

namespace rxmesh::app {

//! Milliseconds of wall time since `start`.
inline double ms_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

}  // namespace rxmesh::app
