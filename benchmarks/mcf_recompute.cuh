// The RXMesh paper's form of the MCF product (section 8.1, Listing 4): the
// cotangent weights and mixed areas recomputed from the positions inside
// every product, from each vertex's oriented one-ring (a PatchQuery<Op::VV>
// in a user kernel). The ring gives, for neighbour u_i, the two triangles
// (v, u_i-1, u_i) and (v, u_i, u_i+1) around edge v u_i, which holds only
// on closed, vertex-manifold meshes: the bench runs it on such meshes only
// and checks its result against the reference like every other method.
// Same CG and fusions as solver/cg.cuh (direction update read on the fly,
// d.q reduced in the product kernel).
#pragma once

#include <cub/block/block_reduce.cuh>

#include "rxmesh/solver/cg.cuh"
#include "rxmesh/algo/detail/mcf_terms.cuh"
#include "rxmesh/rxmesh.cuh"

namespace rxmesh::bench {

//! d_new = r + beta d_old, q = (2a + dt L) d_new with a and L from the
//! positions, state->dq += d_new.q.
template <typename Q>
__global__ void recompute_product(Q q, const float* pos, float dt, const float* r, const float* d_old,
                                  float* d_new, float* out, detail::CgState* state)
{
    const float beta = float(state->beta);
    double      dot  = 0;
    auto        dir  = [&](std::uint32_t v, int k) {
        return r[3 * std::size_t(v) + k] + beta * d_old[3 * std::size_t(v) + k];
    };
    q.run([&](VertexId vid, const RowView<VertexId>& ring) {
        const std::uint32_t v = vid.id(), m = ring.size();
        const float*        pv = pos + 3 * std::size_t(v);
        float               dv[3] = {dir(v, 0), dir(v, 1), dir(v, 2)}, s[3] = {0.f, 0.f, 0.f}, area = 0.f;
        for (std::uint32_t i = 0; i < m; ++i) {
            const std::uint32_t u = ring[i].id(), prev = ring[(i + m - 1) % m].id(), next = ring[(i + 1) % m].id();
            const float*        pu = pos + 3 * std::size_t(u);
            const float*        pn = pos + 3 * std::size_t(next);
            const Vec3  v3 = load3(pv, 0), u3 = load3(pu, 0), n3 = load3(pn, 0);
            const float w  = fmaxf(0.f, cotangent(load3(pos, prev), v3, u3) + cotangent(n3, v3, u3));
            area += mixed_voronoi_area(v3, u3, n3);
            for (int k = 0; k < 3; ++k)
                s[k] += dt * w * (dv[k] - dir(u, k));
        }
        for (int k = 0; k < 3; ++k) {
            const float y                   = 2.f * area * dv[k] + s[k];
            d_new[3 * std::size_t(v) + k] = dv[k];
            out[3 * std::size_t(v) + k]   = y;
            dot += double(dv[k]) * y;
        }
    });
    using BlockSum = cub::BlockReduce<double, Q::block_threads>;
    __shared__ typename BlockSum::TempStorage tmp;
    const double                              total = BlockSum(tmp).Sum(dot);
    if (threadIdx.x == 0)
        atomicAdd(&state->dq, total);
}

//! CG with the recomputing product (x, r as for cg_solve).
template <int BlockThreads>
CgReport recompute_cg(const RXMesh& mesh, const float* positions, float dt, float* x, float* r,
                      const CgOptions& options)
{
    const auto          q    = mesh.query<Op::VV, BlockThreads>(true);
    const std::uint64_t n    = 3 * std::uint64_t(mesh.num_vertices());
    const unsigned      grid = unsigned(std::min<std::uint64_t>((n + 255) / 256, 8192));
    return detail::cg_drive(n, r, options, 0,
                            [&](const float* d_old, float* d_new, float* out, detail::CgState* state) {
                                launch(q, recompute_product<decltype(q)>, 0, q, positions, dt, r, d_old,
                                       d_new, out, state);
                                detail::cg_update_kernel<256><<<grid, 256>>>(n, x, r, d_new, out, state);
                                detail::cg_scalars_kernel<<<1, 1>>>(state);
                                RXMESH_CHECK_LAUNCH();
                            });
}

}  // namespace rxmesh::bench
