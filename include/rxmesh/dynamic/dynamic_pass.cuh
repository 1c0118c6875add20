// The passes of DynamicMesh that call a user's device lambda: include this
// (it includes dynamic_mesh.h) in a .cu file.
//
//   PassReport r = mesh.flip_pass([=] __device__ (const EdgeContext& e) {
//       return EdgeDecision{wants_flip(e)};
//   });
//   mesh.move_vertices([=] __device__ (const VertexContext& v) {
//       Vec3 sum{}; int n = 0;
//       v.for_each_neighbor([&](VertexId u) { sum = sum + v.position(u); ++n; });
//       return n ? sum * (1.f / n) : v.position(v.vertex);
//   });
#pragma once

#include "rxmesh/core/launch.cuh"
#include "rxmesh/dynamic/dynamic_mesh.h"
#include "rxmesh/dynamic/fan.cuh"
#include "rxmesh/rxmesh.h"  // to_rxmesh()

namespace rxmesh {

//! One vertex as move_vertices' callback sees it (slot ids, typed).
struct VertexContext
{
    VertexId         vertex;
    ConnectivityView mesh;

    __device__ Vec3 position(VertexId v) const { return mesh.position(v.id()); }
    __device__ bool boundary() const { return mesh.vertex_boundary(vertex.id()); }
    __device__ bool manifold() const { return mesh.vertex_manifold(vertex.id()); }
    __device__ std::uint32_t degree() const { return mesh.vertex_degree[vertex.id()]; }
    //! Neighbours of a manifold vertex: its faces, one more on the boundary.
    __device__ std::uint32_t valence() const { return degree() + (boundary() ? 1u : 0u); }
    //! visit(VertexId u) for each neighbour u, once each; manifold vertices
    //! only (a non-manifold vertex visits nothing).
    template <typename Visit>
    __device__ void for_each_neighbor(Visit&& visit) const
    {
        if (manifold())
            dynamic_detail::for_each_neighbor(mesh, vertex.id(),
                                              [&](std::uint32_t u) { visit(VertexId(u)); });
    }
    //! visit(FaceId f, VertexId x, VertexId y) for each face (vertex, x, y)
    //! of a manifold vertex's fan, in order (the next face holds the edge
    //! (vertex, x)).
    template <typename Visit>
    __device__ void for_each_face(Visit&& visit) const
    {
        if (manifold())
            dynamic_detail::for_each_fan_face(mesh, vertex.id(), [&](std::uint32_t f, std::uint32_t x,
                                                                     std::uint32_t y) {
                visit(FaceId(f), VertexId(x), VertexId(y));
                return true;
            });
    }
};

//! Vertex v as seen from an edge callback (its one-ring, valence, boundary).
__device__ inline VertexContext vertex_context(const EdgeContext& e, VertexId v)
{
    return VertexContext{v, e.mesh};
}

namespace dynamic_detail {

template <typename Decide>
__global__ void decide_kernel(ConnectivityView c, Decide decide, std::uint8_t* asked,
                              float* position, float* priority, const std::uint8_t* near)
{
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= c.num_edges) return;
    if (near != nullptr && !near[c.edge_first(e)] && !near[c.edge_second(e)]) {
        asked[e] = kSkipped;  // nothing in its fans changed: the answer stays no
        return;
    }
    const EdgeQuad    q = edge_quad(c, e);
    EdgeContext       ctx;
    ctx.edge      = EdgeId(e);
    ctx.a         = VertexId(q.a);
    ctx.b         = VertexId(q.b);
    ctx.c         = VertexId(q.c);
    ctx.d         = VertexId(q.d);
    ctx.num_faces = q.num_faces;
    ctx.manifold  = c.edge_manifold(e);
    ctx.positions = c.positions;
    ctx.mesh      = c;
    const EdgeDecision d = decide(static_cast<const EdgeContext&>(ctx));
    asked[e]             = d.apply;
    if (position != nullptr) store3(position, e, d.position);
    priority[e] = d.priority;
}

template <typename Visit>
__global__ void vertex_kernel(ConnectivityView c, Visit visit)
{
    const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= c.num_vertex_slots || !c.vertex_alive[v]) return;
    visit(VertexContext{VertexId(v), c});
}

template <typename NewPosition>
__global__ void move_kernel(ConnectivityView c, NewPosition new_position, float* out)
{
    const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= c.num_vertex_slots || !c.vertex_alive[v]) return;
    const VertexContext ctx{VertexId(v), c};
    store3(out, v, new_position(ctx));
}

template <typename Decide>
PassReport edge_pass(DynamicMesh& mesh, EdgeOpKind kind, Decide decide, const PassLimits& limits)
{
    const auto              d     = mesh.begin_pass(kind, limits);
    const ConnectivityView& c     = mesh.connectivity();
    const std::uint32_t     block =
        detail::launcher(decide_kernel<Decide>).fit_threads(mesh.options().block_threads);
    if (c.num_edges > 0) {
        decide_kernel<<<(c.num_edges + block - 1) / block, block, 0, mesh.stream()>>>(
            c, decide, d.asked, d.position, d.priority, d.near);
        RXMESH_CHECK_LAUNCH();
    }
    return mesh.finish_pass(kind, limits);
}

}  // namespace dynamic_detail

template <typename Decide>
PassReport DynamicMesh::flip_pass(Decide decide, const PassLimits& limits)
{
    return dynamic_detail::edge_pass(*this, EdgeOpKind::Flip, decide, limits);
}

template <typename Decide>
PassReport DynamicMesh::split_pass(Decide decide, const PassLimits& limits)
{
    return dynamic_detail::edge_pass(*this, EdgeOpKind::Split, decide, limits);
}

template <typename Decide>
PassReport DynamicMesh::collapse_pass(Decide decide, const PassLimits& limits)
{
    return dynamic_detail::edge_pass(*this, EdgeOpKind::Collapse, decide, limits);
}

template <typename Visit>
void DynamicMesh::for_each_vertex(Visit visit)
{
    const ConnectivityView c = connectivity();
    const std::uint32_t    block =
        detail::launcher(dynamic_detail::vertex_kernel<Visit>).fit_threads(m_options.block_threads);
    if (c.num_vertex_slots > 0) {
        dynamic_detail::vertex_kernel<<<(c.num_vertex_slots + block - 1) / block, block, 0,
                                        m_stream>>>(c, visit);
        RXMESH_CHECK_LAUNCH();
    }
}

template <typename NewPosition>
void DynamicMesh::move_vertices(NewPosition new_position)
{
    const ConnectivityView c     = connectivity();
    float*                 out   = scratch_positions();
    const std::uint32_t    block = detail::launcher(dynamic_detail::move_kernel<NewPosition>)
                                    .fit_threads(m_options.block_threads);
    if (c.num_vertex_slots > 0) {
        dynamic_detail::move_kernel<<<(c.num_vertex_slots + block - 1) / block, block, 0,
                                      m_stream>>>(c, new_position, out);
        RXMESH_CHECK_LAUNCH();
    }
    commit_moved_positions();
}

}  // namespace rxmesh
