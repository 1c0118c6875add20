// The device side of pcg_solve (solver/pcg.cuh): the solver's scalars in
// device memory, the reductions that write them there (CUB, summed in
// double), and the vector kernels that read them, so that an iteration is
// queued without a host round trip:
//
//   q = A p;  pq = p.q;  x += alpha p, r -= alpha q (alpha = rz / pq);
//   z = M^-1 r;  (rr, rz') = (r.r, r.z);  the scalars' step;  p = z + beta p
//
// Every kernel after the step that stops the loop leaves x, r and p alone,
// so the iteration the host queues before it sees the stop does nothing.
#pragma once

#include <cuda_runtime.h>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cmath>
#include <cstdint>
#include <cub/device/device_reduce.cuh>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/launch.cuh"

namespace rxmesh::detail {

//! Two sums reduced in one pass.
struct SumPair
{
    double first = 0, second = 0;
};
struct AddPairs
{
    __host__ __device__ SumPair operator()(const SumPair& a, const SumPair& b) const
    {
        return {a.first + b.first, a.second + b.second};
    }
};

//! Why the loop stopped (PcgState::done).
enum PcgStop : int
{
    kPcgRunning     = 0,
    kPcgBelowTolerance = 1,  // the recurrence's |r|: the host checks the true residual
    kPcgCap         = 2,
    kPcgBreakdown   = 3,  // see PcgState::breakdown
};
enum PcgBreakdown : int
{
    kPcgNone          = 0,
    kPcgMatrixNotSpd  = 1,  // p.Ap <= 0
    kPcgPreconditionerNotSpd = 2,  // r.z <= 0
    kPcgNotFinite     = 3,
};

struct PcgState
{
    double  rz = 0, pq = 0;
    SumPair rr_rz;          // (r.r, r.z) of the new residual
    double  beta = 0;
    double  stop2 = 0;      // (tolerance |b|)^2
    int     iterations = 0, max_iterations = 0;
    int     done = kPcgRunning, breakdown = kPcgNone;
};

//! i -> Acc(x[i]) * Acc(y[i]).
template <typename T>
struct PcgProduct
{
    const T* x;
    const T* y;
    __host__ __device__ double operator()(std::uint64_t i) const { return double(x[i]) * double(y[i]); }
};
//! i -> (r[i]^2, r[i] z[i]).
template <typename T>
struct PcgResidualSums
{
    const T* r;
    const T* z;
    __host__ __device__ SumPair operator()(std::uint64_t i) const
    {
        const double ri = r[i];
        return {ri * ri, ri * double(z[i])};
    }
};

//! The two reductions of an iteration into the state, with their scratch
//! allocated once.
template <typename T>
class PcgReductions
{
   public:
    PcgReductions(std::uint64_t n, cudaStream_t stream) : m_n(n)
    {
        std::size_t a = 0, b = 0;
        RXMESH_CHECK_CUDA(cub::DeviceReduce::Sum(nullptr, a, products(nullptr, nullptr),
                                                 static_cast<double*>(nullptr), n, stream));
        RXMESH_CHECK_CUDA(cub::DeviceReduce::Reduce(nullptr, b, residual_sums(nullptr, nullptr),
                                                    static_cast<SumPair*>(nullptr), n, AddPairs{},
                                                    SumPair{}, stream));
        m_bytes   = std::max(a, b);
        m_scratch = DeviceBuffer<unsigned char>(m_bytes, stream);
    }

    //! *out = x.y
    void dot(const T* x, const T* y, double* out, cudaStream_t stream)
    {
        std::size_t bytes = m_bytes;
        RXMESH_CHECK_CUDA(cub::DeviceReduce::Sum(m_scratch.data(), bytes, products(x, y), out, m_n,
                                                 stream));
    }
    //! *out = (r.r, r.z)
    void residual_sums(const T* r, const T* z, SumPair* out, cudaStream_t stream)
    {
        std::size_t bytes = m_bytes;
        RXMESH_CHECK_CUDA(cub::DeviceReduce::Reduce(m_scratch.data(), bytes, residual_sums(r, z),
                                                    out, m_n, AddPairs{}, SumPair{}, stream));
    }

   private:
    static auto products(const T* x, const T* y)
    {
        return thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0),
                                               PcgProduct<T>{x, y});
    }
    static auto residual_sums(const T* r, const T* z)
    {
        return thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0),
                                               PcgResidualSums<T>{r, z});
    }

    std::uint64_t               m_n = 0;
    std::size_t                 m_bytes = 0;
    DeviceBuffer<unsigned char> m_scratch;
};

//! x += alpha p, r -= alpha q with alpha = rz / pq; nothing once stopped or
//! when p.Ap <= 0 (the step flags it).
template <typename T>
__global__ void pcg_update_kernel(std::uint64_t n, T* x, T* r, const T* p, const T* q,
                                  const PcgState* s)
{
    if (s->done != kPcgRunning || !(s->pq > 0))
        return;
    const T alpha = T(s->rz / s->pq);
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        x[i] += alpha * p[i];
        r[i] -= alpha * q[i];
    }
}

//! The scalars' step after (r.r, r.z) of the new residual: the stopping
//! tests, beta, rz.
inline __device__ void pcg_scalars_step(PcgState* s)
{
    if (s->done != kPcgRunning)
        return;
    if (!(s->pq > 0)) {
        s->done      = kPcgBreakdown;
        s->breakdown = kPcgMatrixNotSpd;
        return;
    }
    s->iterations += 1;
    const double rr = s->rr_rz.first, rz = s->rr_rz.second;
    if (!isfinite(rr) || !isfinite(rz)) {
        s->done      = kPcgBreakdown;
        s->breakdown = kPcgNotFinite;
    } else if (rr <= s->stop2) {
        s->done = kPcgBelowTolerance;
    } else if (!(rz > 0)) {
        s->done      = kPcgBreakdown;
        s->breakdown = kPcgPreconditionerNotSpd;
    } else if (s->iterations >= s->max_iterations) {
        s->done = kPcgCap;
    } else {
        s->beta = rz / s->rz;
        s->rz   = rz;
    }
}

template <typename State>
__global__ void pcg_scalars_kernel(State* s)
{
    pcg_scalars_step(s);
}

//! p = z + beta p; nothing once stopped.
template <typename T>
__global__ void pcg_direction_kernel(std::uint64_t n, T* p, const T* z, const PcgState* s)
{
    if (s->done != kPcgRunning)
        return;
    const T beta = T(s->beta);
    RXMESH_FOR_EACH_ITEM(i, n)
    p[i] = z[i] + beta * p[i];
}

//! A (re)start: rz = r.z from (r.r, r.z) just reduced, the loop running
//! (the iterations so far kept).
template <typename State>
__global__ void pcg_start_kernel(State* s, double stop2, int max_iterations)
{
    s->rz             = s->rr_rz.second;
    s->stop2          = stop2;
    s->max_iterations = max_iterations;
    s->done           = s->iterations >= max_iterations ? kPcgCap : kPcgRunning;
    s->breakdown      = kPcgNone;
    if (s->done == kPcgRunning && !(s->rz > 0)) {
        s->done      = kPcgBreakdown;
        s->breakdown = isfinite(s->rz) ? kPcgPreconditionerNotSpd : kPcgNotFinite;
    }
}

}  // namespace rxmesh::detail
