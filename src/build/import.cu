#include "rxmesh/build/import.h"

#include <limits>

#include "rxmesh/core/error.h"
#include "rxmesh/core/gpu_timer.h"

namespace rxmesh {

ImportedMesh import_mesh(const TriangleSoup& soup,
                         const ImportOptions& options,
                         cudaStream_t         stream)
{
    if (soup.positions.size() >= std::numeric_limits<std::uint32_t>::max() ||
        soup.faces.size() >= std::numeric_limits<std::uint32_t>::max() / 3)
        throw InvalidInputError("import_mesh: more than 2^32 vertices or 2^30 faces");

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

    timer.start();
    ReindexOptions reindex_options;
    reindex_options.weld = options.weld;
    ReindexResult r      = reindex<3, 3>(positions.data(), soup.positions.size(),
                                    faces.data(), soup.faces.size(), reindex_options,
                                    stream);
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
    return mesh;
}

}  // namespace rxmesh
