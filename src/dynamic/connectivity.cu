#include "connectivity_build.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/dynamic/fan.cuh"

namespace rxmesh::dynamic_detail {
namespace {

__global__ void halfedge_keys_kernel(const std::uint32_t* faces, std::uint32_t face_slots,
                                     std::uint32_t key_bits, std::uint64_t* keys,
                                     std::uint32_t* halfedges)
{
    const std::uint64_t h = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (h >= 3ull * face_slots) return;
    const std::uint64_t f    = h / 3;
    const int           k    = int(h % 3);
    const std::uint64_t dead = (std::uint64_t(1) << (2 * key_bits)) - 1;
    const std::uint32_t u = faces[3 * f + k], v = faces[3 * f + (k + 1) % 3];
    if (faces[3 * f] == kDeadFace) {
        keys[h] = dead;
    } else {
        const std::uint32_t a = u < v ? u : v, b = u < v ? v : u;
        keys[h] = (std::uint64_t(a) << key_bits) | b;
    }
    halfedges[h] = std::uint32_t(h);
}

//! Per edge: its flags, and the edge id of each of its face corners.
__global__ void edge_flags_kernel(ConnectivityView c, const std::uint32_t* faces,
                                  std::uint8_t* edge_flags, std::uint32_t* face_edges)
{
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= c.num_edges) return;
    const std::uint32_t begin = c.edge_offsets[e], end = c.edge_offsets[e + 1];
    const std::uint32_t a     = c.edge_first(e);
    bool                manifold = end - begin == 1;
    if (end - begin == 2) {  // opposite directions: exactly one face starts at a
        const std::uint32_t h0 = c.halfedges[begin], h1 = c.halfedges[begin + 1];
        manifold = (faces[h0] == a) != (faces[h1] == a);
    }
    edge_flags[e] = manifold ? kEdgeManifold : 0;
    for (std::uint32_t i = begin; i < end; ++i) face_edges[c.halfedges[i]] = e;
}

__global__ void vertex_faces_kernel(const std::uint32_t* faces, std::uint32_t face_slots,
                                    std::uint32_t* vertex_face, std::uint32_t* vertex_degree)
{
    const std::uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= face_slots || faces[3 * f] == kDeadFace) return;
    for (int k = 0; k < 3; ++k) {
        atomicMin(vertex_face + faces[3 * f + k], f);
        atomicAdd(vertex_degree + faces[3 * f + k], 1u);
    }
}

//! Walks forward from v's lowest face across the edges (v, x), then backward
//! across (y, v) if the forward walk hit the boundary; v is manifold when
//! every crossed edge is manifold and the walks reach all its faces.
__device__ std::uint8_t vertex_flags_of(const ConnectivityView& c, std::uint32_t v)
{
    const std::uint32_t f0 = c.vertex_face[v], degree = c.vertex_degree[v];
    if (f0 == kNoElement) return kVertexManifold;
    std::uint32_t reached = 1;
    bool          open    = false;
    for (int direction = 0; direction < 2; ++direction) {
        std::uint32_t f = f0;
        while (reached <= degree) {
            const int           k = corner_of(c, f, v);
            const std::uint32_t e = c.face_edges[3 * f + (direction == 0 ? k : (k + 2) % 3)];
            if (!c.edge_manifold(e)) return 0;
            const std::uint32_t g = across(c, e, f);
            if (g == kNoElement) {
                open = true;
                break;
            }
            if (g == f0) break;
            f = g;
            ++reached;
        }
        if (!open) break;  // closed fan: one direction saw it all
    }
    if (reached != degree) return 0;
    return kVertexManifold | (open ? kVertexBoundary : 0);
}

__global__ void vertex_flags_kernel(ConnectivityView c, std::uint8_t* vertex_flags)
{
    const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < c.num_vertex_slots) vertex_flags[v] = vertex_flags_of(c, v);
}

}  // namespace

std::uint32_t key_bits_for(std::uint32_t vertex_slots)
{
    std::uint32_t bits = 1;
    while (bits < 32 && (std::uint64_t(1) << bits) <= vertex_slots) ++bits;
    return bits;
}

//! Sorts the face corners by edge key into keys[s] / halfedges[s] and
//! returns s (which of each pair holds the sorted sequence).
int Connectivity::sort_halfedges(const std::uint32_t* faces, std::uint32_t face_slots,
                                 std::uint32_t block_threads, SortBuffers& b, cudaStream_t stream)
{
    const std::uint64_t n = 3ull * face_slots;
    halfedge_keys_kernel<<<grid_for(n, block_threads), block_threads, 0, stream>>>(
        faces, face_slots, m_view.key_bits, b.keys[0].data(), b.halfedges[0].data());
    RXMESH_CHECK_LAUNCH();
    cub::DoubleBuffer<std::uint64_t> keys(b.keys[0].data(), b.keys[1].data());
    cub::DoubleBuffer<std::uint32_t> values(b.halfedges[0].data(), b.halfedges[1].data());
    const int                        end_bit = int(2 * m_view.key_bits);
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, keys, values, std::int64_t(n), 0,
                                               end_bit, stream);
    });
    if (values.selector != keys.selector)
        throw Error("Connectivity: radix sort left keys and values in different buffers");
    return keys.selector;
}

//! Run-length encodes the sorted keys into edges: the unique keys go to the
//! other key buffer, the counts to the other halfedge buffer, then into
//! exactly sized arrays (the sort buffers are freed after the build).
void Connectivity::encode_edges(std::uint32_t face_slots, SortBuffers& b, int s,
                                cudaStream_t stream)
{
    const std::uint64_t  n      = 3ull * face_slots;
    const std::uint64_t* sorted = b.keys[s].data();
    std::uint64_t*       unique = b.keys[1 - s].data();
    std::uint32_t*       counts = b.halfedges[1 - s].data();
    DeviceBuffer<std::uint32_t> num_runs(1, stream);
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRunLengthEncode::Encode(tmp, bytes, sorted, unique, counts,
                                                  num_runs.data(), std::int64_t(n), stream);
    });
    std::uint32_t runs = 0;
    std::uint64_t last = 0;
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(&runs, num_runs.data(), sizeof(runs),
                                      cudaMemcpyDeviceToHost, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    if (runs > 0) {
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(&last, unique + runs - 1, sizeof(last),
                                          cudaMemcpyDeviceToHost, stream));
        RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    }
    const std::uint64_t dead = (std::uint64_t(1) << (2 * m_view.key_bits)) - 1;
    const std::uint32_t num_edges = runs > 0 && last == dead ? runs - 1 : runs;
    m_view.num_edges              = num_edges;
    m_edge_keys    = DeviceBuffer<std::uint64_t>(std::max<std::uint32_t>(num_edges, 1), stream);
    m_edge_offsets = DeviceBuffer<std::uint32_t>(num_edges + 1ull, stream);
    if (num_edges > 0)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_edge_keys.data(), unique, 8ull * num_edges,
                                          cudaMemcpyDeviceToDevice, stream));
    RXMESH_CHECK_CUDA(cudaMemsetAsync(m_edge_offsets.data(), 0, sizeof(std::uint32_t), stream));
    if (num_edges > 0)
        detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceScan::InclusiveSum(tmp, bytes, counts, m_edge_offsets.data() + 1,
                                                 num_edges, stream);
        });
    m_peak_bytes = std::max(m_peak_bytes, bytes() + b.keys[0].allocated_bytes() +
                                              b.keys[1].allocated_bytes() +
                                              b.halfedges[0].allocated_bytes() +
                                              b.halfedges[1].allocated_bytes());
}

void Connectivity::flag_vertices(std::uint32_t vertex_slots, std::uint32_t face_slots,
                                 std::uint32_t block_threads, cudaStream_t stream)
{
    ensure_size(m_vertex_face, std::max<std::uint32_t>(vertex_slots, 1), stream);
    ensure_size(m_vertex_degree, std::max<std::uint32_t>(vertex_slots, 1), stream);
    ensure_size(m_vertex_flags, std::max<std::uint32_t>(vertex_slots, 1), stream);
    m_vertex_face.memset(0xFF);
    m_vertex_degree.memset(0);
    m_view.vertex_face   = m_vertex_face.data();
    m_view.vertex_degree = m_vertex_degree.data();
    m_view.vertex_flags  = m_vertex_flags.data();
    m_view.num_vertex_slots = vertex_slots;
    vertex_faces_kernel<<<grid_for(face_slots, block_threads), block_threads, 0, stream>>>(
        m_view.faces, face_slots, m_vertex_face.data(), m_vertex_degree.data());
    RXMESH_CHECK_LAUNCH();
    vertex_flags_kernel<<<grid_for(vertex_slots, block_threads), block_threads, 0, stream>>>(
        m_view, m_vertex_flags.data());
    RXMESH_CHECK_LAUNCH();
}

void Connectivity::build(const std::uint32_t* faces, std::uint32_t vertex_slots,
                         std::uint32_t face_slots, std::uint32_t block_threads,
                         cudaStream_t stream)
{
    const std::size_t peak = m_peak_bytes;
    *this                  = Connectivity{};  // the old table goes before the new one comes
    m_peak_bytes           = peak;
    m_view.faces           = faces;
    m_view.num_face_slots  = face_slots;
    m_view.key_bits        = key_bits_for(vertex_slots);
    const std::uint64_t n  = std::max<std::uint64_t>(3ull * face_slots, 1);
    {
        SortBuffers b;
        for (int i = 0; i < 2; ++i) {
            b.keys[i]      = DeviceBuffer<std::uint64_t>(n, stream);
            b.halfedges[i] = DeviceBuffer<std::uint32_t>(n, stream);
        }
        const int s = sort_halfedges(faces, face_slots, block_threads, b, stream);
        encode_edges(face_slots, b, s, stream);
        m_halfedges = std::move(b.halfedges[s]);
    }  // the sort buffers go back to the pool here
    m_view.edge_keys    = m_edge_keys.data();
    m_view.edge_offsets = m_edge_offsets.data();
    m_view.halfedges    = m_halfedges.data();
    m_edge_flags        = DeviceBuffer<std::uint8_t>(std::max<std::uint32_t>(m_view.num_edges, 1), stream);
    m_face_edges        = DeviceBuffer<std::uint32_t>(n, stream);
    m_view.edge_flags   = m_edge_flags.data();
    m_view.face_edges   = m_face_edges.data();
    edge_flags_kernel<<<grid_for(m_view.num_edges, block_threads), block_threads, 0, stream>>>(
        m_view, faces, m_edge_flags.data(), m_face_edges.data());
    RXMESH_CHECK_LAUNCH();
    flag_vertices(vertex_slots, face_slots, block_threads, stream);
}

std::size_t Connectivity::bytes() const
{
    return m_halfedges.allocated_bytes() + m_edge_keys.allocated_bytes() +
           m_edge_offsets.allocated_bytes() + m_face_edges.allocated_bytes() +
           m_vertex_face.allocated_bytes() + m_vertex_degree.allocated_bytes() +
           m_edge_flags.allocated_bytes() + m_vertex_flags.allocated_bytes();
}

}  // namespace rxmesh::dynamic_detail
