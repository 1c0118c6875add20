#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/core/search.cuh"
#include "rxmesh/patch/store_faces.h"

namespace rxmesh {
namespace {

//! Global id of local vertex l of patch p: owned vertices first, then the
//! ribbon list (patch/patch_store.h).
__device__ std::uint32_t global_vertex(const PatchStoreView& s, std::uint32_t p, std::uint32_t l)
{
    const std::uint32_t owned = s.vertex_offsets[p + 1] - s.vertex_offsets[p];
    return l < owned ? s.vertex_offsets[p] + l : s.ribbon_v[s.ribbon_v_offsets[p] + (l - owned)];
}

__global__ void decode_faces(PatchStoreView s, std::uint32_t num_faces, std::uint32_t* out)
{
    RXMESH_FOR_EACH_ITEM(g, num_faces)
    {
        const std::uint32_t p = detail::segment_of(s.face_offsets, s.num_patches, std::uint32_t(g));
        const std::uint32_t f =
            std::uint32_t(g) - s.face_offsets[p];  // owned: local = global - offset
        const std::uint16_t* fe =
            s.m_fe + 3 * std::uint64_t(s.face_offsets[p] + s.ribbon_f_offsets[p]);
        const std::uint16_t* ev =
            s.m_ev + 2 * std::uint64_t(s.edge_offsets[p] + s.ribbon_e_offsets[p]);
        for (int k = 0; k < 3; ++k) {
            // corner k starts the face's edge k, (v_k, v_k+1): the edge's
            // first vertex, or its second when the face walks it reversed
            const std::uint16_t e = fe[3 * f + k];
            out[3 * g + k]        = global_vertex(s, p, ev[2 * (e >> 1) + (e & 1)]);
        }
    }
}

}  // namespace

DeviceBuffer<std::uint32_t> store_face_vertices(const PatchStore& store, std::uint32_t F,
                                                cudaStream_t stream)
{
    DeviceBuffer<std::uint32_t> faces(3 * std::uint64_t(F), stream);
    if (F == 0) return faces;
    decode_faces<<<detail::flat_grid(F), detail::kFlatBlockThreads, 0, stream>>>(store.view(), F,
                                                                                 faces.data());
    RXMESH_CHECK_LAUNCH();
    return faces;
}

}  // namespace rxmesh
