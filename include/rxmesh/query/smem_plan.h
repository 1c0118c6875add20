// Shared-memory plan of each query: which arrays a block keeps, in which
// order. The host sizes the launch with bytes(), the device carves the same
// arrays with a SmemCarver, so both always agree.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rxmesh/core/macros.h"
#include "rxmesh/patch/patch_limits.h"
#include "rxmesh/query/op.h"

namespace rxmesh {

//! Bump allocator over a byte buffer, 16-byte aligned pieces. On the host,
//! with a null base, it only measures. On the device it always carves, with
//! no null test: a pointer that may be null cannot be proven to point into
//! shared memory, and its accesses would compile to slower generic ones.
class SmemCarver
{
   public:
    RXMESH_HD explicit SmemCarver(unsigned char* base = nullptr) : m_base(base) {}

    template <typename T>
    RXMESH_HD T* take(std::size_t count)
    {
        m_used = (m_used + 15) & ~std::size_t(15);
#if defined(__CUDA_ARCH__)
        T* ptr = reinterpret_cast<T*>(m_base + m_used);
#else
        T* ptr = m_base ? reinterpret_cast<T*>(m_base + m_used) : nullptr;
#endif
        m_used += count * sizeof(T);
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
    // (null only in a direct query, or on the host)
    std::uint32_t* v_off = nullptr;  // vertex rows (VE or VF), nV + 1
    std::uint16_t* v_val = nullptr;
    std::uint32_t* v2_off = nullptr;  // second vertex rows (VF when oriented), nV + 1
    std::uint16_t* v2_val = nullptr;
    std::uint32_t* e_off = nullptr;  // EF rows, nE + 1 (general patches only)
    std::uint16_t* e_val = nullptr;  // EF values, or two face slots per edge
    std::uint32_t* f_off = nullptr;  // FF rows of owned faces, owned + 1 (general only)
    std::uint16_t* f_val = nullptr;
    std::uint32_t* out_ribbon = nullptr;  // global ids of the output kind's ribbon
};

//! What a block's arrays are sized by: one patch's counts on the device,
//! the largest patch's (PatchLimits) on the host.
struct QuerySizes
{
    std::uint32_t nV = 0, nE = 0, nF = 0;  // local (owned + ribbon)
    std::uint32_t owned_faces = 0;
    std::uint32_t ff_entries  = 0;
    std::uint32_t out_ribbon  = 0;  // ribbon elements of the output kind
    //! EF / FF through the general CSR transpose (a patch that is not
    //! oriented-manifold); otherwise two face slots per edge suffice.
    bool general_ef = true;
};

//! Whether a query stages M_EV / M_FE in shared memory.
RXMESH_HD constexpr bool stages_ev(Op op, bool oriented)
{
    return op == Op::VE || op == Op::VV || op == Op::VF || (oriented && can_orient(op));
}
RXMESH_HD constexpr bool stages_fe(Op op, bool oriented)
{
    return op == Op::VF || op == Op::EF || op == Op::FF || (oriented && can_orient(op));
}

//! Every array is carved, unused ones empty: on the device no pointer is
//! ever null (see SmemCarver), so test the query, not the pointer.
RXMESH_HD inline QueryArrays carve_query_arrays(SmemCarver& c, Op op, bool oriented,
                                                const QuerySizes& n)
{
    QueryArrays a;
    if (is_direct_query(op))
        return a;
    auto count = [](bool used, std::size_t k) { return used ? k : std::size_t(0); };
    const bool vertex_rows  = op == Op::VE || op == Op::VV || (oriented && can_orient(op));
    const bool vertex_rows2 = op == Op::VF || (oriented && can_orient(op));
    const bool edge_faces   = op == Op::EF || op == Op::FF;
    // the staged inputs get 32 spare bytes: they are copied as whole 16-byte
    // chunks of the store, so they start up to 15 bytes into their window
    a.m_ev   = c.take<std::uint16_t>(count(stages_ev(op, oriented), 2 * std::size_t(n.nE) + 16));
    a.m_fe   = c.take<std::uint16_t>(count(stages_fe(op, oriented), 3 * std::size_t(n.nF) + 16));
    a.v_off  = c.take<std::uint32_t>(count(vertex_rows, std::size_t(n.nV) + 1));
    a.v_val  = c.take<std::uint16_t>(count(vertex_rows, 2 * std::size_t(n.nE)));
    a.v2_off = c.take<std::uint32_t>(count(vertex_rows2, std::size_t(n.nV) + 1));
    a.v2_val = c.take<std::uint16_t>(count(vertex_rows2, 3 * std::size_t(n.nF)));
    // EF / FF, general: CSR rows (3 nF values); oriented-manifold: two face
    // slots per edge in e_val, no offsets (FF then builds its rows in registers)
    a.e_off = c.take<std::uint32_t>(count(edge_faces && n.general_ef, std::size_t(n.nE) + 1));
    a.e_val = c.take<std::uint16_t>(count(
        edge_faces, n.general_ef && 3 * std::size_t(n.nF) > 2 * std::size_t(n.nE)
                        ? 3 * std::size_t(n.nF)
                        : 2 * std::size_t(n.nE)));
    const bool general_ff = op == Op::FF && n.general_ef;
    a.f_off = c.take<std::uint32_t>(count(general_ff, std::size_t(n.owned_faces) + 1));
    a.f_val = c.take<std::uint16_t>(
        count(general_ff, std::size_t(n.ff_entries) > 3 * std::size_t(n.owned_faces)
                              ? std::size_t(n.ff_entries)
                              : 3 * std::size_t(n.owned_faces)));
    // the ribbon part of the output's local-to-global map, so the iterator
    // maps ribbon ids without a global load
    a.out_ribbon = c.take<std::uint32_t>(std::size_t(n.out_ribbon) + 8);
    return a;
}

//! Dynamic shared memory a query block needs for the largest patch.
inline std::size_t query_smem_bytes(Op op, bool oriented, const PatchLimits& l)
{
    QuerySizes n;
    n.nV          = l.vertices;
    n.nE          = l.edges;
    n.nF          = l.faces;
    n.owned_faces = l.owned_faces;
    n.ff_entries  = l.ff_entries;
    // the output kind's ribbon (of the staged queries: the direct ones carve nothing)
    n.out_ribbon = op == Op::VV ? l.ribbon_vertices : (op == Op::VE ? l.ribbon_edges : l.ribbon_faces);
    n.general_ef = l.irregular_patches > 0;
    SmemCarver c;
    carve_query_arrays(c, op, oriented, n);
    return c.used();
}

}  // namespace rxmesh
