// Per-patch accumulation in shared memory: the block collective behind
// RXMesh::accumulate<Op::FV> (faces into their vertices) and Op::EV (edges
// into their vertices). The RXMesh paper's lesson: do the queries in shared
// memory first and the scattered attribute traffic after.
//
// Each block takes a patch: it stages the optional vertex input (e.g.
// positions) of the patch's local vertices in shared memory, builds the rows
// of the patch's local faces (edges) and their transpose, so that every
// vertex the patch owns has the list of its incident faces (edges): the
// ribbon holds the full one-ring of every owned vertex. Each thread then sums
// one owned vertex at a time, in registers, calling contribute(face, fv, x,
// sums) for each of the vertex's faces, and finally finalize(v, sum) once,
// so results are written once, coalesced, with no atomics at all.
//
//   // Max's vertex normals (rxmesh/algo/vertex_normals.cuh, abridged)
//   mesh.accumulate<rxmesh::Op::FV, float, 3>(
//       rxmesh::VertexInput<float, 3>{positions},            // staged per patch
//       [] __device__(rxmesh::FaceId, const rxmesh::RowView<rxmesh::VertexId>& fv,
//                     const rxmesh::StagedRow<float, 3>& x,  // x(k, d): vertex k of fv
//                     const rxmesh::VertexSums<float, 3>& sums) {
//           for (int k = 0; k < 3; ++k)
//               if (sums.owns(k)) {                          // the corner summed here
//                   float n[3];
//                   corner_normal(x, k, n);
//                   sums.add(k, n);
//               }
//       },
//       [=] __device__(rxmesh::VertexId v, const float (&sum)[3]) {
//           store_normalized(normals, v, sum);               // once per vertex
//       });
//
// Rules for contribute: it runs once for every (owned vertex, incident face)
// pair, so a face's code runs up to three times, in different threads or
// blocks; sums.owns(k) says which corner of the row this call sums (adds
// into others do nothing), so compute only that one. It must not write to
// global memory, and what it adds must depend on the face only. Every vertex
// (every active one, below) gets finalize, also one with no face (sum zero). Without an input, the
// overload without VertexInput passes no StagedRow. A patch whose arrays do
// not fit shared memory (a huge input, or a huge patch) runs the same code
// over a global scratch buffer instead. A mesh that keeps its source lists
// (RXMesh::vertex_sources, query/vertex_sources.h) gives each block its
// vertices' faces (edges) from global memory, in place of the per-call
// transpose; the sums are the same, in a fixed order.
//
// Inputs: VertexInput<U, M>{view} stages M values per vertex from device
// memory (a VertexView<const U, M>, an Attribute, or a raw pointer and a
// count); computed_vertex_input<U, M>(f) stages f(VertexId, d) instead, so
// an element-wise update is fused into the accumulation (it must depend on
// the vertex only: ribbon vertices are computed by every patch holding
// them). RXMesh::accumulate_sum: finalize returns a number, and the sum over
// all vertices is added to a device double (a block reduction, one atomic
// per block). Conjugate gradient's product does both (solver/cg.cuh):
//
//   mesh.accumulate_sum<Op::EV, float, 3>(
//       computed_vertex_input<float, 3>(DirectionUpdate{r, d_old, state}),
//       EdgeTerm{op},                                       // sums w (x_v - x_u)
//       ProductAndDot{op, dir, d_new, q},                   // writes q, returns d.q
//       &state->dq);
//
// A subset, combined otherwise: RXMesh::accumulate_scheduled takes only the
// patches a device-side PatchSchedule names and only the owned vertices an
// active set accepts (the others get neither contributions nor finalize; an
// active set's `patch(p)` retires whole patches), and combines by Combine
// (query/combine.h: Plus, or Min with +inf for a vertex with no
// contribution); contribute then receives a VertexReduction<T, N, Combine>,
// whose add combines. The geodesic propagation relaxes its window so
// (algo/geodesic.cuh):
//
//   mesh.accumulate_scheduled<Op::FV, float, 1, Min>(
//       schedule, computed_vertex_input<float, 4>(PtpStagedInput{a, x}),  // position, distance
//       PtpFaceUpdate{},                    // the face's update of the gathered corner
//       PtpFinalize{a, tol},                // min(current, least update)
//       InWindow{a});                       // level in the window
#pragma once

#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "rxmesh/core/attribute_view.h"
#include "rxmesh/query/block_transpose.cuh"
#include "rxmesh/query/combine.h"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/direct_rows.cuh"
#include "rxmesh/query/op.h"
#include "rxmesh/query/patch_launch.cuh"
#include "rxmesh/query/smem_plan.h"

namespace rxmesh {

//! One call's view of the vertex value being gathered (see the top of the
//! file): N values of type T, combined by Combine.
template <typename T, int N, typename Combine = Plus>
class VertexReduction
{
   public:
    __device__ VertexReduction(T (&sum)[N], const std::uint16_t (&local)[3], std::uint32_t self)
        : m_sum(sum), m_local{local[0], local[1], local[2]}, m_self(self)
    {
    }

    //! Whether the k-th vertex of the row is the one this call gathers for
    //! (adds into the others do nothing): lets a lambda compute only that
    //! corner.
    __device__ bool owns(int k) const { return local(k) == m_self; }

    //! Combines value[0..N) into the k-th vertex of the row.
    __device__ void add(int k, const T (&value)[N]) const
    {
        if (owns(k))
#pragma unroll
            for (int d = 0; d < N; ++d)
                m_sum[d] = detail::combine_apply<Combine>(d, m_sum[d], value[d]);
    }

   private:
    //! m_local[k] without dynamic indexing (keeps it in registers)
    __device__ std::uint32_t local(int k) const
    {
        return k == 0 ? m_local[0] : (k == 1 ? m_local[1] : m_local[2]);
    }

    T (&m_sum)[N];
    std::uint16_t m_local[3];
    std::uint32_t m_self;
};

//! The sums of accumulate and accumulate_sum.
template <typename T, int N>
using VertexSums = VertexReduction<T, N, Plus>;

//! A vertex input that accumulate (and the k-ring queries) stage in shared
//! memory per patch: M values of U per vertex, read through a view
//! (core/attribute_view.h; e.g. positions, or an Attribute, which converts).
template <typename U, int M>
struct VertexInput
{
    using value_type                = U;
    static constexpr int components = M;
    //! The size of a raw buffer given without one.
    static constexpr std::uint32_t kUnknownSize = ~std::uint32_t(0);

    VertexView<const U, M> values;

    VertexInput() = default;
    RXMESH_HD VertexInput(VertexView<const U, M> view) : values(view) {}
    //! A raw buffer of num_vertices * M values (the form that predates views;
    //! without a size the view's size is kUnknownSize, and nothing reads it).
    RXMESH_HD VertexInput(const U* data, std::uint32_t num_vertices = kUnknownSize)
        : values(data, num_vertices)
    {
    }

    RXMESH_HD const U* data() const { return values.data(); }
    __device__ U       load(std::uint32_t v, int d) const
    {
        return __ldg(&values[std::size_t(M) * v + d]);
    }
};

//! A vertex input computed while it is staged: value d of vertex v is
//! f(VertexId(v), d). Lets a caller fuse an element-wise update into the
//! accumulation (e.g. CG's search direction d = r + beta d_old).
template <typename U, int M, typename F>
struct ComputedVertexInput
{
    using value_type                = U;
    static constexpr int components = M;
    F                    f;

    __device__ U load(std::uint32_t v, int d) const { return f(VertexId(v), d); }
};

template <typename U, int M, typename F>
ComputedVertexInput<U, M, F> computed_vertex_input(F f)
{
    return ComputedVertexInput<U, M, F>{f};
}

//! No vertex input (the overload of accumulate without one).
struct NoVertexInput
{
    using value_type                = float;
    static constexpr int components = 0;

    __device__ float load(std::uint32_t, int) const { return 0.f; }
};

//! The staged input values of one row's vertices: x(k, d) is value d of
//! the k-th vertex of the row, read from shared memory.
template <typename U, int M>
class StagedRow
{
   public:
    __device__ StagedRow(const U* values, const std::uint16_t (&local)[3])
        : m_values(values), m_local{local[0], local[1], local[2]}
    {
    }
    __device__ U operator()(int k, int d) const
    {
        const std::uint32_t l = k == 0 ? m_local[0] : (k == 1 ? m_local[1] : m_local[2]);
        return m_values[std::size_t(M) * l + d];
    }

   private:
    const U*      m_values;
    std::uint16_t m_local[3];
};

namespace detail {

//! The arrays of an accumulate block, carved in a fixed order: the staged
//! input, each local source's row of local vertices, and the transpose
//! (each owned vertex's sources; not carved, null, when the mesh keeps its
//! VertexSources: query/vertex_sources.h).
template <typename U>
struct AccumulateArrays
{
    U*             staged;  // M per local vertex
    std::uint16_t* rows;    // K per local source
    std::uint32_t* v_off;   // local vertices + 1
    std::uint16_t* v_val;   // K per local source
};

template <typename Input, int K>
RXMESH_HD AccumulateArrays<typename Input::value_type> carve_accumulate(SmemCarver&   c,
                                                                        std::uint32_t nV,
                                                                        std::uint32_t sources,
                                                                        bool          cached)
{
    AccumulateArrays<typename Input::value_type> a{};
    a.staged = c.take<typename Input::value_type>(std::size_t(Input::components) * nV);
    a.rows   = c.take<std::uint16_t>(std::size_t(K) * sources);
    if (!cached) {
        a.v_off = c.take<std::uint32_t>(std::size_t(nV) + 1);
        a.v_val = c.take<std::uint16_t>(std::size_t(K) * sources);
    }
    return a;
}

//! The mesh's kept per-vertex source lists of op (unbuilt: null).
template <Op op>
RXMESH_HD VertexSourcesView kept_sources(const DeviceMesh& mesh)
{
    return op == Op::EV ? mesh.edge_sources : mesh.face_sources;
}

//! Shared-memory bytes of accumulate for the largest patch.
template <Op op, typename Input>
std::size_t accumulate_smem_bytes(const DeviceMesh& mesh)
{
    SmemCarver         c;  // as accumulate_kernel carves
    const PatchLimits& l = mesh.limits;
    carve_accumulate<Input, OpTraits<op>::row_length>(
        c, l.vertices, op == Op::EV ? l.edges : l.faces, kept_sources<op>(mesh).built());
    return c.used();
}

//! Copies the input's values of the patch's local vertices to `staged`
//! (owned ones coalesced; ribbon ones through the ribbon map).
template <int BlockThreads, typename Input>
__device__ __forceinline__ void stage_vertex_input(const PatchInfo& pi, const Input& input,
                                                   typename Input::value_type* staged)
{
    constexpr int       M = Input::components;
    const std::uint32_t n = M * pi.nV;
    for (std::uint32_t i = threadIdx.x; i < n; i += BlockThreads) {
        const std::uint32_t v = i / M;
        staged[i] = input.load(pi.vmap(v), int(i - v * M));
    }
}

//! The rows of the patch's local sources (faces for FV, edges for EV) in
//! shared memory (no barrier).
template <Op op, int BlockThreads>
__device__ __forceinline__ void stage_source_rows(const PatchInfo& pi, std::uint16_t* rows)
{
    constexpr int       K = OpTraits<op>::row_length;
    const std::uint32_t n = op == Op::EV ? pi.nE : pi.nF;
    for (std::uint32_t i = threadIdx.x; i < n; i += BlockThreads) {
        std::uint16_t raw[3];
        direct_row<op>(pi, i, raw);
#pragma unroll
        for (int k = 0; k < K; ++k)
            rows[K * i + k] = raw[k];
    }
}

//! The rows of the patch's local sources in shared memory, then their
//! transpose: each local vertex's sources (ends with a barrier).
template <Op op, int BlockThreads, typename U>
__device__ __forceinline__ void build_vertex_sources(
    const PatchInfo& pi, const AccumulateArrays<U>& a,
    typename BlockArrayScan<BlockThreads>::TempStorage& scan_tmp)
{
    stage_source_rows<op, BlockThreads>(pi, a.rows);
    __syncthreads();
    block_transpose<BlockThreads>(a.rows, op == Op::EV ? pi.nE : pi.nF, OpTraits<op>::row_length,
                                  0, pi.nV, a.v_off, a.v_val, scan_tmp);
}

//! Where each owned vertex v's sources are: local ids
//! sources[begin(v) .. end(v)). Two kinds, so that each gather is compiled
//! for one address space: the block's transpose (shared memory, or the
//! block's part of the global scratch) and the mesh's kept lists (global,
//! read-only for the kernel's life: loaded through the read-only cache).
struct BlockSourceLists
{
    const std::uint32_t* offsets;
    const std::uint16_t* sources;
    __device__ std::uint32_t begin(std::uint32_t v) const { return offsets[v]; }
    __device__ std::uint32_t end(std::uint32_t v) const { return offsets[v + 1]; }
    __device__ std::uint32_t source(std::uint32_t j) const { return sources[j]; }
};
struct KeptSourceLists
{
    const std::uint32_t* offsets;  // shifted to the patch's first owned vertex
    const std::uint16_t* sources;
    __device__ std::uint32_t begin(std::uint32_t v) const { return __ldg(offsets + v); }
    __device__ std::uint32_t end(std::uint32_t v) const { return __ldg(offsets + v + 1); }
    __device__ std::uint32_t source(std::uint32_t j) const { return __ldg(sources + j); }
};

//! Calls contribute for local source i (a face or an edge) of patch pi,
//! summing for local vertex v into sum: raw is its row of local vertices,
//! global their global ids, and value d of its k-th vertex's input is
//! staged[M * staged_at[k] + d] (the patch's staged input by local id, or
//! the flat form's values of the row's corners).
template <Op op, typename T, int N, typename Combine, typename Input, typename Contribute>
__device__ __forceinline__ void contribute_row(const PatchInfo& pi, std::uint32_t i,
                                               const std::uint16_t (&raw)[3],
                                               const std::uint32_t (&global)[3],
                                               const typename Input::value_type* staged,
                                               const std::uint16_t (&staged_at)[3],
                                               std::uint32_t v, T (&sum)[N],
                                               Contribute& contribute)
{
    using Source             = typename OpTraits<op>::Source;
    constexpr int        K   = OpTraits<op>::row_length;
    const LocalToGlobal& src = op == Op::EV ? pi.emap : pi.fmap;
    const RowView<VertexId>              row(raw, global, K, 0);
    const VertexReduction<T, N, Combine> sums(sum, raw, v);
    if constexpr (Input::components == 0)
        contribute(Source(src(i)), row, sums);
    else
        contribute(Source(src(i)), row,
                   StagedRow<typename Input::value_type, Input::components>(staged, staged_at),
                   sums);
}

//! contribute_row with the patch's input staged by local id.
template <Op op, typename T, int N, typename Combine, typename Input, typename Contribute>
__device__ __forceinline__ void contribute_source(const PatchInfo& pi, std::uint32_t i,
                                                  const std::uint16_t (&raw)[3],
                                                  const typename Input::value_type* staged,
                                                  std::uint32_t v, T (&sum)[N],
                                                  Contribute& contribute)
{
    constexpr int K = OpTraits<op>::row_length;
    std::uint32_t global[3];
#pragma unroll
    for (int k = 0; k < 3; ++k)
        global[k] = k < K ? pi.vmap(raw[k]) : 0u;
    contribute_row<op, T, N, Combine, Input>(pi, i, raw, global, staged, raw, v, sum, contribute);
}

//! What accumulate does with finalize's results: nothing (finalize returns
//! void), or add their sum over all vertices into *total (finalize returns
//! a number; RXMesh::accumulate_sum).
struct NoSum
{
    static constexpr bool enabled = false;
};
struct SumInto
{
    static constexpr bool enabled = true;
    double*               total   = nullptr;  // device memory, added to atomically
};

//! Each thread gathers its active owned vertices' sources in registers and
//! finalizes them; returns the sum of finalize's results when Reduce::enabled.
template <Op op, typename T, int N, int BlockThreads, typename Combine, typename Input,
          typename Reduce, typename Lists, typename Contribute, typename Finalize,
          typename Active>
__device__ __forceinline__ double gather_owned_vertices(
    const PatchInfo& pi, const AccumulateArrays<typename Input::value_type>& a,
    const Lists& lists, Contribute& contribute, Finalize& finalize, const Active& active)
{
    constexpr int K       = OpTraits<op>::row_length;
    double        partial = 0;
    for (std::uint32_t v = threadIdx.x; v < pi.vmap.num_owned; v += BlockThreads) {
        if (!active(VertexId(pi.vmap.owned_offset + v)))
            continue;
        T sum[N];
#pragma unroll
        for (int d = 0; d < N; ++d)
            sum[d] = combine_identity<Combine, T>(d);
        const std::uint32_t end = lists.end(v);
        for (std::uint32_t j = lists.begin(v); j < end; ++j) {
            const std::uint32_t  i      = lists.source(j);
            const std::uint16_t* r      = a.rows + K * i;
            const std::uint16_t  raw[3] = {r[0], r[1], K == 3 ? r[K - 1] : std::uint16_t(0xFFFF)};
            contribute_source<op, T, N, Combine, Input>(pi, i, raw, a.staged, v, sum,
                                                        contribute);
        }
        const T(&done)[N] = sum;
        if constexpr (Reduce::enabled)
            partial += double(finalize(VertexId(pi.vmap.owned_offset + v), done));
        else
            finalize(VertexId(pi.vmap.owned_offset + v), done);
    }
    return partial;
}

//! Adds the block's sum of `partial` into *reduce.total (one atomic per block).
template <int BlockThreads, typename Reduce>
__device__ __forceinline__ void add_block_sum(const Reduce& reduce, double partial)
{
    if constexpr (Reduce::enabled) {
        using BlockSum = cub::BlockReduce<double, BlockThreads>;
        __shared__ typename BlockSum::TempStorage tmp;
        const double block_total = BlockSum(tmp).Sum(partial);
        if (threadIdx.x == 0)
            atomicAdd(reduce.total, block_total);
    }
}

//! What an accumulate launch gathers: how values combine (Plus, Min), which
//! vertices take part (an active set, optionally with a patch test), and
//! what is done with finalize's results (NoSum, SumInto).
template <typename Combine, typename Active, typename Reduce>
struct AccumulateSpec
{
    Active active;
    Reduce reduce;
};

//! Block-wide: accumulates the patches of items [first, end) this block
//! takes (first + blockIdx.x, then every gridDim.x-th), with its arrays in
//! `smem` (shared memory, or this block's part of the global scratch);
//! returns this thread's part of finalize's sum (Reduce::enabled).
template <Op op, typename T, int N, int BlockThreads, typename Input, typename Combine,
          typename Active, typename Reduce, typename Contribute, typename Finalize>
__device__ __forceinline__ double accumulate_items(
    const DeviceMesh& mesh, std::uint32_t first, std::uint32_t end, const Input& input,
    const AccumulateSpec<Combine, Active, Reduce>& spec, Contribute& contribute,
    Finalize& finalize, unsigned char* smem,
    typename BlockArrayScan<BlockThreads>::TempStorage& scan_tmp)
{
    const VertexSourcesView kept    = kept_sources<op>(mesh);
    double                  partial = 0;
    for (std::uint32_t item = first + blockIdx.x; item < end; item += gridDim.x) {
        const std::uint32_t p = mesh.scheduled_patch(item);
        if (!patch_may_be_active(spec.active, p))  // the same answer in every thread
            continue;
        const PatchInfo pi = mesh.patch(p);
        SmemCarver      carver(smem);
        const auto      a = carve_accumulate<Input, OpTraits<op>::row_length>(
            carver, pi.nV, op == Op::EV ? pi.nE : pi.nF, kept.built());
        __syncthreads();  // the previous patch's arrays are read
        if constexpr (Input::components > 0)
            stage_vertex_input<BlockThreads>(pi, input, a.staged);
        if (kept.built()) {
            stage_source_rows<op, BlockThreads>(pi, a.rows);
            __syncthreads();
            const KeptSourceLists lists{kept.offsets + pi.vmap.owned_offset, kept.sources};
            partial += gather_owned_vertices<op, T, N, BlockThreads, Combine, Input, Reduce>(
                pi, a, lists, contribute, finalize, spec.active);
        } else {
            build_vertex_sources<op, BlockThreads>(pi, a, scan_tmp);  // ends with a barrier
            const BlockSourceLists lists{a.v_off, a.v_val};
            partial += gather_owned_vertices<op, T, N, BlockThreads, Combine, Input, Reduce>(
                pi, a, lists, contribute, finalize, spec.active);
        }
    }
    return partial;
}

//! One block per patch (or, with a schedule or the global scratch, fewer
//! blocks looping over the patches; the arrays in the scratch when !kShared).
template <Op op, typename T, int N, int BlockThreads, int MinBlocks, bool kShared, typename Input,
          typename Combine, typename Active, typename Reduce, typename Contribute, typename Finalize>
__global__ void __launch_bounds__(BlockThreads, MinBlocks)
    accumulate_kernel(DeviceMesh mesh, Input input, AccumulateSpec<Combine, Active, Reduce> spec,
                      Contribute contribute, Finalize finalize)
{
    extern __shared__ __align__(16) unsigned char rxmesh_accumulate_smem[];
    __shared__ typename BlockArrayScan<BlockThreads>::TempStorage scan_tmp;
    unsigned char* smem =
        kShared ? rxmesh_accumulate_smem : mesh.scratch + blockIdx.x * mesh.scratch_stride;
    const double partial = accumulate_items<op, T, N, BlockThreads>(
        mesh, mesh.first_item(), mesh.end_item(), input, spec, contribute, finalize, smem,
        scan_tmp);
    add_block_sum<BlockThreads>(spec.reduce, partial);
}

//! Runs accumulate_kernel over the mesh's patches (its schedule's, when it has
//! one): shared memory when the largest patch's arrays fit, else a few blocks
//! over a global scratch (query/patch_launch.cuh; synchronous).
template <Op op, typename T, int N, int BlockThreads, int MinBlocks, typename Input,
          typename Combine, typename Active, typename Reduce, typename Contribute,
          typename Finalize>
void launch_accumulate(const DeviceMesh& mesh, Input input,
                       AccumulateSpec<Combine, Active, Reduce> spec, Contribute contribute,
                       Finalize finalize, cudaStream_t stream)
{
    static_assert(op == Op::FV || op == Op::EV,
                  "accumulate gathers faces (FV) or edges (EV) into their vertices");
    launch_patches<accumulate_kernel<op, T, N, BlockThreads, MinBlocks, true, Input, Combine,
                                     Active, Reduce, Contribute, Finalize>,
                   accumulate_kernel<op, T, N, BlockThreads, MinBlocks, false, Input, Combine,
                                     Active, Reduce, Contribute, Finalize>,
                   BlockThreads>(mesh, accumulate_smem_bytes<op, Input>(mesh), stream, input,
                                 spec, contribute, finalize);
}

}  // namespace detail
}  // namespace rxmesh
