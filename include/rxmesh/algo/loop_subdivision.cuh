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
#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/triangle_soup.h"

namespace rxmesh {

struct LoopOptions
{
    //! Edges that stay sharp (creases) at every level, as vertex pairs of
    //! the input; each must be an edge of the mesh.
    std::vector<std::array<std::uint32_t, 2>> sharp_edges;
    int  block_threads = 256;
    //! Time the level-0 setup (topology build) and each level by CUDA events
    //! (LoopReport::setup_ms, level_ms; the call then synchronises the stream).
    bool time_levels = false;
};

struct LoopReport
{
    std::uint32_t num_vertices = 0, num_faces = 0;
    //! Device bytes of the level arrays and the result at their peak (the
    //! input and the level-0 topology build's temporaries excluded).
    std::size_t        peak_bytes = 0;
    float              setup_ms   = 0;  // with LoopOptions::time_levels
    std::vector<float> level_ms;        // one per level, with time_levels
};

//! The subdivided mesh, in device memory, and how it was made.
struct LoopMesh
{
    DeviceBuffer<float>         positions;  // 3 per vertex
    DeviceBuffer<std::uint32_t> faces;      // 3 per face
    LoopReport                  report;
};

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

//! `levels` (>= 0) levels of Loop subdivision of the mesh in device memory
//! (3 floats per vertex, 3 vertex ids per face; the arrays stay the
//! caller's). The result's numbering: reference/loop_subdivision.h.
//! \throw InvalidInputError for an index out of range, a face repeating a
//!        vertex, a sharp edge that is not an edge, or a result beyond 32-bit
//!        ids; DeviceMemoryError (naming the bytes needed) when the levels
//!        would not fit in the free device memory.
inline LoopMesh loop_subdivide(VertexView<const float, 3> positions,
                               FaceView<const std::uint32_t, 3> faces, int levels,
                               const LoopOptions& opt = {}, cudaStream_t s = 0)
{
    if (levels < 0)
        throw InvalidInputError("loop_subdivide: levels must be >= 0, got " + std::to_string(levels));
    const float* const         d_positions  = positions.data();
    const std::uint32_t* const d_faces      = faces.data();
    const std::uint32_t        num_vertices = positions.num_elements();
    const std::uint32_t        num_faces    = faces.num_elements();
    loop::StepTimer            timer(opt.time_levels, s);
    loop::Level cur = loop::make_level0(num_vertices, d_faces, num_faces, opt.sharp_edges, s);
    const auto counts = loop::level_counts({cur.V, cur.E, cur.F}, levels);
    const bool sharp  = !opt.sharp_edges.empty();
    loop::require_fits(counts, sharp, cur.bytes(), loop::available_device_bytes());
    timer.mark();
    LoopMesh    result;
    LoopReport& report = result.report;
    report.peak_bytes  = cur.bytes();
    loop::LevelView lv = loop::view0(cur, d_positions, d_faces);
    // levels 1 .. L - 2 with their whole topology; then L - 1 (positions
    // only) and L from level L - 2 (loop_last.cuh); a single level from level 0
    const int block = opt.block_threads;
    for (int l = 0; l < levels - 2; ++l) {
        loop::Level next  = loop::allocate_next(counts[l + 1], sharp, s);
        report.peak_bytes = std::max(report.peak_bytes, loop::refine(cur, lv, next, block, s));
        cur = std::move(next);
        lv  = loop::view(cur);
        timer.mark();
    }
    if (levels == 1) {
        loop::Level next;
        report.peak_bytes = std::max(report.peak_bytes, loop::refine_last(cur, lv, next, counts[1], block, s));
        cur = std::move(next);
        timer.mark();
    } else if (levels >= 2) {
        const loop::Counts &c1 = counts[levels - 1], &c2 = counts[levels];
        loop::add_links(cur, lv, block, s);
        DeviceBuffer<float> pos1(3 * c1.V, s);
        loop::NextView      positions_only{};
        positions_only.pos = pos1.data();
        loop::launch_points(lv, positions_only, block, s);
        timer.mark();
        loop::Level last;
        last.V = std::uint32_t(c2.V), last.E = std::uint32_t(c2.E), last.F = std::uint32_t(c2.F);
        loop::last_from_grandparent(lv, cur, pos1.data(), std::uint32_t(c1.V), c2.V, c2.F, block, s, last);
        report.peak_bytes = std::max(report.peak_bytes, cur.bytes() + pos1.bytes() + last.bytes());
        cur = std::move(last);
        timer.mark();
    }
    timer.report(report);
    report.num_vertices = cur.V;
    report.num_faces    = cur.F;
    if (levels == 0) {
        result.positions = loop::copy_of(d_positions, 3 * std::size_t(cur.V), s);
        result.faces     = loop::copy_of(d_faces, 3 * std::size_t(cur.F), s);
    } else {
        result.positions = std::move(cur.pos);
        result.faces     = std::move(cur.fv);
    }
    return result;
}

//! The same from and to host memory.
inline TriangleSoup loop_subdivide(const TriangleSoup& mesh, int levels, const LoopOptions& opt = {},
                                   cudaStream_t stream = 0)
{
    std::vector<float> pos;
    pos.reserve(3 * mesh.positions.size());
    for (const Vec3f& p : mesh.positions)
        pos.insert(pos.end(), p.begin(), p.end());
    std::vector<std::uint32_t> faces;
    faces.reserve(3 * mesh.faces.size());
    for (const Triangle& f : mesh.faces)
        faces.insert(faces.end(), f.begin(), f.end());
    const auto     d_pos   = DeviceBuffer<float>::from_host(pos, stream);
    const auto     d_faces = DeviceBuffer<std::uint32_t>::from_host(faces, stream);
    const LoopMesh r       = loop_subdivide({d_pos.data(), std::uint32_t(mesh.positions.size())},
                                            {d_faces.data(), std::uint32_t(mesh.faces.size())},
                                            levels, opt, stream);
    TriangleSoup out;
    out.positions.resize(r.report.num_vertices);
    out.faces.resize(r.report.num_faces);
    const std::vector<float>         p = r.positions.to_host();
    const std::vector<std::uint32_t> f = r.faces.to_host();
    for (std::size_t v = 0; v < out.positions.size(); ++v)
        out.positions[v] = {p[3 * v], p[3 * v + 1], p[3 * v + 2]};
    for (std::size_t i = 0; i < out.faces.size(); ++i)
        out.faces[i] = {f[3 * i], f[3 * i + 1], f[3 * i + 2]};
    return out;
}

}  // namespace rxmesh
