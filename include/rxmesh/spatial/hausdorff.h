// Sampled Hausdorff distances between two triangle meshes on the GPU, each
// side queried through the other's TriangleBvh: the quality figure of
// remeshing and simplification (distance of the result to the input).
//
//   TriangleBvh input(...), output(...);
//   SampledHausdorff h = sampled_hausdorff(output, input);
//   h.from_a;        // farthest sample of the output from the input
//   h.symmetric();
//
// Samples of a mesh: each face's three vertices, centroid and edge
// midpoints (the serial oracle's, reference/surface_distance.h).
#pragma once

#include <cuda_runtime.h>

#include "rxmesh/spatial/bvh.h"

namespace rxmesh {

struct SampledHausdorff
{
    double from_a = 0;  // max over a's samples of the distance to b
    double from_b = 0;  // max over b's samples of the distance to a
    double mean_from_a = 0, mean_from_b = 0;  // mean over faces of their farthest sample
    double symmetric() const { return from_a > from_b ? from_a : from_b; }
};

//! Both directions; each mesh through the other's hierarchy.
SampledHausdorff sampled_hausdorff(const TriangleBvh& a, const TriangleBvh& b,
                                   cudaStream_t stream = 0);

//! One direction: the farthest of a's samples from b (max), and the mean
//! over a's faces of their farthest sample (mean).
void one_sided_distance(const TriangleBvh& a, const TriangleBvh& b, double* max, double* mean,
                        cudaStream_t stream = 0);

}  // namespace rxmesh
