// The eight first-order queries and their source/output element types.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "rxmesh/core/ids.h"

namespace rxmesh {

enum class Op
{
    VV,  // vertex -> adjacent vertices
    VE,  // vertex -> incident edges
    VF,  // vertex -> incident faces
    EV,  // edge   -> its two vertices (smaller global id first)
    EF,  // edge   -> incident faces
    FV,  // face   -> its three vertices, in winding order
    FE,  // face   -> its three edges, (v0,v1), (v1,v2), (v2,v0)
    FF,  // face   -> faces sharing at least one edge
};

template <Op op>
struct OpTraits;

#define RXMESH_OP_TRAITS(OP, SRC, OUT)     \
    template <>                            \
    struct OpTraits<Op::OP>                \
    {                                      \
        using Source = SRC;                \
        using Output = OUT;                \
    };
RXMESH_OP_TRAITS(VV, VertexId, VertexId)
RXMESH_OP_TRAITS(VE, VertexId, EdgeId)
RXMESH_OP_TRAITS(VF, VertexId, FaceId)
RXMESH_OP_TRAITS(EV, EdgeId, VertexId)
RXMESH_OP_TRAITS(EF, EdgeId, FaceId)
RXMESH_OP_TRAITS(FV, FaceId, VertexId)
RXMESH_OP_TRAITS(FE, FaceId, EdgeId)
RXMESH_OP_TRAITS(FF, FaceId, FaceId)
#undef RXMESH_OP_TRAITS

//! Default threads per query block (one block per patch), per query.
//! Measured on an H100 (benchmarks/results, block sweep): smaller blocks
//! win because more patches per SM overlap one patch's load latency with
//! another's work; VV and VE (little shared memory) are fastest at 64, the
//! others at 128, where 64-thread blocks would be limited by shared memory
//! or by their per-face loops.
constexpr int default_query_threads(Op op)
{
    return op == Op::VV || op == Op::VE ? 64 : 128;
}

//! Queries that can return the one-ring in counter-clockwise order.
constexpr bool can_orient(Op op)
{
    return op == Op::VV || op == Op::VE || op == Op::VF;
}

RXMESH_HD inline const char* to_string(Op op)
{
    switch (op) {
        case Op::VV: return "VV";
        case Op::VE: return "VE";
        case Op::VF: return "VF";
        case Op::EV: return "EV";
        case Op::EF: return "EF";
        case Op::FV: return "FV";
        case Op::FE: return "FE";
        case Op::FF: return "FF";
    }
    return "?";
}

//! Every element is active (the default active-set predicate).
struct AllActive
{
    template <typename Id>
    RXMESH_HD bool operator()(Id) const
    {
        return true;
    }
};

namespace detail {

template <typename Active, typename = void>
struct HasPatchTest : std::false_type
{
};
template <typename Active>
struct HasPatchTest<Active, std::void_t<decltype(std::declval<const Active&>().patch(0u))>>
    : std::true_type
{
};

//! An active-set predicate may also say of a whole patch that none of its
//! elements is active (`bool patch(std::uint32_t p) const`): the block then
//! skips the patch without looking at its elements. Without it, every patch
//! may be active.
template <typename Active>
RXMESH_HD bool patch_may_be_active(const Active& active, std::uint32_t p)
{
    if constexpr (HasPatchTest<Active>::value)
        return active.patch(p);
    else
        return (void)p, true;
}

}  // namespace detail

}  // namespace rxmesh
