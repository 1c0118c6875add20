#include "pde_mcf.cuh"

#include <algorithm>
#include <cmath>

#include "block_sum.cuh"
#include "rxmesh/solver/cg_single_pass.cuh"
#include "rxmesh/algo/detail/mcf_terms.cuh"
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
    add_block_sum<BlockThreads>(dot, &state->dq);
}

//! The single-pass CG's iteration k (rxmesh/solver/cg_single_pass.cuh) over
//! PDE: each vertex forms r_k, d_k from the previous pass's vectors at
//! itself and, circulating, at its neighbours; writes x, r_k, d_k and
//! q_k = (2a + dt L) d_k; reduces d.q, r.q, q.q and r_k.r_k.
struct PdePass
{
    PdeView                             m;
    const float*                        w;
    const float*                        area;
    float                               dt;
    rxmesh::detail::SinglePassVectors   v;
    rxmesh::detail::CgState*            state;
    rxmesh::detail::PassSums*           sums;
};

__device__ __forceinline__ rxmesh::detail::PassScalars pde_pass_scalars(const PdePass& a, int k)
{
    if (k == 0) return {};
    const rxmesh::detail::CgState* s = a.state;
    return rxmesh::detail::pass_scalars(a.sums[(k - 1) % 3], s->tol2 * s->delta0, k,
                                        s->max_iterations);
}

template <int BlockThreads>
__global__ void __launch_bounds__(BlockThreads) pde_single_pass(PdePass a, int k)
{
    using namespace rxmesh::detail;
    if (a.state->done) return;  // the same for every block
    const PassScalars s = pde_pass_scalars(a, k);
    const PassBuffers b = pass_buffers(a.v, k);
    if (blockIdx.x == 0 && threadIdx.x == 0) a.sums[(k + 1) % 3] = PassSums{};
    // d_k and r_k at vertex u from the previous pass's vectors
    auto form = [&](std::uint64_t i, float& r, float& d_old) {
        if (k == 0) {
            r     = b.r_new[i];
            d_old = 0.f;
            return r;
        }
        d_old = b.d_old[i];
        r     = b.r_old[i] - s.alpha * b.q_old[i];
        return r + s.beta * d_old;
    };
    PassSums mine;
    for (std::uint32_t v = blockIdx.x * BlockThreads + threadIdx.x; v < a.m.V;
         v += gridDim.x * BlockThreads) {
        float rv[3], dv[3], sum[3] = {0.f, 0.f, 0.f};
        for (int c = 0; c < 3; ++c) {
            const std::uint64_t i = 3 * std::uint64_t(v) + c;
            float               d_old;
            dv[c] = form(i, rv[c], d_old);
            if (k > 0) {
                b.x[i] += s.alpha * d_old;
                b.r_new[i] = rv[c];
            }
            if (!s.last) b.d_new[i] = dv[c];
            mine.rr += double(rv[c]) * rv[c];
        }
        if (s.last) continue;
        const std::uint32_t h0 = a.m.vertex_he[v];
        if (h0 != kInvalid) {
            std::uint32_t h = h0;
            do {
                const std::uint64_t u  = a.m.target[h];
                const float         we = a.dt * a.w[h >> 1];
                for (int c = 0; c < 3; ++c) {
                    float ru, du_old;
                    sum[c] += we * (dv[c] - form(3 * u + c, ru, du_old));
                }
                h = a.m.next[h ^ 1u];
            } while (h != h0);
        }
        for (int c = 0; c < 3; ++c) {
            const float y                  = 2.f * a.area[v] * dv[c] + sum[c];
            b.q_new[3 * std::uint64_t(v) + c] = y;
            mine.dq += double(dv[c]) * y;
            mine.rq += double(rv[c]) * y;
            mine.qq += double(y) * y;
        }
    }
    add_pass_sums<BlockThreads>(mine, a.sums + k % 3);
}

//! After pass k: the state's iterations, delta and done once it was the last.
__global__ void pde_single_pass_end(PdePass a, int k)
{
    if (a.state->done || !pde_pass_scalars(a, k).last) return;
    a.state->iterations = k;
    a.state->delta      = a.sums[k % 3].rr;
    a.state->done       = 1;
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

CgReport pde_mcf_cg_single_pass(const PdeMesh& pde, const PdeMcfSystem& s, float dt, float* x,
                                float* r, const CgOptions& options, int block_threads,
                                cudaStream_t stream)
{
    const std::uint64_t                n = 3 * std::uint64_t(pde.num_vertices());
    rxmesh::detail::SinglePassStart start(n, r, options, stream);
    const PdePass a{{pde.d_target(), pde.d_next(), pde.d_vertex_he(), pde.num_vertices()},
                    s.w.data(), s.a.data(), dt, start.vectors(x, r), start.state.data(),
                    start.sums.data()};
    rxmesh::detail::CgMonitor monitor;
    for (int k = 0; start.rr > 0 && k <= options.max_iterations; ++k) {
        const unsigned grid = grid_for(a.m.V, block_threads);
        if (block_threads == 64)
            pde_single_pass<64><<<grid, 64, 0, stream>>>(a, k);
        else if (block_threads == 256)
            pde_single_pass<256><<<grid, 256, 0, stream>>>(a, k);
        else
            pde_single_pass<128><<<grid, 128, 0, stream>>>(a, k);
        pde_single_pass_end<<<1, 1, 0, stream>>>(a, k);
        RXMESH_CHECK_LAUNCH();
        monitor.record(k & 1, a.state, stream);
        if (k > 0 && monitor.done((k & 1) ^ 1))  // the previous pass, while this one runs
            break;
    }
    const CgReport report = rxmesh::detail::cg_report(a.state, start.rr, stream);
    if (report.iterations % 2 == 1)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(r, start.r1.data(), n * sizeof(float),
                                          cudaMemcpyDeviceToDevice, stream));
    return report;
}

}  // namespace rxmesh::baselines
