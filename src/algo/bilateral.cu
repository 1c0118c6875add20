// bilateral_denoise (algo/bilateral.h): the template of bilateral.cuh with
// its launches chosen by size.
#include "rxmesh/algo/bilateral.cuh"

namespace rxmesh {

BilateralReport bilateral_denoise(const RXMesh& mesh, VertexView<const float, 3> positions,
                                  VertexView<float, 3> denoised, const BilateralOptions& options,
                                  cudaStream_t stream)
{
    return bilateral_denoise<0, 1, 1>(mesh, positions, denoised, options, stream);
}

}  // namespace rxmesh
