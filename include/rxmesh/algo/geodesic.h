// Approximate geodesic distance from a set of source vertices by parallel
// toplesets propagation (Romero Calla et al., Computers & Graphics 84, 2019;
// the RXMesh paper's section 8.2), the entry point. The method, its steps
// and its launch-tuned templates are in geodesic.cuh; this is compiled into
// the library (src/algo/geodesic.cu).
//
//   std::vector<std::uint32_t> sources = {0};
//   auto d = mesh.add_vertex_attribute<float>("distance");
//   rxmesh::GeodesicReport r = rxmesh::geodesic_distance(mesh, mesh.positions(), sources, d);
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

struct GeodesicOptions
{
    double tolerance      = 1e-4;  // a level converged: no vertex changed by more, relative
    long   max_iterations = 0;     // 0: 8 L + 64
    //! The toplesets' steps and the propagation's iterations each in one
    //! cooperative launch where the device allows (RXMesh::
    //! accumulate_scheduled_loop); false, or where it cannot: chunks of
    //! iterations enqueued by the host, as below.
    bool one_launch = true;
    int  chunk      = 32;    // iterations enqueued between looks at the done flag
    bool graph      = true;  // replay a chunk as a CUDA graph (core/device_loop.cuh)
    //! Settle the result with closing sweeps once the window has passed the
    //! last level (see the top of the file). false: stop there, as Romero
    //! Calla et al. do; fewer iterations, but distances above the update's
    //! fixed point, on large meshes by far more than the tolerance (and not
    //! what reference/geodesic.h computes).
    bool closing_sweeps = true;
};

struct GeodesicReport
{
    std::uint32_t levels     = 0;  // L
    long          iterations = 0;  // window iterations and closing sweeps
    long          sweeps     = 0;  // closing sweeps (see the top of the file)
    bool          converged  = true;
    bool          one_launch = false;  // the iterations ran in one cooperative launch
    float         toplesets_ms = 0, propagation_ms = 0;
};

//! Geodesic distance from `sources` (global vertex ids) to every vertex:
//! toplesets, then propagation (blocks of 128 threads). distance: one float
//! per vertex, global order, +inf where unreachable.
//! \throw InvalidInputError for no source, a source out of range, or a
//!        tolerance that is not > 0; Error when a view does not hold one
//!        element per vertex.
GeodesicReport geodesic_distance(const RXMesh& mesh, VertexView<const float, 3> positions,
                                 const std::vector<std::uint32_t>& sources,
                                 VertexView<float> distance, const GeodesicOptions& options = {},
                                 cudaStream_t stream = 0);

}  // namespace rxmesh
