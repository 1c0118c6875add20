#include "rxmesh/spatial/bvh.h"

#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/spatial/bvh.cuh"

namespace rxmesh {
namespace {

constexpr std::uint32_t kNone  = ~0u;
constexpr unsigned      kBlock = 256;

unsigned grid(std::uint64_t n) { return unsigned(n == 0 ? 1 : (n + kBlock - 1) / kBlock); }

struct FaceBox
{
    const float*         positions;
    const std::uint32_t* faces;
    __device__ BvhBox operator()(std::uint32_t f) const
    {
        BvhBox b;
        for (int d = 0; d < 3; ++d) {
            const float x = positions[3 * faces[3 * f] + d], y = positions[3 * faces[3 * f + 1] + d],
                        z = positions[3 * faces[3 * f + 2] + d];
            b.lo[d]       = fminf(x, fminf(y, z));
            b.hi[d]       = fmaxf(x, fmaxf(y, z));
        }
        return b;
    }
};

struct Union
{
    __device__ BvhBox operator()(const BvhBox& a, const BvhBox& b) const
    {
        BvhBox u;
        for (int d = 0; d < 3; ++d) u.lo[d] = fminf(a.lo[d], b.lo[d]), u.hi[d] = fmaxf(a.hi[d], b.hi[d]);
        return u;
    }
};

//! 10 bits of x in [0, 1] spread to every third bit.
__device__ std::uint32_t spread(float x)
{
    std::uint32_t v = std::uint32_t(fminf(fmaxf(x * 1024.f, 0.f), 1023.f));
    v               = (v * 0x00010001u) & 0xFF0000FFu;
    v               = (v * 0x00000101u) & 0x0F00F00Fu;
    v               = (v * 0x00000011u) & 0xC30C30C3u;
    v               = (v * 0x00000005u) & 0x49249249u;
    return v;
}

__global__ void morton_kernel(FaceBox face_box, std::uint32_t n, BvhBox scene,
                              std::uint32_t* codes, std::uint32_t* ids)
{
    const std::uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= n) return;
    const BvhBox  b = face_box(f);
    std::uint32_t code = 0;
    for (int d = 0; d < 3; ++d) {
        const float extent = scene.hi[d] - scene.lo[d];
        const float c      = 0.5f * (b.lo[d] + b.hi[d]);
        code |= spread(extent > 0.f ? (c - scene.lo[d]) / extent : 0.5f) << (2 - d);
    }
    codes[f] = code;
    ids[f]   = f;
}

//! The length of the common prefix of sorted keys i and j (equal codes:
//! 32 + that of the positions), -1 outside.
__device__ int common_prefix(const std::uint32_t* codes, int n, int i, int j)
{
    if (j < 0 || j >= n) return -1;
    const std::uint32_t a = codes[i], b = codes[j];
    return a == b ? 32 + __clz(std::uint32_t(i) ^ std::uint32_t(j)) : __clz(a ^ b);
}

//! Internal node i: the range of leaves it covers and where it splits.
__global__ void hierarchy_kernel(const std::uint32_t* codes, int n, std::uint32_t* children,
                                 std::uint32_t* parent, std::uint32_t* leaf_parent)
{
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n - 1) return;
    const int d    = common_prefix(codes, n, i, i + 1) - common_prefix(codes, n, i, i - 1) >= 0 ? 1 : -1;
    const int dmin = common_prefix(codes, n, i, i - d);
    int       lmax = 2;
    while (common_prefix(codes, n, i, i + lmax * d) > dmin) lmax *= 2;
    int l = 0;
    for (int t = lmax / 2; t >= 1; t /= 2)
        if (common_prefix(codes, n, i, i + (l + t) * d) > dmin) l += t;
    const int j     = i + l * d;
    const int dnode = common_prefix(codes, n, i, j);
    int       s = 0, step = l;
    do {
        step = (step + 1) >> 1;
        if (common_prefix(codes, n, i, i + (s + step) * d) > dnode) s += step;
    } while (step > 1);
    const int           split = i + s * d + (d < 0 ? -1 : 0);
    const std::uint32_t left  = min(i, j) == split ? (kBvhLeafBit | split) : std::uint32_t(split);
    const std::uint32_t right = max(i, j) == split + 1 ? (kBvhLeafBit | (split + 1))
                                                       : std::uint32_t(split + 1);
    children[2 * i]     = left;
    children[2 * i + 1] = right;
    for (const std::uint32_t c : {left, right}) {
        if (c & kBvhLeafBit)
            leaf_parent[c & ~kBvhLeafBit] = i;
        else
            parent[c] = i;
    }
}

__global__ void leaf_boxes_kernel(FaceBox face_box, const std::uint32_t* leaf_face,
                                  std::uint32_t n, BvhBox* leaf_box)
{
    const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) leaf_box[k] = face_box(leaf_face[k]);
}

__device__ BvhBox load_box(const BvhBox* boxes, std::uint32_t i)
{
    BvhBox b;  // bypasses L1: the box may have been written by another block
    for (int d = 0; d < 3; ++d) b.lo[d] = __ldcg(&boxes[i].lo[d]), b.hi[d] = __ldcg(&boxes[i].hi[d]);
    return b;
}

//! From each leaf up: the second child to reach a node computes its box.
__global__ void node_boxes_kernel(const std::uint32_t* children, const std::uint32_t* parent,
                                  const std::uint32_t* leaf_parent, const BvhBox* leaf_box,
                                  std::uint32_t n, BvhBox* node_box, unsigned* arrivals)
{
    const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    std::uint32_t node = leaf_parent[k];
    for (std::uint32_t depth = 0; node != kNone && depth < 64; ++depth) {
        __threadfence();  // our child's box is visible before we count as arrived
        if (atomicAdd(arrivals + node, 1u) == 0) return;
        const std::uint32_t l = children[2 * node], r = children[2 * node + 1];
        const BvhBox        a = (l & kBvhLeafBit) ? leaf_box[l & ~kBvhLeafBit] : load_box(node_box, l);
        const BvhBox        b = (r & kBvhLeafBit) ? leaf_box[r & ~kBvhLeafBit] : load_box(node_box, r);
        node_box[node]        = Union{}(a, b);
        node                  = parent[node];
    }
}

__global__ void closest_kernel(TriangleBvhView v, const float* queries, std::uint32_t n,
                               float* points, float* distances, std::uint32_t* faces)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const ClosestHit h = bvh_closest(v, load3(queries, i));
    if (points) store3(points, i, h.point);
    if (distances) distances[i] = h.distance;
    if (faces) faces[i] = h.face;
}

}  // namespace

TriangleBvh::TriangleBvh(const float* positions, std::uint32_t num_vertices,
                         const std::uint32_t* faces, std::uint32_t num_faces, cudaStream_t stream)
    : m_positions(positions), m_faces(faces), m_num_faces(num_faces)
{
    (void)num_vertices;
    if (num_faces == 0) throw InvalidInputError("TriangleBvh: the mesh has no face");
    const FaceBox face_box{positions, faces};
    BvhBox        empty;
    for (int d = 0; d < 3; ++d) empty.lo[d] = FLT_MAX, empty.hi[d] = -FLT_MAX;
    const BvhBox scene = thrust::transform_reduce(
        thrust::cuda::par.on(stream), thrust::counting_iterator<std::uint32_t>(0),
        thrust::counting_iterator<std::uint32_t>(num_faces), face_box, empty, Union{});
    DeviceBuffer<std::uint32_t> codes[2] = {DeviceBuffer<std::uint32_t>(num_faces, stream),
                                            DeviceBuffer<std::uint32_t>(num_faces, stream)};
    DeviceBuffer<std::uint32_t> ids(num_faces, stream);
    m_leaf_face = DeviceBuffer<std::uint32_t>(num_faces, stream);
    morton_kernel<<<grid(num_faces), kBlock, 0, stream>>>(face_box, num_faces, scene,
                                                          codes[0].data(), ids.data());
    RXMESH_CHECK_LAUNCH();
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, codes[0].data(), codes[1].data(),
                                               ids.data(), m_leaf_face.data(), num_faces, 0, 30,
                                               stream);
    });
    const std::uint32_t internal = num_faces - 1;
    m_children    = DeviceBuffer<std::uint32_t>(2ull * std::max<std::uint32_t>(internal, 1), stream);
    m_parent      = DeviceBuffer<std::uint32_t>(std::max<std::uint32_t>(internal, 1), stream);
    m_leaf_parent = DeviceBuffer<std::uint32_t>(num_faces, stream);
    m_leaf_box    = DeviceBuffer<BvhBox>(num_faces, stream);
    m_node_box    = DeviceBuffer<BvhBox>(std::max<std::uint32_t>(internal, 1), stream);
    m_parent.memset(0xFF);
    m_leaf_parent.memset(0xFF);
    hierarchy_kernel<<<grid(internal), kBlock, 0, stream>>>(
        codes[1].data(), int(num_faces), m_children.data(), m_parent.data(), m_leaf_parent.data());
    RXMESH_CHECK_LAUNCH();
    leaf_boxes_kernel<<<grid(num_faces), kBlock, 0, stream>>>(face_box, m_leaf_face.data(),
                                                              num_faces, m_leaf_box.data());
    RXMESH_CHECK_LAUNCH();
    DeviceBuffer<unsigned> arrivals(std::max<std::uint32_t>(internal, 1), stream);
    arrivals.memset(0);
    node_boxes_kernel<<<grid(num_faces), kBlock, 0, stream>>>(
        m_children.data(), m_parent.data(), m_leaf_parent.data(), m_leaf_box.data(), num_faces,
        m_node_box.data(), arrivals.data());
    RXMESH_CHECK_LAUNCH();
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));  // before the temporaries go
}

TriangleBvhView TriangleBvh::view() const
{
    return {m_positions,       m_faces,           m_leaf_face.data(), m_leaf_box.data(),
            m_node_box.data(), m_children.data(), m_num_faces};
}

std::size_t TriangleBvh::bytes() const
{
    return m_leaf_face.allocated_bytes() + m_children.allocated_bytes() +
           m_parent.allocated_bytes() + m_leaf_parent.allocated_bytes() +
           m_leaf_box.allocated_bytes() + m_node_box.allocated_bytes();
}

void TriangleBvh::closest_points(const float* queries, std::uint32_t n, float* points,
                                 float* distances, std::uint32_t* faces, cudaStream_t stream) const
{
    if (n == 0) return;
    closest_kernel<<<grid(n), kBlock, 0, stream>>>(view(), queries, n, points, distances, faces);
    RXMESH_CHECK_LAUNCH();
}

std::vector<ClosestHit> closest_points_on_mesh(const TriangleSoup& mesh,
                                               const std::vector<Vec3f>& queries)
{
    std::vector<float>         p, q;
    std::vector<std::uint32_t> f;
    for (const auto& x : mesh.positions) p.insert(p.end(), x.begin(), x.end());
    for (const auto& t : mesh.faces) f.insert(f.end(), t.begin(), t.end());
    for (const auto& x : queries) q.insert(q.end(), x.begin(), x.end());
    const auto positions = DeviceBuffer<float>::from_host(p);
    const auto faces     = DeviceBuffer<std::uint32_t>::from_host(f);
    const auto points    = DeviceBuffer<float>::from_host(q);
    const auto n         = std::uint32_t(queries.size());
    const TriangleBvh bvh(positions.data(), std::uint32_t(mesh.positions.size()), faces.data(),
                          std::uint32_t(mesh.faces.size()));
    DeviceBuffer<float>         out(3ull * std::max<std::uint32_t>(n, 1)), distance(std::max<std::uint32_t>(n, 1));
    DeviceBuffer<std::uint32_t> face(std::max<std::uint32_t>(n, 1));
    bvh.closest_points(points.data(), n, out.data(), distance.data(), face.data());
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
    const auto o = out.to_host(), d = distance.to_host();
    const auto h = face.to_host();
    std::vector<ClosestHit> hits(n);
    for (std::uint32_t i = 0; i < n; ++i)
        hits[i] = {{o[3 * i], o[3 * i + 1], o[3 * i + 2]}, d[i], h[i]};
    return hits;
}

}  // namespace rxmesh
