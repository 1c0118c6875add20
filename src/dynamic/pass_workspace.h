// A pass's device arrays, kept between passes (they only grow) so that a
// loop of passes allocates nothing after its first pass.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstdint>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"

namespace rxmesh::dynamic_detail {

//! Events at the phase boundaries of a pass (edge_op.h: PassReport's
//! phase times), made once per workspace.
class PhaseEvents
{
   public:
    static constexpr int kCount = 6;  // start, table, decided, selected, resolved, applied
    PhaseEvents()
    {
        for (auto& e : m_events) RXMESH_CHECK_CUDA(cudaEventCreate(&e));
    }
    PhaseEvents(const PhaseEvents&)            = delete;
    PhaseEvents& operator=(const PhaseEvents&) = delete;
    ~PhaseEvents()
    {
        for (auto& e : m_events) cudaEventDestroy(e);
    }
    void record(int phase, cudaStream_t stream)
    {
        RXMESH_CHECK_CUDA(cudaEventRecord(m_events[phase], stream));
    }
    //! Waits for the last phase; the milliseconds from phase i - 1 to i.
    float ms(int phase)
    {
        RXMESH_CHECK_CUDA(cudaEventSynchronize(m_events[kCount - 1]));
        float t = 0;
        RXMESH_CHECK_CUDA(cudaEventElapsedTime(&t, m_events[phase - 1], m_events[phase]));
        return t;
    }

   private:
    std::array<cudaEvent_t, kCount> m_events{};
};

class PassWorkspace
{
   public:
    PhaseEvents phases;
    // per edge of the pass
    DeviceBuffer<std::uint8_t>  asked, status, candidate_flag;
    DeviceBuffer<float>         position, priority;  // 3 per edge; 1 per edge
    DeviceBuffer<std::uint64_t> edge_keys;           // the pass's edges, for last_edges()
    std::uint32_t               key_bits = 0, num_edges = 0;
    // per candidate
    DeviceBuffer<std::uint32_t> candidates, winners, new_faces;
    DeviceBuffer<std::uint64_t> priority_keys;
    DeviceBuffer<std::uint8_t>  state;  // 0 open, 1 won, 2 lost
    // per vertex slot
    DeviceBuffer<std::uint64_t> lock;
    DeviceBuffer<std::uint8_t>  taken;
    DeviceBuffer<std::uint32_t> merged_into;
    // scalars
    DeviceBuffer<std::uint32_t> counters;  // [0] selected, [1] open, [2] asked, [3] refused, [4] called

    std::size_t bytes() const
    {
        return asked.allocated_bytes() + status.allocated_bytes() +
               candidate_flag.allocated_bytes() + position.allocated_bytes() +
               priority.allocated_bytes() + edge_keys.allocated_bytes() +
               candidates.allocated_bytes() + winners.allocated_bytes() +
               new_faces.allocated_bytes() + priority_keys.allocated_bytes() +
               state.allocated_bytes() + lock.allocated_bytes() + taken.allocated_bytes() +
               merged_into.allocated_bytes() + counters.allocated_bytes();
    }
};

}  // namespace rxmesh::dynamic_detail
