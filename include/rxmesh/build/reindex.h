// GPU re-indexing of indexed meshes (Wald, "GPGPU-parallel re-indexing of
// triangle meshes with duplicate-vertex and unused-vertex removal").
//
// Removes unused vertices and, optionally, merges vertices whose positions
// are bit-identical (so -0.0 and +0.0 stay apart). Uses: soup to mesh, mesh
// merging, sub-mesh extraction. Everything stays in device memory.
//
// Departures from the paper, for speed: unused vertices are compacted away
// before the sort instead of being overwritten with a used one (fewer keys
// to sort), positions are sorted as fixed-width bit keys by CUB's radix sort
// instead of a comparison sort, the duplicate flags are computed on the fly
// inside the scan, and elements that become degenerate are dropped in the
// same pass that remaps them.
//
// \throw InvalidInputError  an index >= num_vertices (names the element and
//                           corner) or a non-finite coordinate of a used
//                           vertex (names the vertex).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "rxmesh/core/device_buffer.h"

namespace rxmesh {

struct ReindexOptions
{
    //! Merge vertices with bit-identical positions.
    bool weld = true;
    //! Drop elements that repeat a vertex after re-indexing.
    bool drop_degenerate = true;
};

//! Output of reindex: Dim floats per vertex, Corners indices per element.
struct ReindexResult
{
    DeviceBuffer<float>         positions;   // num_vertices * Dim
    DeviceBuffer<std::uint32_t> indices;     // num_elements * Corners
    DeviceBuffer<std::uint32_t> old_to_new;  // per input vertex; ~0u if unused
    std::size_t   num_vertices     = 0;
    std::size_t   num_elements     = 0;
    std::uint64_t dropped_elements = 0;  // degenerate after re-indexing
};

//! Re-indexes a mesh of `num_elements` elements with `Corners` vertex indices
//! each, over `num_vertices` positions of `Dim` floats, all in device memory.
//! Instantiated for Dim in {2, 3} and Corners in {3, 4}.
//! Without welding, vertex order is preserved; with welding, new ids follow
//! the sorted order of the position bit patterns.
template <int Dim, int Corners>
ReindexResult reindex(const float*         d_positions,
                      std::size_t          num_vertices,
                      const std::uint32_t* d_indices,
                      std::size_t          num_elements,
                      ReindexOptions       options = {},
                      cudaStream_t         stream  = 0);

}  // namespace rxmesh
