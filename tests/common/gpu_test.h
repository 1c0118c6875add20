// GPU test helpers: skip without a device, unless RXMESH_REQUIRE_GPU=1.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace rxmesh::test {

inline bool gpu_available()
{
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

//! Why no device is usable, for the skip message (ctest's closing summary,
//! tests/skip_summary.cmake, quotes it).
inline const char* gpu_unavailable_reason()
{
    int               count = 0;
    const cudaError_t e     = cudaGetDeviceCount(&count);
    if (e != cudaSuccess)
        return cudaGetErrorName(e);
    return count == 0 ? "no device present" : "";
}

inline bool gpu_required()
{
    const char* v = std::getenv("RXMESH_REQUIRE_GPU");
    return v != nullptr && std::strcmp(v, "1") == 0;
}

}  // namespace rxmesh::test

//! First statement of every GPU test.
#define RXMESH_REQUIRE_DEVICE_OR_SKIP()                                        \
    do {                                                                       \
        if (!::rxmesh::test::gpu_available()) {                                \
            if (::rxmesh::test::gpu_required())                                \
                FAIL() << "RXMESH_REQUIRE_GPU=1 but no CUDA device is usable"; \
            GTEST_SKIP() << "no CUDA device: GPU test skipped ("              \
                         << ::rxmesh::test::gpu_unavailable_reason() << ")";   \
        }                                                                      \
    } while (0)
