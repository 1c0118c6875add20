// Loop subdivision on the GPU, L levels, for any mesh the library accepts
// (boundaries, non-manifold edges and vertices, isolated vertices, user
// creases). Rules and numbering: reference/loop_subdivision.h, whose
// serial version is the oracle; they are OpenSubdiv's Loop scheme with
// boundary interpolation "edge only" (no departure known; the tests compare
// with OpenSubdiv on manifold and non-manifold meshes and sharp edges).
//
// Level 0's topology comes from build_topology (one sort); levels 1 .. L - 2
// derive theirs from the coarse one (algo/detail/loop_level.cuh); level L - 1 gets
// only positions, and the last level its positions and faces, both from
// level L - 2's topology (algo/detail/loop_last.cuh), so that the largest topology
// ever written is a sixteenth of the result's size.
//
//   rxmesh::LoopMesh r = rxmesh::loop_subdivide(
//       rxmesh::VertexView<const float, 3>(d_pos, V), rxmesh::FaceView<const std::uint32_t, 3>(d_faces, F), 3);
//   // r.positions: 3 floats per vertex, r.faces: 3 indices per face, r.report
//
// This header: the levels' steps (namespace loop), for the tests and
// benchmarks that look inside; loop_subdivide itself is in
// loop_subdivision.h, compiled into the library (src/algo/loop_subdivision.cu).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "rxmesh/algo/detail/loop_last.cuh"
#include "rxmesh/algo/detail/loop_level.cuh"
#include "rxmesh/algo/detail/loop_setup.cuh"
#include "rxmesh/algo/loop_subdivision.h"
#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/triangle_soup.h"

namespace rxmesh {

namespace loop {

inline unsigned grid_for(std::uint64_t n, int block)
{
    return unsigned(std::clamp<std::uint64_t>((n + block - 1) / block, 1, 1u << 20));
}

//! Allocates a level with its whole topology.
inline Level allocate_next(const Counts& c, bool sharp, cudaStream_t s)
{
    Level n;
    n.V = std::uint32_t(c.V), n.E = std::uint32_t(c.E), n.F = std::uint32_t(c.F);
    n.pos   = DeviceBuffer<float>(3 * c.V, s);
    n.fv    = DeviceBuffer<std::uint32_t>(3 * c.F, s);
    n.fe    = DeviceBuffer<std::uint32_t>(3 * c.F, s);
    n.frank = DeviceBuffer<std::uint32_t>(3 * c.F, s);
    n.ev    = DeviceBuffer<std::uint32_t>(2 * c.E, s);
    n.efoff = DeviceBuffer<std::uint32_t>(c.E + 1, s);
    n.opp   = DeviceBuffer<std::uint32_t>(2 * c.E, s);
    n.vvoff = DeviceBuffer<std::uint32_t>(c.V + 1, s);
    n.vv    = DeviceBuffer<std::uint32_t>(2 * c.E, s);
    n.eslot = DeviceBuffer<std::uint32_t>(2 * c.E, s);
    if (sharp)
        n.sharp = DeviceBuffer<std::uint8_t>(c.E, s);
    return n;
}

inline NextView next_view(Level& n)
{
    auto opt = [](DeviceBuffer<std::uint32_t>& b) { return b.size() ? b.data() : nullptr; };
    return {n.pos.data(), n.fv.data(),   opt(n.fe),  opt(n.frank), opt(n.ev),
            opt(n.efoff), opt(n.opp),    opt(n.vvoff), opt(n.vv),  opt(n.eslot),
            n.sharp.size() ? n.sharp.data() : nullptr};
}

inline void launch_faces(const LevelView& lv, const NextView& nv, int block, cudaStream_t s)
{
    const std::size_t smem = 12 * sizeof(std::uint32_t) * block * staged_face_arrays(nv);
    detail::require_shared_memory<face_children>(smem);
    face_children<<<grid_for(lv.F, block), block, smem, s>>>(lv, nv);
    RXMESH_CHECK_LAUNCH();
}

inline void launch_points(const LevelView& lv, const NextView& nv, int block, cudaStream_t s)
{
    const std::size_t smem = 3 * sizeof(float) * block;
    edge_points<<<grid_for(lv.E, block), block, smem, s>>>(lv, nv);
    RXMESH_CHECK_LAUNCH();
    vertex_points<<<grid_for(lv.V, block), block, smem, s>>>(lv, nv);
    RXMESH_CHECK_LAUNCH();
}

//! A level with its whole topology from `cur` (viewed as `lv`). Returns the bytes held at the step's peak.
inline std::size_t refine(const Level& cur, const LevelView& lv, Level& next, int block, cudaStream_t s)
{
    const NextView nv = next_view(next);
    launch_faces(lv, nv, block, s);
    launch_points(lv, nv, block, s);
    return cur.bytes() + next.bytes();
}

//! A single level from level 0: its faces first; then level 0's face
//! arrays go (stream-ordered frees) before the positions are allocated.
inline std::size_t refine_last(Level& cur, const LevelView& lv, Level& next, const Counts& c, int block,
                               cudaStream_t s)
{
    next.V = std::uint32_t(c.V), next.E = std::uint32_t(c.E), next.F = std::uint32_t(c.F);
    next.fv = DeviceBuffer<std::uint32_t>(3 * c.F, s);
    launch_faces(lv, next_view(next), block, s);
    const std::size_t with_faces = cur.bytes() + next.bytes();
    cur.fv = {}, cur.fe = {}, cur.frank = {};
    next.pos = DeviceBuffer<float>(3 * c.V, s);
    launch_points(lv, next_view(next), block, s);
    return std::max(with_faces, cur.bytes() + next.bytes());
}

//! Records CUDA events between the steps when the caller asked for times.
class StepTimer
{
   public:
    StepTimer(bool enabled, cudaStream_t stream) : m_enabled(enabled), m_stream(stream) { mark(); }
    StepTimer(const StepTimer&)            = delete;
    StepTimer& operator=(const StepTimer&) = delete;
    ~StepTimer()
    {
        for (cudaEvent_t e : m_events)
            cudaEventDestroy(e);
    }
    void mark()
    {
        if (!m_enabled)
            return;
        m_events.emplace_back();
        RXMESH_CHECK_CUDA(cudaEventCreate(&m_events.back()));
        RXMESH_CHECK_CUDA(cudaEventRecord(m_events.back(), m_stream));
    }
    //! Step 1 is the setup, the others the levels.
    void report(LoopReport& r) const
    {
        if (m_events.empty())
            return;
        RXMESH_CHECK_CUDA(cudaEventSynchronize(m_events.back()));
        for (std::size_t i = 1; i < m_events.size(); ++i) {
            float ms = 0;
            RXMESH_CHECK_CUDA(cudaEventElapsedTime(&ms, m_events[i - 1], m_events[i]));
            if (i == 1)
                r.setup_ms = ms;
            else
                r.level_ms.push_back(ms);
        }
    }

   private:
    bool                     m_enabled;
    cudaStream_t             m_stream;
    std::vector<cudaEvent_t> m_events;
};

}  // namespace loop

}  // namespace rxmesh
