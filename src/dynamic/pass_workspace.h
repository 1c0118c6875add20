// A pass's device arrays, kept between passes (they only grow) so that a
// loop of passes allocates nothing after its first pass.
#pragma once

#include <cstdint>

#include "rxmesh/core/device_buffer.h"

namespace rxmesh::dynamic_detail {

class PassWorkspace
{
   public:
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
    DeviceBuffer<std::uint32_t> counters;  // [0] selected, [1] open, [2] asked, [3] refused

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
