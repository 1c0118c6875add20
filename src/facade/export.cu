#include "rxmesh/export.h"

#include <algorithm>
#include <numeric>

#include "rxmesh/io/io.h"

namespace rxmesh {

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

void write_ply(const std::string&                                                   path,
               const RXMesh&                                                        mesh,
               const std::vector<std::pair<std::string, VertexAttribute<float, 1>>>& scalars)
{
    const std::vector<std::uint32_t> order = input_vertex_order(mesh);
    const std::vector<std::uint32_t> rank  = input_vertex_rank(order);

    const std::vector<float>         pos   = to_host(mesh.positions().view());
    const std::vector<std::uint32_t> faces = mesh.faces().to_host();

    TriangleSoup soup;
    soup.positions.resize(order.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        for (int d = 0; d < 3; ++d)
            soup.positions[i][d] = pos[3 * std::size_t(order[i]) + d];
    soup.faces.resize(faces.size() / 3);
    for (std::size_t f = 0; f < soup.faces.size(); ++f)
        for (int c = 0; c < 3; ++c)
            soup.faces[f][c] = rank[faces[3 * f + c]];

    std::vector<io::VertexScalar> fields;
    fields.reserve(scalars.size());
    for (const auto& [name, attr] : scalars) {
        if (attr.num_elements() != mesh.num_vertices())
            throw Error("write_ply: vertex attribute '" + name + "' has " +
                        std::to_string(attr.num_elements()) + " elements, the mesh " +
                        std::to_string(mesh.num_vertices()) + " vertices");
        fields.push_back({name, to_input_order(attr, order)});
    }
    io::write_ply(path, soup, fields);
}

}  // namespace rxmesh
