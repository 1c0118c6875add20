// StateMonitor<State>: how an iterative solver's host loop learns that the
// device has stopped without waiting on every iteration: each iteration
// copies the solver's state (a struct in device memory with a `done`
// member) to pinned host memory, one slot per iteration parity, and records
// an event; the host then waits on the previous iteration's copy while the
// current one runs (solver/cg.cuh, solver/pcg.cuh).
#pragma once

#include <cuda_runtime.h>

#include "rxmesh/core/cuda_check.h"

namespace rxmesh::detail {

//! Pinned host copies of a solver's state, one per iteration parity, and
//! the events that say when each copy has landed (State: a `done` member).
template <typename State>
class StateMonitor
{
   public:
    StateMonitor()
    {
        RXMESH_CHECK_CUDA(cudaMallocHost(&m_host, 2 * sizeof(State)));
        for (auto& e : m_ready)
            RXMESH_CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    }
    ~StateMonitor()
    {
        // a copy may still be in flight when an error unwinds the solver:
        // let it land before its pinned target is freed
        for (auto& e : m_ready) {
            cudaEventSynchronize(e);
            cudaEventDestroy(e);
        }
        cudaFreeHost(m_host);
    }
    StateMonitor(const StateMonitor&)            = delete;
    StateMonitor& operator=(const StateMonitor&) = delete;

    void record(int slot, const State* device, cudaStream_t stream)
    {
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_host + slot, device, sizeof(State),
                                          cudaMemcpyDeviceToHost, stream));
        RXMESH_CHECK_CUDA(cudaEventRecord(m_ready[slot], stream));
    }
    //! Waits for the slot's copy; whether the solver had stopped there.
    bool done(int slot)
    {
        RXMESH_CHECK_CUDA(cudaEventSynchronize(m_ready[slot]));
        return m_host[slot].done != 0;
    }

   private:
    State*      m_host = nullptr;
    cudaEvent_t m_ready[2]{};
};

}  // namespace rxmesh::detail
