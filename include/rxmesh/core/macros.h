// RXMESH_HD marks functions usable on host and device; plain C++ (host-only
// translation units) sees nothing.
#pragma once

#if defined(__CUDACC__)
#define RXMESH_HD __host__ __device__
#define RXMESH_DEVICE __device__
#else
#define RXMESH_HD
#define RXMESH_DEVICE
#endif

// RXMESH_DEVICE_CHECK(cond): a device-code invariant. Active in debug builds
// and, in release builds, when the library is configured with
// -DRXMESH_DEVICE_CHECKS=ON (which defines RXMESH_DEVICE_CHECKS for every
// translation unit); a failed check traps the kernel with a message naming
// the file and line, which the host then sees as a CUDA error.
#if defined(RXMESH_DEVICE_CHECKS) || !defined(NDEBUG)
#include <cstdio>
#include <cstdlib>
#if defined(__CUDA_ARCH__)
#define RXMESH_CHECK_TRAP() __trap()
#else
#define RXMESH_CHECK_TRAP() std::abort()  // the same code run on the host
#endif
#define RXMESH_DEVICE_CHECK(cond)                                                          \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("RXMESH_DEVICE_CHECK failed: %s at %s:%d\n", #cond, __FILE__, __LINE__); \
            RXMESH_CHECK_TRAP();                                                           \
        }                                                                                  \
    } while (0)
#else
#define RXMESH_DEVICE_CHECK(cond) \
    do {                          \
    } while (0)
#endif
