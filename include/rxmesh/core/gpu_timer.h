// GpuTimer: elapsed milliseconds between two points of a stream, measured
// with CUDA events (device time, not host time).
#pragma once

#include <cuda_runtime.h>

#include "rxmesh/core/cuda_check.h"

namespace rxmesh {

class GpuTimer
{
   public:
    explicit GpuTimer(cudaStream_t stream = 0) : m_stream(stream)
    {
        RXMESH_CHECK_CUDA(cudaEventCreate(&m_start));
        RXMESH_CHECK_CUDA(cudaEventCreate(&m_stop));
    }
    GpuTimer(const GpuTimer&)            = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;
    ~GpuTimer()
    {
        cudaEventDestroy(m_start);
        cudaEventDestroy(m_stop);
    }

    void start() { RXMESH_CHECK_CUDA(cudaEventRecord(m_start, m_stream)); }

    //! Records the stop event, waits for it and returns the elapsed time.
    float stop_ms()
    {
        RXMESH_CHECK_CUDA(cudaEventRecord(m_stop, m_stream));
        RXMESH_CHECK_CUDA(cudaEventSynchronize(m_stop));
        float ms = 0;
        RXMESH_CHECK_CUDA(cudaEventElapsedTime(&ms, m_start, m_stop));
        return ms;
    }

   private:
    cudaStream_t m_stream;
    cudaEvent_t  m_start{};
    cudaEvent_t  m_stop{};
};

}  // namespace rxmesh
