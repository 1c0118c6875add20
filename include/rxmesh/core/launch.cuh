// Launch helpers: the grid of the flat, one-thread-per-item kernels of the
// import pipeline (they loop grid-stride so any item count fits any grid),
// and Launcher, the one place where every launch of RXMesh decides whether
// its shared memory fits, opts a kernel in above 48 KB and asks for its
// occupancy (query/patch_launch.cuh builds the patch kernels' launch on it).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

namespace rxmesh::detail {

constexpr int kFlatBlockThreads = 256;

//! Grid size for `n` items: enough blocks to fill the GPU many times over,
//! capped so that huge inputs reuse threads through the grid-stride loop.
inline unsigned flat_grid(std::size_t n, int block_threads = kFlatBlockThreads)
{
    const std::size_t threads = static_cast<std::size_t>(block_threads);
    const std::size_t blocks  = (n + threads - 1) / threads;
    return static_cast<unsigned>(std::clamp<std::size_t>(blocks, 1, 1u << 20));
}

//! Number of bits needed to hold values in [0, n).
inline int bits_for(std::uint64_t n)
{
    int b = 1;
    while (b < 64 && (std::uint64_t{1} << b) < n)
        ++b;
    return b;
}

//! Shared memory (static + dynamic) a block may use without opting in, on
//! every supported GPU; above it a kernel must opt in (Launcher::fit_shared_memory).
inline constexpr std::size_t kSharedMemoryWithoutOptIn = 48 * 1024;

//! Devices whose limits sit in a per-thread array (others: a per-thread map).
inline constexpr int kMaxCachedDevices = 16;

//! What launches need to know of a device.
struct DeviceLimits
{
    bool        known       = false;
    std::size_t max_smem    = 0;  // per block, static + dynamic, opted in
    int         sms         = 0;
    bool        cooperative = false;  // cooperative launches (grid barriers)
};

//! What launches need to know of one kernel on one device, and what they did.
struct KernelLimits
{
    bool        known       = false;
    std::size_t static_smem = 0;
    int         max_threads = 0;      // per block: its registers allow no more
    bool        opted_in    = false;  // its dynamic limit is the device's maximum
    // resident blocks per SM at the last (threads, dynamic smem) asked for
    int         occupancy_threads = 0;
    std::size_t occupancy_smem    = 0;
    int         blocks_per_sm     = 0;
};

inline int current_device()
{
    int dev = 0;
    RXMESH_CHECK_CUDA(cudaGetDevice(&dev));
    return dev;
}

//! The limits of device `dev`, looked up once per device and host thread
//! (queries may run from several host threads at once: nothing is shared).
inline const DeviceLimits& device_limits(int dev = current_device())
{
    static thread_local DeviceLimits                cache[kMaxCachedDevices];
    static thread_local std::map<int, DeviceLimits> others;  // stable references
    DeviceLimits& d = dev < kMaxCachedDevices ? cache[dev] : others[dev];
    if (!d.known) {
        int smem = 0, cooperative = 0;
        RXMESH_CHECK_CUDA(
            cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        RXMESH_CHECK_CUDA(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, dev));
        RXMESH_CHECK_CUDA(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, dev));
        d.max_smem    = std::size_t(smem);
        d.cooperative = cooperative != 0;
        d.known       = true;
    }
    return d;
}

inline void fetch_kernel_limits(const void* kernel, KernelLimits& k)
{
    if (!k.known) {
        cudaFuncAttributes attr{};
        RXMESH_CHECK_CUDA(cudaFuncGetAttributes(&attr, kernel));
        k.static_smem = attr.sharedSizeBytes;
        k.max_threads = attr.maxThreadsPerBlock;
        k.known       = true;
    }
}

//! A kernel known only at run time (a user's), on device `dev`.
inline KernelLimits& kernel_limits(const void* kernel, int dev)
{
    static thread_local std::map<std::pair<int, const void*>, KernelLimits> cache;
    KernelLimits& k = cache[{dev, kernel}];
    fetch_kernel_limits(kernel, k);
    return k;
}

//! One kernel on the current device, as its launches see it: the limits of
//! both, cached per device and host thread (see launcher() below), and the
//! decisions every launch of RXMesh makes in this one place: whether its
//! shared memory fits, the opt-in above 48 KB, and occupancy.
class Launcher
{
   public:
    Launcher(const void* kernel, const DeviceLimits& device, KernelLimits& limits)
        : m_kernel(kernel), m_device(device), m_limits(limits)
    {
    }

    const DeviceLimits& device() const { return m_device; }
    std::size_t         static_smem() const { return m_limits.static_smem; }

    //! The block size to launch with when `wanted` threads are asked for:
    //! at most what the kernel's registers allow (a user's callback can make
    //! a kernel too heavy for 1024 threads), in whole warps.
    std::uint32_t fit_threads(std::uint32_t wanted) const
    {
        const auto most = std::uint32_t(m_limits.max_threads) / 32u * 32u;
        return most == 0 ? wanted : std::min(wanted, most);
    }

    //! Whether a block with `smem` bytes of dynamic shared memory fits the
    //! device; when it does, the kernel may launch with it (it is opted in,
    //! once per device and host thread, when static + dynamic exceed
    //! kSharedMemoryWithoutOptIn). False: nothing done, the caller falls back.
    bool fit_shared_memory(std::size_t smem)
    {
        const std::size_t total = m_limits.static_smem + smem;
        if (total > m_device.max_smem)
            return false;
        if (total > kSharedMemoryWithoutOptIn && !m_limits.opted_in) {
            // always the device's maximum: host threads that launch the kernel
            // at the same time never lower each other's limit, as setting each
            // launch's own size would
            RXMESH_CHECK_CUDA(cudaFuncSetAttribute(m_kernel,
                                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   int(m_device.max_smem - m_limits.static_smem)));
            m_limits.opted_in = true;
        }
        return true;
    }

    //! Blocks of `threads` threads and `smem` bytes of dynamic shared memory
    //! resident per SM (looked up when either changes).
    int blocks_per_sm(int threads, std::size_t smem)
    {
        if (m_limits.occupancy_threads != threads || m_limits.occupancy_smem != smem) {
            RXMESH_CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &m_limits.blocks_per_sm, m_kernel, threads, smem));
            m_limits.occupancy_threads = threads;
            m_limits.occupancy_smem    = smem;
        }
        return m_limits.blocks_per_sm;
    }

    //! A grid for `items` work items that blocks loop over: one block per
    //! item, at most as many as are resident on the device at once.
    unsigned resident_grid(int threads, std::size_t smem, std::uint64_t items)
    {
        const std::uint64_t resident =
            std::uint64_t(std::max(blocks_per_sm(threads, smem), 1)) * std::uint64_t(m_device.sms);
        return unsigned(std::max<std::uint64_t>(1, std::min<std::uint64_t>(items, resident)));
    }

   private:
    const void*         m_kernel;
    const DeviceLimits& m_device;
    KernelLimits&       m_limits;
};

//! The Launcher of `kernel` on the current device (one cache per kernel: a
//! template on the kernel itself, since kernels of different queries share
//! one function type).
template <auto kernel>
Launcher launcher()
{
    static thread_local KernelLimits cache[kMaxCachedDevices];
    const int                        dev = current_device();
    const void*                      k   = reinterpret_cast<const void*>(kernel);
    if (dev >= kMaxCachedDevices)
        return Launcher(k, device_limits(dev), kernel_limits(k, dev));
    fetch_kernel_limits(k, cache[dev]);
    return Launcher(k, device_limits(dev), cache[dev]);
}

//! Makes `kernel` launchable with `smem` bytes of dynamic shared memory, for
//! kernels without a fallback.
//! \throw Error when the device cannot give a block that much.
template <auto kernel>
void require_shared_memory(std::size_t smem)
{
    Launcher l = launcher<kernel>();
    if (!l.fit_shared_memory(smem))
        throw Error("a kernel needs " + std::to_string(l.static_smem()) + " + " +
                    std::to_string(smem) + " bytes of shared memory per block; the device allows " +
                    std::to_string(l.device().max_smem));
}

//! The same for a kernel known only at run time (a user's kernel).
template <typename... Params>
Launcher launcher(void (*kernel)(Params...))
{
    const int   dev = current_device();
    const void* k   = reinterpret_cast<const void*>(kernel);
    return Launcher(k, device_limits(dev), kernel_limits(k, dev));
}

//! Whether `num_patches` patches are more than `per_sm` per SM of the current
//! device: the size test of the launches chosen by the mesh's size (vertex
//! normals, bilateral's ball, the cached CG's single pass). With a few per
//! SM every block is resident at once and each is one dependent chain, so
//! wide blocks win; with many, occupancy decides.
inline bool more_patches_per_sm_than(std::uint64_t num_patches, std::uint32_t per_sm)
{
    return num_patches > std::uint64_t(per_sm) * std::uint64_t(device_limits().sms);
}

}  // namespace rxmesh::detail

//! Grid-stride loop over [0, n) with a 64-bit index.
#define RXMESH_FOR_EACH_ITEM(i, n)                                            \
    for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) +           \
                           threadIdx.x;                                        \
         i < std::uint64_t(n);                                                 \
         i += std::uint64_t(gridDim.x) * blockDim.x)
