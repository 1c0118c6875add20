// Matrix-free conjugate gradient (Shewchuk 1994, appendix B2) over vertex
// vectors of N floats, for a symmetric positive (semi-)definite operator
// given in edge form:
//
//   (A x)_v = vertex(v, x_v, sum over the edges e at v of edge(e, ...))
//
// The caller writes the operator as two device functors, the edge term as an
// RXMesh::accumulate<Op::EV> contribution and the vertex term as a plain
// function of the vertex's value and sum:
//
//   struct Laplace {                        // A = diag(c) + L (weights w)
//       const float* w; const float* c;
//       __device__ void edge(EdgeId e, const RowView<VertexId>&,
//                            const StagedRow<float, 3>& x,
//                            const VertexSums<float, 3>& sums) const {
//           for (int k = 0; k < 2; ++k) if (sums.owns(k)) {
//               float t[3];
//               for (int d = 0; d < 3; ++d) t[d] = w[e.id()] * (x(k, d) - x(1 - k, d));
//               sums.add(k, t);
//           }
//       }
//       __device__ void vertex(VertexId v, const float (&x)[3], const float (&sum)[3],
//                              float (&y)[3]) const {
//           for (int d = 0; d < 3; ++d) y[d] = c[v.id()] * x[d] + sum[d];
//       }
//   };
//   CgReport res = cg_solve<3>(mesh, Laplace{w, c}, x, r, options);
//
// x holds the initial guess and r its residual b - A x on entry (the caller
// forms it, so it can use a cancellation-free expression); on return x is the
// solution. All N components share one dot product (one CG over N·n values).
//
// Each iteration is two kernels and a one-thread bookkeeping kernel, with
// no host round trip on the critical path:
//   1. accumulate_sum<EV>: stages d = r + beta d_old per patch (the direction
//      update fused into the matrix-vector product), q = A d, and d.q;
//   2. x += alpha d, r -= alpha q and r.r in one pass (alpha = delta / d.q);
//   3. the scalars (delta, beta, the stopping test) on the device.
// The host reads the state of iteration i while iteration i+1 runs; once the
// device has stopped, further kernels see alpha = 0 and leave x alone.
#pragma once

#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "rxmesh/attribute/attribute.h"
#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/view_checks.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/device_sum.cuh"
#include "rxmesh/core/error.h"
#include "rxmesh/rxmesh.h"
#include "rxmesh/solver/cg_report.h"
#include "rxmesh/solver/state_monitor.h"

namespace rxmesh {

namespace detail {

//! The solver's scalars, in device memory.
struct CgState
{
    double delta = 0, delta_old = 0, delta0 = 0, delta_next = 0, dq = 0, beta = 0, tol2 = 0;
    int    iterations = 0, max_iterations = 0, done = 0;
};

//! Staged input of the product: value k of d = r + beta d_old.
template <int N>
struct DirectionUpdate
{
    const float*   r;
    const float*   d_old;
    const CgState* state;
    __device__ float operator()(VertexId v, int k) const
    {
        const std::size_t i = std::size_t(N) * v.id() + k;
        return r[i] + float(state->beta) * d_old[i];
    }
};

//! accumulate's contribution: the operator's edge term.
template <typename Operator>
struct EdgeTerm
{
    Operator op;
    template <int N>
    __device__ void operator()(EdgeId e, const RowView<VertexId>& ev, const StagedRow<float, N>& x,
                               const VertexSums<float, N>& sums) const
    {
        op.edge(e, ev, x, sums);
    }
};

//! accumulate's finalize: q = A d and d_new = d for the vertex; returns d.q.
template <int N, typename Operator>
struct ProductAndDot
{
    Operator            op;
    DirectionUpdate<N>  d;
    float*              d_new;
    float*              q;
    __device__ double operator()(VertexId v, const float (&sum)[N]) const
    {
        float x[N], y[N];
        for (int k = 0; k < N; ++k)
            x[k] = d(v, k);
        op.vertex(v, x, sum, y);
        double dot = 0;
        for (int k = 0; k < N; ++k) {
            d_new[std::size_t(N) * v.id() + k] = x[k];
            q[std::size_t(N) * v.id() + k]     = y[k];
            dot += double(x[k]) * double(y[k]);
        }
        return dot;
    }
};

//! x += alpha d, r -= alpha q, state->delta_next += r.r (alpha = 0 once done).
template <int BlockThreads>
__global__ void __launch_bounds__(BlockThreads)
    cg_update_kernel(std::uint64_t n, float* x, float* r, const float* d, const float* q,
                     CgState* state)
{
    const float alpha =
        (state->done || state->dq == 0) ? 0.f : float(state->delta / state->dq);
    double rr = 0;
    for (std::uint64_t i = blockIdx.x * std::uint64_t(BlockThreads) + threadIdx.x; i < n;
         i += std::uint64_t(gridDim.x) * BlockThreads) {
        x[i] += alpha * d[i];
        const float ri = r[i] - alpha * q[i];
        r[i]           = ri;
        rr += double(ri) * ri;
    }
    using BlockSum = cub::BlockReduce<double, BlockThreads>;
    __shared__ typename BlockSum::TempStorage tmp;
    const double block_rr = BlockSum(tmp).Sum(rr);
    if (threadIdx.x == 0)
        atomicAdd(&state->delta_next, block_rr);
}

//! The iteration's scalars: delta, beta for the next direction, the stop
//! test (one thread).
template <typename State>
__device__ __forceinline__ void cg_scalars_step(State* s)
{
    if (!s->done) {
        s->delta_old = s->delta;
        s->delta     = s->delta_next;
        s->beta      = s->delta_old > 0 ? s->delta / s->delta_old : 0.0;
        s->iterations += 1;
        // a NaN or infinite residual (non-finite input, or an operator that
        // is not positive definite) stops the loop; cg_drive reports it
        const bool converged = s->delta <= s->tol2 * s->delta0;
        s->done = converged || !isfinite(s->delta) || s->iterations >= s->max_iterations;
    }
    s->delta_next = 0;
    s->dq         = 0;
}

//! The same as a kernel. (A template so that the header can define it in
//! every translation unit.)
template <typename State>
__global__ void cg_scalars_kernel(State* s)
{
    cg_scalars_step(s);
}

//! r.r into state->delta0 and delta, and the initial state.
template <typename State>
__global__ void cg_init_kernel(State* s, double rr, double tol2, int max_iterations)
{
    *s                = State{};
    s->delta          = rr;
    s->delta0         = rr;
    s->tol2           = tol2;
    s->max_iterations = max_iterations;
    s->done           = rr == 0 || max_iterations <= 0;
}

using CgMonitor = StateMonitor<CgState>;

//! Sum of the squares of n floats, in double (CUB, attribute/blas.cuh).
inline double squared_norm(const float* v, std::uint64_t n, cudaStream_t stream)
{
    return dot_accumulate(VertexView<const float>(v, std::uint32_t(n)), {v, std::uint32_t(n)},
                          stream);
}

//! One iteration's kernels (see the top of the file); d_old -> d_new.
template <int N, int BlockThreads, int MinBlocks, typename Operator>
void cg_iteration(const RXMesh& mesh, const Operator& op, float* x, float* r, const float* d_old,
                  float* d_new, float* q, CgState* state, cudaStream_t stream)
{
    const std::uint64_t      n = std::uint64_t(N) * mesh.num_vertices();
    const DirectionUpdate<N> dir{r, d_old, state};
    mesh.accumulate_sum<Op::EV, float, N, Plus, AccumulatePolicy<BlockThreads, MinBlocks>>(
        computed_vertex_input<float, N>(dir), EdgeTerm<Operator>{op},
        ProductAndDot<N, Operator>{op, dir, d_new, q}, &state->dq, stream);
    const unsigned grid =
        unsigned(std::min<std::uint64_t>((n + BlockThreads - 1) / BlockThreads, 8192));
    cg_update_kernel<BlockThreads><<<grid, BlockThreads, 0, stream>>>(n, x, r, d_new, q, state);
    cg_scalars_kernel<<<1, 1, 0, stream>>>(state);
    RXMESH_CHECK_LAUNCH();
}

}  // namespace detail

namespace detail {

//! The CG loop that cg_solve and other products (the benchmarks'
//! baselines) share: the state, the two direction buffers (d_old, d_new
//! swap each iteration), q, and the host's stopping test one iteration
//! late. iteration(d_old, d_new, q, state) launches one iteration's
//! kernels; n: the vector length (N values per vertex).
//! The report from the solver's final state (synchronous).
//! \throw Error when the residual is not finite.
inline CgReport cg_report(const CgState* device_state, double rr, cudaStream_t stream)
{
    const CgState last = read_back(device_state, stream);
    if (!std::isfinite(last.delta))
        throw Error("cg_solve: the residual is not finite after " + std::to_string(last.iterations) +
                    " iterations (non-finite input, or an operator that is not positive definite)");
    CgReport res;
    res.iterations       = last.iterations;
    res.initial_residual = std::sqrt(rr);
    res.final_residual   = std::sqrt(last.delta);
    res.converged        = rr == 0 || last.delta <= last.tol2 * last.delta0;
    return res;
}

//! Checks the options, initialises *state from r.r and returns r.r.
//! \throw Error for a bad option or a non-finite residual.
inline double cg_initial_state(std::uint64_t n, const float* r, const CgOptions& options,
                               CgState* state, cudaStream_t stream)
{
    if (!(options.tolerance > 0) || options.max_iterations < 0)
        throw Error("cg_solve: the tolerance must be > 0 and max_iterations >= 0");
    const double rr = squared_norm(r, n, stream);
    if (!std::isfinite(rr))
        throw Error("cg_solve: the initial residual is not finite (non-finite input)");
    cg_init_kernel<<<1, 1, 0, stream>>>(state, rr, options.tolerance * options.tolerance,
                                        options.max_iterations);
    RXMESH_CHECK_LAUNCH();
    return rr;
}

//! What every two-pass CG loop starts from: the two direction buffers
//! (zeroed: beta d_old must be 0, not 0 x garbage), q, and the state
//! initialised from r.r (rr). \throw Error for a bad option or a
//! non-finite residual.
struct CgStart
{
    DeviceBuffer<float>   d[2];
    DeviceBuffer<float>   q;
    DeviceBuffer<CgState> state;
    double                rr = 0;

    CgStart(std::uint64_t n, const float* r, const CgOptions& options, cudaStream_t stream)
        : d{DeviceBuffer<float>(n, stream), DeviceBuffer<float>(n, stream)},
          q(n, stream),
          state(1, stream)
    {
        for (auto& b : d)
            RXMESH_CHECK_CUDA(cudaMemsetAsync(b.data(), 0, b.bytes(), stream));
        rr = cg_initial_state(n, r, options, state.data(), stream);
    }
};

template <typename Iteration>
CgReport cg_drive(std::uint64_t n, const float* r, const CgOptions& options, cudaStream_t stream,
                  Iteration&& iteration)
{
    CgStart              start(n, r, options, stream);
    DeviceBuffer<float>(&d)[2] = start.d;
    DeviceBuffer<float>&   q     = start.q;
    DeviceBuffer<CgState>& state = start.state;
    const double           rr    = start.rr;
    CgMonitor monitor;
    for (int it = 0; rr > 0 && it <= options.max_iterations; ++it) {
        const int cur = it & 1, old = cur ^ 1;
        iteration(static_cast<const float*>(d[old].data()), d[cur].data(), q.data(), state.data());
        monitor.record(cur, state.data(), stream);
        if (it > 0 && monitor.done(old))  // the previous iteration, while this one runs
            break;
    }
    return cg_report(state.data(), rr, stream);
}

}  // namespace detail

//! Solves A x = b from x (initial guess) and r = b - A x (both N floats per
//! vertex in global order, device memory); see the top of this file.
//! \throw Error for a bad option, CudaError on a CUDA failure.
template <int N, int BlockThreads = 128, int MinBlocks = 1, typename Operator>
CgReport cg_solve(const RXMesh& mesh, const Operator& op, VertexView<float, N> x,
                  VertexView<float, N> r, const CgOptions& options = {}, cudaStream_t stream = 0)
{
    require_vertex_count("cg_solve", mesh, x, r);
    return detail::cg_drive(
        std::uint64_t(N) * mesh.num_vertices(), r.data(), options, stream,
        [&](const float* d_old, float* d_new, float* q, detail::CgState* state) {
            detail::cg_iteration<N, BlockThreads, MinBlocks>(mesh, op, x.data(), r.data(), d_old,
                                                             d_new, q, state, stream);
        });
}

}  // namespace rxmesh
