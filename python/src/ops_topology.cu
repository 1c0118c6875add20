// Operations that make a new mesh: Loop subdivision, isotropic remeshing,
// QEM simplification, Delaunay flips. Results stay in device memory.
#include "ops.h"
#include "ops_detail.cuh"
#include "rxmesh/algo/delaunay.cuh"
#include "rxmesh/algo/loop_subdivision.cuh"
#include "rxmesh/algo/remesh.h"
#include "rxmesh/algo/simplify.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/dynamic/dynamic_mesh.h"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh::python {

namespace {

//! The compact mesh's input vertex (a global id of the RXMesh it was made
//! from) -> an input vertex of the Python mesh; ~0u for created vertices.
__global__ void compose_input_vertex(std::uint32_t* ids, std::uint32_t n,
                                     const std::uint32_t* global_to_input)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ids[i] = ids[i] == kNoElement ? ~0u : global_to_input[ids[i]];
}

NewMesh from_compact(const MeshHandle& h, CompactMesh c, std::string report, cudaStream_t s)
{
    if (c.num_vertices > 0) {
        compose_input_vertex<<<detail::blocks(c.num_vertices), 256, 0, s>>>(
            c.input_vertex.data(), c.num_vertices, h.mesh->global_vertex_to_input().data());
        RXMESH_CHECK_LAUNCH();
    }
    NewMesh out;
    out.num_vertices = c.num_vertices, out.num_faces = c.num_faces;
    out.positions    = std::make_shared<DeviceBuffer<float>>(std::move(c.positions));
    out.faces        = std::make_shared<DeviceBuffer<std::uint32_t>>(std::move(c.faces));
    out.input_vertex = std::make_shared<DeviceBuffer<std::uint32_t>>(std::move(c.input_vertex));
    out.report_json  = std::move(report);
    return out;
}

}  // namespace

NewMesh loop_subdivide(const ArrayIn& vertices, const ArrayIn& faces, int levels, cudaStream_t s)
{
    DeviceBuffer<float>         pos_store;
    DeviceBuffer<std::uint32_t> face_store;
    const float*                pos = detail::device_positions(vertices, pos_store, s);
    const std::uint32_t*        fv  = detail::device_faces(faces, face_store, s);
    LoopMesh r = rxmesh::loop_subdivide(VertexView<const float, 3>(pos, std::uint32_t(vertices.rows)),
                                        FaceView<const std::uint32_t, 3>(fv, std::uint32_t(faces.rows)),
                                        levels, {}, s);
    NewMesh out;
    out.num_vertices = r.report.num_vertices, out.num_faces = r.report.num_faces;
    out.positions    = std::make_shared<DeviceBuffer<float>>(std::move(r.positions));
    out.faces        = std::make_shared<DeviceBuffer<std::uint32_t>>(std::move(r.faces));
    out.report_json  = "{\"levels\": " + std::to_string(levels) +
                      ", \"peak_bytes\": " + std::to_string(r.report.peak_bytes) + "}";
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));  // the caller's arrays are free again
    return out;
}

NewMesh isotropic_remesh(const MeshHandle& h, double target_length, int iterations, bool project,
                         double feature_angle, cudaStream_t s)
{
    if (iterations < 0)
        throw InvalidInputError("remesh: iterations must be >= 0, got " + std::to_string(iterations));
    DynamicMesh   dm(*h.mesh, {}, s);
    RemeshOptions o;
    o.target_length         = target_length;
    o.iterations            = std::uint32_t(iterations);
    o.project               = project;
    o.feature_angle_degrees = feature_angle;
    const RemeshReport r    = rxmesh::isotropic_remesh(dm, o);
    return from_compact(h, dm.compact(), r.to_json(), s);
}

NewMesh qem_simplify(const MeshHandle& h, std::uint32_t target_faces, cudaStream_t s)
{
    DynamicMesh     dm(*h.mesh, {}, s);
    SimplifyOptions o;
    o.target_faces         = target_faces;
    const SimplifyReport r = rxmesh::qem_simplify(dm, o);
    return from_compact(h, dm.compact(), r.to_json(), s);
}

NewMesh delaunay_flips(const MeshHandle& h, cudaStream_t s)
{
    DynamicMesh          dm(*h.mesh, {}, s);
    const DelaunayReport r = rxmesh::delaunay_flips(dm);
    return from_compact(h, dm.compact(), r.to_json(), s);
}

}  // namespace rxmesh::python
