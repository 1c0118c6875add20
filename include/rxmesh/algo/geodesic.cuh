// Approximate geodesic distance from a set of source vertices by parallel
// toplesets propagation (PTP: L. A. Romero Calla, L. J. Fuentes Perez,
// A. A. Montenegro, "A minimalistic approach for fast computation of geodesic
// distances on triangular meshes", Computers & Graphics 84, 2019; the RXMesh
// paper's section 8.2).
//
// 1. Toplesets (algo/detail/toplesets.cuh): every vertex's hop distance ("level")
//    from the nearest source; L levels.
// 2. Distances start at +inf, 0 at the sources, in two arrays (Jacobi). A
//    window of levels [start, end) starts at [0, 1). Each iteration updates
//    every vertex of the window from each incident triangle (v, a, b) by the
//    planar update of algo/detail/ptp_update.h, keeping the smaller of that and its
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
//    edge satisfies the triangle inequality. On small meshes they take a few
//    iterations; on large ones many, each over every reached vertex, since
//    the levels the window left were still decreasing slowly (see
//    GeodesicOptions::closing_sweeps). (An addition to Romero Calla et al.)
// reference/geodesic.h is the serial oracle of exactly these steps.
//
// The programming model: the iterations are one
// RXMesh::accumulate_scheduled_loop<Op::FV, float, 1, Min>, each iteration
// an accumulation with an active set
// ("level in the window") over only the patches that can hold a vertex of
// the window: patches in order of their lowest level, a contiguous range of
// them per window (a device-side PatchSchedule). Each block stages its
// patch's positions and current distances in shared memory (coalesced for
// the owned vertices), and each window vertex takes, in registers, the least
// of its faces' updates: no global gathers per face and no atomics. The
// loop's step, one thread, moves the window and the range on the device.
// All iterations run in one cooperative launch, with grid barriers between
// them, where the device allows: an iteration over a front of a few patches
// is shorter than a kernel launch. Elsewhere (or with
// GeodesicOptions::one_launch off) the host enqueues iterations in chunks
// and reads the "done" flag one chunk late (core/device_loop.cuh).
//
// Faces, not the paper's oriented VV: consecutive vertices of an oriented
// ring are a triangle only around manifold interior vertices, while every
// face of a vertex is one of its triangles on any mesh (boundaries,
// non-manifold vertices). The paper's form, a VF for_each whose lambda reads
// the faces' corners from global memory, is kept in the benchmark
// (benchmarks/geodesic_vf.cuh) as a measured alternative.
//
//   std::vector<std::uint32_t> sources = {0};
//   auto d = mesh.add_vertex_attribute<float>("distance");
//   rxmesh::GeodesicReport r = rxmesh::geodesic_distance(mesh, mesh.positions(), sources, d);
//
// This header: the propagation's kernels and the launch-tuned templates
// (BlockThreads, MinBlocks), for benchmarks and device code; the entry point
// with the library's launch is in geodesic.h, compiled into the library
// (src/algo/geodesic.cu).
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "rxmesh/algo/geodesic.h"
#include "rxmesh/core/device_loop.cuh"
#include "rxmesh/algo/detail/ptp_update.h"
#include "rxmesh/algo/detail/toplesets.cuh"
#include "rxmesh/view_checks.h"
#include "rxmesh/attribute/attribute.h"
#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

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
    bool                 closing_sweeps;
};

//! What a relaxation stages per vertex: its position (3) and its current
//! distance (1), read from the array iteration t reads.
struct PtpStagedInput
{
    PtpArrays                  a;
    VertexView<const float, 3> positions;

    __device__ float operator()(VertexId v, int d) const
    {
        return d < 3 ? positions(v, d) : a.distance[a.state->iteration & 1][v.id()];
    }
};

//! A face's update of the corner gathered here (+inf for a face that repeats
//! a vertex: no triangle to cross).
struct PtpFaceUpdate
{
    __device__ void operator()(FaceId, const RowView<VertexId>& fv, const StagedRow<float, 4>& x,
                               const VertexReduction<float, 1, Min>& best) const
    {
        const int k = best.owns(0) ? 0 : (best.owns(1) ? 1 : 2);
        const int p = k == 2 ? 0 : k + 1, q = k == 0 ? 2 : k - 1;  // the face's order from k
        if (fv.local(k) == fv.local(p) || fv.local(k) == fv.local(q) || fv.local(p) == fv.local(q))
            return;  // (local ids: one per vertex in a patch)
        const float  v[3] = {x(k, 0), x(k, 1), x(k, 2)};
        const float  a[3] = {x(p, 0), x(p, 1), x(p, 2)};
        const float  b[3] = {x(q, 0), x(q, 1), x(q, 2)};
        const float  d[1] = {float(ptp_update(v, a, b, x(p, 3), x(q, 3)))};
        best.add(k, d);
    }
};

//! The new distance of v: the least of its current one and its faces'
//! updates; levels that left the window last iteration are copied.
struct PtpFinalize
{
    PtpArrays a;
    float     tolerance;

    __device__ void operator()(VertexId v, const float (&best)[1]) const
    {
        const std::uint32_t it = a.state->iteration, lv = a.level[v.id()];
        const float         cur = a.distance[it & 1][v.id()];
        float*              out = a.distance[(it + 1) & 1];
        if (lv < a.state->start) {  // left the window last iteration
            out[v.id()] = cur;
            return;
        }
        const float next = fminf(cur, best[0]);
        out[v.id()]      = next;
        if (next != cur && fabsf(next - cur) > tolerance * next) {
            a.changed_at[lv]     = it;
            a.state->last_change = it;  // the same value from every writer
        }
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
__device__ inline void ptp_advance(const PtpArrays& a)
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
    if (s->start >= a.num_levels && !a.closing_sweeps)
        return stop(s, true);
    if (s->start >= a.num_levels) {  // from now on: sweeps over every level
        s->sweeping  = 1;
        s->start     = 0;
        s->copy_from = 0;
        s->end       = a.num_levels;
    }
    schedule_window(a, s);
}

static __global__ void ptp_advance_kernel(PtpArrays a)
{
    ptp_advance(a);
}

//! ptp_advance as the step of RXMesh::accumulate_scheduled_loop.
struct PtpStep
{
    PtpArrays       a;
    __device__ bool operator()() const
    {
        ptp_advance(a);
        return a.state->done != 0;
    }
};

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

//! How the loops run (RXMesh::accumulate_scheduled_loop), `chunk` iterations
//! per chunk where they run in chunks.
inline DeviceLoopOptions loop_options(const GeodesicOptions& o, int chunk)
{
    DeviceLoopOptions loop;
    loop.form  = o.one_launch ? DeviceLoopOptions::Form::Auto : DeviceLoopOptions::Form::Chunks;
    loop.chunk = chunk > 0 ? chunk : 32;
    loop.graph = o.graph;
    return loop;
}

//! The buffers of a propagation and its start: distances +inf, 0 at the
//! sources, the window at level 0.
class Propagation
{
   public:
    Propagation(const std::vector<std::uint32_t>& sources, const Toplesets& t,
                VertexView<float> distance, const GeodesicOptions& options, cudaStream_t stream)
        : m_distance(distance), m_stream(stream), m_other(distance.num_elements(), stream),
          m_changed_at(t.num_levels, stream), m_state(1, stream)
    {
        max_iterations = options.max_iterations > 0 ? options.max_iterations
                                                    : 8 * long(t.num_levels) + 64;
        const auto src = DeviceBuffer<std::uint32_t>::from_host(sources, stream);
        m_changed_at.memset(0xFF);
        const float inf = std::numeric_limits<float>::infinity();
        fill(distance, inf, stream);
        fill(VertexView<float>(m_other.data(), distance.num_elements()), inf, stream);
        arrays = {t.level.data(),      t.highest_level.data(), t.level_offsets.data(),
                  m_changed_at.data(), {distance.data(), m_other.data()},
                  m_state.data(),      t.num_levels,
                  t.widest_patch,      max_iterations,
                  options.closing_sweeps};
        ptp_init_kernel<<<1, 256, 0, stream>>>(arrays, src.data(), std::uint32_t(src.size()));
        RXMESH_CHECK_LAUNCH();
        schedule = {t.by_lowest_level.data(), m_state.data()->range, t.reached};
        report.levels = t.num_levels;
    }
    //! The iterations' outcome in the report; the result in `distance`.
    GeodesicReport finish()
    {
        const PtpState last = read_back(m_state.data(), m_stream);
        report.iterations   = last.iteration;
        report.sweeps       = last.sweeps;
        report.converged    = last.converged != 0;
        if (last.iteration & 1)  // the last iteration wrote the other array
            RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_distance.data(), m_other.data(), m_other.bytes(),
                                              cudaMemcpyDeviceToDevice, m_stream));
        RXMESH_CHECK_CUDA(cudaStreamSynchronize(m_stream));
        return report;
    }

    PtpArrays      arrays{};
    PatchSchedule  schedule{};
    long           max_iterations = 0;
    GeodesicReport report;

   private:
    VertexView<float>           m_distance;
    cudaStream_t                m_stream;
    DeviceBuffer<float>         m_other;
    DeviceBuffer<std::uint32_t> m_changed_at;
    DeviceBuffer<PtpState>      m_state;
};

//! The propagation loop of the top of the file around any relaxation step,
//! in chunks enqueued by the host: relax(a, schedule, s) enqueues one
//! iteration's update of the window on stream s (reading distance[t & 1],
//! writing the other, marking changed levels); the window moves on the
//! device after each.
template <typename EnqueueRelax>
GeodesicReport run_propagation(const std::vector<std::uint32_t>& sources, const Toplesets& t,
                               VertexView<float> distance, const GeodesicOptions& options,
                               cudaStream_t stream, EnqueueRelax&& relax)
{
    Propagation p(sources, t, distance, options, stream);
    GpuTimer    timer(stream);
    timer.start();
    const int  chunk         = options.chunk > 0 ? options.chunk : 32;
    const auto enqueue_chunk = [&](cudaStream_t s) {
        for (int i = 0; i < chunk; ++i) {
            relax(p.arrays, p.schedule, s);
            ptp_advance_kernel<<<1, 1, 0, s>>>(p.arrays);
        }
        RXMESH_CHECK_LAUNCH();
    };
    run_device_loop(&p.arrays.state->done, stream, p.max_iterations / chunk + 2, enqueue_chunk,
                    options.graph);
    p.report.propagation_ms = timer.stop_ms();
    return p.finish();
}

}  // namespace detail

//! Propagation over given toplesets (see the top of the file); distance: one
//! float per vertex, global order, +inf where unreachable. Each iteration is
//! one RXMesh::accumulate_scheduled<Op::FV, float, 1, Min> over the window's
//! patches: positions and distances staged per patch, each window vertex
//! takes the least of its faces' updates. BlockThreads: its block size;
//! MinBlocks: its kernels' minimum of resident blocks per SM (1: the
//! compiler's choice of registers).
template <int BlockThreads = 128, int MinBlocks = 1>
GeodesicReport propagate_distance(const RXMesh& mesh, VertexView<const float, 3> positions,
                                  const std::vector<std::uint32_t>& sources, const Toplesets& t,
                                  VertexView<float> distance, const GeodesicOptions& options = {},
                                  cudaStream_t stream = 0)
{
    require_vertex_count("propagate_distance", mesh, positions, distance);
    const float         tolerance = float(options.tolerance);
    detail::Propagation p(sources, t, distance, options, stream);
    const DeviceLoopOptions loop = detail::loop_options(options, options.chunk);
    const detail::PtpArrays& a = p.arrays;
    // each vertex's faces (query/vertex_sources.h), built once per mesh,
    // outside the timings
    mesh.vertex_sources(Op::FV, stream);
    GpuTimer timer(stream);
    timer.start();
    using Policy = AccumulatePolicy<BlockThreads, MinBlocks>;
    const DeviceLoopReport loop_report = mesh.accumulate_scheduled_loop<Op::FV, float, 1, Min, Policy>(
        p.schedule, computed_vertex_input<float, 4>(detail::PtpStagedInput{a, positions}),
        detail::PtpFaceUpdate{}, detail::PtpFinalize{a, tolerance}, detail::InWindow{a},
        detail::PtpStep{a}, p.max_iterations, loop, stream);
    p.report.propagation_ms = timer.stop_ms();
    p.report.one_launch     = loop_report.one_launch;
    return p.finish();
}

//! Geodesic distance from `sources` (global vertex ids) to every vertex:
//! toplesets, then propagation.
//! \throw InvalidInputError for no source, a source out of range, or a
//!        tolerance that is not > 0; Error when a view does not hold one
//!        element per vertex.
template <int BlockThreads = 128, int MinBlocks = 1>
GeodesicReport geodesic_distance(const RXMesh& mesh, VertexView<const float, 3> positions,
                                 const std::vector<std::uint32_t>& sources,
                                 VertexView<float> distance, const GeodesicOptions& options = {},
                                 cudaStream_t stream = 0)
{
    require_vertex_count("geodesic_distance", mesh, positions, distance);
    if (!(options.tolerance > 0) || !std::isfinite(options.tolerance))
        throw InvalidInputError("geodesic: the tolerance must be finite and > 0");
    GpuTimer timer(stream);
    timer.start();
    const Toplesets t = toplesets(mesh, sources, stream, detail::loop_options(options, 16));
    const float     topo_ms = timer.stop_ms();
    GeodesicReport  rep =
        propagate_distance<BlockThreads, MinBlocks>(mesh, positions, sources, t, distance, options,
                                                    stream);
    rep.toplesets_ms        = topo_ms;
    return rep;
}

}  // namespace rxmesh
