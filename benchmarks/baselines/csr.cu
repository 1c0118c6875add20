// CsrMesh: build and query kernels.
#include "csr.cuh"

#include <string>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"

namespace rxmesh::baselines {

namespace {

using rxmesh::Op;

// 32-bit grid-stride loop: every count is < 2^31 (checked at build).
#define CSR_FOR_EACH(i, n)                                                   \
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += blockDim.x * gridDim.x)

constexpr int kThreads = rxmesh::detail::kFlatBlockThreads;  // 256

// (edge << 1) | flip -> edge, in place
__global__ void strip_flip(std::uint32_t n, std::uint32_t* __restrict__ fe)
{
    CSR_FOR_EACH(i, n)
    fe[i] >>= 1;
}

// EV: one 8-byte load, one 8-byte store per edge.
__global__ void ev_query(std::uint32_t n, const std::uint32_t* __restrict__ ev,
                         std::uint32_t* __restrict__ out)
{
    CSR_FOR_EACH(e, n)
    reinterpret_cast<uint2*>(out)[e] = __ldg(reinterpret_cast<const uint2*>(ev) + e);
}

// FV / FE: three entries per face through registers.
__global__ void face3_query(std::uint32_t n, const std::uint32_t* __restrict__ rel,
                            std::uint32_t* __restrict__ out)
{
    CSR_FOR_EACH(f, n)
    {
        const std::uint32_t* r  = rel + 3 * f;
        const std::uint32_t  r0 = __ldg(r), r1 = __ldg(r + 1), r2 = __ldg(r + 2);
        std::uint32_t*       o  = out + 3 * f;
        o[0]                    = r0;
        o[1]                    = r1;
        o[2]                    = r2;
    }
}

// CSR row s -> out at the same positions (output offsets == CSR offsets).
__global__ void csr_query(std::uint32_t n, const std::uint32_t* __restrict__ offsets,
                          const std::uint32_t* __restrict__ indices,
                          std::uint32_t* __restrict__ out)
{
    CSR_FOR_EACH(s, n)
    {
        const std::uint32_t b = __ldg(offsets + s), e = __ldg(offsets + s + 1);
        for (std::uint32_t i = b; i < e; ++i)
            out[i] = __ldg(indices + i);
    }
}

}  // namespace

CsrMesh::CsrMesh(const std::vector<rxmesh::Triangle>& faces, std::uint32_t num_vertices)
{
    if (faces.size() >= (std::size_t(1) << 31) / 6 || num_vertices >= (1u << 31))
        throw rxmesh::InvalidInputError("CsrMesh: mesh too large (" +
                                        std::to_string(faces.size()) + " faces, " +
                                        std::to_string(num_vertices) + " vertices)");
    const auto nf = static_cast<std::uint32_t>(faces.size());
    m_fv          = rxmesh::DeviceBuffer<std::uint32_t>(std::size_t(3) * nf);
    m_fv.upload(faces.empty() ? nullptr : faces.front().data(), std::size_t(3) * nf);
    m_topo = rxmesh::build_topology(m_fv.data(), nf, num_vertices);
    if (!m_topo.fe.empty()) {
        const auto n = static_cast<std::uint32_t>(m_topo.fe.size());
        strip_flip<<<rxmesh::detail::flat_grid(n), kThreads>>>(n, m_topo.fe.data());
        RXMESH_CHECK_LAUNCH();
    }
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(0));
}

std::size_t CsrMesh::bytes() const
{
    std::size_t b = m_fv.bytes() + m_topo.ev.bytes() + m_topo.fe.bytes();
    for (const rxmesh::DeviceCsr* c : {&m_topo.ef, &m_topo.ff, &m_topo.vv, &m_topo.ve,
                                       &m_topo.vf})
        b += c->offsets.bytes() + c->indices.bytes();
    return b;
}

namespace {

const rxmesh::DeviceCsr* csr_of(const rxmesh::DeviceTopology& t, Op op)
{
    switch (op) {
        case Op::VV: return &t.vv;
        case Op::VE: return &t.ve;
        case Op::VF: return &t.vf;
        case Op::EF: return &t.ef;
        case Op::FF: return &t.ff;
        default: return nullptr;
    }
}

}  // namespace

QueryOutput CsrMesh::allocate(Op op) const
{
    const std::uint32_t n = num_sources(op);
    QueryOutput         out;
    if (const rxmesh::DeviceCsr* c = csr_of(m_topo, op)) {
        out.offsets = rxmesh::DeviceBuffer<std::uint32_t>(std::size_t(n) + 1);
        if (c->offsets.size() != out.offsets.size())
            throw rxmesh::Error("CsrMesh::allocate: CSR of " + std::string(rxmesh::to_string(op)) +
                                " has " + std::to_string(c->offsets.size()) +
                                " offsets, expected " + std::to_string(n + 1));
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(out.offsets.data(), c->offsets.data(),
                                          c->offsets.bytes(), cudaMemcpyDeviceToDevice, 0));
        out.values = rxmesh::DeviceBuffer<std::uint32_t>(c->indices.size());
    } else {
        const std::uint32_t k = op == Op::EV ? 2 : 3;
        out.offsets           = detail::fixed_offsets(n, k);
        out.values            = rxmesh::DeviceBuffer<std::uint32_t>(std::size_t(k) * n);
    }
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(0));
    return out;
}

void CsrMesh::run(Op op, QueryOutput& out, cudaStream_t stream, int block_threads) const
{
    const std::uint32_t n = num_sources(op);
    if (n == 0)
        return;
    detail::check_output_rows("CsrMesh::run", op, out, n);
    detail::check_block_threads("CsrMesh::run", block_threads);
    const unsigned grid = rxmesh::detail::flat_grid(n, block_threads);
    std::uint32_t* val  = out.values.data();
    switch (op) {
        case Op::EV:
            ev_query<<<grid, block_threads, 0, stream>>>(n, m_topo.ev.data(), val);
            break;
        case Op::FV: face3_query<<<grid, block_threads, 0, stream>>>(n, m_fv.data(), val); break;
        case Op::FE:
            face3_query<<<grid, block_threads, 0, stream>>>(n, m_topo.fe.data(), val);
            break;
        default: {
            const rxmesh::DeviceCsr* c = csr_of(m_topo, op);
            csr_query<<<grid, block_threads, 0, stream>>>(n, c->offsets.data(),
                                                          c->indices.data(), val);
        }
    }
    RXMESH_CHECK_LAUNCH();
}

EdgeVertices CsrMesh::edge_vertices() const
{
    const std::vector<std::uint32_t> ev = m_topo.ev.to_host();
    EdgeVertices                     out(ev.size() / 2);
    for (std::size_t e = 0; e < out.size(); ++e)
        out[e] = {ev[2 * e], ev[2 * e + 1]};
    return out;
}

}  // namespace rxmesh::baselines
