// What the Python module computes on the GPU, behind a plain C++ interface
// (the CUDA side is compiled by nvcc, the bindings by the host compiler).
#pragma once

#include <memory>
#include <vector>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh::python {

//! Unit vertex normals (Max's weights), one row per INPUT vertex in input
//! order (zero for a vertex the mesh dropped), 3 floats each.
std::shared_ptr<DeviceBuffer<float>> vertex_normals_input_order(const RXMesh& mesh);

//! What mean_curvature_flow reports that Python sees.
struct FlowResult
{
    std::shared_ptr<DeviceBuffer<float>> positions;  // input order, 3 floats each
    float                                dt = 0;
    int                                  iterations = 0;
    double                               final_residual = 0;
    bool                                 converged = false;
};

//! Implicit mean curvature flow (algo/mcf.cuh) of the mesh's positions;
//! the result one row per INPUT vertex (a dropped vertex keeps its input
//! position: `input_positions`, 3 floats per input vertex on the host).
FlowResult mean_curvature_flow_input_order(const RXMesh& mesh, float dt, float relative_dt,
                                           int steps, double tolerance, int max_iterations,
                                           bool uniform, const std::vector<float>& input_positions);

}  // namespace rxmesh::python
