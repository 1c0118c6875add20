#include "pde_geodesic.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <limits>

#include "rxmesh/core/device_loop.cuh"
#include "rxmesh/algo/detail/ptp_update.h"
#include "rxmesh/core/cuda_check.h"

namespace rxmesh::baselines {

namespace {

constexpr std::uint32_t kInvalid = PdeMesh::kInvalid;

struct Halfedges
{
    const std::uint32_t* target;
    const std::uint32_t* face;
    const std::uint32_t* next;
    const std::uint32_t* vertex_he;
};

Halfedges halfedges(const PdeMesh& pde)
{
    return {pde.d_target(), pde.d_face(), pde.d_next(), pde.d_vertex_he()};
}

//! BFS state: the frontier is queue[begin, end); tail: queue length.
struct BfsState
{
    std::uint32_t level = 0, begin = 0, end = 0, tail = 0, done = 0;
};

__global__ void bfs_seed(std::uint32_t* level, std::uint32_t* queue, BfsState* s,
                         const std::uint32_t* sources, std::uint32_t count)
{
    for (std::uint32_t i = threadIdx.x; i < count; i += blockDim.x)
        if (atomicCAS(level + sources[i], kNoLevel, 0u) == kNoLevel)
            queue[atomicAdd(&s->tail, 1u)] = sources[i];
    __syncthreads();
    if (threadIdx.x == 0)
        s->end = s->tail;
}

__device__ void bfs_expand(const Halfedges& m, std::uint32_t* level, std::uint32_t* queue, BfsState* s)
{
    const std::uint32_t begin = s->begin, end = s->end, next = s->level + 1;
    for (std::uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x; i < end;
         i += gridDim.x * blockDim.x) {
        const std::uint32_t v = queue[i], h0 = m.vertex_he[v];
        if (h0 == kInvalid)
            continue;
        std::uint32_t h = h0;
        do {
            const std::uint32_t u = m.target[h];
            if (level[u] == kNoLevel && atomicCAS(level + u, kNoLevel, next) == kNoLevel)
                queue[atomicAdd(&s->tail, 1u)] = u;
            h = m.next[h ^ 1u];
        } while (h != h0);
    }
}

__device__ void bfs_next_level(BfsState* s, std::uint32_t* level_offsets)
{
    if (s->done)
        return;
    level_offsets[s->level + 1] = s->end;
    if (s->tail == s->end) {
        s->done = 1;
        return;
    }
    s->begin = s->end;
    s->end   = s->tail;
    s->level += 1;
}

__global__ void bfs_step(Halfedges m, std::uint32_t* level, std::uint32_t* queue, BfsState* s)
{
    bfs_expand(m, level, queue, s);
}

__global__ void bfs_advance(BfsState* s, std::uint32_t* level_offsets)
{
    bfs_next_level(s, level_offsets);
}

//! Every level in one cooperative launch, as RXMesh's default loop.
__global__ void bfs_one_launch(Halfedges m, std::uint32_t* level, std::uint32_t* queue, BfsState* s,
                               std::uint32_t* level_offsets)
{
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    while (!s->done) {
        bfs_expand(m, level, queue, s);
        grid.sync();
        if (blockIdx.x == 0 && threadIdx.x == 0)
            bfs_next_level(s, level_offsets);
        grid.sync();
    }
}

unsigned resident_grid(const void* kernel, int block_threads)
{
    int dev = 0, sms = 0, per_sm = 0;
    RXMESH_CHECK_CUDA(cudaGetDevice(&dev));
    RXMESH_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    RXMESH_CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, 0));
    return unsigned(std::max(1, per_sm * sms));
}

//! Window state, as RXMesh's, with the window as a range of sorted[].
struct PtpState
{
    std::uint32_t start = 0, end = 1, copy_from = 0, iteration = 0;
    std::uint32_t range[2]{};
    std::uint32_t sweeping = 0, sweeps = 0, converged = 0, done = 0;
    std::uint32_t last_change = ~0u;
};

struct PtpArrays
{
    const std::uint32_t* level;
    const std::uint32_t* sorted;
    const std::uint32_t* level_offsets;
    std::uint32_t*       changed_at;
    float*               distance[2];
    PtpState*            state;
    std::uint32_t        num_levels;
    long                 max_iterations;
};

__device__ void ptp_relax(const Halfedges& m, const PtpArrays& a, const float* pos, float tolerance)
{
    const PtpState      s   = *a.state;
    const float*        in  = a.distance[s.iteration & 1];
    float*              out = a.distance[(s.iteration + 1) & 1];
    for (std::uint32_t i = s.range[0] + blockIdx.x * blockDim.x + threadIdx.x; i < s.range[1];
         i += gridDim.x * blockDim.x) {
        const std::uint32_t v = a.sorted[i], lv = a.level[v];
        const float         cur = in[v];
        if (lv < s.start) {
            out[v] = cur;
            continue;
        }
        double              best = cur;
        const std::uint32_t h0   = m.vertex_he[v];
        std::uint32_t       h    = h0;
        if (h0 != kInvalid)
        do {
            if (m.face[h] != kInvalid) {
                const std::uint32_t p = m.target[h], q = m.target[m.next[h]];
                best = fmin(best, ptp_update(pos + 3 * std::size_t(v), pos + 3 * std::size_t(p),
                                             pos + 3 * std::size_t(q), in[p], in[q]));
            }
            h = m.next[h ^ 1u];
        } while (h != h0);
        const float next = fminf(cur, float(best));
        out[v]           = next;
        if (next != cur && fabsf(next - cur) > tolerance * next) {
            a.changed_at[lv]     = s.iteration;
            a.state->last_change = s.iteration;
        }
    }
}

__device__ void ptp_move_window(const PtpArrays& a)
{
    PtpState* s = a.state;
    if (s->done)
        return;
    const std::uint32_t it = s->iteration, end = s->end;
    s->iteration           = it + 1;
    if (s->sweeping) {  // closing sweeps, as RXMesh's
        s->sweeps += 1;
        if (s->last_change != it || long(s->iteration) >= a.max_iterations) {
            s->done      = 1;
            s->converged = s->last_change != it;
            s->range[0] = s->range[1] = 0;
        }
        return;
    }
    s->copy_from = s->start;
    while (s->start < end && a.changed_at[s->start] != it)
        ++s->start;
    s->end = min(end + 1, a.num_levels);
    if (long(s->iteration) >= a.max_iterations) {
        s->done     = 1;
        s->range[0] = s->range[1] = 0;
        return;
    }
    if (s->start >= a.num_levels) {
        s->sweeping  = 1;
        s->start     = 0;
        s->copy_from = 0;
        s->end       = a.num_levels;
    }
    s->range[0] = a.level_offsets[s->copy_from];
    s->range[1] = a.level_offsets[s->end];
}

__global__ void ptp_step(Halfedges m, PtpArrays a, const float* pos, float tolerance)
{
    ptp_relax(m, a, pos, tolerance);
}

__global__ void ptp_advance(PtpArrays a)
{
    ptp_move_window(a);
}

//! Every iteration in one cooperative launch, as RXMesh's default loop
//! (RXMesh::accumulate_scheduled_loop): relax, grid barrier, the window
//! moved by one thread, grid barrier.
__global__ void ptp_one_launch(Halfedges m, PtpArrays a, const float* pos, float tolerance)
{
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    while (!a.state->done) {
        ptp_relax(m, a, pos, tolerance);
        grid.sync();
        if (blockIdx.x == 0 && threadIdx.x == 0)
            ptp_move_window(a);
        grid.sync();
    }
}

__global__ void ptp_init(PtpArrays a, const std::uint32_t* sources, std::uint32_t count)
{
    for (std::uint32_t i = threadIdx.x; i < count; i += blockDim.x)
        a.distance[0][sources[i]] = a.distance[1][sources[i]] = 0.f;
    if (threadIdx.x == 0) {
        *a.state       = PtpState{};
        a.state->range[0] = a.level_offsets[0];
        a.state->range[1] = a.level_offsets[1];
    }
}

}  // namespace

PdeToplesets pde_toplesets(const PdeMesh& pde, const std::vector<std::uint32_t>& sources,
                           int block_threads, bool one_launch, cudaStream_t stream)
{
    const std::uint32_t V = pde.num_vertices();
    PdeToplesets        t{DeviceBuffer<std::uint32_t>(V, stream), DeviceBuffer<std::uint32_t>(V, stream),
                   DeviceBuffer<std::uint32_t>(std::size_t(V) + 2, stream), 0};
    DeviceBuffer<BfsState> state(1, stream);
    const auto             src = DeviceBuffer<std::uint32_t>::from_host(sources, stream);
    t.level.memset(0xFF);
    t.level_offsets.memset(0);
    state.memset(0);
    bfs_seed<<<1, 256, 0, stream>>>(t.level.data(), t.sorted.data(), state.data(), src.data(),
                                    std::uint32_t(src.size()));
    RXMESH_CHECK_LAUNCH();
    const unsigned grid = resident_grid(reinterpret_cast<const void*>(bfs_step), block_threads);
    const Halfedges m   = halfedges(pde);
    if (one_launch) {
        const unsigned one_grid = resident_grid(reinterpret_cast<const void*>(bfs_one_launch), block_threads);
        std::uint32_t *level = t.level.data(), *queue = t.sorted.data(), *offsets = t.level_offsets.data();
        BfsState*      s      = state.data();
        void*          args[] = {const_cast<Halfedges*>(&m), &level, &queue, &s, &offsets};
        RXMESH_CHECK_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(bfs_one_launch),
                                                      one_grid, block_threads, args, 0, stream));
    } else {
        run_device_loop(&state.data()->done, stream, (long(V) + 64) / 16 + 2, [&](cudaStream_t s) {
            for (int i = 0; i < 16; ++i) {
                bfs_step<<<grid, block_threads, 0, s>>>(m, t.level.data(), t.sorted.data(), state.data());
                bfs_advance<<<1, 1, 0, s>>>(state.data(), t.level_offsets.data());
            }
            RXMESH_CHECK_LAUNCH();
        });
    }
    t.num_levels = read_back(state.data(), stream).level + 1;
    return t;
}

GeodesicReport pde_propagate(const PdeMesh& pde, const float* positions,
                             const std::vector<std::uint32_t>& sources, const PdeToplesets& t,
                             float* distance, const GeodesicOptions& options, int block_threads,
                             cudaStream_t stream)
{
    const std::uint32_t V = pde.num_vertices();
    GeodesicReport      rep;
    rep.levels          = t.num_levels;
    const long max_it   = options.max_iterations > 0 ? options.max_iterations : 8 * long(t.num_levels) + 64;
    DeviceBuffer<float>         other(V, stream);
    DeviceBuffer<std::uint32_t> changed_at(t.num_levels, stream);
    DeviceBuffer<PtpState>      state(1, stream);
    const auto                  src = DeviceBuffer<std::uint32_t>::from_host(sources, stream);
    changed_at.memset(0xFF);
    const float inf = std::numeric_limits<float>::infinity();
    fill(Attribute<float, 1, VertexId>(distance, nullptr, V, stream), inf);
    fill(Attribute<float, 1, VertexId>(other.data(), nullptr, V, stream), inf);
    const PtpArrays a{t.level.data(), t.sorted.data(), t.level_offsets.data(), changed_at.data(),
                      {distance, other.data()}, state.data(), t.num_levels, max_it};
    ptp_init<<<1, 256, 0, stream>>>(a, src.data(), std::uint32_t(src.size()));
    RXMESH_CHECK_LAUNCH();
    const unsigned  grid  = resident_grid(reinterpret_cast<const void*>(ptp_step), block_threads);
    const Halfedges m     = halfedges(pde);
    const int       chunk = options.chunk > 0 ? options.chunk : 32;
    GpuTimer        timer(stream);
    timer.start();
    const auto enqueue_chunk = [&](cudaStream_t s) {
        for (int i = 0; i < chunk; ++i) {
            ptp_step<<<grid, block_threads, 0, s>>>(m, a, positions, float(options.tolerance));
            ptp_advance<<<1, 1, 0, s>>>(a);
        }
        RXMESH_CHECK_LAUNCH();
    };
    if (options.one_launch) {
        const unsigned one_grid = resident_grid(reinterpret_cast<const void*>(ptp_one_launch), block_threads);
        const float*   p        = positions;
        float          tol      = float(options.tolerance);
        void*          args[]   = {const_cast<Halfedges*>(&m), const_cast<PtpArrays*>(&a), &p, &tol};
        RXMESH_CHECK_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(ptp_one_launch),
                                                      one_grid, block_threads, args, 0, stream));
    } else {
        run_device_loop(&state.data()->done, stream, max_it / chunk + 2, enqueue_chunk, options.graph);
    }
    rep.propagation_ms    = timer.stop_ms();
    rep.one_launch        = options.one_launch;
    const PtpState last   = read_back(state.data(), stream);
    rep.iterations        = last.iteration;
    rep.sweeps            = last.sweeps;
    rep.converged         = last.converged != 0;
    if (last.iteration & 1)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(distance, other.data(), other.bytes(),
                                          cudaMemcpyDeviceToDevice, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return rep;
}

}  // namespace rxmesh::baselines
