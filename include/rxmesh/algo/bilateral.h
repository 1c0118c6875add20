// Bilateral mesh denoising (Fleishman, Drori, Cohen-Or 2003; the formulas in
// algo/detail/bilateral_terms.h), Jacobi iterations: every vertex reads the previous
// positions. Written with the public API, one iteration is two queries:
//   1. RXMesh::accumulate<Op::FV> with PerComponent<Plus, 3, Min>: in one
//      pass over each vertex's faces (positions staged in shared memory; on
//      a mesh of few patches per SM, a thread per vertex instead),
//      the normal (a sum) and sigma_c^2 (the least squared length of the
//      face edges at the vertex: every one-ring edge lies on a face, so this
//      is the one-ring's least, the same floats);
//   2. RXMesh::for_each_kring_while: the ball, grown ring by ring while it
//      finds vertices within 2 sigma_c, and the weighted offset along n;
//      the positions of every vertex a patch's balls can reach are staged
//      in shared memory (the growth tests and the weights read them there).
// Vertices with no neighbour, a zero normal or sigma_c = 0 (a zero-length
// edge: the weights are undefined there) keep their position; vertices
// whose ball would reach beyond kMaxKRingRings rings get the ball of that
// many rings (a ball is rarely more than three rings deep).
#pragma once

#include <cuda_runtime.h>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/query/kring_halo.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

struct BilateralOptions
{
    int          iterations = 1;
    KRingOptions kring;  // list length per thread of the ball query
};

//! Milliseconds per stage, summed over the iterations (CUDA events).
struct BilateralReport
{
    int   iterations = 0;
    float terms_ms   = 0;  // the normal and sigma_c^2 (one pass)
    float filter_ms = 0, total_ms = 0;

    //! Adds a later run's iterations and times (a filter run in parts).
    BilateralReport& operator+=(const BilateralReport& later)
    {
        iterations += later.iterations;
        terms_ms += later.terms_ms;
        filter_ms += later.filter_ms;
        total_ms += later.total_ms;
        return *this;
    }
};

//! Runs options.iterations Jacobi iterations of bilateral denoising from
//! `positions`, the result in `denoised` (the same view for in place), with
//! the launches chosen by the mesh's size (bilateral.cuh says how).
//! \return the time of each stage.
//! \throw InvalidInputError for iterations < 0; Error when a view does not
//!        hold one element per vertex.
BilateralReport bilateral_denoise(const RXMesh& mesh, VertexView<const float, 3> positions,
                                  VertexView<float, 3> denoised,
                                  const BilateralOptions& options = {}, cudaStream_t stream = 0);

}  // namespace rxmesh
