#include "rxmesh/build/import.h"

#include <limits>
#include <string>

#include "rxmesh/core/error.h"
#include "rxmesh/core/gpu_timer.h"

namespace rxmesh {

namespace {

void require_32bit_counts(std::uint64_t num_vertices, std::uint64_t num_faces)
{
    if (num_vertices >= std::numeric_limits<std::uint32_t>::max() ||
        num_faces >= std::numeric_limits<std::uint32_t>::max() / 3)
        throw InvalidInputError("import_mesh: more than 2^32 vertices or 2^30 faces");
}

//! Re-indexing and topology of a mesh in device memory (the caller's or
//! the uploaded copy): everything after the upload.
void reindex_and_build(const float* d_positions, std::uint64_t num_vertices,
                       const std::uint32_t* d_faces, std::uint64_t num_faces,
                       const ImportOptions& options, cudaStream_t stream, ImportedMesh& mesh)
{
    GpuTimer timer(stream);
    timer.start();
    ReindexOptions reindex_options;
    reindex_options.weld = options.weld;
    ReindexResult r      = reindex<3, 3>(d_positions, num_vertices, d_faces, num_faces,
                                    reindex_options, stream);
    mesh.timings.reindex_ms = timer.stop_ms();

    mesh.positions     = std::move(r.positions);
    mesh.faces         = std::move(r.indices);
    mesh.old_to_new    = std::move(r.old_to_new);
    mesh.num_vertices  = static_cast<std::uint32_t>(r.num_vertices);
    mesh.num_faces     = static_cast<std::uint32_t>(r.num_elements);
    mesh.dropped_faces = r.dropped_elements;

    timer.start();
    mesh.topology = build_topology(mesh.faces.data(), mesh.num_faces, mesh.num_vertices,
                                   options.parts, stream);
    mesh.timings.topology_ms = timer.stop_ms();
}

}  // namespace

ImportedMesh import_mesh(const TriangleSoup& soup,
                         const ImportOptions& options,
                         cudaStream_t         stream)
{
    require_32bit_counts(soup.positions.size(), soup.faces.size());
    ImportedMesh mesh;
    GpuTimer     timer(stream);
    timer.start();
    DeviceBuffer<float> positions(soup.positions.size() * 3, stream);
    if (!soup.positions.empty())
        positions.upload(soup.positions.front().data(), positions.size());
    DeviceBuffer<std::uint32_t> faces(soup.faces.size() * 3, stream);
    if (!soup.faces.empty())
        faces.upload(soup.faces.front().data(), faces.size());
    mesh.timings.upload_ms = timer.stop_ms();
    reindex_and_build(positions.data(), soup.positions.size(), faces.data(), soup.faces.size(),
                      options, stream, mesh);
    return mesh;
}

ImportedMesh import_mesh(VertexView<const float, 3>       positions,
                         FaceView<const std::uint32_t, 3> faces,
                         const ImportOptions&             options,
                         cudaStream_t                     stream)
{
    require_32bit_counts(positions.num_elements(), faces.num_elements());
    if ((positions.num_elements() > 0 && !positions.data()) ||
        (faces.num_elements() > 0 && !faces.data()))
        throw InvalidInputError("import_mesh: a null device array of " +
                                std::to_string(positions.data() ? faces.num_elements()
                                                                : positions.num_elements()) +
                                (positions.data() ? " faces" : " vertices"));
    ImportedMesh mesh;
    reindex_and_build(positions.data(), positions.num_elements(), faces.data(),
                      faces.num_elements(), options, stream, mesh);
    return mesh;
}

}  // namespace rxmesh
