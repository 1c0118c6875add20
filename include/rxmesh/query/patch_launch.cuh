// The launch of every patch kernel (one block per patch, or per scheduled
// entry): for_each (query/launch.cuh), accumulate (query/accumulate.cuh) and
// the k-ring patch kernel (query/kring.cuh); user kernels of a PatchQuery
// (query/patch_query.cuh) take the same decisions through their Launcher
// (core/launch.cuh: shared-memory fit, opt-in, occupancy).
//
// The policy, in one place:
// - shared memory: the block's arrays for the largest patch (the caller's
//   `smem`) plus the kernel's static shared memory must fit the device's
//   opted-in maximum; above 48 KB the kernel is opted in, once per device and
//   host thread (Launcher::fit_shared_memory).
// - grid: one block per patch; with a device-side schedule
//   (DeviceMesh::schedule), one block per entry it can span, at most as many
//   as are resident at once (occupancy, cached per kernel), looping.
// - fallback: when the arrays do not fit, the same code runs over a global
//   scratch, in a few blocks (two per SM) that loop over the patches.
//   The k-ring has its own fallback (its overflow path: query/kring.cuh).
//
// Which launches synchronise the caller's stream, and why (every other
// launch is asynchronous, and after a kernel's first launch on a device and
// host thread looks up nothing but the current device):
// - the global-scratch fallback (for_each, accumulate): once, after its
//   kernel. Its scratch is a stream-ordered allocation freed on return; the
//   synchronisation makes the call finished when it returns (a fault in the
//   slow path surfaces at the call, and the scratch, which can be large, is
//   back in the pool before the caller's next launch).
// - the k-ring queries: once per query, to read how many vertices
//   overflowed the lists of the warp overflow kernel that follows the patch
//   kernel (the host sizes further rounds from it), and once more per
//   further round.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/query/device_mesh.h"

namespace rxmesh::detail {

//! Work items of a patch launch: the schedule's capacity, or every patch.
inline std::uint32_t patch_items(const DeviceMesh& mesh)
{
    return mesh.schedule.range ? mesh.schedule.capacity : mesh.store.num_patches;
}

//! kernel<<<grid, BlockThreads, smem, stream>>>(mesh, args...) with its
//! arrays in shared memory (see the top of the file for the grid); false,
//! with nothing launched, when `smem` does not fit the device. Nothing to do
//! (no patch, an empty schedule) counts as launched.
template <auto kernel, int BlockThreads, typename... Args>
bool launch_in_shared_memory(const DeviceMesh& mesh, std::size_t smem, cudaStream_t stream,
                             const Args&... args)
{
    const std::uint32_t items = patch_items(mesh);
    if (mesh.store.num_patches == 0 || items == 0)
        return true;
    Launcher l = launcher<kernel>();
    if (!l.fit_shared_memory(smem))
        return false;
    const unsigned grid =
        mesh.schedule.range ? l.resident_grid(BlockThreads, smem, items) : mesh.store.num_patches;
    kernel<<<grid, BlockThreads, smem, stream>>>(mesh, args...);
    RXMESH_CHECK_LAUNCH();
    return true;
}

//! The fallback: scratch_kernel, whose blocks carve `smem` bytes each from
//! a global scratch (mesh.scratch, scratch_stride bytes per block), in two
//! blocks per SM looping over the patches. Synchronises `stream`.
template <auto scratch_kernel, int BlockThreads, typename... Args>
void launch_in_global_scratch(DeviceMesh mesh, std::size_t smem, int sms, cudaStream_t stream,
                              const Args&... args)
{
    const unsigned grid = std::max(1u, std::min<unsigned>(patch_items(mesh), 2u * unsigned(sms)));
    mesh.scratch_stride = (smem + 255) & ~std::size_t(255);
    DeviceBuffer<unsigned char> scratch(mesh.scratch_stride * grid, stream);
    mesh.scratch = scratch.data();
    scratch_kernel<<<grid, BlockThreads, 0, stream>>>(mesh, args...);
    RXMESH_CHECK_LAUNCH();
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
}

//! A patch kernel in shared memory when its arrays (`smem` bytes for the
//! largest patch) fit, else its scratch twin over a global scratch.
//! Both take (DeviceMesh, args...).
template <auto shared_kernel, auto scratch_kernel, int BlockThreads, typename... Args>
void launch_patches(const DeviceMesh& mesh, std::size_t smem, cudaStream_t stream,
                    const Args&... args)
{
    if (launch_in_shared_memory<shared_kernel, BlockThreads>(mesh, smem, stream, args...))
        return;
    launch_in_global_scratch<scratch_kernel, BlockThreads>(mesh, smem, device_limits().sms, stream,
                                                           args...);
}

}  // namespace rxmesh::detail
