// The geodesic propagation's relaxation in the RXMesh paper's form, kept as a
// measured alternative to the library's (algo/geodesic.cuh): a VF for_each
// over the window's patches whose lambda reads each incident face's corners,
// their positions and their distances from global memory. Same loop, window,
// arithmetic and results as the library's; only the relaxation step differs.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "rxmesh/algo/geodesic.cuh"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh::bench {

//! VF lambda: the new distance of v from its triangles.
struct PtpRelaxVf
{
    detail::PtpArrays    a;
    const float*         positions;
    const std::uint32_t* faces;
    float                tolerance;

    __device__ void operator()(VertexId v, const RowView<FaceId>& vf) const
    {
        const std::uint32_t it = a.state->iteration, lv = a.level[v.id()];
        const float*        in  = a.distance[it & 1];
        float*              out = a.distance[(it + 1) & 1];
        const float         cur = in[v.id()];
        if (lv < a.state->start) {  // left the window last iteration
            out[v.id()] = cur;
            return;
        }
        float best = INFINITY;
        for (std::uint32_t i = 0; i < vf.size(); ++i)
            best = fminf(best, from_face(v.id(), faces + 3 * std::size_t(vf[i].id()), in));
        const float next = fminf(cur, best);
        out[v.id()]      = next;
        if (next != cur && fabsf(next - cur) > tolerance * next) {
            a.changed_at[lv]     = it;
            a.state->last_change = it;
        }
    }

    //! The face's update of v (+inf for a face that repeats a vertex).
    __device__ float from_face(std::uint32_t v, const std::uint32_t* f, const float* d) const
    {
        const int           k = f[0] == v ? 0 : (f[1] == v ? 1 : 2);
        const std::uint32_t p = f[(k + 1) % 3], q = f[(k + 2) % 3];
        if (p == v || q == v || p == q)
            return INFINITY;
        return float(ptp_update(positions + 3 * std::size_t(v), positions + 3 * std::size_t(p),
                                positions + 3 * std::size_t(q), d[p], d[q]));
    }
};

//! propagate_distance with the VF relaxation.
template <int BlockThreads>
//! faces: mesh.faces(), made once by the caller.
GeodesicReport propagate_distance_vf(const RXMesh& mesh, VertexView<const float, 3> positions,
                                     const std::uint32_t*              faces,
                                     const std::vector<std::uint32_t>& sources, const Toplesets& t,
                                     VertexView<float> distance, const GeodesicOptions& options)
{
    const PtpRelaxVf proto{{}, positions.data(), faces, float(options.tolerance)};
    return detail::run_propagation(
        sources, t, distance, options, 0,
        [&](const detail::PtpArrays& a, const PatchSchedule& schedule, cudaStream_t s) {
            PtpRelaxVf relax = proto;
            relax.a          = a;
            mesh.for_each_scheduled<Op::VF, BlockThreads>(schedule, relax, detail::InWindow{a}, false, s);
        });
}

}  // namespace rxmesh::bench
