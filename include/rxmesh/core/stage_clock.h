// StageClock: device milliseconds per stage of a loop, summed over its
// iterations, without a host synchronisation between stages. Each mark()
// records an event; the time between consecutive marks goes to the stage
// that the later mark closes. The events are read back only when `kBatch`
// are pending (waiting on the oldest, long finished by then) and at
// finish(), so the host keeps enqueuing while the device works, which
// GpuTimer::stop_ms() per stage would stop.
//
//   StageClock clock(stream, 2);
//   clock.mark();                    // the loop starts
//   for (...) {
//       launch_a(); clock.mark(0);   // stage 0 ends
//       launch_b(); clock.mark(1);   // stage 1 ends
//   }
//   const std::vector<float> ms = clock.finish();   // ms[0], ms[1]; total()
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

namespace rxmesh {

class StageClock
{
   public:
    static constexpr std::size_t kBatch = 64;  // events pending at most

    StageClock(cudaStream_t stream, int stages) : m_stream(stream), m_ms(stages, 0.f)
    {
        if (stages < 1)
            throw Error("StageClock: at least one stage, got " + std::to_string(stages));
    }
    StageClock(const StageClock&)            = delete;
    StageClock& operator=(const StageClock&) = delete;
    ~StageClock()
    {
        for (const Mark& m : m_pending)
            cudaEventDestroy(m.event);
        for (cudaEvent_t e : m_free)
            cudaEventDestroy(e);
    }

    //! Records a point on the stream; the time since the previous point goes
    //! to `stage` (-1: to no stage, e.g. the start).
    void mark(int stage = -1)
    {
        if (stage >= int(m_ms.size()))
            throw Error("StageClock: stage " + std::to_string(stage) + " of " +
                        std::to_string(m_ms.size()));
        if (m_pending.size() >= kBatch)
            harvest(m_pending.size() / 2);  // an older half: likely finished already
        cudaEvent_t e = take_event();
        RXMESH_CHECK_CUDA(cudaEventRecord(e, m_stream));
        m_pending.push_back({e, stage});
    }

    //! Waits for the last mark; milliseconds per stage.
    const std::vector<float>& finish()
    {
        if (!m_pending.empty())
            harvest(m_pending.size() - 1);
        return m_ms;
    }

    //! From the first mark to the last (after finish()).
    float total_ms() const { return m_total; }

   private:
    struct Mark
    {
        cudaEvent_t event;
        int         stage;
    };

    cudaEvent_t take_event()
    {
        if (!m_free.empty()) {
            cudaEvent_t e = m_free.back();
            m_free.pop_back();
            return e;
        }
        cudaEvent_t e{};
        RXMESH_CHECK_CUDA(cudaEventCreate(&e));
        return e;
    }

    //! Adds the intervals up to pending mark `last` and recycles the events
    //! before it (the one at `last` stays: the next interval starts there).
    void harvest(std::size_t last)
    {
        RXMESH_CHECK_CUDA(cudaEventSynchronize(m_pending[last].event));
        for (std::size_t i = 1; i <= last; ++i) {
            float ms = 0;
            RXMESH_CHECK_CUDA(cudaEventElapsedTime(&ms, m_pending[i - 1].event, m_pending[i].event));
            if (m_pending[i].stage >= 0)
                m_ms[m_pending[i].stage] += ms;
            m_total += ms;
        }
        for (std::size_t i = 0; i < last; ++i)
            m_free.push_back(m_pending[i].event);
        m_pending.erase(m_pending.begin(), m_pending.begin() + std::ptrdiff_t(last));
    }

    cudaStream_t             m_stream;
    std::vector<float>       m_ms;
    float                    m_total = 0;
    std::vector<Mark>        m_pending;
    std::vector<cudaEvent_t> m_free;
};

}  // namespace rxmesh
