// geodesic_distance (algo/geodesic.h): the template of geodesic.cuh at the
// library's launch.
#include "rxmesh/algo/geodesic.cuh"

namespace rxmesh {

GeodesicReport geodesic_distance(const RXMesh& mesh, VertexView<const float, 3> positions,
                                 const std::vector<std::uint32_t>& sources,
                                 VertexView<float> distance, const GeodesicOptions& options,
                                 cudaStream_t stream)
{
    return geodesic_distance<128, 1>(mesh, positions, sources, distance, options, stream);
}

}  // namespace rxmesh
