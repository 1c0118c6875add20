// Canonical-id checksums of query outputs (see query_checksum.h).
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_transform.cuh>
#include <string>

#include "query_checksum.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/error.h"

namespace rxmesh::baselines {
namespace {

using rxmesh::Op;

//! splitmix64's finaliser: a bijective mix of 64 bits.
__host__ __device__ inline std::uint64_t mix(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

struct VertexKey
{
    const std::uint32_t* to_input;  // null: identity
    __device__ std::uint64_t operator()(std::uint32_t v) const
    {
        return to_input ? to_input[v] : v;
    }
};

struct EdgeKey
{
    const std::uint32_t* ev;  // 2 per edge
    const std::uint64_t* vertex;
    __device__ std::uint64_t operator()(std::uint32_t e) const
    {
        const std::uint64_t a = vertex[ev[2 * e]], b = vertex[ev[2 * e + 1]];
        return a < b ? (a << 32) | b : (b << 32) | a;
    }
};

struct FaceKey
{
    const std::uint32_t* fv;  // 3 per face
    const std::uint64_t* vertex;
    __device__ std::uint64_t operator()(std::uint32_t f) const
    {
        std::uint64_t a = vertex[fv[3 * f]], b = vertex[fv[3 * f + 1]], c = vertex[fv[3 * f + 2]];
        if (a > b) {
            const auto t = a;
            a            = b;
            b            = t;
        }
        if (b > c) {
            const auto t = b;
            b            = c;
            c            = t;
        }
        if (a > b) {
            const auto t = a;
            a            = b;
            b            = t;
        }
        return mix(mix(mix(a) + b) + c);
    }
};

//! The hash of source row s.
struct RowHash
{
    const std::uint32_t* offsets;
    const std::uint32_t* values;
    const std::uint64_t* source_keys;
    const std::uint64_t* output_keys;
    bool                 cyclic;  // FV: directed corner pairs
    __device__ std::uint64_t operator()(std::uint32_t s) const
    {
        const std::uint32_t b = offsets[s], e = offsets[s + 1];
        std::uint64_t       sum = 0;
        for (std::uint32_t i = b; i < e; ++i) {
            const std::uint64_t key = output_keys[values[i]];
            if (cyclic) {
                const std::uint64_t next = output_keys[values[i + 1 < e ? i + 1 : b]];
                sum += mix((key << 32) ^ next);
            } else {
                sum += mix(key);
            }
        }
        return mix(mix(source_keys[s]) + sum);
    }
};

template <typename F>
rxmesh::DeviceBuffer<std::uint64_t> tabulate(std::uint32_t n, F f)
{
    rxmesh::DeviceBuffer<std::uint64_t> out(n);
    if (n != 0)
        RXMESH_CHECK_CUDA(cub::DeviceTransform::Transform(
            thrust::counting_iterator<std::uint32_t>(0), out.data(), n, f, cudaStream_t(0)));
    return out;
}

const std::uint64_t* source_keys(Op op, const CanonicalKeys& k)
{
    switch (op) {
        case Op::VV:
        case Op::VE:
        case Op::VF:
            return k.vertex.data();
        case Op::EV:
        case Op::EF:
            return k.edge.data();
        default:
            return k.face.data();
    }
}

const std::uint64_t* output_keys(Op op, const CanonicalKeys& k)
{
    switch (op) {
        case Op::VV:
        case Op::EV:
        case Op::FV:
            return k.vertex.data();
        case Op::VE:
        case Op::FE:
            return k.edge.data();
        default:
            return k.face.data();
    }
}

}  // namespace

CanonicalKeys canonical_keys(const QueryOutput& ev, const QueryOutput& fv,
                             const std::uint32_t* vertex_to_input, std::uint32_t num_vertices)
{
    CanonicalKeys k;
    k.vertex = tabulate(num_vertices, VertexKey{vertex_to_input});
    k.edge   = tabulate(ev.rows(), EdgeKey{ev.values.data(), k.vertex.data()});
    k.face   = tabulate(fv.rows(), FaceKey{fv.values.data(), k.vertex.data()});
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(0));
    return k;
}

std::uint64_t query_checksum(Op op, const QueryOutput& out, const CanonicalKeys& keys)
{
    const std::uint32_t rows = out.rows();
    if (rows == 0) return 0;
    auto hashes = thrust::make_transform_iterator(
        thrust::counting_iterator<std::uint32_t>(0),
        RowHash{out.offsets.data(), out.values.data(), source_keys(op, keys), output_keys(op, keys),
                op == Op::FV});
    rxmesh::DeviceBuffer<std::uint64_t> sum(1);
    rxmesh::detail::cub_call(0, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::Sum(tmp, bytes, hashes, sum.data(), rows, cudaStream_t(0));
    });
    return sum.to_host()[0];
}

}  // namespace rxmesh::baselines
