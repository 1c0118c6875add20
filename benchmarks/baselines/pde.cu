// PdeMesh: host build of the directed edges, and the query kernels.
#include "pde.cuh"

#include <algorithm>
#include <string>
#include <utility>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"

namespace rxmesh::baselines {

namespace {

using rxmesh::Op;
constexpr std::uint32_t kInv = PdeMesh::kInvalid;

// 32-bit grid-stride loop: every count is < 2^31 (checked at build), so
// i + stride cannot wrap.
#define PDE_FOR_EACH(i, n)                                                   \
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += blockDim.x * gridDim.x)

struct Arrays
{
    const std::uint32_t* __restrict__ target;
    const std::uint32_t* __restrict__ face;
    const std::uint32_t* __restrict__ next;
    const std::uint32_t* __restrict__ vertex_he;
    const std::uint32_t* __restrict__ face_he;
};

// ---- output sizes (allocate) -----------------------------------------------

// counts[s] for s < n, counts[n] = 0
template <Op op>
__global__ void count_kernel(std::uint32_t n, Arrays a, std::uint32_t* __restrict__ counts)
{
    PDE_FOR_EACH(s, n + 1)
    {
        std::uint32_t c = 0;
        if (s < n) {
            if constexpr (op == Op::VV || op == Op::VE || op == Op::VF) {
                const std::uint32_t start = __ldg(a.vertex_he + s);
                if (start != kInv) {
                    std::uint32_t h = start;
                    do {
                        const std::uint32_t t = h ^ 1u;
                        if constexpr (op == Op::VF)
                            c += __ldg(a.face + t) != kInv;
                        else
                            ++c;
                        h = __ldg(a.next + t);
                    } while (h != start);
                }
            } else if constexpr (op == Op::EF) {
                c = 1u + (__ldg(a.face + (2 * s + 1)) != kInv);
            } else if constexpr (op == Op::FF) {
                const std::uint32_t h0 = __ldg(a.face_he + s);
                const std::uint32_t h1 = __ldg(a.next + h0), h2 = __ldg(a.next + h1);
                c = (__ldg(a.face + (h0 ^ 1u)) != kInv) + (__ldg(a.face + (h1 ^ 1u)) != kInv) +
                    (__ldg(a.face + (h2 ^ 1u)) != kInv);
            }
        }
        counts[s] = c;
    }
}

// ---- queries -------------------------------------------------------------

// VV / VE / VF: circulate clockwise h -> next[twin(h)] from the stored
// outgoing halfedge (on the boundary for boundary vertices) back to it.
template <Op op>
__global__ void vertex_query(std::uint32_t n, Arrays a,
                             const std::uint32_t* __restrict__ offsets,
                             std::uint32_t* __restrict__ out)
{
    PDE_FOR_EACH(v, n)
    {
        const std::uint32_t start = __ldg(a.vertex_he + v);
        if (start == kInv)
            continue;
        std::uint32_t* __restrict__ o = out + offsets[v];
        std::uint32_t h               = start;
        do {
            const std::uint32_t t = h ^ 1u;
            if constexpr (op == Op::VV) {
                *o++ = __ldg(a.target + h);
            } else if constexpr (op == Op::VE) {
                *o++ = h >> 1;
            } else {
                const std::uint32_t f = __ldg(a.face + t);
                if (f != kInv)
                    *o++ = f;
            }
            h = __ldg(a.next + t);
        } while (h != start);
    }
}

// EV: both halfedges' targets with one 8-byte load, one 8-byte store.
__global__ void ev_query(std::uint32_t n, Arrays a, std::uint32_t* __restrict__ out)
{
    PDE_FOR_EACH(e, n)
    {
        const uint2 t = __ldg(reinterpret_cast<const uint2*>(a.target) + e);
        reinterpret_cast<uint2*>(out)[e] = make_uint2(min(t.x, t.y), max(t.x, t.y));
    }
}

// EF: both halfedges' faces with one 8-byte load; 2e always has a face.
__global__ void ef_query(std::uint32_t n, Arrays a, const std::uint32_t* __restrict__ offsets,
                         std::uint32_t* __restrict__ out)
{
    PDE_FOR_EACH(e, n)
    {
        const uint2         f = __ldg(reinterpret_cast<const uint2*>(a.face) + e);
        const std::uint32_t o = offsets[e];
        out[o]                = f.x;
        if (f.y != kInv)
            out[o + 1] = f.y;
    }
}

// FV / FE: three halfedges of the face, outputs from registers.
template <Op op>
__global__ void face_fixed_query(std::uint32_t n, Arrays a, std::uint32_t* __restrict__ out)
{
    PDE_FOR_EACH(f, n)
    {
        const std::uint32_t h0 = __ldg(a.face_he + f);
        const std::uint32_t h1 = __ldg(a.next + h0), h2 = __ldg(a.next + h1);
        std::uint32_t       r0, r1, r2;
        if constexpr (op == Op::FV) {  // v0 = target(prev(h0)) = target(h2)
            r0 = __ldg(a.target + h2);
            r1 = __ldg(a.target + h0);
            r2 = __ldg(a.target + h1);
        } else {
            r0 = h0 >> 1;
            r1 = h1 >> 1;
            r2 = h2 >> 1;
        }
        std::uint32_t* o = out + 3 * f;
        o[0]             = r0;
        o[1]             = r1;
        o[2]             = r2;
    }
}

// FF: the faces across the three edges, boundary edges skipped.
__global__ void ff_query(std::uint32_t n, Arrays a, const std::uint32_t* __restrict__ offsets,
                         std::uint32_t* __restrict__ out)
{
    PDE_FOR_EACH(f, n)
    {
        const std::uint32_t h0 = __ldg(a.face_he + f);
        const std::uint32_t h1 = __ldg(a.next + h0), h2 = __ldg(a.next + h1);
        const std::uint32_t g0 = __ldg(a.face + (h0 ^ 1u));
        const std::uint32_t g1 = __ldg(a.face + (h1 ^ 1u));
        const std::uint32_t g2 = __ldg(a.face + (h2 ^ 1u));
        std::uint32_t* __restrict__ o = out + offsets[f];
        if (g0 != kInv)
            *o++ = g0;
        if (g1 != kInv)
            *o++ = g1;
        if (g2 != kInv)
            *o = g2;
    }
}

unsigned grid_for(std::uint32_t n)
{
    return rxmesh::detail::flat_grid(n);
}
constexpr int kThreads = rxmesh::detail::kFlatBlockThreads;  // 256

std::string edge_str(std::uint32_t a, std::uint32_t b)
{
    return "(" + std::to_string(a) + ", " + std::to_string(b) + ")";
}

}  // namespace

PdeHost build_pde_host(const std::vector<rxmesh::Triangle>& faces, std::uint32_t num_vertices)
{
    // 2E <= 6F halfedges and every count must stay < 2^31 (32-bit kernels).
    if (faces.size() >= (std::size_t(1) << 31) / 6 || num_vertices >= (1u << 31))
        throw rxmesh::InvalidInputError("PdeMesh: mesh too large (" +
                                        std::to_string(faces.size()) + " faces, " +
                                        std::to_string(num_vertices) + " vertices)");
    const auto          nf = static_cast<std::uint32_t>(faces.size());
    const std::uint32_t nc = 3 * nf;  // corners = face halfedges
    for (std::uint32_t f = 0; f < nf; ++f) {
        const auto& t = faces[f];
        if (t[0] >= num_vertices || t[1] >= num_vertices || t[2] >= num_vertices ||
            t[0] == t[1] || t[1] == t[2] || t[2] == t[0])
            throw rxmesh::InvalidInputError(
                "PdeMesh: face " + std::to_string(f) + " (" + std::to_string(t[0]) + ", " +
                std::to_string(t[1]) + ", " + std::to_string(t[2]) +
                ") has an index >= " + std::to_string(num_vertices) + " or repeats a vertex");
    }
    auto src = [&](std::uint32_t c) { return faces[c / 3][c % 3]; };
    auto dst = [&](std::uint32_t c) { return faces[c / 3][(c % 3 + 1) % 3]; };

    // ---- pair the corners of each undirected edge: sort by (min, max) ----
    std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(nc);
    for (std::uint32_t c = 0; c < nc; ++c) {
        const std::uint32_t a = src(c), b = dst(c);
        keyed[c] = {(std::uint64_t(std::min(a, b)) << 32) | std::max(a, b), c};
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<std::uint32_t> partner(nc, kInv);
    std::uint32_t              num_edges = 0;
    for (std::uint32_t i = 0; i < nc;) {
        std::uint32_t j = i + 1;
        while (j < nc && keyed[j].first == keyed[i].first)
            ++j;
        const auto a = static_cast<std::uint32_t>(keyed[i].first >> 32);
        const auto b = static_cast<std::uint32_t>(keyed[i].first);
        if (j - i > 2) {
            std::string list;
            for (std::uint32_t k = i; k < j && k < i + 4; ++k)
                list += (k > i ? ", " : "") + std::to_string(keyed[k].second / 3);
            throw rxmesh::InvalidInputError(
                "PdeMesh: edge " + edge_str(a, b) + " is non-manifold: " +
                std::to_string(j - i) + " faces (" + list + (j - i > 4 ? ", ..." : "") +
                ") share it; PDE needs edge-manifold input");
        }
        if (j - i == 2) {
            const std::uint32_t c0 = keyed[i].second, c1 = keyed[i + 1].second;
            if (src(c0) == src(c1))
                throw rxmesh::InvalidInputError(
                    "PdeMesh: faces " + std::to_string(c0 / 3) + " and " +
                    std::to_string(c1 / 3) + " both walk edge " + edge_str(a, b) + " as " +
                    std::to_string(src(c0)) + " -> " + std::to_string(dst(c0)) +
                    ": inconsistently oriented; PDE needs consistently oriented faces");
            partner[c0] = c1;
            partner[c1] = c0;
        }
        ++num_edges;
        i = j;
    }
    keyed.clear();
    keyed.shrink_to_fit();
    const std::uint32_t nh = 2 * num_edges;

    // ---- edges in order of first appearance; 2e has a face ---------------
    std::vector<std::uint32_t> he(nc, kInv);  // corner -> halfedge
    std::vector<std::uint32_t> target(nh), face(nh, kInv), next(nh, kInv);
    std::uint32_t              e = 0;
    for (std::uint32_t c = 0; c < nc; ++c) {
        if (he[c] != kInv)
            continue;
        he[c] = 2 * e;
        if (partner[c] != kInv)
            he[partner[c]] = 2 * e + 1;
        else
            target[2 * e + 1] = src(c);  // boundary halfedge dst(c) -> src(c)
        ++e;
    }
    partner.clear();
    partner.shrink_to_fit();
    std::vector<std::uint32_t> face_he(nf);
    for (std::uint32_t c = 0; c < nc; ++c) {
        const std::uint32_t h = he[c], f = c / 3;
        target[h] = dst(c);
        face[h]   = f;
        next[h]   = he[3 * f + (c % 3 + 1) % 3];
    }
    for (std::uint32_t f = 0; f < nf; ++f)
        face_he[f] = he[3 * f];
    he.clear();
    he.shrink_to_fit();
    auto source = [&](std::uint32_t h) { return target[h ^ 1u]; };

    // ---- outgoing halfedge per vertex: a boundary one when there is one ----
    std::vector<std::uint32_t> vertex_he(num_vertices, kInv);
    std::vector<std::uint32_t> out_degree(num_vertices, 0);
    std::vector<std::uint32_t> bnd_offsets(std::size_t(num_vertices) + 1, 0);
    for (std::uint32_t h = 0; h < nh; ++h) {
        const std::uint32_t v = source(h);
        ++out_degree[v];
        if (face[h] == kInv) {
            ++bnd_offsets[v + 1];
            if (vertex_he[v] == kInv || face[vertex_he[v]] != kInv)
                vertex_he[v] = h;
        } else if (vertex_he[v] == kInv) {
            vertex_he[v] = h;
        }
    }

    // ---- boundary next pointers: incoming boundary halfedge of each fan ->
    //      outgoing boundary halfedge of the next fan at the same vertex ----
    for (std::uint32_t v = 0; v < num_vertices; ++v)
        bnd_offsets[v + 1] += bnd_offsets[v];
    std::vector<std::uint32_t> bnd_out(bnd_offsets[num_vertices]);
    {
        std::vector<std::uint32_t> fill(bnd_offsets.begin(), bnd_offsets.end() - 1);
        for (std::uint32_t h = 0; h < nh; ++h)
            if (face[h] == kInv)
                bnd_out[fill[source(h)]++] = h;
    }
    for (std::uint32_t v = 0; v < num_vertices; ++v) {
        const std::uint32_t b = bnd_offsets[v], m = bnd_offsets[v + 1] - b;
        for (std::uint32_t i = 0; i < m; ++i) {
            // walk the fan of bnd_out[b + i] clockwise to its incoming boundary
            std::uint32_t h = bnd_out[b + i], steps = 0;
            while (face[h ^ 1u] != kInv) {
                h = next[h ^ 1u];
                if (++steps > out_degree[v])
                    throw rxmesh::Error("PdeMesh: internal error: open fan of vertex " +
                                        std::to_string(v) + " does not end");
            }
            next[h ^ 1u] = bnd_out[b + (i + 1) % m];
        }
    }

    // ---- every outgoing halfedge must lie on the circulation ---------------
    for (std::uint32_t v = 0; v < num_vertices; ++v) {
        const std::uint32_t start = vertex_he[v];
        if (start == kInv)
            continue;
        std::uint32_t h = start, count = 0;
        do {
            h = next[h ^ 1u];
            ++count;
        } while (h != start && count <= out_degree[v]);
        if (count != out_degree[v])
            throw rxmesh::InvalidInputError(
                "PdeMesh: vertex " + std::to_string(v) +
                " is non-manifold with a closed fan and another fan (circulation reaches " +
                std::to_string(count) + " of its " + std::to_string(out_degree[v]) +
                " edges); PDE cannot represent it");
    }

    PdeHost host;
    host.num_vertices = num_vertices;
    host.num_edges    = num_edges;
    host.num_faces    = nf;
    host.target       = std::move(target);
    host.face         = std::move(face);
    host.next         = std::move(next);
    host.vertex_he    = std::move(vertex_he);
    host.face_he      = std::move(face_he);
    return host;
}

PdeMesh::PdeMesh(const PdeHost& host)
    : m_num_vertices(host.num_vertices),
      m_num_edges(host.num_edges),
      m_num_faces(host.num_faces),
      m_target(rxmesh::DeviceBuffer<std::uint32_t>::from_host(host.target)),
      m_face(rxmesh::DeviceBuffer<std::uint32_t>::from_host(host.face)),
      m_next(rxmesh::DeviceBuffer<std::uint32_t>::from_host(host.next)),
      m_vertex_he(rxmesh::DeviceBuffer<std::uint32_t>::from_host(host.vertex_he)),
      m_face_he(rxmesh::DeviceBuffer<std::uint32_t>::from_host(host.face_he))
{
}

QueryOutput PdeMesh::allocate(Op op) const
{
    const std::uint32_t n = num_sources(op);
    QueryOutput         out;
    std::uint32_t       total = 0;
    if (op == Op::EV || op == Op::FV || op == Op::FE) {
        const std::uint32_t k = op == Op::EV ? 2 : 3;
        out.offsets           = detail::fixed_offsets(n, k);
        total                 = k * n;
    } else {
        rxmesh::DeviceBuffer<std::uint32_t> counts(std::size_t(n) + 1);
        const Arrays a{m_target.data(), m_face.data(), m_next.data(), m_vertex_he.data(),
                       m_face_he.data()};
        const unsigned grid = grid_for(n + 1);
        switch (op) {
            case Op::VV: count_kernel<Op::VV><<<grid, kThreads>>>(n, a, counts.data()); break;
            case Op::VE: count_kernel<Op::VE><<<grid, kThreads>>>(n, a, counts.data()); break;
            case Op::VF: count_kernel<Op::VF><<<grid, kThreads>>>(n, a, counts.data()); break;
            case Op::EF: count_kernel<Op::EF><<<grid, kThreads>>>(n, a, counts.data()); break;
            default: count_kernel<Op::FF><<<grid, kThreads>>>(n, a, counts.data()); break;
        }
        RXMESH_CHECK_LAUNCH();
        out.offsets = detail::offsets_from_counts(counts, total);
    }
    out.values = rxmesh::DeviceBuffer<std::uint32_t>(total);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(0));
    return out;
}

void PdeMesh::run(Op op, QueryOutput& out, cudaStream_t stream, int block_threads) const
{
    const std::uint32_t n = num_sources(op);
    if (n == 0)
        return;
    detail::check_output_rows("PdeMesh::run", op, out, n);
    detail::check_block_threads("PdeMesh::run", block_threads);
    const Arrays a{m_target.data(), m_face.data(), m_next.data(), m_vertex_he.data(),
                   m_face_he.data()};
    const std::uint32_t* off  = out.offsets.data();
    std::uint32_t*       val  = out.values.data();
    const unsigned       grid = rxmesh::detail::flat_grid(n, block_threads);
    const int            bt   = block_threads;
    switch (op) {
        case Op::VV: vertex_query<Op::VV><<<grid, bt, 0, stream>>>(n, a, off, val); break;
        case Op::VE: vertex_query<Op::VE><<<grid, bt, 0, stream>>>(n, a, off, val); break;
        case Op::VF: vertex_query<Op::VF><<<grid, bt, 0, stream>>>(n, a, off, val); break;
        case Op::EV: ev_query<<<grid, bt, 0, stream>>>(n, a, val); break;
        case Op::EF: ef_query<<<grid, bt, 0, stream>>>(n, a, off, val); break;
        case Op::FV: face_fixed_query<Op::FV><<<grid, bt, 0, stream>>>(n, a, val); break;
        case Op::FE: face_fixed_query<Op::FE><<<grid, bt, 0, stream>>>(n, a, val); break;
        case Op::FF: ff_query<<<grid, bt, 0, stream>>>(n, a, off, val); break;
    }
    RXMESH_CHECK_LAUNCH();
}

EdgeVertices PdeMesh::edge_vertices() const
{
    const std::vector<std::uint32_t> target = m_target.to_host();
    EdgeVertices                     ev(m_num_edges);
    for (std::uint32_t e = 0; e < m_num_edges; ++e) {
        const std::uint32_t a = target[2 * e], b = target[2 * e + 1];
        ev[e] = {std::min(a, b), std::max(a, b)};
    }
    return ev;
}

}  // namespace rxmesh::baselines
