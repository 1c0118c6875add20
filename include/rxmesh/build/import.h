// import_mesh: the whole GPU import pipeline in one call.
//
//   TriangleSoup (host) --upload--> reindex (drop unused vertices, optionally
//   weld bit-identical ones, drop faces that become degenerate)
//   --> global topology (edges, FE, EF, FF, VV, VE, VF).
//
// The result stays in device memory; stage times are measured with CUDA
// events. A mesh already in device memory (the caller's arrays, e.g. a
// PyTorch or CuPy tensor) is read in place: no upload, no copy.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rxmesh/build/reindex.h"
#include "rxmesh/build/topology.h"
#include "rxmesh/core/attribute_view.h"
#include "rxmesh/io/triangle_soup.h"

namespace rxmesh {

struct ImportOptions
{
    bool          weld  = false;  // merge bit-identical positions
    TopologyParts parts = {};
};

struct ImportTimings
{
    float upload_ms   = 0;
    float reindex_ms  = 0;
    float topology_ms = 0;
};

struct ImportedMesh
{
    DeviceBuffer<float>         positions;   // 3 per vertex
    DeviceBuffer<std::uint32_t> faces;       // 3 per face
    DeviceBuffer<std::uint32_t> old_to_new;  // input vertex -> vertex, ~0u unused
    std::uint32_t num_vertices  = 0;
    std::uint32_t num_faces     = 0;
    std::uint64_t dropped_faces = 0;  // became degenerate when welding
    DeviceTopology topology;
    ImportTimings  timings;
};

//! \throw InvalidInputError on out-of-range indices or non-finite positions.
ImportedMesh import_mesh(const TriangleSoup& soup,
                         const ImportOptions& options = {},
                         cudaStream_t         stream  = 0);

//! The same from device memory: 3 floats per vertex and 3 vertex ids per
//! face, read in place on `stream` (upload_ms stays 0). The caller keeps
//! both arrays alive and unchanged until the call returns.
//! \throw InvalidInputError as above, and for a null array of elements.
ImportedMesh import_mesh(VertexView<const float, 3>       positions,
                         FaceView<const std::uint32_t, 3> faces,
                         const ImportOptions&             options = {},
                         cudaStream_t                     stream  = 0);

}  // namespace rxmesh
