#include "rxmesh/build/topology.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <limits>
#include <string>

#include "core/csr_rows.cuh"
#include "core/sequences.cuh"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"

namespace rxmesh {
namespace {

using detail::cub_call;
using detail::flat_grid;
constexpr int kThreads = detail::kFlatBlockThreads;

__global__ void check_faces(const std::uint32_t* faces,
                            std::uint32_t        num_faces,
                            std::uint32_t        num_vertices,
                            unsigned long long*  first_bad_face)
{
    RXMESH_FOR_EACH_ITEM(f, num_faces)
    {
        const std::uint32_t a = faces[3 * f], b = faces[3 * f + 1],
                            c = faces[3 * f + 2];
        const bool ok = a < num_vertices && b < num_vertices &&
                        c < num_vertices && a != b && b != c && a != c;
        if (!ok)
            atomicMin(first_bad_face, static_cast<unsigned long long>(f));
    }
}

//! One key per face corner k: the undirected edge (v_k, v_k+1) packed as
//! (min << vbits) | max; the value names the corner (3f + k).
__global__ void make_half_edge_keys(const std::uint32_t* faces,
                                    std::uint64_t        num_corners,
                                    int                  vbits,
                                    std::uint64_t*       keys,
                                    std::uint32_t*       corners)
{
    RXMESH_FOR_EACH_ITEM(h, num_corners)
    {
        const std::uint64_t f = h / 3, k = h % 3;
        const std::uint32_t a = faces[h], b = faces[3 * f + (k + 1) % 3];
        const std::uint64_t lo = min(a, b), hi = max(a, b);
        keys[h]    = (lo << vbits) | hi;
        corners[h] = static_cast<std::uint32_t>(h);
    }
}

struct IsFirstOfRun64
{
    const std::uint64_t* keys;
    __host__ __device__ std::uint32_t operator()(std::uint64_t i) const
    {
        return (i == 0 || keys[i] != keys[i - 1]) ? 1u : 0u;
    }
};

//! From the sorted half-edge keys: edge ids, EV, FE with flip bits, EF.
__global__ void emit_edges(const std::uint32_t* faces,
                           const std::uint64_t* sorted_keys,
                           const std::uint32_t* sorted_corners,
                           const std::uint32_t* edge_id_plus_one,
                           std::uint64_t        num_corners,
                           int                  vbits,
                           std::uint32_t*       ev,
                           std::uint32_t*       fe,
                           std::uint32_t*       ef_offsets,
                           std::uint32_t*       ef_faces)
{
    RXMESH_FOR_EACH_ITEM(i, num_corners)
    {
        const std::uint32_t e = edge_id_plus_one[i] - 1;
        const std::uint32_t h = sorted_corners[i];
        const std::uint32_t f = h / 3, k = h % 3;
        const std::uint32_t from = faces[h], to = faces[3 * f + (k + 1) % 3];
        fe[h]       = (e << 1) | (from > to ? 1u : 0u);
        ef_faces[i] = f;
        if (i == 0 || edge_id_plus_one[i - 1] != edge_id_plus_one[i]) {
            const std::uint64_t key = sorted_keys[i];
            ev[2 * std::uint64_t(e)]     = static_cast<std::uint32_t>(key >> vbits);
            ev[2 * std::uint64_t(e) + 1] =
                static_cast<std::uint32_t>(key & ((std::uint64_t(1) << vbits) - 1));
            ef_offsets[e] = static_cast<std::uint32_t>(i);
        }
        if (i == num_corners - 1)
            ef_offsets[e + 1] = static_cast<std::uint32_t>(num_corners);
    }
}

//! Number of ordered face pairs (f, g), f != g, that share edge e; 0 past
//! the last edge (the exclusive scan runs over num_edges + 1 items so that
//! its last output is the total).
struct FacePairsOfEdge
{
    const std::uint32_t* ef_offsets;
    std::uint32_t        num_edges;
    __host__ __device__ std::uint64_t operator()(std::uint32_t e) const
    {
        if (e >= num_edges)
            return 0;
        const std::uint64_t k = ef_offsets[e + 1] - ef_offsets[e];
        return k * (k - 1);
    }
};

__global__ void emit_face_pairs(const std::uint32_t* ef_offsets,
                                const std::uint32_t* ef_faces,
                                const std::uint64_t* pair_offsets,
                                std::uint32_t        num_edges,
                                int                  fbits,
                                std::uint64_t*       pair_keys)
{
    RXMESH_FOR_EACH_ITEM(e, num_edges)
    {
        const std::uint32_t begin = ef_offsets[e], end = ef_offsets[e + 1];
        std::uint64_t       out   = pair_offsets[e];
        for (std::uint32_t a = begin; a < end; ++a)
            for (std::uint32_t b = begin; b < end; ++b)
                if (a != b)
                    pair_keys[out++] =
                        (std::uint64_t(ef_faces[a]) << fbits) | ef_faces[b];
    }
}

__global__ void vv_from_ve(const std::uint32_t* ev,
                           const std::uint32_t* sorted_vertices,
                           const std::uint32_t* sorted_edges,
                           std::uint64_t        n,
                           std::uint32_t*       vv)
{
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        const std::uint64_t e = sorted_edges[i];
        vv[i] = ev[2 * e] + ev[2 * e + 1] - sorted_vertices[i];
    }
}

//! Stable sort of (row key, payload) pairs by row; fills csr.indices with the
//! payloads and csr.offsets with the row starts. Keys use `bits` bits.
void csr_by_sorting(const std::uint32_t*         keys,
                    DeviceBuffer<std::uint32_t>& payload,
                    std::uint64_t                n,
                    std::uint32_t                rows,
                    int                          bits,
                    DeviceCsr&                   csr,
                    DeviceBuffer<std::uint32_t>& sorted_keys,
                    cudaStream_t                 stream)
{
    sorted_keys = DeviceBuffer<std::uint32_t>(n, stream);
    csr.indices = DeviceBuffer<std::uint32_t>(n, stream);
    csr.offsets = DeviceBuffer<std::uint32_t>(std::uint64_t(rows) + 1, stream);
    if (n > 0)
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceRadixSort::SortPairs(tmp, bytes, keys, sorted_keys.data(),
                                                   payload.data(), csr.indices.data(),
                                                   n, 0, bits, stream);
        });
    detail::csr_offsets(detail::RowFromArray{sorted_keys.data()}, n, rows, csr.offsets.data(),
                        stream);
}

//! Throws when a face has a vertex index >= num_vertices or repeats a vertex
//! (names the first such face).
void validate_faces(const std::uint32_t* d_faces,
                    std::uint32_t        num_faces,
                    std::uint32_t        num_vertices,
                    cudaStream_t         stream)
{
    if (num_faces > 0) {
        DeviceBuffer<unsigned long long> bad(1, stream);
        const unsigned long long none = std::numeric_limits<unsigned long long>::max();
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(bad.data(), &none, sizeof(none),
                                          cudaMemcpyHostToDevice, stream));
        check_faces<<<flat_grid(num_faces), kThreads, 0, stream>>>(
            d_faces, num_faces, num_vertices, bad.data());
        RXMESH_CHECK_LAUNCH();
        const unsigned long long first_bad = read_back(bad.data(), stream);
        if (first_bad != none)
            throw InvalidInputError(
                "build_topology: face " + std::to_string(first_bad) +
                " has a vertex index >= " + std::to_string(num_vertices) +
                " or repeats a vertex");
    }
}

//! Edges: sorts the 3F half-edge keys; runs of equal keys are edges. Fills
//! num_edges, ev, fe (with flip bits) and ef.
void build_edges(const std::uint32_t* d_faces,
                 std::uint64_t        num_corners,
                 int                  vbits,
                 DeviceTopology&      topo,
                 cudaStream_t         stream)
{
    topo.fe         = DeviceBuffer<std::uint32_t>(num_corners, stream);
    topo.ef.indices = DeviceBuffer<std::uint32_t>(num_corners, stream);
    if (num_corners == 0) {
        topo.ev         = DeviceBuffer<std::uint32_t>(0, stream);
        topo.ef.offsets = DeviceBuffer<std::uint32_t>(1, stream);
        topo.ef.offsets.memset(0);
    } else {
        DeviceBuffer<std::uint64_t> keys(num_corners, stream), keys_alt(num_corners, stream);
        DeviceBuffer<std::uint32_t> corners(num_corners, stream),
            corners_alt(num_corners, stream);
        make_half_edge_keys<<<flat_grid(num_corners), kThreads, 0, stream>>>(
            d_faces, num_corners, vbits, keys.data(), corners.data());
        RXMESH_CHECK_LAUNCH();
        cub::DoubleBuffer<std::uint64_t> key_buf(keys.data(), keys_alt.data());
        cub::DoubleBuffer<std::uint32_t> corner_buf(corners.data(), corners_alt.data());
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceRadixSort::SortPairs(tmp, bytes, key_buf, corner_buf,
                                                   num_corners, 0, 2 * vbits, stream);
        });

        DeviceBuffer<std::uint32_t> edge_ids(num_corners, stream);
        auto first_of_run = thrust::make_transform_iterator(
            thrust::counting_iterator<std::uint64_t>(0), IsFirstOfRun64{key_buf.Current()});
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceScan::InclusiveSum(tmp, bytes, first_of_run,
                                                 edge_ids.data(), num_corners, stream);
        });
        topo.num_edges = read_back(edge_ids.data() + num_corners - 1, stream);

        topo.ev         = DeviceBuffer<std::uint32_t>(2 * std::uint64_t(topo.num_edges), stream);
        topo.ef.offsets = DeviceBuffer<std::uint32_t>(std::uint64_t(topo.num_edges) + 1, stream);
        emit_edges<<<flat_grid(num_corners), kThreads, 0, stream>>>(
            d_faces, key_buf.Current(), corner_buf.Current(), edge_ids.data(),
            num_corners, vbits, topo.ev.data(), topo.fe.data(), topo.ef.offsets.data(),
            topo.ef.indices.data());
        RXMESH_CHECK_LAUNCH();
    }
}

//! FF (from EF): every ordered pair of faces on each edge, sorted and made
//! unique.
void build_face_adjacency(std::uint32_t num_faces, int fbits, DeviceTopology& topo,
                          cudaStream_t stream)
{
    const std::uint32_t         ne = topo.num_edges;
    DeviceBuffer<std::uint64_t> pair_offsets(std::uint64_t(ne) + 1, stream);
    pair_offsets.memset(0);
    auto pairs_of_edge = thrust::make_transform_iterator(
        thrust::counting_iterator<std::uint32_t>(0), FacePairsOfEdge{topo.ef.offsets.data(), ne});
    if (ne > 0)
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceScan::ExclusiveSum(tmp, bytes, pairs_of_edge,
                                                 pair_offsets.data(), ne + 1, stream);
        });
    const std::uint64_t num_pairs = read_back(pair_offsets.data() + ne, stream);
    require_face_pairs(num_pairs);
    DeviceBuffer<std::uint64_t> pair_keys(num_pairs, stream), pair_alt(num_pairs, stream);
    DeviceBuffer<std::uint64_t> num_unique_d(1, stream);
    std::uint64_t               num_unique = 0;
    if (num_pairs > 0) {
        emit_face_pairs<<<flat_grid(ne), kThreads, 0, stream>>>(
            topo.ef.offsets.data(), topo.ef.indices.data(), pair_offsets.data(), ne,
            fbits, pair_keys.data());
        RXMESH_CHECK_LAUNCH();
        cub::DoubleBuffer<std::uint64_t> pair_buf(pair_keys.data(), pair_alt.data());
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceRadixSort::SortKeys(tmp, bytes, pair_buf, num_pairs, 0,
                                                  2 * fbits, stream);
        });
        std::uint64_t* sorted = pair_buf.Current();
        std::uint64_t* unique = pair_buf.Alternate();
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceSelect::Unique(tmp, bytes, sorted, unique,
                                             num_unique_d.data(), num_pairs, stream);
        });
        num_unique = read_back(num_unique_d.data(), stream);
        topo.ff.indices = DeviceBuffer<std::uint32_t>(num_unique, stream);
        detail::low_bits(unique, num_unique, fbits, topo.ff.indices.data(), stream);
        topo.ff.offsets = DeviceBuffer<std::uint32_t>(std::uint64_t(num_faces) + 1, stream);
        detail::csr_offsets(detail::RowFromKey{unique, fbits}, num_unique, num_faces,
                            topo.ff.offsets.data(), stream);
    } else {
        topo.ff.indices = DeviceBuffer<std::uint32_t>(0, stream);
        topo.ff.offsets = DeviceBuffer<std::uint32_t>(std::uint64_t(num_faces) + 1, stream);
        topo.ff.offsets.memset(0);
    }
}

//! VE (from EV, a stable sort by vertex) and VV (the other endpoint of each
//! VE entry, same offsets). `payload` and `sorted_vertices` are scratch shared
//! with build_vertex_faces.
void build_vertex_edges(std::uint32_t                num_vertices,
                        int                          vbits,
                        DeviceBuffer<std::uint32_t>& payload,
                        DeviceBuffer<std::uint32_t>& sorted_vertices,
                        DeviceTopology&              topo,
                        cudaStream_t                 stream)
{
    const std::uint64_t n_ve = 2 * std::uint64_t(topo.num_edges);
    payload                  = DeviceBuffer<std::uint32_t>(n_ve, stream);
    if (n_ve > 0) {
        detail::fill_sequence(payload.data(), n_ve, stream, 2);
    }
    csr_by_sorting(topo.ev.data(), payload, n_ve, num_vertices, vbits, topo.ve,
                   sorted_vertices, stream);
    topo.vv.offsets = DeviceBuffer<std::uint32_t>(std::uint64_t(num_vertices) + 1, stream);
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(topo.vv.offsets.data(), topo.ve.offsets.data(),
                                      topo.ve.offsets.bytes(), cudaMemcpyDeviceToDevice,
                                      stream));
    topo.vv.indices = DeviceBuffer<std::uint32_t>(n_ve, stream);
    if (n_ve > 0) {
        vv_from_ve<<<flat_grid(n_ve), kThreads, 0, stream>>>(
            topo.ev.data(), sorted_vertices.data(), topo.ve.indices.data(), n_ve,
            topo.vv.indices.data());
        RXMESH_CHECK_LAUNCH();
    }
}

//! VF (from the face corners): a stable sort by vertex.
void build_vertex_faces(const std::uint32_t*         d_faces,
                        std::uint64_t                num_corners,
                        std::uint32_t                num_vertices,
                        int                          vbits,
                        DeviceBuffer<std::uint32_t>& payload,
                        DeviceBuffer<std::uint32_t>& sorted_vertices,
                        DeviceTopology&              topo,
                        cudaStream_t                 stream)
{
    payload.resize_discard(num_corners);
    if (num_corners > 0) {
        detail::fill_sequence(payload.data(), num_corners, stream, 3);
    }
    csr_by_sorting(d_faces, payload, num_corners, num_vertices, vbits, topo.vf,
                   sorted_vertices, stream);
}

}  // namespace

void require_topology_size(std::uint64_t num_faces)
{
    if (num_faces > kMaxTopologyFaces)
        throw InvalidInputError("build_topology: " + std::to_string(num_faces) +
                                " faces; at most " + std::to_string(kMaxTopologyFaces) +
                                " (edge ids and vertex rows are 32-bit)");
}

void require_face_pairs(std::uint64_t face_pairs)
{
    if (face_pairs > std::numeric_limits<std::uint32_t>::max())
        throw InvalidInputError("build_topology: face adjacency would hold " +
                                std::to_string(face_pairs) +
                                " pairs of faces sharing an edge; its offsets are 32-bit (at most " +
                                std::to_string(std::numeric_limits<std::uint32_t>::max()) + ")");
}

DeviceTopology build_topology(const std::uint32_t* d_faces,
                              std::uint32_t        num_faces,
                              std::uint32_t        num_vertices,
                              TopologyParts        parts,
                              cudaStream_t         stream)
{
    require_topology_size(num_faces);

    DeviceTopology topo;
    topo.num_vertices = num_vertices;
    topo.num_faces    = num_faces;
    const std::uint64_t num_corners = std::uint64_t(num_faces) * 3;
    const int           vbits       = detail::bits_for(num_vertices);
    const int           fbits       = detail::bits_for(num_faces);

    validate_faces(d_faces, num_faces, num_vertices, stream);

    build_edges(d_faces, num_corners, vbits, topo, stream);

    if (parts.face_adjacency)
        build_face_adjacency(num_faces, fbits, topo, stream);

    DeviceBuffer<std::uint32_t> payload, sorted_vertices;  // shared by the VE and VF sorts
    if (parts.vertex_edges)
        build_vertex_edges(num_vertices, vbits, payload, sorted_vertices, topo, stream);
    if (parts.vertex_faces)
        build_vertex_faces(d_faces, num_corners, num_vertices, vbits, payload, sorted_vertices,
                           topo, stream);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return topo;
}

}  // namespace rxmesh
