#include "pde_mcf.cuh"

#include <algorithm>
#include <cmath>

#include "rxmesh/algo/mcf_terms.cuh"
#include "rxmesh/core/launch.cuh"

namespace rxmesh::baselines {

namespace {

constexpr std::uint32_t kInvalid = PdeMesh::kInvalid;


//! w(e) = max(0, cotangents opposite halfedges 2e and 2e + 1 in their faces).
__global__ void pde_weights(const std::uint32_t* target, const std::uint32_t* face,
                            const std::uint32_t* next, std::uint32_t E, const float* pos, float* w)
{
    RXMESH_FOR_EACH_ITEM(e, E)
    {
        float sum = 0.f;
        for (std::uint32_t h = 2 * e; h < 2 * e + 2; ++h)
            if (face[h] != kInvalid) {
                const std::uint32_t a = target[h ^ 1u], b = target[h], c = target[next[h]];
                sum += cotangent(load3(pos, c), load3(pos, a), load3(pos, b));
            }
        w[e] = fmaxf(sum, 0.f);
    }
}

//! a(v) = sum of the mixed areas of v's faces (one circulation).
__global__ void pde_areas(const std::uint32_t* target, const std::uint32_t* face,
                          const std::uint32_t* next, const std::uint32_t* vertex_he,
                          std::uint32_t V, const float* pos, float* a)
{
    RXMESH_FOR_EACH_ITEM(v, V)
    {
        float               sum = 0.f;
        const std::uint32_t h0  = vertex_he[v];
        if (h0 != kInvalid) {
            std::uint32_t h = h0;
            do {
                if (face[h] != kInvalid)
                    sum += mixed_voronoi_area(load3(pos, v), load3(pos, target[h]), load3(pos, target[next[h]]));
                h = next[h ^ 1u];
            } while (h != h0);
        }
        a[v] = sum;
    }
}

//! The circulation arrays of the product.
struct PdeView
{
    const std::uint32_t* target;
    const std::uint32_t* next;
    const std::uint32_t* vertex_he;
    std::uint32_t        V;
};

//! out = scale * dt L x (no direction update, no dot): the initial residual.
__global__ void pde_laplacian(PdeView m, const float* w, float dt, const float* x, float* out,
                              float scale)
{
    RXMESH_FOR_EACH_ITEM(v, m.V)
    {
        float               s[3] = {0.f, 0.f, 0.f};
        const std::uint32_t h0   = m.vertex_he[v];
        if (h0 != kInvalid) {
            std::uint32_t h = h0;
            do {
                const std::uint32_t u  = m.target[h];
                const float         we = w[h >> 1];
                for (int d = 0; d < 3; ++d)
                    s[d] += we * (x[3 * std::uint64_t(v) + d] - x[3 * std::uint64_t(u) + d]);
                h = m.next[h ^ 1u];
            } while (h != h0);
        }
        for (int d = 0; d < 3; ++d)
            out[3 * std::uint64_t(v) + d] = scale * dt * s[d];
    }
}

//! d_new = r + beta d_old at v and its neighbours, q = (2a + dt L) d_new,
//! state->dq += d_new.q.
template <int BlockThreads>
__global__ void __launch_bounds__(BlockThreads)
    pde_product(PdeView m, const float* w, const float* area, float dt, const float* r,
                const float* d_old, float* d_new, float* q, rxmesh::detail::CgState* state)
{
    const float beta = float(state->beta);
    double      dot  = 0;
    for (std::uint32_t v = blockIdx.x * BlockThreads + threadIdx.x; v < m.V; v += gridDim.x * BlockThreads) {
        float dv[3], s[3] = {0.f, 0.f, 0.f};
        for (int d = 0; d < 3; ++d)
            dv[d] = r[3 * std::uint64_t(v) + d] + beta * d_old[3 * std::uint64_t(v) + d];
        const std::uint32_t h0 = m.vertex_he[v];
        if (h0 != kInvalid) {
            std::uint32_t h = h0;
            do {
                const std::uint64_t u  = m.target[h];
                const float         we = dt * w[h >> 1];
                for (int d = 0; d < 3; ++d)
                    s[d] += we * (dv[d] - (r[3 * u + d] + beta * d_old[3 * u + d]));
                h = m.next[h ^ 1u];
            } while (h != h0);
        }
        for (int d = 0; d < 3; ++d) {
            const float y                    = 2.f * area[v] * dv[d] + s[d];
            d_new[3 * std::uint64_t(v) + d] = dv[d];
            q[3 * std::uint64_t(v) + d]     = y;
            dot += double(dv[d]) * y;
        }
    }
    using BlockSum = cub::BlockReduce<double, BlockThreads>;
    __shared__ typename BlockSum::TempStorage tmp;
    const double                              total = BlockSum(tmp).Sum(dot);
    if (threadIdx.x == 0)
        atomicAdd(&state->dq, total);
}

unsigned grid_for(std::uint64_t n, int threads)
{
    return unsigned(std::min<std::uint64_t>((n + threads - 1) / threads, 1u << 20));
}

template <int BlockThreads>
void pde_iteration(const PdeView& m, const PdeMcfSystem& s, float dt, float* x, float* r,
                   const float* d_old, float* d_new, float* q, rxmesh::detail::CgState* state,
                   cudaStream_t stream)
{
    const std::uint64_t n = 3 * std::uint64_t(m.V);
    pde_product<BlockThreads><<<grid_for(m.V, BlockThreads), BlockThreads, 0, stream>>>(
        m, s.w.data(), s.a.data(), dt, r, d_old, d_new, q, state);
    rxmesh::detail::cg_update_kernel<BlockThreads>
        <<<std::min(grid_for(n, BlockThreads), 8192u), BlockThreads, 0, stream>>>(n, x, r, d_new, q, state);
    rxmesh::detail::cg_scalars_kernel<<<1, 1, 0, stream>>>(state);
    RXMESH_CHECK_LAUNCH();
}

}  // namespace

PdeMcfSystem pde_mcf_system(const PdeMesh& pde, const float* positions, cudaStream_t stream)
{
    PdeMcfSystem s{DeviceBuffer<float>(pde.num_edges(), stream),
                   DeviceBuffer<float>(pde.num_vertices(), stream)};
    pde_weights<<<grid_for(pde.num_edges(), 256), 256, 0, stream>>>(
        pde.d_target(), pde.d_face(), pde.d_next(), pde.num_edges(), positions, s.w.data());
    pde_areas<<<grid_for(pde.num_vertices(), 256), 256, 0, stream>>>(
        pde.d_target(), pde.d_face(), pde.d_next(), pde.d_vertex_he(), pde.num_vertices(), positions,
        s.a.data());
    RXMESH_CHECK_LAUNCH();
    return s;
}

void pde_mcf_initial_residual(const PdeMesh& pde, const PdeMcfSystem& s, float dt, const float* x,
                              float* r, cudaStream_t stream)
{
    const PdeView m{pde.d_target(), pde.d_next(), pde.d_vertex_he(), pde.num_vertices()};
    pde_laplacian<<<grid_for(m.V, 256), 256, 0, stream>>>(m, s.w.data(), dt, x, r, -1.f);
    RXMESH_CHECK_LAUNCH();
}

CgReport pde_mcf_cg(const PdeMesh& pde, const PdeMcfSystem& s, float dt, float* x, float* r,
                    const CgOptions& options, int block_threads, cudaStream_t stream)
{
    const PdeView m{pde.d_target(), pde.d_next(), pde.d_vertex_he(), pde.num_vertices()};
    return rxmesh::detail::cg_drive(
        3 * std::uint64_t(m.V), r, options, stream,
        [&](const float* d_old, float* d_new, float* q, rxmesh::detail::CgState* state) {
            if (block_threads == 64)
                pde_iteration<64>(m, s, dt, x, r, d_old, d_new, q, state, stream);
            else if (block_threads == 256)
                pde_iteration<256>(m, s, dt, x, r, d_old, d_new, q, state, stream);
            else
                pde_iteration<128>(m, s, dt, x, r, d_old, d_new, q, state, stream);
        });
}

}  // namespace rxmesh::baselines
