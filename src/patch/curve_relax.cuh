// Internal: the min-plus relaxation of the curve patcher, on the face graph
// renumbered along the Hilbert curve.
//
// Every face holds a 64-bit value (distance << 32 | label; kInfinity for
// none) and the relaxation settles
//     value[f] = min(value[f], min over neighbours g in f's group of value[g] + step)
// to its least fixpoint. Breadth-first growth from seeds is step = 1 << 32
// (the fixpoint is the smallest (distance, seed id) over all seeds, exactly
// what level-by-level BFS with ties to the smaller id gives); the distance to
// a patch boundary is the same with label 0 and the group = the patch.
//
// A sweep launches one block per 1024 consecutive faces of the curve, which
// are close on the surface: the block gathers each face's neighbours once,
// then relaxes its faces in shared memory until they settle, reading the
// faces of other blocks from the previous sweep's values (Jacobi across
// blocks, so no block reads what another writes).
// Sweeps repeat until one changes nothing; the fixpoint is unique, so the
// result does not depend on the schedule.
#pragma once

#include <cstdint>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"

namespace rxmesh::detail {

constexpr std::uint64_t kInfinity        = ~std::uint64_t{0};
constexpr std::uint64_t kDistanceStep    = std::uint64_t{1} << 32;
constexpr int           kRelaxBlockFaces = 1024;
constexpr int           kRelaxThreads    = 256;
constexpr int           kRelaxPerThread  = kRelaxBlockFaces / kRelaxThreads;

//! The face graph in curve order: row i lists the curve positions of the
//! neighbours of the i-th face along the curve.
struct CurveGraph
{
    const std::uint32_t* offsets = nullptr;
    const std::uint32_t* nbrs    = nullptr;
    std::uint32_t        n       = 0;
};

//! The smallest value f can take from its neighbours in this local round.
__device__ inline std::uint64_t relaxed_value(const CurveGraph&    g,
                                              const std::uint32_t* group,
                                              std::uint32_t        f,
                                              std::uint32_t        base,
                                              std::uint32_t        count,
                                              const std::uint64_t* local,
                                              const std::uint64_t* previous,
                                              std::uint64_t        step)
{
    std::uint64_t       v     = local[f - base];
    const std::uint32_t own   = group ? group[f] : 0;
    for (std::uint32_t j = g.offsets[f]; j < g.offsets[f + 1]; ++j) {
        const std::uint32_t u = g.nbrs[j];
        if (group && group[u] != own)
            continue;
        const std::uint64_t w = u - base < count ? local[u - base] : previous[u];
        if (w != kInfinity && w + step < v)
            v = w + step;
    }
    return v;
}

constexpr std::uint16_t kNoLink = 0xFFFF;

//! What one face of a block reads in every local round, gathered once per
//! sweep: up to three neighbours inside the block (their local indices) and
//! the best value offered from outside it (the previous sweep's values do
//! not change during the sweep). A face with more neighbours inside (a
//! non-manifold edge) takes the general path.
struct FaceLinks
{
    std::uint16_t inside[3] = {kNoLink, kNoLink, kNoLink};
    std::uint64_t outside   = kInfinity;
    bool          general   = false;
};

__device__ inline FaceLinks link_face(const CurveGraph&    g,
                                      const std::uint32_t* group,
                                      std::uint32_t        f,
                                      std::uint32_t        base,
                                      std::uint32_t        count,
                                      const std::uint64_t* previous,
                                      std::uint64_t        step)
{
    FaceLinks           links;
    int                 k   = 0;
    const std::uint32_t own = group ? group[f] : 0;
    for (std::uint32_t j = g.offsets[f]; j < g.offsets[f + 1]; ++j) {
        const std::uint32_t u = g.nbrs[j];
        if (group && group[u] != own)
            continue;
        if (u - base < count) {
            if (k < 3)
                links.inside[k++] = static_cast<std::uint16_t>(u - base);
            else
                links.general = true;
        } else if (previous[u] != kInfinity && previous[u] + step < links.outside) {
            links.outside = previous[u] + step;
        }
    }
    return links;
}

//! One sweep (see the file comment); sets *changed when a value dropped.
__global__ void __launch_bounds__(kRelaxThreads)
    relax_sweep(CurveGraph           g,
                const std::uint32_t* group,
                std::uint64_t        step,
                const std::uint64_t* previous,
                std::uint64_t*       next,
                int*                 changed)
{
    __shared__ std::uint64_t local[kRelaxBlockFaces];
    const std::uint32_t base  = blockIdx.x * kRelaxBlockFaces;
    const std::uint32_t count = min(std::uint32_t(kRelaxBlockFaces), g.n - base);
    FaceLinks           links[kRelaxPerThread];
    for (int k = 0; k < kRelaxPerThread; ++k) {
        const std::uint32_t i = threadIdx.x + k * kRelaxThreads;
        if (i < count) {
            local[i] = previous[base + i];
            links[k] = link_face(g, group, base + i, base, count, previous, step);
        }
    }
    bool any = false;
    __syncthreads();
    while (true) {
        std::uint64_t value[kRelaxPerThread];
        bool          dropped = false;
        for (int k = 0; k < kRelaxPerThread; ++k) {
            const std::uint32_t i = threadIdx.x + k * kRelaxThreads;
            if (i >= count)
                continue;
            std::uint64_t v = min(local[i], links[k].outside);
            for (int e = 0; e < 3; ++e) {
                const std::uint16_t n = links[k].inside[e];
                if (n != kNoLink && local[n] != kInfinity && local[n] + step < v)
                    v = local[n] + step;
            }
            if (links[k].general)
                v = min(v, relaxed_value(g, group, base + i, base, count, local, previous, step));
            value[k] = v;
            dropped  = dropped || v < local[i];
        }
        __syncthreads();  // every read of `local` done before the writes
        for (int k = 0; k < kRelaxPerThread; ++k) {
            const std::uint32_t i = threadIdx.x + k * kRelaxThreads;
            if (i < count)
                local[i] = value[k];
        }
        if (!__syncthreads_or(dropped))
            break;
        any = true;
    }
    for (std::uint32_t i = threadIdx.x; i < count; i += kRelaxThreads)
        next[base + i] = local[i];
    if (any && threadIdx.x == 0)
        *changed = 1;
}

//! Sweeps until nothing changes; `values` holds the fixpoint on return,
//! `scratch` (same size) is overwritten. Returns how many sweeps ran.
inline std::uint32_t relax_to_fixpoint(const CurveGraph&            g,
                                       const std::uint32_t*         group,
                                       std::uint64_t                step,
                                       DeviceBuffer<std::uint64_t>& values,
                                       DeviceBuffer<std::uint64_t>& scratch,
                                       DeviceBuffer<int>&           changed,
                                       cudaStream_t                 stream)
{
    const unsigned blocks = (g.n + kRelaxBlockFaces - 1) / kRelaxBlockFaces;
    for (std::uint32_t sweeps = 1;; ++sweeps) {
        changed.memset(0);
        relax_sweep<<<blocks, kRelaxThreads, 0, stream>>>(g, group, step, values.data(),
                                                          scratch.data(), changed.data());
        RXMESH_CHECK_LAUNCH();
        std::swap(values, scratch);
        if (read_back(changed.data(), stream) == 0)
            return sweeps;
    }
}

}  // namespace rxmesh::detail
