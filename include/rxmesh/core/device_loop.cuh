// A loop whose stopping test lives on the device: the host enqueues the
// iterations' kernels in chunks and reads the device's "done" flag one chunk
// late, so that it never waits for the GPU between iterations (a host round
// trip per iteration would cost more than an iteration of a propagation).
// The kernels must do nothing once the flag is set: the host launches up to
// two chunks past the end.
//
// With `graph`, the first chunk is captured once as a CUDA graph and every
// chunk is a replay of it: the kernels' arguments must then be the same in
// every chunk (what changes lives in device memory), and a graph launch
// costs less than its kernels launched one by one. A chunk that cannot be
// captured (it synchronizes, e.g. a query's global-scratch fallback) runs
// as plain launches.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

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

//! One chunk captured as an executable graph. Stream 0 cannot be captured,
//! so the capture runs on a stream of its own; the graph is then launched on
//! the caller's stream.
class ChunkGraph
{
   public:
    ChunkGraph() = default;
    ChunkGraph(const ChunkGraph&)            = delete;
    ChunkGraph& operator=(const ChunkGraph&) = delete;
    ~ChunkGraph()
    {
        if (m_exec)
            cudaGraphExecDestroy(m_exec);
    }

    //! Captures enqueue_chunk(s); false (and nothing kept) when the chunk
    //! cannot be captured.
    template <typename EnqueueChunk>
    bool capture(EnqueueChunk& enqueue_chunk)
    {
        cudaStream_t s = nullptr;
        RXMESH_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        cudaGraph_t graph    = nullptr;
        bool        captured = false;
        if (cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed) == cudaSuccess) {
            try {
                enqueue_chunk(s);
                captured = true;
            } catch (const CudaError&) {  // e.g. a synchronization inside the chunk
            }
            captured = cudaStreamEndCapture(s, &graph) == cudaSuccess && captured && graph;
            captured = captured && cudaGraphInstantiate(&m_exec, graph, 0) == cudaSuccess;
        }
        if (graph)
            cudaGraphDestroy(graph);
        cudaStreamDestroy(s);
        (void)cudaGetLastError();  // a failed capture's error is answered by the fallback
        if (!captured)
            m_exec = nullptr;
        return captured;
    }

    void launch(cudaStream_t stream) { RXMESH_CHECK_CUDA(cudaGraphLaunch(m_exec, stream)); }

   private:
    cudaGraphExec_t m_exec = nullptr;
};

}  // namespace detail

//! Calls enqueue_chunk(s) (which enqueues a chunk of iterations on stream
//! s) until *done_flag (device memory) is seen non-zero, at most max_chunks
//! times; returns the number of chunks run. With `graph`, chunks are
//! replays of one captured chunk (see the top of the file).
template <typename EnqueueChunk>
long run_device_loop(const std::uint32_t* done_flag, cudaStream_t stream, long max_chunks,
                     EnqueueChunk&& enqueue_chunk, bool graph = true)
{
    detail::DoneFlagMonitor monitor;
    detail::ChunkGraph      chunk_graph;
    const bool              replay = graph && chunk_graph.capture(enqueue_chunk);
    long                    chunks = 0;
    for (; chunks < max_chunks; ++chunks) {
        const int cur = int(chunks & 1), old = cur ^ 1;
        if (replay)
            chunk_graph.launch(stream);
        else
            enqueue_chunk(stream);
        monitor.record(cur, done_flag, stream);
        if (chunks > 0 && monitor.done(old))  // the previous chunk's flag, while this one runs
            return chunks + 1;
    }
    return chunks;
}

}  // namespace rxmesh
