// Operations that make a new mesh: Loop subdivision, isotropic remeshing,
// QEM simplification, Delaunay flips. Results stay in device memory.
#include "ops.h"
#include "ops_detail.cuh"
#include "rxmesh/algo/delaunay.h"
#include "rxmesh/algo/loop_subdivision.h"
#include "rxmesh/algo/mesh_quality.h"
#include "rxmesh/algo/remesh.h"
#include "rxmesh/algo/remesh_length.h"
#include "rxmesh/algo/simplify.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/dynamic/dynamic_mesh.h"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh::python {

namespace {

//! The compact mesh's input vertex (a slot of the DynamicMesh, which is a
//! global id when it came from a Mesh) -> an input vertex of the caller's;
//! ~0u for created vertices. `global_to_input`: null for arrays (slot i is
//! input vertex i).
__global__ void compose_input_vertex(std::uint32_t* ids, std::uint32_t n,
                                     const std::uint32_t* global_to_input)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const std::uint32_t v = ids[i];
        ids[i] = v == kNoElement ? ~0u : global_to_input ? global_to_input[v] : v;
    }
}

NewMesh from_compact(const TopologyInput& in, CompactMesh c, std::string report, cudaStream_t s)
{
    if (c.num_vertices > 0) {
        compose_input_vertex<<<detail::blocks(c.num_vertices), 256, 0, s>>>(
            c.input_vertex.data(), c.num_vertices,
            in.mesh ? in.mesh->mesh->global_vertex_to_input().data() : nullptr);
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

//! The DynamicMesh a call works on: from the Mesh on the device, or from
//! the arrays (read in place when float32 / int32 on the device, else
//! uploaded once), checked on the device.
DynamicMesh dynamic_mesh_of(const TopologyInput& in, cudaStream_t s)
{
    if (in.mesh) return DynamicMesh(*in.mesh->mesh, {}, s);
    DeviceBuffer<float>         pos_store;
    DeviceBuffer<std::uint32_t> face_store;
    const float*                pos = detail::device_positions(*in.vertices, pos_store, s);
    const std::uint32_t*        fv  = detail::device_faces(*in.faces, face_store, s);
    return DynamicMesh(VertexView<const float, 3>(pos, std::uint32_t(in.vertices->rows)),
                       FaceView<const std::uint32_t, 3>(fv, std::uint32_t(in.faces->rows)), {}, s);
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

NewMesh isotropic_remesh(const TopologyInput& in, double target_length, int iterations,
                         bool project, double feature_angle, cudaStream_t s)
{
    if (iterations < 0)
        throw InvalidInputError("remesh: iterations must be >= 0, got " + std::to_string(iterations));
    DynamicMesh   dm = dynamic_mesh_of(in, s);
    RemeshOptions o;
    o.target_length = choose_target_length(mean_edge_length(dm), dm.num_faces(),
                                           {target_length, 0, "target_length"}, "remesh")
                          .value;
    o.iterations            = std::uint32_t(iterations);
    o.project               = project;
    o.feature_angle_degrees = feature_angle;
    const RemeshReport r    = rxmesh::isotropic_remesh(dm, o);
    return from_compact(in, dm.compact(), r.to_json(), s);
}

NewMesh qem_simplify(const TopologyInput& in, std::uint32_t target_faces, cudaStream_t s)
{
    DynamicMesh     dm = dynamic_mesh_of(in, s);
    SimplifyOptions o;
    o.target_faces         = target_faces;
    const SimplifyReport r = rxmesh::qem_simplify(dm, o);
    return from_compact(in, dm.compact(), r.to_json(), s);
}

NewMesh delaunay_flips(const TopologyInput& in, cudaStream_t s)
{
    DynamicMesh            dm = dynamic_mesh_of(in, s);
    const DelaunayReport r  = rxmesh::delaunay_flips(dm);
    return from_compact(in, dm.compact(), r.to_json(), s);
}

}  // namespace rxmesh::python
