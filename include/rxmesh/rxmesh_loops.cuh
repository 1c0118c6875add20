// The loop members of RXMesh (accumulate_scheduled_loop,
// for_each_scheduled_loop, for_each_patch_scheduled_loop): iterations over a
// device-side PatchSchedule, each followed by the caller's step, in one
// cooperative launch or in host-enqueued chunks (query/scheduled_loop.cuh).
// Included by rxmesh.h in CUDA translation units.
#pragma once

#include "rxmesh/query/scheduled_loop.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

template <Op op, typename T, int N, typename Combine, typename Policy, typename Input,
          typename Contribute, typename Finalize, typename Active, typename Step>
DeviceLoopReport RXMesh::accumulate_scheduled_loop(const PatchSchedule& schedule, Input input,
                                                   Contribute contribute, Finalize finalize,
                                                   Active active, Step step, long max_iterations,
                                                   const DeviceLoopOptions& options,
                                                   cudaStream_t             stream) const
{
    using V = detail::AccumulateValues<T, N, Combine, Policy, Finalize>;
    static_assert(Policy::form == AccumulateForm::Patches,
                  "accumulate_scheduled_loop runs a block per patch: its policy's form is Patches");
    if constexpr (!V::ok) {
        return {};
    } else {
        DeviceMesh mesh = device();
        mesh.schedule   = schedule;
        return detail::run_scheduled_loop(
            "RXMesh::accumulate_scheduled_loop", step, max_iterations, options, stream,
            [&](detail::LoopState* state, bool forced) {
                return detail::launch_accumulate_loop<op, typename V::type, V::size,
                                                      Policy::block_threads, Policy::min_blocks>(
                    mesh, input,
                    detail::AccumulateSpec<typename V::combine, Active, detail::NoSum>{active, {}},
                    contribute, finalize, step, state, max_iterations, forced, stream);
            },
            [&](const detail::LoopState* state, cudaStream_t s) {
                accumulate_scheduled<op, typename V::type, V::size, typename V::combine, Policy>(
                    schedule, input, contribute, finalize,
                    detail::ActiveUntilDone<Active>{active, state}, s);
            });
    }
}

template <Op op, int BlockThreads, typename F, typename Active, typename Step>
DeviceLoopReport RXMesh::for_each_scheduled_loop(const PatchSchedule& schedule, F f, Active active,
                                                 Step step, long max_iterations,
                                                 const DeviceLoopOptions& options, bool oriented,
                                                 cudaStream_t stream) const
{
    DeviceMesh mesh = device();
    mesh.schedule   = schedule;
    return detail::run_scheduled_loop(
        "RXMesh::for_each_scheduled_loop", step, max_iterations, options, stream,
        [&](detail::LoopState* state, bool forced) {
            return detail::launch_for_each_loop<op, BlockThreads>(
                mesh, f, active, oriented, step, state, max_iterations, forced, stream);
        },
        [&](const detail::LoopState* state, cudaStream_t s) {
            for_each_scheduled<op, BlockThreads>(
                schedule, f, detail::ActiveUntilDone<Active>{active, state}, oriented, s);
        });
}

template <int BlockThreads, typename F, typename Step>
DeviceLoopReport RXMesh::for_each_patch_scheduled_loop(const PatchSchedule& schedule, F f,
                                                       Step step, long max_iterations,
                                                       const DeviceLoopOptions& options,
                                                       cudaStream_t             stream) const
{
    DeviceMesh mesh = device();
    mesh.schedule   = schedule;
    return detail::run_scheduled_loop(
        "RXMesh::for_each_patch_scheduled_loop", step, max_iterations, options, stream,
        [&](detail::LoopState* state, bool forced) {
            return detail::launch_patch_loop<BlockThreads>(mesh, f, step, state, max_iterations,
                                                           forced, stream);
        },
        [&](const detail::LoopState* state, cudaStream_t s) {
            detail::enqueue_patch_iteration<BlockThreads>(mesh, f, state, s);
        });
}

}  // namespace rxmesh
