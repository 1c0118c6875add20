// A loop whose stopping test lives on the device: the host enqueues the
// iterations' kernels in chunks and reads the device's "done" flag one chunk
// late, so that it never waits for the GPU between iterations (a host round
// trip per iteration would cost more than an iteration of a propagation).
// The kernels must do nothing once the flag is set: the host launches up to
// two chunks past the end.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/core/cuda_check.h"

namespace rxmesh {

namespace detail {

//! Two pinned copies of the flag, one per chunk parity, and their events.
class DoneFlagMonitor
{
   public:
    DoneFlagMonitor()
    {
        RXMESH_CHECK_CUDA(cudaMallocHost(&m_host, 2 * sizeof(std::uint32_t)));
        for (auto& e : m_ready)
            RXMESH_CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    }
    ~DoneFlagMonitor()
    {
        for (auto& e : m_ready) {  // a copy in flight lands before its target is freed
            cudaEventSynchronize(e);
            cudaEventDestroy(e);
        }
        cudaFreeHost(m_host);
    }
    DoneFlagMonitor(const DoneFlagMonitor&)            = delete;
    DoneFlagMonitor& operator=(const DoneFlagMonitor&) = delete;

    void record(int slot, const std::uint32_t* flag, cudaStream_t stream)
    {
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_host + slot, flag, sizeof(std::uint32_t),
                                          cudaMemcpyDeviceToHost, stream));
        RXMESH_CHECK_CUDA(cudaEventRecord(m_ready[slot], stream));
    }
    bool done(int slot)
    {
        RXMESH_CHECK_CUDA(cudaEventSynchronize(m_ready[slot]));
        return m_host[slot] != 0;
    }

   private:
    std::uint32_t* m_host = nullptr;
    cudaEvent_t    m_ready[2]{};
};

}  // namespace detail

//! Calls enqueue_chunk() (which enqueues a chunk of iterations on `stream`)
//! until *done_flag (device memory) is seen non-zero, at most max_chunks
//! times; returns the number of chunks enqueued.
template <typename EnqueueChunk>
long run_device_loop(const std::uint32_t* done_flag, cudaStream_t stream, long max_chunks,
                     EnqueueChunk&& enqueue_chunk)
{
    detail::DoneFlagMonitor monitor;
    long                    chunks = 0;
    for (; chunks < max_chunks; ++chunks) {
        const int cur = int(chunks & 1), old = cur ^ 1;
        enqueue_chunk();
        monitor.record(cur, done_flag, stream);
        if (chunks > 0 && monitor.done(old))  // the previous chunk's flag, while this one runs
            return chunks + 1;
    }
    return chunks;
}

}  // namespace rxmesh
