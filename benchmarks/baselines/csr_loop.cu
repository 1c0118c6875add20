// CsrLoop: the adjacency matrix (Algorithm 1, by sorting), faces
// (Algorithm 2), vertex points (Algorithm 3) and edge points (Algorithm 4).
#include "csr_loop.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <string>

#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"

namespace rxmesh::bench {
namespace {

constexpr unsigned long long kNone        = ~0ull;
constexpr std::uint32_t      kMissing     = ~0u;
constexpr int                kBadHalfEdge = 0, kBadFace = 1;

// ---- the adjacency matrix ------------------------------------------------

// A half-edge (from -> to) is the key (from << bits) | to, `bits` the bits of
// a vertex id: sorted keys are the columns (one per `from`) with their rows
// (`to`) in order, and the radix sort passes over 2 * bits bits, not 64.
struct KeyCodec
{
    int bits;

    __host__ __device__ std::uint64_t key(std::uint32_t from, std::uint32_t to) const
    {
        return (std::uint64_t(from) << bits) | to;
    }
    __host__ __device__ std::uint32_t from(std::uint64_t key) const
    {
        return std::uint32_t(key >> bits);
    }
    __host__ __device__ std::uint32_t to(std::uint64_t key) const
    {
        return std::uint32_t(key & ((std::uint64_t(1) << bits) - 1));
    }
};

// The flag whose exclusive prefix sum over the sorted half-edges numbers the
// edges: each edge is counted once, at its half-edge (min -> max).
struct IsLowToHigh
{
    KeyCodec codec;

    __host__ __device__ std::uint32_t operator()(std::uint64_t key) const
    {
        return codec.from(key) < codec.to(key) ? 1u : 0u;
    }
};

// The sorted adjacency matrix of one level, as the kernels read it.
struct Adjacency
{
    KeyCodec      codec;
    std::uint32_t num_vertices;
    std::uint32_t num_half_edges;
    const std::uint32_t* __restrict__ column_ptr;      // num_vertices + 1
    const std::uint64_t* __restrict__ keys;            // per half-edge, sorted
    const std::uint32_t* __restrict__ third_vertices;  // per half-edge
    const std::uint32_t* __restrict__ edge_ids;        // valid where from < to

    //! Sorted position of half-edge (from -> to), or kMissing.
    __device__ std::uint32_t find(std::uint32_t from, std::uint32_t to) const
    {
        if (from >= num_vertices)
            return kMissing;
        const std::uint64_t key        = codec.key(from, to);
        const std::uint32_t column_end = column_ptr[from + 1];
        std::uint32_t       lo = column_ptr[from], hi = column_end;
        while (lo < hi) {
            const std::uint32_t mid = lo + (hi - lo) / 2;
            if (keys[mid] < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < column_end && keys[lo] == key ? lo : kMissing;
    }

    //! Whether the sorted half-edge at `s` has exactly one opposite half-edge,
    //! found at `twin` (kMissing: none). Equal keys are adjacent once sorted.
    __device__ bool has_one_twin(std::uint32_t s, std::uint32_t twin) const
    {
        const std::uint64_t key = keys[s];
        if (codec.from(key) == codec.to(key) || twin == kMissing)
            return false;
        return twin + 1 == num_half_edges || keys[twin + 1] != keys[twin];
    }
};

__device__ std::uint64_t global_thread()
{
    return std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
}

//! One key and third vertex per face corner i: (v_i -> v_{i+1}), v_{i+2}. A
//! face with a vertex id out of range is recorded (level 0 only:
//! first_bad_face non-null) and its half-edges become (0 -> 0), so that no
//! later kernel reads out of bounds before run() throws.
__global__ void build_half_edges(const std::uint32_t* __restrict__ faces,
                                 std::uint32_t num_half_edges, std::uint32_t num_vertices,
                                 KeyCodec codec, std::uint64_t* __restrict__ keys,
                                 std::uint32_t* __restrict__ third_vertices,
                                 unsigned long long* __restrict__ first_bad_face)
{
    const std::uint64_t h = global_thread();
    if (h >= num_half_edges)
        return;
    const std::uint64_t  f      = h / 3;
    const std::uint32_t  corner = std::uint32_t(h - 3 * f);
    const std::uint32_t* fv     = faces + 3 * f;
    std::uint32_t        from   = fv[corner];
    std::uint32_t        to     = fv[corner == 2 ? 0 : corner + 1];
    std::uint32_t        third  = fv[corner == 0 ? 2 : corner - 1];
    if (max(from, max(to, third)) >= num_vertices) {
        if (first_bad_face != nullptr)
            atomicMin(first_bad_face, f);
        from = to = third = 0;
    }
    keys[h]           = codec.key(from, to);
    third_vertices[h] = third;
}

//! column_ptr[v] = first sorted half-edge of column v. Thread s (0 .. H) fills
//! the columns that start at s: those after the previous key's column up to
//! its own (s == H: up to num_vertices), so that empty columns are filled too.
__global__ void column_pointers(const std::uint64_t* __restrict__ keys,
                                std::uint32_t num_half_edges, std::uint32_t num_vertices,
                                KeyCodec codec, std::uint32_t* __restrict__ column_ptr)
{
    const std::uint64_t s = global_thread();
    if (s > num_half_edges)
        return;
    const std::uint64_t first = s == 0 ? 0 : std::uint64_t(codec.from(keys[s - 1])) + 1;
    const std::uint64_t last  = s == num_half_edges ? num_vertices : codec.from(keys[s]);
    for (std::uint64_t v = first; v <= last; ++v)
        column_ptr[v] = std::uint32_t(s);
}

// ---- Algorithms 2-4 --------------------------------------------------------

//! The new vertex of edge (a, b): V + Ee(a, b), Ee read at the half-edge
//! (min -> max); V when the edge is missing (an invalid mesh, reported by
//! edge_points), so that the ids stay in range.
__device__ std::uint32_t edge_vertex(const Adjacency& adj, std::uint32_t a, std::uint32_t b)
{
    const std::uint32_t s = adj.find(min(a, b), max(a, b));
    return adj.num_vertices + (s == kMissing ? 0 : adj.edge_ids[s]);
}

//! Algorithm 2 in our face order: face f -> faces 4f .. 4f + 3, written as
//! three 16-byte stores (12 ids).
__global__ void refine_faces(Adjacency     adj, const std::uint32_t* __restrict__ faces,
                             std::uint32_t num_faces, std::uint32_t* __restrict__ refined_faces)
{
    const std::uint64_t f = global_thread();
    if (f >= num_faces)
        return;
    const std::uint32_t v0 = faces[3 * f], v1 = faces[3 * f + 1], v2 = faces[3 * f + 2];
    const std::uint32_t m0  = edge_vertex(adj, v0, v1);
    const std::uint32_t m1  = edge_vertex(adj, v1, v2);
    const std::uint32_t m2  = edge_vertex(adj, v2, v0);
    uint4*              out = reinterpret_cast<uint4*>(refined_faces + 12 * f);
    out[0]                  = make_uint4(v0, m0, m2, v1);
    out[1]                  = make_uint4(m1, m0, v2, m2);
    out[2]                  = make_uint4(m1, m0, m1, m2);
}

__device__ float3 load_point(const float* __restrict__ points, std::uint32_t v)
{
    const float* p = points + 3 * std::uint64_t(v);
    return make_float3(p[0], p[1], p[2]);
}

__device__ void store_point(float* __restrict__ points, std::uint64_t v, float3 x)
{
    float* p = points + 3 * v;
    p[0]     = x.x;
    p[1]     = x.y;
    p[2]     = x.z;
}

//! Loop's beta(n) = (1/n) (5/8 - (3/8 + 1/4 cos(2 pi / n))^2); 0 for n = 0.
__device__ float loop_beta(std::uint32_t n)
{
    if (n == 0)
        return 0.0f;
    const float c = 0.375f + 0.25f * cospif(2.0f / float(n));
    return (0.625f - c * c) / float(n);
}

//! Algorithm 3: (1 - n beta) v + beta (sum of the n neighbours in column v).
__global__ void vertex_points(Adjacency adj, const float* __restrict__ points,
                              float* __restrict__ refined_points)
{
    const std::uint64_t v = global_thread();
    if (v >= adj.num_vertices)
        return;
    const std::uint32_t begin = adj.column_ptr[v], end = adj.column_ptr[v + 1];
    float3              sum = make_float3(0.0f, 0.0f, 0.0f);
    for (std::uint32_t i = begin; i < end; ++i) {
        const float3 p = load_point(points, adj.codec.to(adj.keys[i]));
        sum.x += p.x;
        sum.y += p.y;
        sum.z += p.z;
    }
    const std::uint32_t n    = end - begin;
    const float         beta = loop_beta(n);
    const float         keep = 1.0f - float(n) * beta;
    const float3        x    = load_point(points, std::uint32_t(v));
    store_point(refined_points, v,
                make_float3(keep * x.x + beta * sum.x, keep * x.y + beta * sum.y,
                            keep * x.z + beta * sum.z));
}

//! Algorithm 4, one thread per sorted half-edge (a -> b): when a < b, the new
//! vertex V + Ee(a, b) = 3/8 (a + b) + 1/8 (c + d), c and d the third vertices
//! of (a -> b) and of its twin (b -> a). kCheckTwins (level 0): every
//! half-edge also checks that it has exactly one twin and records the
//! smallest (a, b) that has not; a valid input makes every later level valid.
template <bool kCheckTwins>
__global__ void edge_points(Adjacency adj, std::uint32_t num_edges,
                            const float* __restrict__ points, float* __restrict__ refined_points,
                            unsigned long long* __restrict__ first_bad_half_edge)
{
    const std::uint64_t s = global_thread();
    if (s >= adj.num_half_edges)
        return;
    const std::uint64_t key = adj.keys[s];
    const std::uint32_t a = adj.codec.from(key), b = adj.codec.to(key);
    if (!kCheckTwins && a >= b)
        return;
    const std::uint32_t twin = adj.find(b, a);
    if (kCheckTwins && !adj.has_one_twin(std::uint32_t(s), twin)) {
        atomicMin(first_bad_half_edge, (std::uint64_t(a) << 32) | b);
        return;
    }
    if (a >= b || twin == kMissing)
        return;
    const std::uint32_t e = adj.edge_ids[s];
    if (e >= num_edges)
        return;  // more low-to-high half-edges than H / 2: an invalid input
    const float3 pa = load_point(points, a), pb = load_point(points, b);
    const float3 pc = load_point(points, adj.third_vertices[s]);
    const float3 pd = load_point(points, adj.third_vertices[twin]);
    store_point(refined_points, std::uint64_t(adj.num_vertices) + e,
                make_float3(0.375f * (pa.x + pb.x) + 0.125f * (pc.x + pd.x),
                            0.375f * (pa.y + pb.y) + 0.125f * (pc.y + pd.y),
                            0.375f * (pa.z + pb.z) + 0.125f * (pc.z + pd.z)));
}

//! Error path only: how many half-edges (from -> to) the faces hold.
__global__ void count_half_edges(const std::uint32_t* __restrict__ faces,
                                 std::uint32_t num_half_edges, std::uint32_t from, std::uint32_t to,
                                 unsigned int* __restrict__ count)
{
    const std::uint64_t h = global_thread();
    if (h >= num_half_edges)
        return;
    const std::uint64_t f      = h / 3;
    const std::uint32_t corner = std::uint32_t(h - 3 * f);
    if (faces[h] == from && faces[3 * f + (corner == 2 ? 0 : corner + 1)] == to)
        atomicAdd(count, 1u);
}

// ---- host helpers ----------------------------------------------------------

unsigned grid_for(std::uint64_t n, int block)
{
    return unsigned(std::max<std::uint64_t>(1, (n + block - 1) / block));
}

KeyCodec codec_for(std::uint64_t num_vertices)
{
    return KeyCodec{rxmesh::detail::bits_for(num_vertices)};
}

using KeyBuffers   = cub::DoubleBuffer<std::uint64_t>;
using ValueBuffers = cub::DoubleBuffer<std::uint32_t>;

cudaError_t sort_half_edges(void* temp, std::size_t& temp_bytes, KeyBuffers& keys,
                            ValueBuffers& third_vertices, std::uint32_t num_half_edges,
                            KeyCodec codec, cudaStream_t stream)
{
    return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, third_vertices, num_half_edges,
                                           0, 2 * codec.bits, stream);
}

cudaError_t number_edges(void* temp, std::size_t& temp_bytes, const std::uint64_t* sorted_keys,
                         std::uint32_t* edge_ids, std::uint32_t num_half_edges, KeyCodec codec,
                         cudaStream_t stream)
{
    const auto flags = thrust::make_transform_iterator(sorted_keys, IsLowToHigh{codec});
    return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, flags, edge_ids, num_half_edges, stream);
}

//! Temporary bytes of the sort and the scan of a level (a size query: no
//! data is touched).
std::size_t cub_temp_bytes(std::uint64_t num_vertices, std::uint64_t num_faces)
{
    const auto     n     = std::uint32_t(3 * num_faces);
    const KeyCodec codec = codec_for(num_vertices);
    KeyBuffers     keys;
    ValueBuffers   values;
    std::size_t    sort_bytes = 0, scan_bytes = 0;
    RXMESH_CHECK_CUDA(sort_half_edges(nullptr, sort_bytes, keys, values, n, codec, 0));
    RXMESH_CHECK_CUDA(number_edges(nullptr, scan_bytes, nullptr, nullptr, n, codec, 0));
    return std::max(sort_bytes, scan_bytes);
}

//! Replaces `buffer` by a new one of `count` elements.
template <typename T>
void make_buffer(DeviceBuffer<T>& buffer, std::uint64_t count, cudaStream_t stream)
{
    buffer = DeviceBuffer<T>(count, stream);
}

}  // namespace

// ---- CsrLoop ---------------------------------------------------------------

//! One level's input and output.
struct CsrLoop::Level
{
    const float*         points;
    const std::uint32_t* faces;
    std::uint32_t        num_vertices, num_faces;
    float*               refined_points;
    std::uint32_t*       refined_faces;
    bool                 first;  // level 0: checks the input
};

CsrLoop::Plan CsrLoop::make_plan(std::uint32_t num_vertices, std::uint32_t num_faces,
                                 int levels) const
{
    Plan plan;
    plan.input_vertices               = num_vertices;
    plan.input_faces                  = num_faces;
    plan.levels                       = levels;
    plan.vertices                     = {num_vertices};
    plan.faces                        = {num_faces};
    constexpr std::uint64_t kMaxCount = std::uint64_t(1) << 32;
    for (int l = 0; l < levels; ++l) {
        const std::uint64_t v = plan.vertices.back(), f = plan.faces.back();
        plan.vertices.push_back(v + 3 * f / 2);
        plan.faces.push_back(4 * f);
        if (plan.vertices.back() >= kMaxCount - 1 || plan.faces.back() >= kMaxCount)
            throw Error("CsrLoop: level " + std::to_string(l + 1) + " would have " +
                        std::to_string(plan.vertices.back()) + " vertices and " +
                        std::to_string(plan.faces.back()) + " faces, more than 32-bit ids hold");
        plan.cub_temp_bytes = std::max(plan.cub_temp_bytes, cub_temp_bytes(v, f));
    }
    // A null temporary pointer would make CUB size the storage instead of
    // sorting.
    plan.cub_temp_bytes = std::max<std::size_t>(plan.cub_temp_bytes, 1);
    return plan;
}

bool CsrLoop::planned_for(std::uint32_t num_vertices, std::uint32_t num_faces, int levels) const
{
    return m_plan.input_vertices == num_vertices && m_plan.input_faces == num_faces &&
           m_plan.levels == levels;
}

void CsrLoop::allocate(const Plan& plan, cudaStream_t stream)
{
    // Drop everything first, so that the old and new buffers are never held
    // together.
    *this                          = CsrLoop{};
    const int           L          = plan.levels;
    const std::uint64_t half_edges = 3 * plan.faces[L - 1];
    make_buffer(m_positions[0], 3 * plan.vertices[L], stream);
    make_buffer(m_faces[0], 3 * plan.faces[L], stream);
    if (L >= 2) {
        make_buffer(m_positions[1], 3 * plan.vertices[L - 1], stream);
        make_buffer(m_faces[1], 3 * plan.faces[L - 1], stream);
    }
    for (int i = 0; i < 2; ++i) {
        make_buffer(m_half_edge_keys[i], half_edges, stream);
        make_buffer(m_third_vertices[i], half_edges, stream);
    }
    make_buffer(m_column_ptr, plan.vertices[L - 1] + 1, stream);
    make_buffer(m_cub_temp, plan.cub_temp_bytes, stream);
    make_buffer(m_errors, 2, stream);
    m_plan = plan;
}

void CsrLoop::run(const float* d_positions, std::uint32_t num_vertices,
                  const std::uint32_t* d_faces, std::uint32_t num_faces, int levels, int block,
                  cudaStream_t stream)
{
    if (levels < 1)
        throw Error("CsrLoop::run: levels must be >= 1, got " + std::to_string(levels));
    if (block < 1 || block > 1024)
        throw Error("CsrLoop::run: block must be in [1, 1024], got " + std::to_string(block));
    if (!planned_for(num_vertices, num_faces, levels))
        allocate(make_plan(num_vertices, num_faces, levels), stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(m_errors.data(), 0xFF, m_errors.bytes(), stream));
    for (int l = 0; l < levels; ++l) {
        const int out = (levels - 1 - l) % 2, in = 1 - out;
        Level     level{l == 0 ? d_positions : m_positions[in].data(),
                    l == 0 ? d_faces : m_faces[in].data(),
                    std::uint32_t(m_plan.vertices[l]),
                    std::uint32_t(m_plan.faces[l]),
                    m_positions[out].data(),
                    m_faces[out].data(),
                    l == 0};
        subdivide(level, block, stream);
    }
    throw_if_invalid(d_faces, num_faces, block, stream);
}

void CsrLoop::subdivide(const Level& level, int block, cudaStream_t stream)
{
    const std::uint32_t H     = 3 * level.num_faces;
    const KeyCodec      codec = codec_for(level.num_vertices);
    unsigned long long* bad   = level.first ? m_errors.data() : nullptr;

    KeyBuffers   keys(m_half_edge_keys[0].data(), m_half_edge_keys[1].data());
    ValueBuffers third(m_third_vertices[0].data(), m_third_vertices[1].data());
    build_half_edges<<<grid_for(H, block), block, 0, stream>>>(
        level.faces, H, level.num_vertices, codec, keys.Current(), third.Current(),
        bad == nullptr ? nullptr : bad + kBadFace);
    RXMESH_CHECK_LAUNCH();
    std::size_t temp_bytes = m_cub_temp.size();
    RXMESH_CHECK_CUDA(
        sort_half_edges(m_cub_temp.data(), temp_bytes, keys, third, H, codec, stream));
    column_pointers<<<grid_for(std::uint64_t(H) + 1, block), block, 0, stream>>>(
        keys.Current(), H, level.num_vertices, codec, m_column_ptr.data());
    RXMESH_CHECK_LAUNCH();
    std::uint32_t* edge_ids = third.Alternate();  // free once sorted
    temp_bytes              = m_cub_temp.size();
    RXMESH_CHECK_CUDA(
        number_edges(m_cub_temp.data(), temp_bytes, keys.Current(), edge_ids, H, codec, stream));

    const Adjacency adj{codec,          level.num_vertices, H,       m_column_ptr.data(),
                        keys.Current(), third.Current(),    edge_ids};
    refine_faces<<<grid_for(level.num_faces, block), block, 0, stream>>>(
        adj, level.faces, level.num_faces, level.refined_faces);
    RXMESH_CHECK_LAUNCH();
    vertex_points<<<grid_for(level.num_vertices, block), block, 0, stream>>>(adj, level.points,
                                                                             level.refined_points);
    RXMESH_CHECK_LAUNCH();
    const std::uint32_t num_edges = H / 2;
    if (level.first)
        edge_points<true><<<grid_for(H, block), block, 0, stream>>>(
            adj, num_edges, level.points, level.refined_points, bad + kBadHalfEdge);
    else
        edge_points<false><<<grid_for(H, block), block, 0, stream>>>(adj, num_edges, level.points,
                                                                     level.refined_points, nullptr);
    RXMESH_CHECK_LAUNCH();
}

void CsrLoop::throw_if_invalid(const std::uint32_t* d_faces, std::uint32_t num_faces, int block,
                               cudaStream_t stream)
{
    unsigned long long first_bad[2];
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(first_bad, m_errors.data(), sizeof(first_bad),
                                      cudaMemcpyDeviceToHost, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    if (first_bad[kBadFace] != kNone)
        throw InvalidInputError("CsrLoop: face " + std::to_string(first_bad[kBadFace]) +
                                " has a vertex id >= " + std::to_string(m_plan.vertices[0]));
    if (first_bad[kBadHalfEdge] == kNone)
        return;
    const auto        a    = std::uint32_t(first_bad[kBadHalfEdge] >> 32);
    const auto        b    = std::uint32_t(first_bad[kBadHalfEdge]);
    const std::string edge = "(" + std::to_string(a) + " -> " + std::to_string(b) + ")";
    if (a == b)
        throw InvalidInputError("CsrLoop: half-edge " + edge +
                                " joins a vertex to itself; the mesh is not a closed manifold");
    DeviceBuffer<unsigned int> count(1, stream);
    count.memset(0);
    const std::uint32_t H = 3 * num_faces;
    count_half_edges<<<grid_for(H, block), block, 0, stream>>>(d_faces, H, b, a, count.data());
    RXMESH_CHECK_LAUNCH();
    const unsigned int twins = read_back(count.data(), stream);
    throw InvalidInputError("CsrLoop: half-edge " + edge + " has " + std::to_string(twins) +
                            " opposite half-edges (" + std::to_string(b) + " -> " +
                            std::to_string(a) + "); a closed manifold mesh has exactly one");
}

std::uint32_t CsrLoop::num_vertices() const
{
    return m_plan.vertices.empty() ? 0 : std::uint32_t(m_plan.vertices.back());
}

std::uint32_t CsrLoop::num_faces() const
{
    return m_plan.faces.empty() ? 0 : std::uint32_t(m_plan.faces.back());
}

std::size_t CsrLoop::peak_bytes() const
{
    std::size_t bytes = m_column_ptr.bytes() + m_cub_temp.bytes() + m_errors.bytes();
    for (int i = 0; i < 2; ++i)
        bytes += m_positions[i].bytes() + m_faces[i].bytes() + m_half_edge_keys[i].bytes() +
                 m_third_vertices[i].bytes();
    return bytes;
}

}  // namespace rxmesh::bench
