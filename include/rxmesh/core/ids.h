// Distinct id types for vertices, edges and faces: a FaceId cannot index a
// vertex array by mistake, at no runtime cost on the device.
#pragma once

#include <cstdint>

#include "rxmesh/core/macros.h"

namespace rxmesh {

template <typename Tag>
struct ElementId
{
    std::uint32_t value = ~0u;

    constexpr ElementId() = default;
    RXMESH_HD constexpr explicit ElementId(std::uint32_t v) : value(v) {}
    RXMESH_HD constexpr std::uint32_t id() const { return value; }
    RXMESH_HD constexpr bool is_valid() const { return value != ~0u; }
    RXMESH_HD constexpr bool operator==(ElementId o) const { return value == o.value; }
    RXMESH_HD constexpr bool operator!=(ElementId o) const { return value != o.value; }
    RXMESH_HD constexpr bool operator<(ElementId o) const { return value < o.value; }
};

struct VertexTag {};
struct EdgeTag {};
struct FaceTag {};

using VertexId = ElementId<VertexTag>;
using EdgeId   = ElementId<EdgeTag>;
using FaceId   = ElementId<FaceTag>;

//! The element kind of an id type, for attributes and queries.
enum class ElementKind
{
    Vertex,
    Edge,
    Face
};

template <typename Id>
struct KindOf;
template <>
struct KindOf<VertexId>
{
    static constexpr ElementKind value = ElementKind::Vertex;
};
template <>
struct KindOf<EdgeId>
{
    static constexpr ElementKind value = ElementKind::Edge;
};
template <>
struct KindOf<FaceId>
{
    static constexpr ElementKind value = ElementKind::Face;
};

}  // namespace rxmesh
