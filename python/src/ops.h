// What the Python module computes on the GPU, behind a plain C++ interface
// (the CUDA side is compiled by nvcc, the bindings by the host compiler).
#pragma once

#include <memory>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh::python {

//! Unit vertex normals (Max's weights), one row per INPUT vertex in input
//! order (zero for a vertex the mesh dropped), 3 floats each.
std::shared_ptr<DeviceBuffer<float>> vertex_normals_input_order(const RXMesh& mesh);

}  // namespace rxmesh::python
