// Exporting a mesh and its vertex attributes in the INPUT vertex order.
//
// RXMesh renumbers vertices by patch; these functions undo that for output.
// The output vertices are the mesh's vertices sorted by their input id
// (global_vertex_to_input(): the smallest input id among welded copies), so
// output vertex i is the global vertex with the i-th smallest input id. Input
// vertices that do not appear as such are left out: welded duplicates (their
// first copy stands for them), unreferenced input vertices and vertices used
// only by dropped faces. Without welding and with every input vertex
// referenced, the output order and count equal the input's.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rxmesh/attribute/attribute.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

//! Global vertex ids sorted by increasing input id: entry i is the global id
//! of output vertex i. Downloads global_vertex_to_input() (synchronous).
std::vector<std::uint32_t> input_vertex_order(const RXMesh& mesh);

//! The inverse of input_vertex_order: entry g is the output position of
//! global vertex g.
std::vector<std::uint32_t> input_vertex_rank(const std::vector<std::uint32_t>& order);

//! The attribute's DEVICE values (not its host mirror), N per vertex,
//! reordered so that output vertex i is global vertex order[i] (order as
//! input_vertex_order returns it). Synchronous.
//! \throw Error when an order entry is out of the attribute's range.
template <typename T, int N>
std::vector<T> to_input_order(const VertexAttribute<T, N>&      attr,
                              const std::vector<std::uint32_t>& order)
{
    std::vector<T> global(attr.num_values());
    if (!global.empty()) {
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(global.data(), attr.device_data(), attr.num_bytes(),
                                          cudaMemcpyDeviceToHost, attr.stream()));
        RXMESH_CHECK_CUDA(cudaStreamSynchronize(attr.stream()));
    }
    std::vector<T> out(order.size() * std::size_t(N));
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (order[i] >= attr.num_elements())
            throw Error("to_input_order: vertex " + std::to_string(order[i]) +
                        " is out of the attribute's " + std::to_string(attr.num_elements()) +
                        " elements");
        for (int k = 0; k < N; ++k)
            out[i * N + k] = global[std::size_t(order[i]) * N + k];
    }
    return out;
}

//! The attribute's DEVICE values (not its host mirror), N per vertex, with
//! the mesh's vertices in input order (see input_vertex_order). Synchronous.
//! \throw Error when the attribute's size is not the mesh's vertex count.
template <typename T, int N>
std::vector<T> to_input_order(const VertexAttribute<T, N>& attr, const RXMesh& mesh)
{
    if (attr.num_elements() != mesh.num_vertices())
        throw Error("to_input_order: the attribute has " + std::to_string(attr.num_elements()) +
                    " elements, the mesh " + std::to_string(mesh.num_vertices()) + " vertices");
    return to_input_order(attr, input_vertex_order(mesh));
}

//! Writes the mesh as a binary little-endian PLY (through io::write_ply):
//! positions and faces downloaded from the device, vertices in input order
//! (see the top of this file), faces in global order with their winding,
//! remapped to the output vertex numbering. Each scalar is written as a float
//! vertex property of the given name, from the attribute's device values.
//! \throw Error for a scalar whose size is not the vertex count;
//!        InvalidInputError for a bad property name; IOError when writing fails.
void write_ply(const std::string&                                              path,
               const RXMesh&                                                   mesh,
               const std::vector<std::pair<std::string, VertexAttribute<float, 1>>>& scalars = {});

}  // namespace rxmesh
