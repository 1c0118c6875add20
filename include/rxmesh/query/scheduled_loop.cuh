// RXMesh::accumulate_scheduled_loop and for_each_scheduled_loop: iterations
// of accumulate_scheduled (or for_each_scheduled), each followed by `step`,
// a __device__ functor run by one thread that moves the schedule and the
// user's state on and returns true to stop. The loop ends when the step says
// so or after max_iterations iterations.
//
// Two forms, the same iterations and the same results:
// - one cooperative launch (the default wherever the device has cooperative
//   launches, the patch arrays fit shared memory and the schedule is not so
//   long that a launch hides behind an iteration: kOneLaunchMaxEntriesPerBlock
//   below): a resident grid runs
//   every iteration. Between iterations one grid barrier, whose last block
//   to arrive runs the step before it lets the others go: one barrier per
//   iteration, not the two that a grid sync on each side of the step would
//   take. The barrier orders memory (arrivals release, the last arrival and
//   the waiters acquire, at device scope, as cooperative groups' grid
//   sync), so what an iteration's lambdas or the step write, the next
//   iteration reads with plain loads. An iteration then costs the work and
//   a barrier instead of two kernel launches: what a loop of many small
//   iterations (a front that crosses a few patches at a time) is bound by.
// - chunks of iterations enqueued by the host, the stop flag read one chunk
//   late (core/device_loop.cuh), each iteration a scheduled query and a
//   one-thread step kernel; the iterations launched past the end do nothing
//   (every patch is inactive once the loop is done).
#pragma once

#include <cuda_runtime.h>

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <string>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/device_loop.cuh"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/query/accumulate.cuh"
#include "rxmesh/query/block_query.cuh"
#include "rxmesh/query/device_loop_options.h"
#include "rxmesh/query/launch.cuh"

namespace rxmesh {

namespace detail {

//! The loop's own state in device memory (zeroed before the loop).
struct LoopState
{
    std::uint32_t done = 0;
    std::uint32_t arrived = 0, generation = 0;  // the one-launch form's barrier
    long          iterations = 0;
};

//! After an iteration, in one thread: count it and ask the step.
template <typename Step>
__device__ void loop_step(const Step& step, LoopState* state, long max_iterations)
{
    if (state->done)
        return;
    state->iterations += 1;
    if (step() || state->iterations >= max_iterations)
        state->done = 1;
}

//! The one-launch form's grid barrier (see the top of the file); every
//! thread of every block calls it.
template <typename Step>
__device__ void barrier_and_step(const Step& step, LoopState* state, long max_iterations)
{
    __syncthreads();  // the block's writes of this iteration are made
    if (threadIdx.x == 0) {
        cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> arrived(state->arrived);
        cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> generation(state->generation);
        // exact: the generation moves only once this block has arrived
        const std::uint32_t gen = generation.load(cuda::memory_order_relaxed);
        if (arrived.fetch_add(1u, cuda::memory_order_release) == gridDim.x - 1) {
            cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
            arrived.store(0u, cuda::memory_order_relaxed);  // before anyone can arrive again
            loop_step(step, state, max_iterations);
            generation.store(gen + 1, cuda::memory_order_release);
        } else {
            // relaxed polls, one acquire once the generation moved: an acquire
            // per poll would also discard the L1 lines that blocks still
            // working on this SM read; the pause keeps the polls of many
            // blocks from crowding the L2 slice that the arrivals need
            while (generation.load(cuda::memory_order_relaxed) == gen)
                __nanosleep(64);
            cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
        }
    }
    __syncthreads();
}

//! The user's active set, with every patch inactive once the loop is done
//! (the chunked form launches iterations past the end).
template <typename Active>
struct ActiveUntilDone
{
    Active           active;
    const LoopState* state;
    __device__ bool  operator()(VertexId v) const { return active(v); }
    __device__ bool  patch(std::uint32_t p) const
    {
        return !state->done && patch_may_be_active(active, p);
    }
};

template <typename Step>
__global__ void loop_step_kernel(Step step, LoopState* state, long max_iterations)
{
    loop_step(step, state, max_iterations);
}

//! Every iteration in one cooperative launch (see the top of the file).
template <Op op, typename T, int N, int BlockThreads, int MinBlocks, typename Input,
          typename Combine, typename Active, typename Contribute, typename Finalize, typename Step>
__global__ void __launch_bounds__(BlockThreads, MinBlocks)
    accumulate_loop_kernel(DeviceMesh mesh, Input input,
                           AccumulateSpec<Combine, Active, NoSum> spec, Contribute contribute,
                           Finalize finalize, Step step, LoopState* state, long max_iterations)
{
    extern __shared__ __align__(16) unsigned char rxmesh_accumulate_smem[];
    __shared__ typename BlockArrayScan<BlockThreads>::TempStorage scan_tmp;
    while (!state->done) {
        accumulate_items<op, T, N, BlockThreads>(mesh, mesh.first_item(), mesh.end_item(), input,
                                                 spec, contribute, finalize,
                                                 rxmesh_accumulate_smem, scan_tmp);
        barrier_and_step(step, state, max_iterations);
    }
}

//! The same for a query (for_each_scheduled).
template <Op op, int BlockThreads, typename F, typename Active, typename Step>
__global__ void __launch_bounds__(BlockThreads, query_min_blocks(op, BlockThreads))
    for_each_loop_kernel(DeviceMesh mesh, F f, Active active, bool oriented, Step step,
                         LoopState* state, long max_iterations)
{
    while (!state->done) {
        block_query<op, BlockThreads, true>(mesh, f, active, oriented);
        barrier_and_step(step, state, max_iterations);
    }
}

//! The block's scheduled patches, each handed to f(patch, p) by every
//! thread of the block (a patch loop: the caller's functor reads the store
//! itself, with no staging and no shared memory).
template <typename F>
__device__ __forceinline__ void each_scheduled_patch(const DeviceMesh& mesh, const F& f)
{
    const std::uint32_t end = mesh.end_item();
    for (std::uint32_t i = mesh.first_item() + blockIdx.x; i < end; i += gridDim.x) {
        const std::uint32_t p = mesh.scheduled_patch(i);
        f(mesh.patch(p), p);
    }
}

//! The same for a patch loop (for_each_patch_scheduled_loop).
template <int BlockThreads, typename F, typename Step>
__global__ void __launch_bounds__(BlockThreads)
    patch_loop_kernel(DeviceMesh mesh, F f, Step step, LoopState* state, long max_iterations)
{
    while (!state->done) {
        each_scheduled_patch(mesh, f);
        barrier_and_step(step, state, max_iterations);
    }
}

//! One iteration of a patch loop in the chunked form (nothing once done).
template <int BlockThreads, typename F>
__global__ void __launch_bounds__(BlockThreads)
    patch_iteration_kernel(DeviceMesh mesh, F f, const LoopState* state)
{
    if (!state->done)
        each_scheduled_patch(mesh, f);
}

//! Form::Auto takes one launch up to this many schedule entries per block
//! of the resident grid. Above it, iterations are long enough to hide a
//! launch, and on an H100 the chunks were the faster form: geodesic
//! distance at 37K patches (13.3M faces) and 1056 blocks took 5% longer in
//! one launch, while at 9.3K patches (3.3M faces) and below one launch was
//! faster (the H100 note geodesic.md, in git history: benchmarks/results/nvidia-h100/README.md).
inline constexpr std::uint64_t kOneLaunchMaxEntriesPerBlock = 16;

//! Launches `kernel` (args: its arguments) as one cooperative resident grid
//! with `smem` bytes of dynamic shared memory; false (nothing launched) when
//! the device has no cooperative launches, `smem` does not fit, or, unless
//! `forced`, the schedule is too long for the form to pay (see above).
template <auto kernel, int BlockThreads>
bool launch_loop_kernel(const DeviceMesh& mesh, std::size_t smem, bool forced, void** args,
                        cudaStream_t stream)
{
    Launcher l = launcher<kernel>();
    if (!l.device().cooperative || !l.fit_shared_memory(smem) ||
        l.blocks_per_sm(BlockThreads, smem) < 1)
        return false;
    const unsigned grid = l.resident_grid(BlockThreads, smem, patch_items(mesh));
    if (!forced && patch_items(mesh) > kOneLaunchMaxEntriesPerBlock * grid)
        return false;
    RXMESH_CHECK_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid,
                                                  BlockThreads, args, smem, stream));
    return true;
}

//! The one-launch forms; false (nothing launched) where they cannot run.
template <Op op, typename T, int N, int BlockThreads, int MinBlocks, typename Input,
          typename Combine, typename Active, typename Contribute, typename Finalize, typename Step>
bool launch_accumulate_loop(const DeviceMesh& mesh, Input input,
                            AccumulateSpec<Combine, Active, NoSum> spec, Contribute contribute,
                            Finalize finalize, Step step, LoopState* state, long max_iterations,
                            bool forced, cudaStream_t stream)
{
    void* args[] = {const_cast<DeviceMesh*>(&mesh), &input, &spec,  &contribute,
                    &finalize,                      &step,  &state, &max_iterations};
    return launch_loop_kernel<accumulate_loop_kernel<op, T, N, BlockThreads, MinBlocks, Input,
                                                     Combine, Active, Contribute, Finalize, Step>,
                              BlockThreads>(mesh, accumulate_smem_bytes<op, Input>(mesh),
                                            forced, args, stream);
}

template <Op op, int BlockThreads, typename F, typename Active, typename Step>
bool launch_for_each_loop(const DeviceMesh& mesh, F f, Active active, bool oriented, Step step,
                          LoopState* state, long max_iterations, bool forced, cudaStream_t stream)
{
    const bool orient = oriented && can_orient(op);
    void*      args[] = {const_cast<DeviceMesh*>(&mesh), &f, &active, const_cast<bool*>(&orient),
                         &step, &state, &max_iterations};
    return launch_loop_kernel<for_each_loop_kernel<op, BlockThreads, F, Active, Step>,
                              BlockThreads>(mesh, query_smem_bytes(op, orient, mesh.limits),
                                            forced, args, stream);
}

template <int BlockThreads, typename F, typename Step>
bool launch_patch_loop(const DeviceMesh& mesh, F f, Step step, LoopState* state,
                       long max_iterations, bool forced, cudaStream_t stream)
{
    void* args[] = {const_cast<DeviceMesh*>(&mesh), &f, &step, &state, &max_iterations};
    return launch_loop_kernel<patch_loop_kernel<BlockThreads, F, Step>, BlockThreads>(
        mesh, 0, forced, args, stream);
}

//! One chunked-form iteration of a patch loop: as many blocks as are
//! resident, looping over the schedule's entries.
template <int BlockThreads, typename F>
void enqueue_patch_iteration(const DeviceMesh& mesh, F f, const LoopState* state,
                             cudaStream_t stream)
{
    const std::uint32_t items = patch_items(mesh);
    if (mesh.store.num_patches == 0 || items == 0)
        return;
    Launcher l = launcher<patch_iteration_kernel<BlockThreads, F>>();
    patch_iteration_kernel<BlockThreads, F>
        <<<l.resident_grid(BlockThreads, 0, items), BlockThreads, 0, stream>>>(mesh, f, state);
    RXMESH_CHECK_LAUNCH();
}

//! Either form (see the top of the file): one_launch(state, forced) tries
//! the cooperative launch; enqueue_iteration(guard, s) enqueues one iteration
//! whose patches `guard` retires once the loop is done, on stream s.
template <typename Step, typename OneLaunch, typename EnqueueIteration>
DeviceLoopReport run_scheduled_loop(const char* what, Step step, long max_iterations,
                                    const DeviceLoopOptions& options, cudaStream_t stream,
                                    OneLaunch&& one_launch, EnqueueIteration&& enqueue_iteration)
{
    DeviceLoopReport report;
    if (max_iterations <= 0)
        return report;
    DeviceBuffer<LoopState> state(1, stream);
    state.memset(0);
    if (options.form != DeviceLoopOptions::Form::Chunks)
        report.one_launch =
            one_launch(state.data(), options.form == DeviceLoopOptions::Form::OneLaunch);
    if (!report.one_launch) {
        if (options.form == DeviceLoopOptions::Form::OneLaunch)
            throw Error(std::string(what) + ": one launch asked for, but the device has no "
                        "cooperative launches or the patch arrays do not fit shared memory");
        const int chunk = options.chunk > 0 ? options.chunk : 32;
        run_device_loop(&state.data()->done, stream, max_iterations / chunk + 2,
                        [&](cudaStream_t s) {
                            for (int i = 0; i < chunk; ++i) {
                                enqueue_iteration(state.data(), s);
                                loop_step_kernel<<<1, 1, 0, s>>>(step, state.data(), max_iterations);
                            }
                            RXMESH_CHECK_LAUNCH();
                        },
                        options.graph);
    }
    report.iterations = read_back(state.data(), stream).iterations;
    return report;
}

}  // namespace detail

}  // namespace rxmesh
