// Geodesic distance by the heat method (Crane, Weischedel, Wardetzky, "Geodesics
// in heat", ACM TOG 32(5), 2013), the entry point; compiled into the library
// (src/algo/heat_geodesic.cu) on the sparse-matrix layer and the GPU Cholesky.
//
//   rxmesh::HeatGeodesic heat(mesh);                  // assemble, analyze, factor twice
//   auto d = DeviceBuffer<float>(mesh.num_vertices());
//   heat.distance({global_source}, VertexView<float>(d.data(), mesh.num_vertices()));
//
// The construction assembles the cotangent Laplacian L and the lumped mixed
// Voronoi mass M in double, factors the heat system M + t L (t = time_factor
// x h^2, h the mean edge length) and the Poisson system L with one vertex per
// connected component fixed at 0 (L is singular on each component; a fixed
// vertex makes it positive definite without shifting the answer, since the
// divergence sums to zero on a component). Each query is then two solves:
//   1. (M + t L) u = delta_sources (1 at each source);
//   2. X = -grad u / |grad u| per face (0 where grad u is flat: below 1e-10
//      of its terms, on a face where u is the same at every corner);
//   3. L phi = -div X (the cotangent divergence at each vertex, summed over
//      its faces in ascending face id: deterministic);
//   4. distance = phi - min over the component's sources of phi; +inf on a
//      component without a source.
// With several sources the distance is to the nearest. Precision: the heat
// decays by a factor of about e per sqrt(t) of distance or more, so on a
// component several hundred sqrt(t) across it underflows far from the
// sources (or, with negative cotangent weights, comes out negative), where
// its gradient then says nothing. A query checks for that after the heat
// solve (a reached vertex not above 1e-290) and, where it finds it, first
// scales the right-hand side so the largest heat is 1e250 (one more solve),
// then raises t by 4, refactors M + t L and solves again, up to 16 times
// (algo/heat_underflow.h); the scale and the raised t stay for later
// queries and the report says so (a larger t smooths the distance near the
// sources: Crane et al. section 3.2). The reference does the same.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/rxmesh.h"
#include "rxmesh/solver/cholesky.h"

namespace rxmesh {

struct HeatGeodesicOptions
{
    //! t = time_factor x (mean edge length)^2; Crane et al.'s choice is 1.
    double          time_factor = 1.0;
    CholeskyOptions cholesky;
};

//! What the construction measured (CUDA events on the GPU's clock, host
//! wall time for the two analyses) and found.
struct HeatGeodesicSetup
{
    double        time_step        = 0;  // the first; a query may raise it (its report says)
    double        mean_edge_length = 0;
    std::uint32_t components       = 0;  // of the vertex graph (a vertex of no face: its own)
    float         assembly_ms = 0, factor_ms = 0;
    double        analysis_ms = 0;  // one analysis, both systems: ordering, supernodes, plan (host)
    CholeskyAnalysis analysis;      // of the shared pattern
};

//! One query's times (CUDA events) and what it found.
struct HeatGeodesicReport
{
    //! heat_solve_ms includes the refactors of raised time steps.
    float         heat_solve_ms = 0, field_ms = 0, poisson_solve_ms = 0, shift_ms = 0, total_ms = 0;
    std::uint32_t unreachable = 0;  // vertices of components without a source
    double        time_step   = 0;  // the one this query used
    //! Where the heat underflowed on a component with a source, this query
    //! scaled the heat's right-hand side up (another solve, heat_rescales)
    //! and, where that was not enough, raised the time step (x4 each,
    //! refactored); both are kept for later queries (algo/heat_underflow.h).
    std::uint32_t time_step_raises = 0;
    std::uint32_t heat_rescales    = 0;
    double        heat_scale       = 1;  // the right-hand side's, this query's
    //! Reached vertices whose heat is still not above 1e-290 after the last
    //! pass: their distances are unreliable. 0 unless a component is over
    //! ~10^5 sqrt(t) across.
    std::uint32_t low_heat_vertices = 0;
};

class HeatGeodesic
{
   public:
    //! Assembles and factors both systems of `mesh` (its positions).
    //! \throw InvalidInputError when time_factor is not > 0 and finite, the
    //!        mesh has no edge of positive length, or a system is not
    //!        positive definite (degenerate faces: the Cholesky names the row).
    explicit HeatGeodesic(const RXMesh& mesh, const HeatGeodesicOptions& options = {});
    ~HeatGeodesic();
    HeatGeodesic(HeatGeodesic&&) noexcept;
    HeatGeodesic& operator=(HeatGeodesic&&) noexcept;

    //! The distance from the nearest of `sources` (global vertex ids) to
    //! every vertex, one float per vertex (global order), +inf on a
    //! component without a source. Synchronous. Not for two threads at
    //! once: a query may raise the time step and refactor.
    //! \throw InvalidInputError for no source or a source out of range;
    //!        Error when `distance` does not hold one value per vertex.
    HeatGeodesicReport distance(const std::vector<std::uint32_t>& sources,
                                VertexView<float>                 distance) const;

    const HeatGeodesicSetup& setup() const;

   private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace rxmesh
