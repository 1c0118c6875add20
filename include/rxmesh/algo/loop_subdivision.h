// Loop subdivision on the GPU, L levels, for any mesh the library accepts
// (boundaries, non-manifold edges and vertices, isolated vertices, user
// creases). Rules and numbering: reference/loop_subdivision.h, whose
// serial version is the oracle; they are OpenSubdiv's Loop scheme with
// boundary interpolation "edge only" (no departure known; the tests compare
// with OpenSubdiv on manifold and non-manifold meshes and sharp edges).
//
// Compiled into the library (src/algo/loop_subdivision.cu); the steps are in
// loop_subdivision.cuh and algo/detail/loop_*.cuh.
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

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/device_buffer.h"
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

//! `levels` (>= 0) levels of Loop subdivision of the mesh in device memory
//! (3 floats per vertex, 3 vertex ids per face; the arrays stay the
//! caller's). The result's numbering: reference/loop_subdivision.h.
//! \throw InvalidInputError for an index out of range, a face repeating a
//!        vertex, a sharp edge that is not an edge, or a result beyond 32-bit
//!        ids; DeviceMemoryError (naming the bytes needed) when the levels
//!        would not fit in the free device memory.
LoopMesh loop_subdivide(VertexView<const float, 3> positions,
                        FaceView<const std::uint32_t, 3> faces, int levels,
                        const LoopOptions& opt = {}, cudaStream_t s = 0);

//! The same from and to host memory.
TriangleSoup loop_subdivide(const TriangleSoup& mesh, int levels, const LoopOptions& opt = {},
                            cudaStream_t stream = 0);

//! Checks on the host, before any upload, that `levels` levels of the mesh
//! keep every id within 32 bits (the edge count bounded by 3F first, counted
//! exactly only when the bound does not pass). \throw InvalidInputError.
void require_loop_ids_fit(const TriangleSoup& soup, int levels);

}  // namespace rxmesh
