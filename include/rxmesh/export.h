// Exporting per-vertex values and the mesh in the INPUT vertex order.
//
// RXMesh renumbers vertices by patch; these functions undo that for output.
// The output has one row per INPUT vertex, in input order, whatever the build
// did to it (input_vertex_to_global()):
//   - a vertex the mesh kept takes its global vertex's values;
//   - welded copies (BuildOptions::weld) each take the values of the one
//     global vertex they became, so they all appear, with equal values;
//   - a vertex the mesh dropped (referenced by no face, or only by dropped
//     faces) takes a caller-given value (`dropped`); write_ply keeps its
//     input position.
// So a file written from a mesh lines up row by row with the file it was read
// from, and the input's faces index it unchanged.
//
// The values come as typed views of device memory (core/attribute_view.h):
// an Attribute converts to one, and so does a user's own buffer through
// VertexView<const float, 3>(ptr, mesh.num_vertices()).
//
//   auto normals = mesh.add_vertex_attribute<float, 3>("normal");
//   ...
//   write_ply("out.ply", mesh, soup,
//             input_order_scalars<3>(mesh, normals, {"nx", "ny", "nz"}));
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/io.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

namespace detail {

template <typename T>
struct Identity
{
    using type = T;
};

//! Input vertex id -> global vertex id, ~0u where the mesh dropped the input
//! vertex (input_vertex_to_global(), downloaded: synchronous).
std::vector<std::uint32_t> input_to_global(const RXMesh& mesh);

//! \throw Error naming `what` when `num_elements` is not the vertex count.
void require_vertex_count(const RXMesh& mesh, std::uint32_t num_elements, const std::string& what);

//! The view's device values on the host (synchronous).
template <typename T, int N>
std::vector<T> download(VertexView<const T, N> values)
{
    std::vector<T> host(values.num_values());
    if (!host.empty())
        RXMESH_CHECK_CUDA(
            cudaMemcpy(host.data(), values.data(), values.num_bytes(), cudaMemcpyDeviceToHost));
    return host;
}

//! Row i of the result is row to_global[i] of `global` (N values a row), or
//! N times `dropped` where to_global[i] is ~0u.
template <typename T, int N>
std::vector<T> gather_input_rows(const std::vector<std::uint32_t>& to_global,
                                 const std::vector<T>& global, T dropped)
{
    std::vector<T> out(to_global.size() * N, dropped);
    for (std::size_t i = 0; i < to_global.size(); ++i)
        if (to_global[i] != ~0u)
            for (int k = 0; k < N; ++k) out[i * N + k] = global[std::size_t(to_global[i]) * N + k];
    return out;
}

}  // namespace detail

//! The values (N per vertex, in the mesh's global order) with one row of N
//! per INPUT vertex, in input order (see the top of this file); an input
//! vertex the mesh dropped gets `dropped` in each component. Synchronous.
//! \throw Error when the view's size is not the mesh's vertex count.
template <typename T, int N>
std::vector<T> to_input_order(const RXMesh& mesh, VertexView<const T, N> values,
                              typename detail::Identity<T>::type dropped = T{})
{
    detail::require_vertex_count(mesh, values.num_elements(), "to_input_order: the values");
    return detail::gather_input_rows<T, N>(detail::input_to_global(mesh), detail::download(values),
                                           dropped);
}

//! The same for anything that converts to a VertexView<const T, N>: a
//! VertexAttribute<T, N> or a mutable VertexView<T, N>.
template <typename Values, typename T = std::remove_const_t<typename Values::value_type>,
          int N    = Values::components,
          typename = std::enable_if_t<std::is_same_v<typename Values::id_type, VertexId> &&
                                      !std::is_same_v<Values, VertexView<const T, N>>>>
std::vector<T> to_input_order(const RXMesh& mesh, const Values& values,
                              typename detail::Identity<T>::type dropped = T{})
{
    return to_input_order<T, N>(mesh, VertexView<const T, N>(values), dropped);
}

//! Moved vertices in input order and how far each moved.
struct InputOrderMoved
{
    std::vector<Vec3f> positions;     //!< as input_order_positions
    std::vector<float> displacement;  //!< |position - input position| (0 where dropped)
};

//! input_order_positions and each input vertex's displacement from its
//! position in `input`, gathered and measured on the GPU (large meshes are
//! written without host passes over them). Synchronous.
//! \throw Error when `input` or `moved` does not match the mesh.
InputOrderMoved input_order_moved(const RXMesh& mesh, const TriangleSoup& input,
                                  VertexView<const float, 3> moved);

//! The positions to write, one per INPUT vertex in input order: those of
//! `positions` (global order, e.g. an algorithm's result) through
//! to_input_order, where an input vertex the mesh dropped keeps its position
//! in `input` (the soup the mesh was built from). Synchronous.
//! \throw Error when `input` or `positions` does not match the mesh.
std::vector<Vec3f> input_order_positions(const RXMesh& mesh, const TriangleSoup& input,
                                         VertexView<const float, 3> positions);

//! N named PLY vertex properties (one per component of `values`), in input
//! order (to_input_order, `dropped` for a dropped input vertex).
//! \throw Error naming the properties when the view's size is not the
//!        mesh's vertex count.
template <int N>
std::vector<io::VertexScalar> input_order_scalars(const RXMesh&                     mesh,
                                                  VertexView<const float, N>        values,
                                                  const std::array<std::string, N>& names,
                                                  float                             dropped = 0.f)
{
    std::string what = "vertex propert" + std::string(N == 1 ? "y" : "ies");
    for (int k = 0; k < N; ++k) what += (k ? ", '" : " '") + names[k] + "'";
    detail::require_vertex_count(mesh, values.num_elements(), what);
    const std::vector<float>      rows = to_input_order<float, N>(mesh, values, dropped);
    std::vector<io::VertexScalar> out(N);
    for (int k = 0; k < N; ++k) {
        out[k].name = names[k];
        out[k].values.resize(rows.size() / N);
        for (std::size_t i = 0; i < out[k].values.size(); ++i) out[k].values[i] = rows[i * N + k];
    }
    return out;
}

//! Writes a binary little-endian PLY (io::write_ply) with one vertex per
//! INPUT vertex, in input order, at input_order_positions(mesh, input,
//! positions); the input's faces, unchanged; and the scalars as float vertex
//! properties, each with one value per input vertex (input_order_scalars,
//! to_input_order, or values computed from the input).
//! \throw Error when `input`, `positions` or a scalar does not match;
//!        InvalidInputError for a bad property name; IOError when writing fails.
void write_ply(const std::string& path, const RXMesh& mesh, const TriangleSoup& input,
               VertexView<const float, 3>           positions,
               const std::vector<io::VertexScalar>& scalars = {});

//! The same at the mesh's own positions.
void write_ply(const std::string& path, const RXMesh& mesh, const TriangleSoup& input,
               const std::vector<io::VertexScalar>& scalars = {});

//! Global vertex ids sorted by increasing input id (global_vertex_to_input():
//! the first input copy of a welded vertex): a compact numbering close to the
//! input's, with no row for welded copies or dropped vertices, for baselines
//! that want the mesh "as loaded". Not an export order: use to_input_order.
std::vector<std::uint32_t> input_vertex_order(const RXMesh& mesh);

//! The inverse of input_vertex_order: entry g is the rank of global vertex g.
std::vector<std::uint32_t> input_vertex_rank(const std::vector<std::uint32_t>& order);

}  // namespace rxmesh
