// CsrLoop: the "global CSR" Loop subdivision baseline, the sparse adjacency
// matrix method (the seed paper's Algorithms 1-4; its authors' code:
// github.com/USTC-wkc/LoopSubdiv) with Loop's rules (Loop 1987), for closed
// manifold triangle meshes.
//
// Every level rebuilds the adjacency matrix from the faces: one column per
// vertex holding its outgoing half-edges (v_i -> v_{i+1}) sorted by target,
// each with the third vertex of its face, built by a CUB radix sort of the
// half-edges; edge ids are the exclusive prefix sum of "source < target"
// over the sorted half-edges. Then three kernels: faces (Algorithm 2),
// vertex points (Algorithm 3), edge points (Algorithm 4).
//
// Numbering of each level: the coarse vertices first, then V + e for edge e,
// e the rank of the edge among the sorted pairs (min, max) of that level;
// face f becomes faces 4f .. 4f + 3: (v0, m0, m2), (v1, m1, m0), (v2, m2, m1),
// (m0, m1, m2), m_j the new vertex of face edge (v_j, v_{j+1 mod 3}). Face k
// has the same corners, in the same order, as face k of
// rxmesh::reference::loop_subdivide at every level; the vertex ids agree
// after one level only, as the reference numbers the edges of a refined
// level from the coarse ones instead of sorting them.
//
// Memory: the buffers of the last level (the largest) are held throughout
// and kept between runs; peak_bytes() counts them all.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rxmesh/core/device_buffer.h"

namespace rxmesh::bench {

class CsrLoop
{
   public:
    //! Subdivides `levels` levels of the mesh (d_positions: 3 floats per
    //! vertex, d_faces: 3 ids per face, both in device memory). Every kernel
    //! runs `block` threads per block. Returns once the result is complete.
    //! \pre the mesh is a closed manifold: every half-edge (a -> b) of the
    //!      faces has exactly one opposite half-edge (b -> a)
    //! \throw InvalidInputError naming the first offending half-edge (the
    //!        smallest pair (a, b)) otherwise, or the first face with a
    //!        vertex id >= num_vertices; rxmesh::Error for levels < 1, block
    //!        outside [1, 1024] or a result too large for 32-bit ids.
    void run(const float* d_positions, std::uint32_t num_vertices, const std::uint32_t* d_faces,
             std::uint32_t num_faces, int levels, int block, cudaStream_t stream = 0);

    //! The result of the last run (device memory, 3 floats per vertex).
    const float* positions() const { return m_positions[0].data(); }
    //! The result of the last run (device memory, 3 ids per face).
    const std::uint32_t* faces() const { return m_faces[0].data(); }
    std::uint32_t        num_vertices() const;
    std::uint32_t        num_faces() const;

    //! Every device byte this object holds (inputs excluded); all of it is
    //! allocated before the first level of a run and held to its end.
    std::size_t peak_bytes() const;

   private:
    //! Vertex and face counts of levels 0 .. levels, and what the adjacency
    //! matrix of the largest level needs.
    struct Plan
    {
        std::uint32_t              input_vertices = 0, input_faces = 0;
        int                        levels = 0;
        std::vector<std::uint64_t> vertices, faces;
        std::size_t                cub_temp_bytes = 0;
    };

    struct Level;

    Plan make_plan(std::uint32_t num_vertices, std::uint32_t num_faces, int levels) const;
    bool planned_for(std::uint32_t num_vertices, std::uint32_t num_faces, int levels) const;
    void allocate(const Plan& plan, cudaStream_t stream);
    void subdivide(const Level& level, int block, cudaStream_t stream);
    void throw_if_invalid(const std::uint32_t* d_faces, std::uint32_t num_faces, int block,
                          cudaStream_t stream);

    Plan m_plan;
    // Level l writes buffer (levels - 1 - l) % 2, so that the result is in 0.
    std::array<DeviceBuffer<float>, 2>         m_positions;
    std::array<DeviceBuffer<std::uint32_t>, 2> m_faces;
    // The adjacency matrix, sized for the last level; the sort ping-pongs
    // between the two halves of each pair, and the edge ids reuse the values
    // half the sort leaves free.
    std::array<DeviceBuffer<std::uint64_t>, 2> m_half_edge_keys;
    std::array<DeviceBuffer<std::uint32_t>, 2> m_third_vertices;
    DeviceBuffer<std::uint32_t>                m_column_ptr;
    DeviceBuffer<unsigned char>                m_cub_temp;
    // [0]: first bad half-edge (a << 32 | b), [1]: first bad face; ~0 = none.
    DeviceBuffer<unsigned long long> m_errors;
};

}  // namespace rxmesh::bench
