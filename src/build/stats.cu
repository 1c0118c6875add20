// Mesh statistics on the GPU (same definitions as reference::compute_stats).
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "rxmesh/build/topology.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/launch.cuh"
#include "core/sequences.cuh"
#include "core/union_find.cuh"

namespace rxmesh {
namespace {

using detail::cub_call;

struct RowSizeIs
{
    const std::uint32_t* offsets;
    std::uint32_t        lo, hi;  // counts rows with lo <= size <= hi
    __host__ __device__ std::uint64_t operator()(std::uint32_t r) const
    {
        const std::uint32_t s = offsets[r + 1] - offsets[r];
        return (s >= lo && s <= hi) ? 1 : 0;
    }
};

//! 1 for a referenced vertex that lies on a non-manifold edge or whose
//! incident faces form more than one fan. The fan containing the first
//! incident face is walked across manifold edges around the vertex, in both
//! directions; the vertex is manifold iff that walk visits every face.
struct IsNonManifoldVertex
{
    const std::uint32_t* faces;
    const std::uint32_t* fe;
    const std::uint32_t* ef_offsets;
    const std::uint32_t* ef_faces;
    const std::uint32_t* ve_offsets;
    const std::uint32_t* ve_edges;
    const std::uint32_t* vf_offsets;
    const std::uint32_t* vf_faces;

    //! The edge of face f incident to v other than `not_this`.
    __device__ std::uint32_t other_edge_at(std::uint32_t f,
                                           std::uint32_t v,
                                           std::uint32_t not_this) const
    {
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t e = fe[3 * f + k] >> 1;
            const bool touches =
                faces[3 * f + k] == v || faces[3 * f + (k + 1) % 3] == v;
            if (touches && e != not_this)
                return e;
        }
        return not_this;  // unreachable for valid faces
    }

    //! Walks from face `start` leaving through `edge`; counts faces visited
    //! beyond start. Sets `closed` when the walk comes back to start.
    __device__ std::uint32_t walk(std::uint32_t start,
                                  std::uint32_t v,
                                  std::uint32_t edge,
                                  std::uint32_t limit,
                                  bool&         closed) const
    {
        std::uint32_t f = start, count = 0;
        closed          = false;
        while (count <= limit) {
            const std::uint32_t b = ef_offsets[edge], e = ef_offsets[edge + 1];
            if (e - b != 2)
                return count;  // boundary edge: the fan ends here
            const std::uint32_t g = ef_faces[b] == f ? ef_faces[b + 1] : ef_faces[b];
            if (g == start) {
                closed = true;
                return count;
            }
            ++count;
            edge = other_edge_at(g, v, edge);
            f    = g;
        }
        return count;
    }

    __device__ std::uint64_t operator()(std::uint32_t v) const
    {
        const std::uint32_t fb = vf_offsets[v], fend = vf_offsets[v + 1];
        const std::uint32_t degree = fend - fb;
        if (degree == 0)
            return 0;  // unreferenced: not counted at all
        for (std::uint32_t i = ve_offsets[v]; i < ve_offsets[v + 1]; ++i) {
            const std::uint32_t e = ve_edges[i];
            if (ef_offsets[e + 1] - ef_offsets[e] > 2)
                return 1;
        }
        const std::uint32_t start = vf_faces[fb];
        const std::uint32_t first = other_edge_at(start, v, ~0u);
        const std::uint32_t second = other_edge_at(start, v, first);
        bool                closed = false;
        std::uint32_t       fan    = 1 + walk(start, v, first, degree, closed);
        if (!closed)
            fan += walk(start, v, second, degree, closed);
        return fan < degree ? 1 : 0;
    }
};

__global__ void union_edges(const std::uint32_t* ev,
                            std::uint32_t        num_edges,
                            std::uint32_t*       parent)
{
    RXMESH_FOR_EACH_ITEM(e, num_edges) { detail::uf_union(parent, ev[2 * e], ev[2 * e + 1]); }
}


struct IsReferencedRoot
{
    const std::uint32_t* parent;
    const std::uint32_t* vf_offsets;
    __host__ __device__ std::uint64_t operator()(std::uint32_t v) const
    {
        return (parent[v] == v && vf_offsets[v + 1] > vf_offsets[v]) ? 1 : 0;
    }
};

template <typename Functor>
std::uint64_t count_over(std::uint32_t n, Functor f, cudaStream_t stream)
{
    if (n == 0)
        return 0;
    DeviceBuffer<std::uint64_t> sum(1, stream);
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0), f);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::Sum(tmp, bytes, in, sum.data(), n, stream);
    });
    return read_back(sum.data(), stream);
}

}  // namespace

MeshStats compute_stats(const DeviceTopology& topo,
                        const std::uint32_t*  d_faces,
                        cudaStream_t          stream)
{
    if (topo.vf.offsets.size() != std::uint64_t(topo.num_vertices) + 1 ||
        topo.ve.offsets.size() != std::uint64_t(topo.num_vertices) + 1)
        throw Error("compute_stats: the topology was built without the vertex CSR");

    MeshStats s;
    s.faces = topo.num_faces;
    s.edges = topo.num_edges;
    s.vertices = count_over(topo.num_vertices,
                            RowSizeIs{topo.vf.offsets.data(), 1, ~0u}, stream);
    s.boundary_edges =
        count_over(topo.num_edges, RowSizeIs{topo.ef.offsets.data(), 1, 1}, stream);
    s.nonmanifold_edges =
        count_over(topo.num_edges, RowSizeIs{topo.ef.offsets.data(), 3, ~0u}, stream);
    s.nonmanifold_vertices = count_over(
        topo.num_vertices,
        IsNonManifoldVertex{d_faces, topo.fe.data(), topo.ef.offsets.data(),
                            topo.ef.indices.data(), topo.ve.offsets.data(),
                            topo.ve.indices.data(), topo.vf.offsets.data(),
                            topo.vf.indices.data()},
        stream);

    DeviceBuffer<std::uint32_t> parent(topo.num_vertices, stream);
    detail::fill_sequence(parent.data(), topo.num_vertices, stream);
    if (topo.num_edges > 0) {
        union_edges<<<detail::flat_grid(topo.num_edges), detail::kFlatBlockThreads, 0,
                      stream>>>(topo.ev.data(), topo.num_edges, parent.data());
        RXMESH_CHECK_LAUNCH();
    }
    s.components = count_over(topo.num_vertices,
                              IsReferencedRoot{parent.data(), topo.vf.offsets.data()}, stream);
    s.euler = std::int64_t(s.vertices) - std::int64_t(s.edges) + std::int64_t(s.faces);
    return s;
}

}  // namespace rxmesh
