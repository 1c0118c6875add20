// DeviceMesh::kernel<Op>: one block per patch computes a first-order query
// and calls the user's lambda once per owned (and active) source element
// with an Iterator over the output.
//
// Two paths (RXMesh paper, appendix B, with measured changes):
// - EV, FE, FV: an owned element's row is its own row of M_EV / M_FE, so each
//   thread loads and maps its rows straight from global memory, four
//   elements in flight, with no shared memory and no barrier.
// - VV, VE, VF, EF, FF: the patch's M_EV and/or M_FE and the output's ribbon
//   map go to shared memory (16-byte loads), then block-level transposes
//   (multisplit with cub::BlockScan) build the rows; oriented VV/VE/VF walk
//   each fan. EF/FF of an oriented-manifold patch (flagged at build) skip
//   the transpose: each face writes itself into its edges' direction slots,
//   and the rows (at most three entries) are handed over in registers.
// Patches whose query does not fit shared memory run the same code over a
// global scratch buffer (see RXMesh::for_each).
//
//   template <typename F>
//   __global__ void my_kernel(rxmesh::DeviceMesh m, F f) { m.kernel<rxmesh::Op::VV>(f); }
//   auto cfg = mesh.launch_config<rxmesh::Op::VV>();
//   my_kernel<<<cfg.grid, cfg.block, cfg.smem_bytes>>>(mesh.device(), lambda);
//
// Block size: the kernel's template argument BlockThreads must equal the
// launch's block size (default default_query_threads(op): 64 or 128).
#pragma once

#include <cassert>
#include <cstdint>
#include <type_traits>

#include <cuda_pipeline_primitives.h>

#include "rxmesh/patch/patch_store.h"
#include "rxmesh/query/block_transpose.cuh"
#include "rxmesh/query/iterator.h"
#include "rxmesh/query/op.h"
#include "rxmesh/query/smem_plan.h"

namespace rxmesh {

//! One patch's sizes and local-to-global maps.
struct PatchInfo
{
    std::uint32_t nV, nE, nF;  // local counts (owned + ribbon)
    LocalToGlobal vmap, emap, fmap;
    const std::uint16_t* m_ev;  // global memory
    const std::uint16_t* m_fe;
};

struct DeviceMesh
{
    PatchStoreView store;
    PatchLimits    limits;
    //! When a patch's query does not fit shared memory, for_each runs fewer
    //! blocks, each looping over patches with its arrays in this global
    //! scratch (scratch_stride bytes per block) instead.
    unsigned char* scratch        = nullptr;
    std::size_t    scratch_stride = 0;

    __device__ PatchInfo patch(std::uint32_t p) const
    {
        PatchInfo          pi;
        const auto&        s   = store;
        const std::uint32_t rv = s.ribbon_v_offsets[p], re = s.ribbon_e_offsets[p],
                            rf = s.ribbon_f_offsets[p];
        pi.vmap = {s.vertex_offsets[p], s.vertex_offsets[p + 1] - s.vertex_offsets[p],
                   s.ribbon_v + rv};
        pi.emap = {s.edge_offsets[p], s.edge_offsets[p + 1] - s.edge_offsets[p], s.ribbon_e + re};
        pi.fmap = {s.face_offsets[p], s.face_offsets[p + 1] - s.face_offsets[p], s.ribbon_f + rf};
        pi.nV   = pi.vmap.num_owned + (s.ribbon_v_offsets[p + 1] - rv);
        pi.nE   = pi.emap.num_owned + (s.ribbon_e_offsets[p + 1] - re);
        pi.nF   = pi.fmap.num_owned + (s.ribbon_f_offsets[p + 1] - rf);
        pi.m_ev = s.m_ev + 2 * std::uint64_t(s.edge_offsets[p] + re);
        pi.m_fe = s.m_fe + 3 * std::uint64_t(s.face_offsets[p] + rf);
        return pi;
    }

    //! Runs query `op` for patch blockIdx.x. Call from a kernel launched with
    //! launch_config<op>(oriented) (grid = patches, dynamic shared memory).
    template <Op op, int BlockThreads = default_query_threads(op), typename Lambda, typename Active = AllActive>
    __device__ void kernel(Lambda&& user, Active&& active = {}, bool oriented = false) const;

    //! The same over the global scratch (scratch set, any grid, no dynamic
    //! shared memory): RXMesh::for_each's fallback for patches too large
    //! for shared memory.
    template <Op op, int BlockThreads = default_query_threads(op), typename Lambda, typename Active = AllActive>
    __device__ void kernel_in_scratch(Lambda&& user, Active&& active = {}, bool oriented = false) const;

   private:
    //! The queries that stage the patch in shared memory (kShared) or in
    //! the global scratch.
    template <Op op, int BlockThreads, bool kShared, typename Lambda, typename Active>
    __device__ void staged_query(Lambda& user, Active& active, bool oriented,
                                 typename detail::BlockArrayScan<BlockThreads>::TempStorage&
                                     scan_tmp) const;
};

namespace detail {

//! Elements each thread handles per step of a query's lambda phase: their
//! rows (and the user's independent loads, where the compiler can tell) are
//! in flight together.
inline constexpr int kElementsInFlight = 4;

//! Block-wide copy of src[0, n) into `window`, in whole 16-byte chunks of
//! the store: the window mirrors src's chunks, so src[0] lands at window +
//! (src's offset in its chunk), the pointer returned; the window must be
//! 16-byte aligned and hold n + 32 / sizeof(T) elements. In shared memory
//! (kAsync) the chunks go by cp.async, straight from global to shared memory
//! without passing through registers (complete with finish_copies() and a
//! barrier); in the global scratch by plain 16-byte loads and stores. The
//! chunk that reaches past array_end (the store's array that src lies in) is
//! copied element by element. The store's arrays start 256-byte aligned
//! (cudaMalloc), so no chunk starts before its array either.
template <bool kAsync, typename T>
__device__ T* copy_to_window(T* window, const T* src, std::uint32_t n, const T* array_end)
{
    constexpr std::uint32_t per  = 16 / sizeof(T);
    const T*                base = reinterpret_cast<const T*>(
        reinterpret_cast<std::uintptr_t>(src) & ~std::uintptr_t(15));
    const std::uint32_t head = static_cast<std::uint32_t>(src - base);
    if (n == 0)
        return window + head;
    const std::uint32_t nvec = (head + n + per - 1) / per;
    for (std::uint32_t w = threadIdx.x; w < nvec; w += blockDim.x) {
        const T* chunk = base + std::size_t(w) * per;
        if (chunk + per <= array_end) {
            if constexpr (kAsync)
                __pipeline_memcpy_async(window + w * per, chunk, 16);
            else
                *reinterpret_cast<uint4*>(window + w * per) =
                    __ldg(reinterpret_cast<const uint4*>(chunk));
        } else {
            for (std::uint32_t k = 0; k < per && chunk + k < array_end; ++k)
                window[w * per + k] = chunk[k];
        }
    }
    return window + head;
}

//! Waits for this thread's copy_to_window<true> copies (a barrier must
//! follow before other threads read them).
__device__ inline void finish_copies()
{
    __pipeline_commit();
    __pipeline_wait_prior(0);
}

//! FV in place: each M_FE entry (edge << 1 | flip) becomes the face's vertex
//! where that edge starts (the edge's second vertex when the face walks it
//! flipped), so row f is the face's vertices in winding order.
__device__ inline void fe_to_fv(std::uint16_t* fe, const std::uint16_t* ev, std::uint32_t nF)
{
    for (std::uint32_t j = threadIdx.x; j < 3 * nF; j += blockDim.x) {
        const std::uint32_t e = fe[j];
        fe[j]                 = ev[2 * (e >> 1) + (e & 1)];
    }
}

__device__ inline void swap_u16(std::uint16_t& a, std::uint16_t& b)
{
    const std::uint16_t t = a;
    a                     = b;
    b                     = t;
}

//! Puts the one-ring of local vertex v in counter-clockwise order, starting
//! at the boundary edge when v is on a boundary: faces (vf row) as the fan
//! is walked, and edges (ve row) in the same order. Left as is (any order)
//! when v is non-manifold: its faces do not form one fan.
__device__ inline void orient_one_ring(std::uint16_t v, const std::uint16_t* fv,
                                       const std::uint16_t* ev, std::uint16_t* vf,
                                       std::uint32_t d, std::uint16_t* ve, std::uint32_t de)
{
    if (d == 0)
        return;
    // face f = (v, a, b) in winding order: the fan steps from a to b
    auto a_of = [&](std::uint16_t f) {
        const std::uint16_t* t = fv + 3 * std::uint32_t(f);
        return t[0] == v ? t[1] : (t[1] == v ? t[2] : t[0]);
    };
    auto b_of = [&](std::uint16_t f) {
        const std::uint16_t* t = fv + 3 * std::uint32_t(f);
        return t[0] == v ? t[2] : (t[1] == v ? t[0] : t[1]);
    };
    // a boundary vertex starts at the face whose 'a' no face reaches; an
    // interior one at its smallest local face, so every query agrees
    std::uint32_t start = 0;
    for (std::uint32_t i = 1; i < d; ++i)
        if (vf[i] < vf[start])
            start = i;
    for (std::uint32_t i = 0; i < d; ++i) {
        bool reached = false;
        for (std::uint32_t j = 0; j < d && !reached; ++j)
            reached = b_of(vf[j]) == a_of(vf[i]);
        if (!reached) {
            start = i;
            break;
        }
    }
    swap_u16(vf[0], vf[start]);
    for (std::uint32_t i = 1; i < d; ++i) {
        const std::uint16_t want = b_of(vf[i - 1]);
        std::uint32_t       k    = i;
        while (k < d && a_of(vf[k]) != want)
            ++k;
        if (k == d)
            return;  // the fan ends early: several fans (non-manifold)
        swap_u16(vf[i], vf[k]);
    }
    const bool closed = b_of(vf[d - 1]) == a_of(vf[0]);
    if (de != (closed ? d : d + 1))
        return;  // edges do not match one fan: leave them
    for (std::uint32_t i = 0; i < de; ++i) {
        const std::uint16_t want = i < d ? a_of(vf[i]) : b_of(vf[d - 1]);
        std::uint32_t       k    = i;
        while (k < de && ev[2 * ve[k]] != want && ev[2 * ve[k] + 1] != want)
            ++k;
        if (k == de)
            return;
        swap_u16(ve[i], ve[k]);
    }
}

//! FF of owned face f: faces on its three edges (EF rows), without f and
//! without repeats. With out == nullptr only counts.
__device__ inline std::uint32_t face_neighbours(std::uint32_t f, const std::uint16_t* fe,
                                                const std::uint32_t* ef_off,
                                                const std::uint16_t* ef_val,
                                                std::uint16_t*       out)
{
    std::uint32_t n = 0;
    for (int k = 0; k < 3; ++k) {
        const std::uint32_t e = fe[3 * f + k] >> 1;
        for (std::uint32_t j = ef_off[e]; j < ef_off[e + 1]; ++j) {
            const std::uint16_t g = ef_val[j];
            if (g == f)
                continue;
            bool seen = false;
            // repeats can only come from an earlier edge of f
            for (int kk = 0; kk < k && !seen; ++kk) {
                const std::uint32_t e2 = fe[3 * f + kk] >> 1;
                for (std::uint32_t jj = ef_off[e2]; jj < ef_off[e2 + 1] && !seen; ++jj)
                    seen = ef_val[jj] == g;
            }
            if (!seen) {
                if (out)
                    out[n] = g;
                ++n;
            }
        }
    }
    return n;
}

//! The output map of a staged query, whose ribbon part was copied into a
//! window of shared memory (copy_to_window: it always has room past its
//! start): the ribbon entry is read whether or not the id is owned, then
//! selected, so mapping costs no branch. (LocalToGlobal itself reads the
//! ribbon only for ribbon ids: the direct queries' lists are in global
//! memory, where an empty list may point past the store's array.)
struct SharedRibbonMap
{
    LocalToGlobal map;
    __device__ std::uint32_t operator()(std::uint32_t local) const
    {
        const bool          owned = local < map.num_owned;
        const std::uint32_t r     = map.ribbon[owned ? 0u : local - map.num_owned];
        return owned ? map.owned_offset + local : r;
    }
};

//! Runs step(base, full) for base = 0, BlockThreads * kInFlight, ... < n:
//! each step covers elements base + j * BlockThreads + threadIdx.x, j <
//! kInFlight. `full` (std::true_type) when every element of the step exists
//! (true for all threads of the block), so that a step's lambda calls follow
//! one another without a branch: the compiler then issues the user's
//! read-only loads for later elements (an offset read with __ldg, say)
//! before the earlier elements' stores (checked in the SASS). The last,
//! partial step checks each element (std::false_type). (Measured on the
//! H100 and dropped: a per-thread exact count for the last step, 4+3+2+1
//! copies of the user's code, and a power-of-two tail; both slowed EF or FF.)
template <int BlockThreads, int kInFlight, typename Step>
__device__ void for_each_step(std::uint32_t n, Step&& step)
{
    constexpr std::uint32_t kSpan = std::uint32_t(BlockThreads) * kInFlight;
    std::uint32_t           base  = 0;
    for (; base + kSpan <= n; base += kSpan)
        step(base, std::true_type{});
    if (base < n)
        step(base, std::false_type{});
}

//! Calls user(source, iterator) for the owned, active source elements of a
//! patch whose rows hold at most three entries, kInFlight elements per thread
//! at a time (out: local -> global id of the output, e.g. LocalToGlobal):
//! row(i, raw) puts element i's local entries in raw[0, n) and returns n
//! (kFixed, when not 0: every row's size, known at compile time so that the
//! user's loop over the row unrolls; kMaxRow: the largest n, so that no code
//! is spent on entries that cannot exist). All rows of a step are read and
//! mapped to global ids first (their loads in flight together), then the
//! lambdas run on registers.
template <typename Source, typename Output, int BlockThreads, int kInFlight, std::uint32_t kFixed,
          std::uint32_t kMaxRow, typename Map, typename Row, typename Lambda, typename Active>
__device__ void emit_short_rows(const LocalToGlobal& src, const Map& out, int shift, Row&& row,
                                Lambda& user, Active& active)
{
    auto step = [&](std::uint32_t base, auto full) {
        std::uint16_t raw[kInFlight][3];
        std::uint32_t global[kInFlight][3];
        std::uint32_t size[kInFlight];
        bool          live[kInFlight];
#pragma unroll
        for (int j = 0; j < kInFlight; ++j) {
            const std::uint32_t i = base + j * BlockThreads + threadIdx.x;
            live[j]   = (full || i < src.num_owned) && active(Source(src.owned_offset + i));
            raw[j][0] = raw[j][1] = raw[j][2] = 0;
            size[j]   = kFixed;
            if (!live[j])
                continue;
            const std::uint32_t n = row(i, raw[j]);
            if constexpr (kFixed == 0)
                size[j] = min(n, kMaxRow);  // (no-op: tells the compiler the bound)
            // absent entries map local id 0 (always valid): a branch-free map
            // (SharedRibbonMap) then costs no branch at all
#pragma unroll
            for (int k = 0; k < 3; ++k) {
                const bool present = std::uint32_t(k) < kMaxRow && std::uint32_t(k) < size[j];
                const std::uint32_t local = present ? std::uint32_t(raw[j][k] >> shift) : 0u;
                global[j][k]              = present ? out(local) : 0;
            }
        }
#pragma unroll
        for (int j = 0; j < kInFlight; ++j)
            if (live[j])
                user(Source(src.owned_offset + base + j * BlockThreads + threadIdx.x),
                     Iterator<Output>(raw[j], global[j], kFixed ? kFixed : size[j], shift));
    };
    for_each_step<BlockThreads, kInFlight>(src.num_owned, step);
}

}  // namespace detail

template <Op op, int BlockThreads, typename Lambda, typename Active>
__device__ void DeviceMesh::kernel(Lambda&& user, Active&& active, bool oriented) const
{
    using Source = typename OpTraits<op>::Source;
    using Output = typename OpTraits<op>::Output;
    // launch_config<op>() and kernel<op>() must agree on the block size
    assert(blockDim.x == BlockThreads);
    constexpr int kInFlight = detail::kElementsInFlight;

    if constexpr (is_direct_query(op)) {
        // EV, FE, FV: an owned element's row is its own row of M_EV / M_FE
        // (FV reads M_EV through it), so each thread reads what it needs from
        // global memory: the patch's rows are contiguous, the reads coalesce,
        // ribbon rows are never touched, and no barrier is needed. Each thread
        // first loads and maps the rows of kInFlight elements (independent
        // loads, in flight together), then runs the lambdas.
        constexpr std::uint32_t K = op == Op::EV ? 2 : 3;
        for (std::uint32_t p = blockIdx.x; p < store.num_patches; p += gridDim.x) {
            const PatchInfo      pi  = patch(p);
            const LocalToGlobal& src = op == Op::EV ? pi.emap : pi.fmap;
            const LocalToGlobal& out = op == Op::FE ? pi.emap : pi.vmap;
            auto row = [&](std::uint32_t i, std::uint16_t (&raw)[3]) {
                if constexpr (op == Op::EV) {
                    // a row of M_EV is 4-byte aligned: one load
                    const std::uint32_t w =
                        __ldg(reinterpret_cast<const unsigned int*>(pi.m_ev + 2 * i));
                    raw[0] = static_cast<std::uint16_t>(w & 0xFFFFu);
                    raw[1] = static_cast<std::uint16_t>(w >> 16);
                } else {
#pragma unroll
                    for (int k = 0; k < 3; ++k)
                        raw[k] = __ldg(pi.m_fe + 3 * i + k);
                }
                if constexpr (op == Op::FV)  // the vertex each edge starts at
#pragma unroll
                    for (int k = 0; k < 3; ++k)
                        raw[k] = __ldg(pi.m_ev + 2 * (raw[k] >> 1) + (raw[k] & 1));
                return K;
            };
            detail::emit_short_rows<Source, Output, BlockThreads, kInFlight, K, K>(
                src, out, op == Op::FE ? 1 : 0, row, user, active);
        }
        return;
    }

    // the staged queries, specialised for shared memory: its accesses compile
    // to shared-memory instructions, not generic ones that the compiler must
    // order against the user's global stores
    // (the scratch fallback is a kernel of its own, kernel_in_scratch, so
    // that its registers do not weigh on this one)
    assert(scratch == nullptr);
    __shared__ typename detail::BlockArrayScan<BlockThreads>::TempStorage scan_tmp;
    staged_query<op, BlockThreads, true>(user, active, oriented, scan_tmp);
}

template <Op op, int BlockThreads, typename Lambda, typename Active>
__device__ void DeviceMesh::kernel_in_scratch(Lambda&& user, Active&& active, bool oriented) const
{
    assert(blockDim.x == BlockThreads);
    if constexpr (is_direct_query(op)) {
        kernel<op, BlockThreads>(user, active, oriented);  // no staging to move
    } else {
        assert(scratch != nullptr);
        __shared__ typename detail::BlockArrayScan<BlockThreads>::TempStorage scan_tmp;
        staged_query<op, BlockThreads, false>(user, active, oriented, scan_tmp);
    }
}

template <Op op, int BlockThreads, bool kShared, typename Lambda, typename Active>
__device__ void DeviceMesh::staged_query(
    Lambda& user, Active& active, bool oriented,
    typename detail::BlockArrayScan<BlockThreads>::TempStorage& scan_tmp) const
{
    using Source = typename OpTraits<op>::Source;
    using Output = typename OpTraits<op>::Output;
    constexpr bool all_active = std::is_same_v<std::decay_t<Active>, AllActive>;
    constexpr int  kInFlight  = detail::kElementsInFlight;
    extern __shared__ __align__(16) unsigned char rxmesh_query_smem[];
    const std::uint16_t* m_ev_end = store.m_ev + store.m_ev_size;
    const std::uint16_t* m_fe_end = store.m_fe + store.m_fe_size;

    for (std::uint32_t p = blockIdx.x; p < store.num_patches; p += gridDim.x) {
    __syncthreads();  // the previous patch's arrays are reused
    const PatchInfo     pi = patch(p);
    const LocalToGlobal& src = (op == Op::VV || op == Op::VE || op == Op::VF) ? pi.vmap
                               : op == Op::EF                                  ? pi.emap
                                                                               : pi.fmap;
    LocalToGlobal out = op == Op::VV ? pi.vmap : (op == Op::VE ? pi.emap : pi.fmap);
    // patches without an active source element do no query work
    if constexpr (!all_active) {
        bool any = false;
        for (std::uint32_t i = threadIdx.x; i < src.num_owned && !any; i += BlockThreads)
            any = active(Source(src.owned_offset + i));
        if (!__syncthreads_or(any))
            continue;
    }

    const bool orient = oriented && can_orient(op);
    // EF / FF of an oriented-manifold patch: edge e's faces go to slots 2e
    // (the face walking e from its first M_EV vertex) and 2e + 1 (the other
    // way), so a face's M_FE entry (e << 1 | flip) is its own slot's index
    const bool two_slots = (op == Op::EF || op == Op::FF) && store.oriented_manifold &&
                           store.oriented_manifold[p];
    QuerySizes sizes;
    sizes.nV          = pi.nV;
    sizes.nE          = pi.nE;
    sizes.nF          = pi.nF;
    sizes.owned_faces = pi.fmap.num_owned;
    sizes.ff_entries  = limits.ff_entries;
    sizes.out_ribbon  = (op == Op::VV ? pi.nV : (op == Op::VE ? pi.nE : pi.nF)) - out.num_owned;
    sizes.general_ef  = !two_slots;
    SmemCarver  carver(kShared ? rxmesh_query_smem : scratch + blockIdx.x * scratch_stride);
    QueryArrays a = carve_query_arrays(carver, op, orient, sizes);
    // the patch's matrices and the output's ribbon map: asynchronous copies
    // into shared memory, or plain copies into the global scratch
    const std::uint32_t* ribbon_end = op == Op::VV   ? store.ribbon_v + store.num_ribbon_v
                                      : op == Op::VE ? store.ribbon_e + store.num_ribbon_e
                                                     : store.ribbon_f + store.num_ribbon_f;
    const bool stage_ev = stages_ev(op, orient), stage_fe = stages_fe(op, orient);
    if (stage_ev)
        a.m_ev = detail::copy_to_window<kShared>(a.m_ev, pi.m_ev, 2 * pi.nE, m_ev_end);
    if (stage_fe)
        a.m_fe = detail::copy_to_window<kShared>(a.m_fe, pi.m_fe, 3 * pi.nF, m_fe_end);
    a.out_ribbon =
        detail::copy_to_window<kShared>(a.out_ribbon, out.ribbon, sizes.out_ribbon, ribbon_end);
    out.ribbon = a.out_ribbon;
    if (two_slots) {
        // empty slots (0xFFFF: never a local id), while the loads land; 16
        // bytes (four edges) per store, e_val is 16-byte aligned
        const std::uint32_t nquads = pi.nE / 4;
        uint4*              quads  = reinterpret_cast<uint4*>(a.e_val);
        for (std::uint32_t q = threadIdx.x; q < nquads; q += BlockThreads)
            quads[q] = make_uint4(~0u, ~0u, ~0u, ~0u);
        std::uint32_t* words = reinterpret_cast<std::uint32_t*>(a.e_val);
        for (std::uint32_t e = 4 * nquads + threadIdx.x; e < pi.nE; e += BlockThreads)
            words[e] = 0xFFFFFFFFu;
    }
    if constexpr (kShared)
        detail::finish_copies();
    __syncthreads();

    if constexpr (op == Op::EF || op == Op::FF) {
        if (two_slots) {
            // one face per thread: its three entries are its slots
            for (std::uint32_t f = threadIdx.x; f < pi.nF; f += BlockThreads) {
                const std::uint16_t* fe = a.m_fe + 3 * f;
                const std::uint16_t  e0 = fe[0], e1 = fe[1], e2 = fe[2];
                a.e_val[e0] = a.e_val[e1] = a.e_val[e2] = static_cast<std::uint16_t>(f);
            }
            __syncthreads();
            const std::uint16_t* slot = a.e_val;
            const detail::SharedRibbonMap map{out};
            if constexpr (op == Op::EF) {
                // [face walking e forward, face walking it backward], either may be absent
                auto row = [&](std::uint32_t e, std::uint16_t (&raw)[3]) {
                    const std::uint32_t w  = reinterpret_cast<const std::uint32_t*>(slot)[e];
                    const auto          lo = static_cast<std::uint16_t>(w & 0xFFFFu),
                               hi = static_cast<std::uint16_t>(w >> 16);
                    // fixed indices only: raw[] stays in registers
                    raw[0] = lo != 0xFFFFu ? lo : hi;
                    raw[1] = hi;
                    return std::uint32_t(lo != 0xFFFFu) + std::uint32_t(hi != 0xFFFFu);
                };
                detail::emit_short_rows<Source, Output, BlockThreads, kInFlight, 0, 2>(
                    src, map, 0, row, user, active);
            } else {
                // the face across each edge is in the edge's other slot; two
                // faces may share two edges (repeated vertices): listed once
                auto row = [&](std::uint32_t f, std::uint16_t (&raw)[3]) {
                    std::uint32_t n = 0;
#pragma unroll
                    for (int k = 0; k < 3; ++k) {
                        const std::uint16_t g = slot[a.m_fe[3 * f + k] ^ 1u];
                        const bool seen = (n > 0 && raw[0] == g) || (n > 1 && raw[1] == g);
                        if (g != 0xFFFFu && g != f && !seen) {
                            // fixed indices only: raw[] stays in registers
                            if (n == 0)
                                raw[0] = g;
                            else if (n == 1)
                                raw[1] = g;
                            else
                                raw[2] = g;
                            ++n;
                        }
                    }
                    return n;
                };
                detail::emit_short_rows<Source, Output, BlockThreads, kInFlight, 0, 3>(
                    src, map, 0, row, user, active);
            }
            continue;
        }
    }

    // one CSR row per owned source element: where its output lives
    const std::uint32_t* row_off = nullptr;
    const std::uint16_t* row_val = nullptr;

    if constexpr (op == Op::EF || op == Op::FF) {
        // general patches (non-manifold edges, inconsistent orientation):
        // the CSR transpose of M_FE
        detail::block_transpose<BlockThreads>(a.m_fe, pi.nF, 3, 1, pi.nE, a.e_off, a.e_val,
                                              scan_tmp);
        if constexpr (op == Op::EF) {
            row_off = a.e_off;
            row_val = a.e_val;
        } else {
            const std::uint32_t owned = pi.fmap.num_owned;
            for (std::uint32_t f = threadIdx.x; f < owned; f += BlockThreads)
                a.f_off[f] = detail::face_neighbours(f, a.m_fe, a.e_off, a.e_val, nullptr);
            if (threadIdx.x == 0)
                a.f_off[owned] = 0;
            __syncthreads();
            detail::BlockArrayScan<BlockThreads>::exclusive(a.f_off, owned + 1, scan_tmp);
            for (std::uint32_t f = threadIdx.x; f < owned; f += BlockThreads)
                detail::face_neighbours(f, a.m_fe, a.e_off, a.e_val, a.f_val + a.f_off[f]);
            __syncthreads();
            row_off = a.f_off;
            row_val = a.f_val;
        }
    } else {  // VV, VE, VF
        if (orient || op == Op::VF) {
            detail::fe_to_fv(a.m_fe, a.m_ev, pi.nF);
            __syncthreads();
            detail::block_transpose<BlockThreads>(a.m_fe, pi.nF, 3, 0, pi.nV, a.v2_off,
                                                  a.v2_val, scan_tmp);
        }
        // VV (unoriented) takes each edge's other vertex right away; oriented
        // VV needs the edges to order the ring first
        if (op == Op::VV && !orient)
            detail::block_transpose<BlockThreads, true>(a.m_ev, pi.nE, 2, 0, pi.nV, a.v_off,
                                                        a.v_val, scan_tmp);
        else if (orient || op != Op::VF)
            detail::block_transpose<BlockThreads>(a.m_ev, pi.nE, 2, 0, pi.nV, a.v_off,
                                                  a.v_val, scan_tmp);
        if (orient)
            for (std::uint32_t v = threadIdx.x; v < pi.vmap.num_owned; v += BlockThreads)
                detail::orient_one_ring(static_cast<std::uint16_t>(v), a.m_fe, a.m_ev,
                                        a.v2_val + a.v2_off[v], a.v2_off[v + 1] - a.v2_off[v],
                                        a.v_val + a.v_off[v], a.v_off[v + 1] - a.v_off[v]);
        if (op == Op::VV && orient)
            for (std::uint32_t v = threadIdx.x; v < pi.vmap.num_owned; v += BlockThreads)
                for (std::uint32_t j = a.v_off[v]; j < a.v_off[v + 1]; ++j) {
                    const std::uint32_t e = a.v_val[j];
                    a.v_val[j] = a.m_ev[2 * e] == v ? a.m_ev[2 * e + 1] : a.m_ev[2 * e];
                }
        // each thread rewrote only the rows of its own vertices: no barrier needed
        row_off = op == Op::VF ? a.v2_off : a.v_off;
        row_val = op == Op::VF ? a.v2_val : a.v_val;
    }

    // the lambdas, kInFlight elements per thread per step (unrolled, so
    // independent user code, e.g. read-only loads, overlaps across them)
    detail::for_each_step<BlockThreads, kInFlight>(src.num_owned, [&](std::uint32_t base,
                                                                      auto full) {
#pragma unroll
        for (int j = 0; j < kInFlight; ++j) {
            const std::uint32_t i = base + j * BlockThreads + threadIdx.x;
            if (!full && i >= src.num_owned)
                break;
            const Source s(src.owned_offset + i);
            if (active(s))
                user(s, Iterator<Output>(row_val + row_off[i], row_off[i + 1] - row_off[i], 0, out));
        }
    });
    }
}

}  // namespace rxmesh
