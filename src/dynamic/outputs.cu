// DynamicMesh's checks and outputs: validate(), is_manifold(), the compact
// device arrays and what is built from them.
#include <cub/device/device_scan.cuh>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/sort.h>

#include "connectivity_build.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/dynamic/dynamic_mesh.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

using namespace dynamic_detail;

namespace {

struct FaceKey
{
    std::uint32_t v[3];
    __host__ __device__ bool operator<(const FaceKey& o) const
    {
        return v[0] != o.v[0] ? v[0] < o.v[0] : (v[1] != o.v[1] ? v[1] < o.v[1] : v[2] < o.v[2]);
    }
    __host__ __device__ bool operator==(const FaceKey& o) const
    {
        return v[0] == o.v[0] && v[1] == o.v[1] && v[2] == o.v[2];
    }
};

//! counters: [0] bad faces, [1] alive faces, [2] first bad face.
__global__ void face_check_kernel(const std::uint32_t* faces, std::uint32_t face_slots,
                                  const std::uint8_t* alive, std::uint32_t vertex_slots,
                                  FaceKey* keys, unsigned long long* counters)
{
    const std::uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= face_slots) return;
    FaceKey key{{kDeadFace, kDeadFace, kDeadFace}};
    if (faces[3 * f] != kDeadFace) {
        std::uint32_t a = faces[3 * f], b = faces[3 * f + 1], c = faces[3 * f + 2];
        const bool    bad = a >= vertex_slots || b >= vertex_slots || c >= vertex_slots ||
                         a == b || b == c || a == c || !alive[a] || !alive[b] || !alive[c];
        if (bad) {
            atomicAdd(counters, 1ull);
            atomicMin(counters + 2, (unsigned long long)f);
        }
        atomicAdd(counters + 1, 1ull);
        if (a > b) thrust::swap(a, b);
        if (b > c) thrust::swap(b, c);
        if (a > b) thrust::swap(a, b);
        key = FaceKey{{a, b, c}};
    }
    keys[f] = key;
}

__global__ void duplicate_kernel(const FaceKey* sorted, std::uint32_t n,
                                 unsigned long long* duplicates)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n && sorted[i].v[0] != kDeadFace && sorted[i] == sorted[i + 1])
        atomicAdd(duplicates, 1ull);
}

__global__ void vertex_manifold_kernel(ConnectivityView c, unsigned long long* bad)
{
    const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < c.num_vertex_slots && c.vertex_alive[v] && !c.vertex_manifold(v))
        atomicAdd(bad, 1ull);
    if (v < c.num_edges && !c.edge_manifold(v)) atomicAdd(bad, 1ull);
}

//! The edge table against the faces: each alive face corner's edge has the
//! corner's vertex pair and lists the corner; each edge's halfedges are
//! alive corners with its pair; degrees count faces.
__global__ void table_faces_kernel(ConnectivityView c, std::uint32_t* degree,
                                   unsigned long long* bad)
{
    const std::uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= c.num_face_slots || !c.face_alive(f)) return;
    for (int k = 0; k < 3; ++k) {
        const std::uint32_t e = c.face_edges[3 * f + k];
        bool                listed = false;
        if (e < c.num_edges)
            for (std::uint32_t i = c.edge_offsets[e]; i < c.edge_offsets[e + 1]; ++i)
                listed = listed || c.halfedges[i] == 3 * f + k;
        const std::uint64_t key = c.edge_key(c.face_vertex(f, k), c.face_vertex(f, (k + 1) % 3));
        if (!listed || c.edge_keys[e] != key) atomicAdd(bad, 1ull);
        atomicAdd(degree + c.face_vertex(f, k), 1u);
    }
}

__global__ void table_edges_kernel(ConnectivityView c, const std::uint32_t* degree,
                                   unsigned long long* bad)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < c.num_vertex_slots) {
        const std::uint32_t f = c.vertex_face[i];
        const bool holds = f < c.num_face_slots && c.face_alive(f) &&
                           (c.face_vertex(f, 0) == i || c.face_vertex(f, 1) == i ||
                            c.face_vertex(f, 2) == i);
        if (degree[i] != c.vertex_degree[i] || (degree[i] > 0) != holds) atomicAdd(bad, 1ull);
    }
    if (i >= c.num_edges) return;
    for (std::uint32_t j = c.edge_offsets[i]; j < c.edge_offsets[i + 1]; ++j) {
        const std::uint32_t h = c.halfedges[j], f = h / 3;
        const bool          ok = c.face_alive(f) && c.face_edges[h] == i;
        if (!ok) atomicAdd(bad, 1ull);
    }
}

struct FaceAlive
{
    const std::uint32_t* faces;
    __device__ std::uint32_t operator()(std::uint32_t f) const { return faces[3 * f] != kDeadFace; }
};

struct ToU32
{
    __device__ std::uint32_t operator()(std::uint8_t x) const { return x; }
};

__global__ void compact_vertices_kernel(const float* positions, const std::uint8_t* alive,
                                        const std::uint32_t* new_id, std::uint32_t slots,
                                        std::uint32_t input_vertices, float* out_positions,
                                        std::uint32_t* input_vertex, std::uint32_t* vertex_slot)
{
    const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= slots || !alive[v]) return;
    store3(out_positions, new_id[v], load3(positions, v));
    input_vertex[new_id[v]] = v < input_vertices ? v : kNoElement;
    vertex_slot[new_id[v]]  = v;
}

__global__ void compact_faces_kernel(const std::uint32_t* faces, const std::uint32_t* new_face,
                                     const std::uint32_t* new_vertex, std::uint32_t slots,
                                     std::uint32_t* out, std::uint32_t* face_slot)
{
    const std::uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= slots || faces[3 * f] == kDeadFace) return;
    face_slot[new_face[f]] = f;
    for (int k = 0; k < 3; ++k) out[3 * new_face[f] + k] = new_vertex[faces[3 * f + k]];
}

}  // namespace

DynamicValidation DynamicMesh::validate()
{
    DynamicValidation                 out;
    const std::uint32_t               block = m_options.block_threads;
    DeviceBuffer<FaceKey>             keys(std::max<std::uint32_t>(m_face_slots, 1), m_stream);
    DeviceBuffer<unsigned long long>  counters(4, m_stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(counters.data(), 0, 32, m_stream));
    RXMESH_CHECK_CUDA(cudaMemsetAsync(counters.data() + 2, 0xFF, 8, m_stream));
    face_check_kernel<<<grid_for(m_face_slots, block), block, 0, m_stream>>>(
        m_faces.data(), m_face_slots, m_vertex_alive.data(), m_vertex_slots, keys.data(),
        counters.data());
    RXMESH_CHECK_LAUNCH();
    thrust::sort(thrust::cuda::par.on(m_stream), keys.data(), keys.data() + m_face_slots);
    duplicate_kernel<<<grid_for(m_face_slots, block), block, 0, m_stream>>>(
        keys.data(), m_face_slots, counters.data() + 3);
    RXMESH_CHECK_LAUNCH();
    const auto c     = counters.to_host();
    const auto alive = std::uint64_t(
        thrust::count(thrust::cuda::par.on(m_stream), m_vertex_alive.data(),
                      m_vertex_alive.data() + m_vertex_slots, std::uint8_t(1)));
    out.bad_faces       = c[0];
    out.duplicate_faces = c[3];
    out.count_mismatch  = (c[1] != m_num_faces) + (alive != m_num_vertices);
    if (m_connectivity_current) out.table_mismatch = check_table();
    if (c[0] > 0)
        out.first = "face slot " + std::to_string(c[2]) + " names a dead, missing or repeated vertex";
    else if (c[3] > 0)
        out.first = std::to_string(c[3]) + " faces repeat another face's vertices";
    else if (out.table_mismatch > 0)
        out.first = std::to_string(out.table_mismatch) + " edge-table entries disagree with the faces";
    else if (out.count_mismatch > 0)
        out.first = "alive counts: " + std::to_string(c[1]) + " faces, " + std::to_string(alive) +
                    " vertices; the mesh says " + std::to_string(m_num_faces) + " and " +
                    std::to_string(m_num_vertices);
    return out;
}

std::uint64_t DynamicMesh::check_table()
{
    const ConnectivityView&          c     = connectivity();
    const std::uint32_t              block = m_options.block_threads;
    DeviceBuffer<std::uint32_t>      degree(std::max<std::uint32_t>(c.num_vertex_slots, 1), m_stream);
    DeviceBuffer<unsigned long long> bad(1, m_stream);
    degree.memset(0);
    bad.memset(0);
    table_faces_kernel<<<grid_for(c.num_face_slots, block), block, 0, m_stream>>>(
        c, degree.data(), bad.data());
    RXMESH_CHECK_LAUNCH();
    const std::uint32_t n = std::max(c.num_vertex_slots, c.num_edges);
    table_edges_kernel<<<grid_for(n, block), block, 0, m_stream>>>(c, degree.data(), bad.data());
    RXMESH_CHECK_LAUNCH();
    return bad.to_host()[0];
}

bool DynamicMesh::is_manifold()
{
    const ConnectivityView&          c = connectivity();
    DeviceBuffer<unsigned long long> bad(1, m_stream);
    bad.memset(0);
    const std::uint32_t n = std::max(c.num_vertex_slots, c.num_edges), block = m_options.block_threads;
    vertex_manifold_kernel<<<grid_for(n, block), block, 0, m_stream>>>(c, bad.data());
    RXMESH_CHECK_LAUNCH();
    return bad.to_host()[0] == 0;
}

CompactMesh DynamicMesh::compact() const
{
    CompactMesh         out;
    const std::uint32_t block = m_options.block_threads;
    const std::uint32_t vs = m_vertex_slots, fs = m_face_slots;
    DeviceBuffer<std::uint32_t> new_vertex(vs + 1ull, m_stream), new_face(fs + 1ull, m_stream);
    auto alive = thrust::make_transform_iterator(m_vertex_alive.data(), ToU32{});
    detail::cub_call(m_stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, alive, new_vertex.data(), vs, m_stream);
    });
    auto face_alive = thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0),
                                                      FaceAlive{m_faces.data()});
    detail::cub_call(m_stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, face_alive, new_face.data(), fs,
                                             m_stream);
    });
    out.num_vertices = m_num_vertices;
    out.num_faces    = m_num_faces;
    out.positions    = DeviceBuffer<float>(3ull * m_num_vertices, m_stream);
    out.input_vertex = DeviceBuffer<std::uint32_t>(m_num_vertices, m_stream);
    out.faces        = DeviceBuffer<std::uint32_t>(3ull * m_num_faces, m_stream);
    out.vertex_slot  = DeviceBuffer<std::uint32_t>(m_num_vertices, m_stream);
    out.face_slot    = DeviceBuffer<std::uint32_t>(m_num_faces, m_stream);
    compact_vertices_kernel<<<grid_for(vs, block), block, 0, m_stream>>>(
        m_positions.data(), m_vertex_alive.data(), new_vertex.data(), vs, m_input_vertices,
        out.positions.data(), out.input_vertex.data(), out.vertex_slot.data());
    RXMESH_CHECK_LAUNCH();
    compact_faces_kernel<<<grid_for(fs, block), block, 0, m_stream>>>(
        m_faces.data(), new_face.data(), new_vertex.data(), fs, out.faces.data(),
        out.face_slot.data());
    RXMESH_CHECK_LAUNCH();
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(m_stream));
    return out;
}

TriangleSoup CompactMesh::to_host(std::vector<std::uint32_t>* input_vertex_out) const
{
    TriangleSoup soup;
    const auto   p = positions.to_host();
    const auto   f = faces.to_host();
    soup.positions.resize(num_vertices);
    for (std::uint32_t v = 0; v < num_vertices; ++v)
        soup.positions[v] = {p[3 * v], p[3 * v + 1], p[3 * v + 2]};
    soup.faces.resize(num_faces);
    for (std::uint32_t i = 0; i < num_faces; ++i)
        soup.faces[i] = {f[3 * i], f[3 * i + 1], f[3 * i + 2]};
    if (input_vertex_out) *input_vertex_out = input_vertex.to_host();
    return soup;
}

TriangleSoup DynamicMesh::to_host(std::vector<std::uint32_t>* input_vertex) const
{
    return compact().to_host(input_vertex);
}

RXMesh DynamicMesh::to_rxmesh(const BuildOptions& options) const
{
    // the compact arrays feed RXMesh's device-array build in place: the mesh
    // never visits the host
    const CompactMesh c = compact();
    return RXMesh(VertexView<const float, 3>(c.positions.data(), c.num_vertices),
                  FaceView<const std::uint32_t, 3>(c.faces.data(), c.num_faces), options,
                  m_stream);
}

RXMesh DynamicMesh::to_rxmesh() const { return to_rxmesh(BuildOptions{}); }

}  // namespace rxmesh
