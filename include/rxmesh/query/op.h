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

//! Register cap of the staged queries' kernels for experiments: >= 0
//! overrides every staged query's measured cap (OpTraits::max_registers).
#ifndef RXMESH_QUERY_MAX_REGISTERS
#define RXMESH_QUERY_MAX_REGISTERS -1
#endif

namespace detail {
//! A staged query's register cap: the measured one, unless overridden.
constexpr int staged_register_cap(int measured)
{
    return RXMESH_QUERY_MAX_REGISTERS >= 0 ? RXMESH_QUERY_MAX_REGISTERS : measured;
}
}  // namespace detail

//! Every fact of one query, in one place: adding a query means its enum
//! value, its traits here (and its line in op_facts and to_string below),
//! and its row builder (query/block_query.cuh).
//! - Source, Output: the element id types of a row's source and entries.
//! - direct: rows read straight from the store in global memory, each owned
//!   row on its own (query/direct_rows.cuh: no shared memory, no barrier);
//!   otherwise the rows are a transpose built in shared memory.
//! - row_length: the fixed length of a direct query's rows (K); 0 where
//!   rows vary in length.
//! - orientable: can return the one-ring in counter-clockwise order.
//! - default_threads: threads per query block (one block per patch).
//!   Measured on an H100 (benchmarks/results, block sweep): smaller blocks
//!   win because more patches per SM overlap one patch's load latency with
//!   another's work; VV and VE (little shared memory) are fastest at 64, the
//!   others at 128, where 64-thread blocks would be limited by shared memory
//!   or by their per-face loops.
//! - max_registers: register cap of the query's kernel (0: the compiler's
//!   choice), chosen by measurement (H100, in git history:
//!   benchmarks/results/nvidia-h100/README.md): EV, FE, FV hold four rows in
//!   flight and EF, FF four short rows: they are
//!   fastest at full occupancy; VV, VE, VF lose when capped. A lambda that
//!   needs many registers spills under a cap: launch your own kernel with
//!   RXMesh::query<Op>() then. RXMESH_QUERY_MAX_REGISTERS overrides the
//!   staged queries' caps (experiments).
template <Op op>
struct OpTraits;

#define RXMESH_OP_TRAITS(OP, SRC, OUT, DIRECT, K, ORIENTABLE, THREADS, REGISTERS) \
    template <>                                                                   \
    struct OpTraits<Op::OP>                                                       \
    {                                                                             \
        using Source                          = SRC;                              \
        using Output                          = OUT;                              \
        static constexpr bool direct          = DIRECT;                           \
        static constexpr int  row_length      = K;                                \
        static constexpr bool orientable      = ORIENTABLE;                       \
        static constexpr int  default_threads = THREADS;                          \
        static constexpr int  max_registers   = REGISTERS;                        \
    };
//               op  Source    Output    direct K  orientable threads registers
RXMESH_OP_TRAITS(VV, VertexId, VertexId, false, 0, true, 64, detail::staged_register_cap(0))
RXMESH_OP_TRAITS(VE, VertexId, EdgeId, false, 0, true, 64, detail::staged_register_cap(0))
RXMESH_OP_TRAITS(VF, VertexId, FaceId, false, 0, true, 128, detail::staged_register_cap(0))
RXMESH_OP_TRAITS(EV, EdgeId, VertexId, true, 2, false, 128, 32)
RXMESH_OP_TRAITS(EF, EdgeId, FaceId, false, 0, false, 128, detail::staged_register_cap(32))
RXMESH_OP_TRAITS(FV, FaceId, VertexId, true, 3, false, 128, 32)
RXMESH_OP_TRAITS(FE, FaceId, EdgeId, true, 3, false, 128, 32)
RXMESH_OP_TRAITS(FF, FaceId, FaceId, false, 0, false, 128, detail::staged_register_cap(32))
#undef RXMESH_OP_TRAITS

//! The facts of OpTraits<op> for an `op` known only at run time (or in a
//! constexpr function's argument). Only copies them: the facts live in the
//! traits.
struct OpFacts
{
    bool direct;
    int  row_length;
    bool orientable;
    int  default_threads;
    int  max_registers;
};

template <Op op>
RXMESH_HD constexpr OpFacts op_facts()
{
    using T = OpTraits<op>;
    return {T::direct, T::row_length, T::orientable, T::default_threads, T::max_registers};
}

RXMESH_HD constexpr OpFacts op_facts(Op op)
{
    switch (op) {
        case Op::VV: return op_facts<Op::VV>();
        case Op::VE: return op_facts<Op::VE>();
        case Op::VF: return op_facts<Op::VF>();
        case Op::EV: return op_facts<Op::EV>();
        case Op::EF: return op_facts<Op::EF>();
        case Op::FV: return op_facts<Op::FV>();
        case Op::FE: return op_facts<Op::FE>();
        case Op::FF: return op_facts<Op::FF>();
    }
    return {};
}

namespace detail {
//! Whether a bool fact of OpTraits holds for an op known at run time: the
//! comparisons with the ops whose fact holds, or-ed (the others fold away),
//! so that device code compiles to the comparisons a hand-written test would.
template <template <Op> class Fact>
RXMESH_HD constexpr bool op_has(Op op)
{
    return (Fact<Op::VV>::value && op == Op::VV) || (Fact<Op::VE>::value && op == Op::VE) ||
           (Fact<Op::VF>::value && op == Op::VF) || (Fact<Op::EV>::value && op == Op::EV) ||
           (Fact<Op::EF>::value && op == Op::EF) || (Fact<Op::FV>::value && op == Op::FV) ||
           (Fact<Op::FE>::value && op == Op::FE) || (Fact<Op::FF>::value && op == Op::FF);
}
template <Op op>
struct IsDirect : std::bool_constant<OpTraits<op>::direct>
{
};
template <Op op>
struct IsOrientable : std::bool_constant<OpTraits<op>::orientable>
{
};
}  // namespace detail

//! Thin wrappers over the traits, for the many call sites that take an Op.
RXMESH_HD constexpr bool is_direct_query(Op op)
{
    return detail::op_has<detail::IsDirect>(op);
}
RXMESH_HD constexpr bool can_orient(Op op)
{
    return detail::op_has<detail::IsOrientable>(op);
}
RXMESH_HD constexpr int default_query_threads(Op op)
{
    return op_facts(op).default_threads;
}
RXMESH_HD constexpr int query_max_registers(Op op)
{
    return op_facts(op).max_registers;
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
