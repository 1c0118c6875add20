// Host-side checks that the views an algorithm takes fit the mesh it runs on:
// a wrong size is the caller's mistake, reported before any kernel reads past
// an array.
#pragma once

#include <string>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/error.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

namespace detail {

template <typename T, int N, typename Id>
void require_elements(const char* algorithm, const char* kind, std::uint32_t expected,
                      const AttributeView<T, N, Id>& view)
{
    if (view.num_elements() != expected)
        throw Error(std::string(algorithm) + ": a " + kind + " view holds " +
                    std::to_string(view.num_elements()) + " elements, the mesh has " +
                    std::to_string(expected) + " " + kind + "s");
    if (expected != 0 && view.data() == nullptr)
        throw Error(std::string(algorithm) + ": a " + kind + " view has no data");
}

}  // namespace detail

//! \throw Error naming `algorithm` when a view does not hold one element per
//!        vertex of `mesh` (or has no data).
template <typename... Views>
void require_vertex_count(const char* algorithm, const RXMesh& mesh, const Views&... views)
{
    (detail::require_elements(algorithm, "vertex", mesh.num_vertices(), views), ...);
}

//! The same for edge views.
template <typename... Views>
void require_edge_count(const char* algorithm, const RXMesh& mesh, const Views&... views)
{
    (detail::require_elements(algorithm, "edge", mesh.num_edges(), views), ...);
}

}  // namespace rxmesh
