#include "rxmesh/export.h"

#include <algorithm>
#include <numeric>

#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

namespace detail {

std::vector<std::uint32_t> input_to_global(const RXMesh& mesh)
{
    return mesh.input_vertex_to_global().to_host();
}

void require_vertex_count(const RXMesh& mesh, std::uint32_t num_elements, const std::string& what)
{
    if (num_elements != mesh.num_vertices())
        throw Error(what + ": " + std::to_string(num_elements) + " elements for a mesh of " +
                    std::to_string(mesh.num_vertices()) + " vertices");
}

}  // namespace detail

namespace {

//! \throw Error unless the mesh was built from a soup of `input`'s size
//! (`mesh_inputs`: the input vertices the mesh was built from).
void require_input_of(std::size_t mesh_inputs, const TriangleSoup& input)
{
    if (mesh_inputs != input.positions.size())
        throw Error("export: the input has " + std::to_string(input.positions.size()) +
                    " vertices, the mesh was built from " + std::to_string(mesh_inputs));
}

}  // namespace

std::vector<Vec3f> input_order_positions(const RXMesh& mesh, const TriangleSoup& input,
                                         VertexView<const float, 3> positions)
{
    detail::require_vertex_count(mesh, positions.num_elements(), "export: the positions");
    const std::vector<std::uint32_t> to_global = detail::input_to_global(mesh);
    require_input_of(to_global.size(), input);
    const std::vector<float> rows =
        detail::gather_input_rows<float, 3>(to_global, detail::download(positions), 0.f);
    std::vector<Vec3f> out(to_global.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = to_global[i] == ~0u ? input.positions[i]
                                     : Vec3f{rows[3 * i], rows[3 * i + 1], rows[3 * i + 2]};
    return out;
}

namespace {

//! Input vertex i: its moved position (its input position where the mesh
//! dropped it) and the distance between the two.
__global__ void gather_moved(std::uint64_t n, const std::uint32_t* to_global,
                             VertexView<const float, 3> moved, const float* input,
                             float* positions, float* displacement)
{
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        const std::uint32_t g  = to_global[i];
        float               d2 = 0;
        for (int k = 0; k < 3; ++k) {
            const float in = input[3 * i + k];
            const float p  = g == ~0u ? in : moved(VertexId(g), k);
            positions[3 * i + k] = p;
            d2 += (p - in) * (p - in);
        }
        displacement[i] = sqrtf(d2);
    }
}

}  // namespace

InputOrderMoved input_order_moved(const RXMesh& mesh, const TriangleSoup& input,
                                  VertexView<const float, 3> moved)
{
    detail::require_vertex_count(mesh, moved.num_elements(), "export: the positions");
    const DeviceBuffer<std::uint32_t>& to_global = mesh.input_vertex_to_global();
    require_input_of(to_global.size(), input);
    const std::uint64_t n = input.positions.size();
    InputOrderMoved     out{std::vector<Vec3f>(n), std::vector<float>(n)};
    if (n == 0)
        return out;
    DeviceBuffer<float> in(3 * n), positions(3 * n), displacement(n);
    in.upload(input.positions.front().data(), 3 * n);
    gather_moved<<<detail::flat_grid(n), detail::kFlatBlockThreads>>>(
        n, to_global.data(), moved, in.data(), positions.data(), displacement.data());
    RXMESH_CHECK_LAUNCH();
    RXMESH_CHECK_CUDA(cudaMemcpy(out.positions.front().data(), positions.data(), 12 * n,
                                 cudaMemcpyDeviceToHost));
    RXMESH_CHECK_CUDA(cudaMemcpy(out.displacement.data(), displacement.data(), 4 * n,
                                 cudaMemcpyDeviceToHost));
    return out;
}

void write_ply(const std::string& path, const RXMesh& mesh, const TriangleSoup& input,
               VertexView<const float, 3> positions, const std::vector<io::VertexScalar>& scalars)
{
    const std::vector<Vec3f> moved = input_order_positions(mesh, input, positions);
    for (const io::VertexScalar& s : scalars)
        if (s.values.size() != moved.size())
            throw Error("write_ply: vertex property '" + s.name + "' has " +
                        std::to_string(s.values.size()) + " values, the input " +
                        std::to_string(moved.size()) + " vertices");
    io::write_ply(path, moved, input.faces, {}, scalars);
}

void write_ply(const std::string& path, const RXMesh& mesh, const TriangleSoup& input,
               const std::vector<io::VertexScalar>& scalars)
{
    write_ply(path, mesh, input, mesh.positions(), scalars);
}

std::vector<std::uint32_t> input_vertex_order(const RXMesh& mesh)
{
    const std::vector<std::uint32_t> to_input = mesh.global_vertex_to_input().to_host();
    std::vector<std::uint32_t>       order(to_input.size());
    std::iota(order.begin(), order.end(), 0u);
    // input ids are distinct (each input vertex maps to one global vertex);
    // the tie-break on the global id only makes the order total regardless
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return to_input[a] != to_input[b] ? to_input[a] < to_input[b] : a < b;
    });
    return order;
}

std::vector<std::uint32_t> input_vertex_rank(const std::vector<std::uint32_t>& order)
{
    std::vector<std::uint32_t> rank(order.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        rank[order[i]] = static_cast<std::uint32_t>(i);
    return rank;
}

}  // namespace rxmesh
