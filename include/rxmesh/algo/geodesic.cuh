// Approximate geodesic distance from a set of source vertices by parallel
// toplesets propagation (PTP: L. A. Romero Calla, L. J. Fuentes Perez,
// A. A. Montenegro, "A minimalistic approach for fast computation of geodesic
// distances on triangular meshes", Computers & Graphics 84, 2019; the RXMesh
// paper's section 8.2).
//
// 1. Toplesets (algo/toplesets.cuh): every vertex's hop distance ("level")
//    from the nearest source; L levels.
// 2. Distances start at +inf, 0 at the sources, in two arrays (Jacobi). A
//    window of levels [start, end) starts at [0, 1). Each iteration updates
//    every vertex of the window from each incident triangle (v, a, b) by the
//    planar update of algo/ptp_update.h, keeping the smaller of that and its
//    current distance, and copies the vertices of the levels that left the
//    window at the previous iteration (so that both arrays agree on them from
//    then on). Then `start` moves past every leading level of the window whose
//    vertices all changed by at most `tolerance` relative, and `end` grows by
//    one level up to L.
// 3. When start reaches L, closing sweeps update all reached vertices at once
//    until an iteration changes none (by more than the tolerance): a level
//    leaves the window after one unchanged iteration, which can be before a
//    shorter path through higher levels reaches it (hop count and metric
//    distance disagree on long thin triangles, or where two fronts meet);
//    the sweeps settle the distances at the update's fixed point, where every
//    edge satisfies the triangle inequality. After an accurate window phase
//    they cost one confirming iteration. (An addition to Romero Calla et al.)
// reference/geodesic.h is the serial oracle of exactly these steps.
//
// The programming model: one VF query per iteration with an active set
// ("level in the window"), over only the patches that can hold a vertex of the
// window (RXMesh::for_each_scheduled): patches in order of their lowest level,
// a contiguous range of them per window. A one-thread kernel moves the window
// and the range on the device; the host enqueues iterations in chunks and
// reads the "done" flag one chunk late (algo/device_loop.cuh).
//
// VF, not the paper's oriented VV: consecutive vertices of an oriented ring
// are a triangle only around manifold interior vertices; VF names each
// incident triangle once on any mesh (boundaries, non-manifold vertices).
//
//   std::vector<std::uint32_t> sources = {0};
//   rxmesh::DeviceBuffer<float> d(mesh.num_vertices());
//   rxmesh::GeodesicReport r = rxmesh::geodesic_distance(mesh,
//       mesh.positions().data(), sources, d.data());
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "rxmesh/algo/device_loop.cuh"
#include "rxmesh/algo/ptp_update.h"
#include "rxmesh/algo/toplesets.cuh"
#include "rxmesh/attribute/attribute.h"
#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

struct GeodesicOptions
{
    double tolerance      = 1e-4;  // a level converged: no vertex changed by more, relative
    long   max_iterations = 0;     // 0: 8 L + 64
    int    chunk          = 32;    // iterations enqueued between looks at the done flag
};

struct GeodesicReport
{
    std::uint32_t levels     = 0;  // L
    long          iterations = 0;  // window iterations and closing sweeps
    long          sweeps     = 0;  // closing sweeps (see the top of the file)
    bool          converged  = true;
    float         toplesets_ms = 0, propagation_ms = 0;
};

namespace detail {

struct PtpState
{
    std::uint32_t start = 0, end = 1, copy_from = 0, iteration = 0;
    std::uint32_t range[2]{};  // entries of by_lowest_level for this iteration
    std::uint32_t sweeping = 0, sweeps = 0, converged = 0, done = 0;
    std::uint32_t last_change = ~0u;  // the last iteration that changed a vertex
};

//! What the iteration kernels read (device pointers).
struct PtpArrays
{
    const std::uint32_t* level;
    const std::uint32_t* highest_level;  // per patch
    const std::uint32_t* level_offsets;
    std::uint32_t*       changed_at;     // per level: the last iteration it changed
    float*               distance[2];    // iteration t reads [t & 1], writes the other
    PtpState*            state;
    std::uint32_t        num_levels, widest_patch;
    long                 max_iterations;
};

//! VF lambda: the new distance of v from its triangles.
struct PtpRelax
{
    PtpArrays            a;
    const float*         positions;
    const std::uint32_t* faces;
    float                tolerance;

    __device__ void operator()(VertexId v, const RowView<FaceId>& vf) const
    {
        const std::uint32_t it = a.state->iteration, lv = a.level[v.id()];
        const float*        in  = a.distance[it & 1];
        float*              out = a.distance[(it + 1) & 1];
        const float         cur = in[v.id()];
        if (lv < a.state->start) {  // left the window last iteration
            out[v.id()] = cur;
            return;
        }
        double best = cur;
        for (std::uint32_t i = 0; i < vf.size(); ++i)
            best = fmin(best, from_face(v.id(), faces + 3 * std::size_t(vf[i].id()), in));
        const float next = fminf(cur, float(best));
        out[v.id()]      = next;
        if (next != cur && fabsf(next - cur) > tolerance * next) {
            a.changed_at[lv]     = it;
            a.state->last_change = it;  // the same value from every writer
        }
    }

    //! The face's update of v (+inf for a face that repeats a vertex).
    __device__ double from_face(std::uint32_t v, const std::uint32_t* f, const float* d) const
    {
        const int           k = f[0] == v ? 0 : (f[1] == v ? 1 : 2);
        const std::uint32_t p = f[(k + 1) % 3], q = f[(k + 2) % 3];
        if (p == v || q == v || p == q)
            return INFINITY;
        return ptp_update(positions + 3 * std::size_t(v), positions + 3 * std::size_t(p),
                          positions + 3 * std::size_t(q), d[p], d[q]);
    }
};

//! Active set: vertices of levels [copy_from, end); patches whose highest
//! level reaches copy_from (the schedule's range already bounds the lowest).
struct InWindow
{
    PtpArrays a;
    __device__ bool operator()(VertexId v) const
    {
        const std::uint32_t lv = a.level[v.id()];
        return lv != kNoLevel && lv >= a.state->copy_from && lv < a.state->end;
    }
    __device__ bool patch(std::uint32_t p) const
    {
        return a.highest_level[p] >= a.state->copy_from;
    }
};

//! The patches of levels [from, end): lowest level in [from - widest, end).
__device__ inline void schedule_window(const PtpArrays& a, PtpState* s)
{
    const std::uint32_t lo = s->copy_from > a.widest_patch ? s->copy_from - a.widest_patch : 0;
    s->range[0]            = a.level_offsets[lo];
    s->range[1]            = a.level_offsets[s->end];
}

__device__ inline void stop(PtpState* s, bool converged)
{
    s->done      = 1;
    s->converged = converged;
    s->range[0] = s->range[1] = 0;
}

//! After iteration t: move the window, or decide on the closing sweeps (see
//! the top of the file).
static __global__ void ptp_advance_kernel(PtpArrays a)
{
    PtpState* s = a.state;
    if (s->done)
        return;
    const std::uint32_t it = s->iteration, end = s->end;
    s->iteration           = it + 1;
    if (s->sweeping) {
        s->sweeps += 1;
        if (s->last_change != it)
            stop(s, true);
        else if (long(s->iteration) >= a.max_iterations)
            stop(s, false);
        return;  // the window stays [0, L), all reached patches
    }
    s->copy_from = s->start;
    while (s->start < end && a.changed_at[s->start] != it)
        ++s->start;
    s->end = min(end + 1, a.num_levels);
    if (long(s->iteration) >= a.max_iterations)
        return stop(s, false);
    if (s->start >= a.num_levels) {  // from now on: sweeps over every level
        s->sweeping  = 1;
        s->start     = 0;
        s->copy_from = 0;
        s->end       = a.num_levels;
    }
    schedule_window(a, s);
}

static __global__ void ptp_init_kernel(PtpArrays a, const std::uint32_t* sources, std::uint32_t count)
{
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += gridDim.x * blockDim.x)
        a.distance[0][sources[i]] = a.distance[1][sources[i]] = 0.f;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *a.state = PtpState{};
        schedule_window(a, a.state);
    }
}

}  // namespace detail

//! Propagation over given toplesets (see the top of the file); distance: one
//! float per vertex, global order, +inf where unreachable. BlockThreads: the
//! VF query's block size.
template <int BlockThreads = default_query_threads(Op::VF)>
GeodesicReport propagate_distance(const RXMesh& mesh, const float* positions,
                                         const std::vector<std::uint32_t>& sources,
                                         const Toplesets& t, float* distance,
                                         const GeodesicOptions& options = {},
                                         cudaStream_t stream = 0)
{
    const std::uint32_t V = mesh.num_vertices();
    GeodesicReport      rep;
    rep.levels = t.num_levels;
    const long max_it = options.max_iterations > 0 ? options.max_iterations
                                                   : 8 * long(t.num_levels) + 64;
    DeviceBuffer<float>            other(V, stream);
    DeviceBuffer<std::uint32_t>    changed_at(t.num_levels, stream);
    DeviceBuffer<detail::PtpState> state(1, stream);
    const auto                     src = DeviceBuffer<std::uint32_t>::from_host(sources, stream);
    changed_at.memset(0xFF);
    const float inf = std::numeric_limits<float>::infinity();
    fill(Attribute<float, 1, VertexId>(distance, nullptr, V, stream), inf);
    fill(Attribute<float, 1, VertexId>(other.data(), nullptr, V, stream), inf);
    const detail::PtpArrays a{t.level.data(), t.highest_level.data(), t.level_offsets.data(),
                              changed_at.data(), {distance, other.data()}, state.data(),
                              t.num_levels, t.widest_patch, max_it};
    detail::ptp_init_kernel<<<1, 256, 0, stream>>>(a, src.data(), std::uint32_t(src.size()));
    RXMESH_CHECK_LAUNCH();
    const PatchSchedule schedule{t.by_lowest_level.data(), state.data()->range, t.reached};
    const detail::PtpRelax relax{a, positions, mesh.faces().data(), float(options.tolerance)};
    GpuTimer timer(stream);
    timer.start();
    const int chunk = options.chunk > 0 ? options.chunk : 32;
    run_device_loop(&state.data()->done, stream, max_it / chunk + 2, [&] {
        for (int i = 0; i < chunk; ++i) {
            mesh.for_each_scheduled<Op::VF, BlockThreads>(schedule, relax, detail::InWindow{a},
                                                          false, stream);
            detail::ptp_advance_kernel<<<1, 1, 0, stream>>>(a);
        }
        RXMESH_CHECK_LAUNCH();
    });
    rep.propagation_ms = timer.stop_ms();
    const detail::PtpState last = read_back(state.data(), stream);
    rep.iterations              = last.iteration;
    rep.sweeps                  = last.sweeps;
    rep.converged               = last.converged != 0;
    if (last.iteration & 1)  // the last iteration wrote the other array
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(distance, other.data(), other.bytes(),
                                          cudaMemcpyDeviceToDevice, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return rep;
}

//! Geodesic distance from `sources` (global vertex ids) to every vertex:
//! toplesets, then propagation.
//! \throw InvalidInputError for no source, a source out of range, or a
//!        tolerance that is not > 0.
template <int BlockThreads = default_query_threads(Op::VF)>
GeodesicReport geodesic_distance(const RXMesh& mesh, const float* positions,
                                        const std::vector<std::uint32_t>& sources,
                                        float* distance, const GeodesicOptions& options = {},
                                        cudaStream_t stream = 0)
{
    if (!(options.tolerance > 0) || !std::isfinite(options.tolerance))
        throw InvalidInputError("geodesic: the tolerance must be finite and > 0");
    GpuTimer timer(stream);
    timer.start();
    const Toplesets t       = toplesets(mesh, sources, stream);
    const float     topo_ms = timer.stop_ms();
    GeodesicReport  rep =
        propagate_distance<BlockThreads>(mesh, positions, sources, t, distance, options, stream);
    rep.toplesets_ms        = topo_ms;
    return rep;
}

}  // namespace rxmesh
