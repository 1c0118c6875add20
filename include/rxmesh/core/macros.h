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
