#include "rxmesh/spatial/hausdorff.h"

#include "rxmesh/core/device_sum.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/spatial/bvh.cuh"

namespace rxmesh {
namespace {

constexpr unsigned kBlock = 256;

//! Each face of `from`: the largest distance to `to` of its seven samples.
__global__ void farthest_sample_kernel(TriangleBvhView from, TriangleBvhView to, float* out)
{
    const std::uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= from.num_faces) return;
    const Vec3 p = load3(from.positions, from.faces[3 * f]);
    const Vec3 q = load3(from.positions, from.faces[3 * f + 1]);
    const Vec3 r = load3(from.positions, from.faces[3 * f + 2]);
    const Vec3 samples[7] = {p,           q,           r, (p + q + r) * (1.f / 3.f),
                             (p + q) * 0.5f, (q + r) * 0.5f, (r + p) * 0.5f};
    float farthest = 0.f;
    for (const Vec3& s : samples) farthest = fmaxf(farthest, bvh_closest(to, s).distance);
    out[f] = farthest;
}

}  // namespace

void one_sided_distance(const TriangleBvh& a, const TriangleBvh& b, double* max, double* mean,
                        cudaStream_t stream)
{
    const std::uint32_t n = a.num_faces();
    DeviceBuffer<float> farthest(n, stream);
    farthest_sample_kernel<<<(n + kBlock - 1) / kBlock, kBlock, 0, stream>>>(a.view(), b.view(),
                                                                             farthest.data());
    RXMESH_CHECK_LAUNCH();
    const float  m = detail::reduce_floats(farthest.data(), n, 0.f, cuda::maximum<float>{}, stream);
    const double s = detail::sum_as_double(farthest.data(), n, stream);
    if (max) *max = m;
    if (mean) *mean = n ? s / n : 0;
}

SampledHausdorff sampled_hausdorff(const TriangleBvh& a, const TriangleBvh& b, cudaStream_t stream)
{
    SampledHausdorff h;
    one_sided_distance(a, b, &h.from_a, &h.mean_from_a, stream);
    one_sided_distance(b, a, &h.from_b, &h.mean_from_b, stream);
    return h;
}

}  // namespace rxmesh
