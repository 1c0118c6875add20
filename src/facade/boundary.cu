// Boundary flags of a built mesh: two passes of the query engine itself.
#include "boundary.h"

#include <utility>

#include "rxmesh/rxmesh.h"

namespace rxmesh::detail {
namespace {

//! EF pass: an edge with one face is a boundary edge, and so is its face.
struct MarkBoundaryEdgesAndFaces
{
    EdgeAttribute<std::uint8_t> edge;
    FaceAttribute<std::uint8_t> face;
    __device__ void operator()(EdgeId e, const RowView<FaceId>& ef) const
    {
        const bool boundary = ef.size() == 1;
        edge(e)             = boundary ? 1 : 0;
        if (boundary)
            face(ef[0]) = 1;  // several edges of one face may store 1: same value
    }
};

//! EV pass: both vertices of a boundary edge are boundary vertices.
struct MarkBoundaryVertices
{
    EdgeAttribute<std::uint8_t>   edge;
    VertexAttribute<std::uint8_t> vertex;
    __device__ void operator()(EdgeId e, const RowView<VertexId>& ev) const
    {
        if (edge(e)) {
            vertex(ev[0]) = 1;
            vertex(ev[1]) = 1;
        }
    }
};

}  // namespace

void compute_boundary_flags(const RXMesh&                 mesh,
                            VertexAttribute<std::uint8_t> vertex,
                            EdgeAttribute<std::uint8_t>   edge,
                            FaceAttribute<std::uint8_t>   face,
                            cudaStream_t                  stream)
{
    // the EF pass writes every edge flag; vertex and face flags are only set,
    // so they start at 0
    for (const auto& [data, bytes] : {std::pair{vertex.device_data(), vertex.num_bytes()},
                                      std::pair{face.device_data(), face.num_bytes()}})
        if (bytes != 0)
            RXMESH_CHECK_CUDA(cudaMemsetAsync(data, 0, bytes, stream));
    mesh.for_each<Op::EF>(MarkBoundaryEdgesAndFaces{edge, face}, AllActive{}, false, stream);
    mesh.for_each<Op::EV>(MarkBoundaryVertices{edge, vertex}, AllActive{}, false, stream);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
}

}  // namespace rxmesh::detail
