// Shared-memory plan of each query: which arrays a block keeps, in which
// order. The host sizes the launch with bytes(), the device carves the same
// arrays with a SmemCarver, so both always agree.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rxmesh/core/macros.h"
#include "rxmesh/query/op.h"

namespace rxmesh {

//! Largest per-patch sizes of a store (what a query block must fit).
struct PatchLimits
{
    std::uint32_t vertices  = 0;  // local (owned + ribbon)
    std::uint32_t edges     = 0;
    std::uint32_t faces     = 0;
    std::uint32_t owned_faces = 0;
    std::uint32_t ff_entries  = 0;  // FF outputs of a patch's owned faces
};

//! Bump allocator over a byte buffer, 16-byte aligned pieces. With a null
//! base it only measures.
class SmemCarver
{
   public:
    RXMESH_HD explicit SmemCarver(unsigned char* base = nullptr) : m_base(base) {}

    template <typename T>
    RXMESH_HD T* take(std::size_t count)
    {
        m_used       = (m_used + 15) & ~std::size_t(15);
        T* ptr       = m_base ? reinterpret_cast<T*>(m_base + m_used) : nullptr;
        m_used      += count * sizeof(T);
        return ptr;
    }
    RXMESH_HD std::size_t used() const { return m_used; }

   private:
    unsigned char* m_base = nullptr;
    std::size_t    m_used = 0;
};

//! The arrays of a query block, carved in a fixed order. Unused ones are null.
struct QueryArrays
{
    std::uint16_t* m_ev = nullptr;  // 2 per local edge
    std::uint16_t* m_fe = nullptr;  // 3 per local face (FV after conversion)
    std::uint32_t* v_off = nullptr;  // vertex rows (VE or VF), nV + 1
    std::uint16_t* v_val = nullptr;
    std::uint32_t* v2_off = nullptr;  // second vertex rows (VF when oriented), nV + 1
    std::uint16_t* v2_val = nullptr;
    std::uint32_t* e_off = nullptr;  // EF rows, nE + 1
    std::uint16_t* e_val = nullptr;
    std::uint32_t* f_off = nullptr;  // FF rows of owned faces, owned + 1
    std::uint16_t* f_val = nullptr;
    std::uint32_t* out_ribbon = nullptr;  // global ids of the output kind's ribbon
};

//! Queries whose rows are read straight from the store in global memory
//! (each owned row is independent): no shared memory, no barrier.
constexpr bool is_direct_query(Op op)
{
    return op == Op::EV || op == Op::FE || op == Op::FV;
}

RXMESH_HD inline QueryArrays carve_query_arrays(SmemCarver& c, Op op, bool oriented,
                                                std::uint32_t nV, std::uint32_t nE,
                                                std::uint32_t nF, std::uint32_t owned_faces,
                                                std::uint32_t ff_entries)
{
    QueryArrays a;
    if (is_direct_query(op))
        return a;
    const bool needs_ev = op == Op::VE || op == Op::VV || op == Op::VF ||
                          (oriented && can_orient(op));
    const bool needs_fe = op == Op::VF || op == Op::EF || op == Op::FF;
    if (needs_ev)
        a.m_ev = c.take<std::uint16_t>(2 * std::size_t(nE));
    if (needs_fe || (oriented && can_orient(op)))
        a.m_fe = c.take<std::uint16_t>(3 * std::size_t(nF));
    if (op == Op::VE || op == Op::VV || (oriented && can_orient(op))) {
        a.v_off = c.take<std::uint32_t>(std::size_t(nV) + 1);
        a.v_val = c.take<std::uint16_t>(2 * std::size_t(nE));
    }
    if (op == Op::VF || (oriented && can_orient(op))) {
        a.v2_off = c.take<std::uint32_t>(std::size_t(nV) + 1);
        a.v2_val = c.take<std::uint16_t>(3 * std::size_t(nF));
    }
    if (op == Op::EF || op == Op::FF) {
        // CSR rows (3 nF values) or, in manifold patches, two slots per edge
        a.e_off = c.take<std::uint32_t>(std::size_t(nE) + 1);
        a.e_val = c.take<std::uint16_t>(3 * std::size_t(nF) > 2 * std::size_t(nE)
                                            ? 3 * std::size_t(nF)
                                            : 2 * std::size_t(nE));
    }
    if (op == Op::FF) {
        // CSR rows or, in manifold patches, three slots per owned face
        a.f_off = c.take<std::uint32_t>(std::size_t(owned_faces) + 1);
        a.f_val = c.take<std::uint16_t>(std::size_t(ff_entries) > 3 * std::size_t(owned_faces)
                                            ? std::size_t(ff_entries)
                                            : 3 * std::size_t(owned_faces));
    }
    // the ribbon part of the output's local-to-global map (bounded by the
    // local count), so the iterator maps ribbon ids without a global load
    a.out_ribbon = c.take<std::uint32_t>(op == Op::VV ? nV : (op == Op::VE ? nE : nF));
    return a;
}

//! Dynamic shared memory a query block needs for the largest patch.
inline std::size_t query_smem_bytes(Op op, bool oriented, const PatchLimits& l)
{
    SmemCarver c;
    carve_query_arrays(c, op, oriented, l.vertices, l.edges, l.faces, l.owned_faces,
                       l.ff_entries);
    return c.used();
}

}  // namespace rxmesh
