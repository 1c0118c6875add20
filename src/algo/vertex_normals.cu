// vertex_normals and vertex_normals_atomic (algo/vertex_normals.h): the
// launch chosen by size over the tuned template of vertex_normals.cuh.
#include "rxmesh/algo/vertex_normals.cuh"

namespace rxmesh {

void vertex_normals(const RXMesh& mesh, VertexView<const float, 3> positions,
                    VertexView<float, 3> normals, cudaStream_t stream)
{
    if (!detail::more_patches_per_sm_than(mesh.num_patches(), kVertexNormalsWidestPatchesPerSM))
        vertex_normals<512, 4>(mesh, positions, normals, stream);
    else if (!detail::more_patches_per_sm_than(mesh.num_patches(), kVertexNormalsWidePatchesPerSM))
        vertex_normals<256, 8>(mesh, positions, normals, stream);
    else
        vertex_normals<128, 16>(mesh, positions, normals, stream);
}

void vertex_normals_atomic(const RXMesh& mesh, VertexView<const float, 3> positions,
                           VertexView<float, 3> normals, cudaStream_t stream)
{
    require_vertex_count("vertex_normals_atomic", mesh, positions, normals);
    mesh.for_each<Op::FV>(
        [=] __device__(FaceId, const RowView<VertexId>& fv) {
            const Vec3 p[3] = {load3(positions.data(), fv[0].id()),
                               load3(positions.data(), fv[1].id()),
                               load3(positions.data(), fv[2].id())};
            for (int k = 0; k < 3; ++k) {
                const Vec3 n = max_weighted_normal(p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
                for (int d = 0; d < 3; ++d) atomicAdd(&normals(fv[k], d), n[d]);
            }
        },
        AllActive{}, false, stream);
}

}  // namespace rxmesh
