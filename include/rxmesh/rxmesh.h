// RXMesh: a triangle mesh cut into patches that fit a GPU block's shared
// memory, each stored as two 16-bit LAR matrices plus its ribbon (RXMesh
// paper, sections 5-6). Building runs entirely on the GPU:
//
//   TriangleSoup --upload--> reindex (optional weld) --> global topology
//   --> patcher (curve or Lloyd) --> patch store (owners, ribbons, M_EV, M_FE)
//
// Global ids are renumbered by patch (see patch/patch_store.h); the maps to
// the input's vertex ids are kept for I/O.
//
// \throw InvalidInputError  empty mesh, out-of-range index, NaN/inf position.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>

#include "rxmesh/attribute/registry.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/io/triangle_soup.h"
#include "rxmesh/patch/patch_store.h"
#include "rxmesh/patch/patcher.h"
#include "rxmesh/patch/validate.h"
#include "rxmesh/query/accumulate_args.h"
#include "rxmesh/query/accumulate_policy.h"
#include "rxmesh/query/combine.h"
#include "rxmesh/query/device_mesh.h"
#include "rxmesh/query/kring_halo.h"
#include "rxmesh/query/device_loop_options.h"
#include "rxmesh/query/op.h"
#include "rxmesh/version.h"

namespace rxmesh {

struct ImportedMesh;  // build/import.h
template <Op op, int BlockThreads>
class PatchQuery;
template <typename U, int M>
struct VertexInput;

struct BuildOptions
{
    bool           weld = false;  // merge vertices with bit-identical positions
    PatcherOptions patcher;       // capacity (faces per patch), seed, ...
};

//! What stats() reports: sizes, overheads and the time of each build stage.
struct BuildStats
{
    std::uint32_t num_vertices = 0, num_edges = 0, num_faces = 0;
    std::uint32_t num_patches = 0, num_components = 0;
    std::uint32_t min_patch_faces = 0, max_patch_faces = 0;
    double        mean_patch_faces = 0;
    std::uint32_t patcher_iterations = 0, split_patches = 0;
    std::uint64_t dropped_faces = 0;
    // ribbon elements / owned elements
    double ribbon_overhead_faces = 0, ribbon_overhead_edges = 0, ribbon_overhead_vertices = 0;
    std::uint64_t store_bytes = 0;
    double        store_bytes_per_face = 0;
    // milliseconds, CUDA events
    // attributes_ms: the registry, the "position" attribute and the boundary
    // flags; total_ms: the whole constructor on the GPU's clock, upload from
    // the caller's (pageable) host memory included
    float upload_ms = 0, reindex_ms = 0, topology_ms = 0, patching_ms = 0, store_ms = 0;
    float attributes_ms = 0, total_ms = 0;
    PatcherStageTimes patcher_stages;  // patching_ms split by stage

    std::string to_json() const;
};

//! Every byte of device memory an RXMesh holds (RXMesh::memory()): each
//! buffer's allocation, nothing shared with other meshes. The mesh keeps no
//! face array (faces() decodes one from the store on demand).
struct MemoryReport
{
    std::size_t patch_store = 0;  // offsets, ribbons, M_EV, M_FE, flags
    std::size_t positions   = 0;  // the "position" attribute: 3 floats per vertex
    std::size_t vertex_maps = 0;  // input -> global and global -> input ids
    std::size_t attributes  = 0;  // every other attribute (boundary flags, the user's)
    std::size_t kring_halo  = 0;  // built by the first k-ring query, then kept
    std::size_t vertex_sources = 0;  // RXMesh::vertex_sources, when asked for

    std::size_t total() const
    {
        return patch_store + positions + vertex_maps + attributes + kring_halo + vertex_sources;
    }
    std::string to_json() const;
};

class RXMesh
{
   public:
    explicit RXMesh(const TriangleSoup& soup, const BuildOptions& options = {},
                    cudaStream_t stream = 0);
    //! The same from a mesh already in device memory (3 floats per vertex, 3
    //! vertex ids per face, e.g. a PyTorch or CuPy tensor's memory), read in
    //! place on `stream` with no upload and no host copy. The caller keeps
    //! both arrays alive and unchanged until the constructor returns;
    //! stats().upload_ms is 0.
    RXMesh(VertexView<const float, 3> positions, FaceView<const std::uint32_t, 3> faces,
           const BuildOptions& options = {}, cudaStream_t stream = 0);

    std::uint32_t num_vertices() const { return m_stats.num_vertices; }
    std::uint32_t num_edges() const { return m_stats.num_edges; }
    std::uint32_t num_faces() const { return m_stats.num_faces; }
    std::uint32_t num_patches() const { return m_store.num_patches; }

    const PatchStore& store() const { return m_store; }
    //! The vertex positions: the "position" attribute, 3 floats per vertex
    //! in global (patch-renumbered) order, the mesh's one copy of them. It
    //! converts to the views algorithms take (VertexView<const float, 3>).
    //! \throw Error when the user removed the attribute.
    VertexAttribute<float, 3> positions() const
    {
        return m_attributes.get<float, 3, VertexId>("position");
    }
    //! The faces in global numbering, 3 vertex ids each, winding kept:
    //! decoded from the patch store on each call (the mesh keeps no face
    //! array); stream-ordered.
    DeviceBuffer<std::uint32_t> faces(cudaStream_t stream = 0) const;
    //! Input vertex id -> global vertex id (~0u for dropped input vertices).
    const DeviceBuffer<std::uint32_t>& input_vertex_to_global() const { return m_input_to_global; }
    //! Global vertex id -> an input vertex id (the first, when welded).
    const DeviceBuffer<std::uint32_t>& global_vertex_to_input() const { return m_global_to_input; }

    //! Checks every contract of the store against the mesh (downloads both;
    //! meant for tests and debugging).
    ValidationReport validate(std::size_t max_reports = 20) const;

    const BuildStats& stats() const { return m_stats; }

    //! Device memory held now, by part (attributes and the k-ring halo
    //! included as they are at the call).
    MemoryReport memory() const;

    // ---- attributes (rxmesh/attribute/registry.h; BLAS in attribute/blas.cuh) ----

    //! The mesh's named attributes. Holds from the start "position"
    //! (VertexAttribute<float, 3>, what positions() returns) and the boundary
    //! flags "v:boundary", "e:boundary", "f:boundary". The
    //! constructor computes these on the device only: call to_host() before
    //! reading their host mirrors (a user's mesh need not pay for mirrors it
    //! never reads).
    AttributeRegistry&       attributes() { return m_attributes; }
    const AttributeRegistry& attributes() const { return m_attributes; }

    //! \throw Error when `name` exists already.
    template <typename T, int N = 1>
    VertexAttribute<T, N> add_vertex_attribute(const std::string& name, T init = T{})
    {
        return m_attributes.add<T, N, VertexId>(name, init);
    }
    template <typename T, int N = 1>
    EdgeAttribute<T, N> add_edge_attribute(const std::string& name, T init = T{})
    {
        return m_attributes.add<T, N, EdgeId>(name, init);
    }
    template <typename T, int N = 1>
    FaceAttribute<T, N> add_face_attribute(const std::string& name, T init = T{})
    {
        return m_attributes.add<T, N, FaceId>(name, init);
    }
    //! \throw Error when missing, or of another type, N or element kind.
    template <typename T, int N = 1>
    VertexAttribute<T, N> vertex_attribute(const std::string& name) const
    {
        return m_attributes.get<T, N, VertexId>(name);
    }
    template <typename T, int N = 1>
    EdgeAttribute<T, N> edge_attribute(const std::string& name) const
    {
        return m_attributes.get<T, N, EdgeId>(name);
    }
    template <typename T, int N = 1>
    FaceAttribute<T, N> face_attribute(const std::string& name) const
    {
        return m_attributes.get<T, N, FaceId>(name);
    }

    // ---- boundary flags (computed at construction, RXMesh paper section 2) ----

    //! 1 for a boundary edge (exactly one incident face), else 0. Edges with
    //! more than two faces are non-manifold, not boundary. Also the attribute
    //! "e:boundary".
    EdgeAttribute<std::uint8_t> boundary_edges() const
    {
        return m_attributes.get<std::uint8_t, 1, EdgeId>("e:boundary");
    }
    //! 1 for a vertex on a boundary edge ("v:boundary").
    VertexAttribute<std::uint8_t> boundary_vertices() const
    {
        return m_attributes.get<std::uint8_t, 1, VertexId>("v:boundary");
    }
    //! 1 for a face with a boundary edge ("f:boundary").
    FaceAttribute<std::uint8_t> boundary_faces() const
    {
        return m_attributes.get<std::uint8_t, 1, FaceId>("f:boundary");
    }

    // ---- queries (defined at the end of this header for CUDA translation units) ----

    //! Calls `f(source_id, row)` (row: RowView, query/row_view.h) once per
    //! source element of `op` for which `active(source_id)` holds, in a
    //! kernel of one block per patch (query/block_query.cuh). With
    //! `oriented`, VV/VE/VF rows are counter-clockwise around manifold
    //! vertices, starting at the boundary edge on boundary vertices.
    template <Op op, int BlockThreads = default_query_threads(op), typename F,
              typename Active = AllActive>
    void for_each(F f, Active active = {}, bool oriented = false, cudaStream_t stream = 0) const;

    //! for_each over the patches a PatchSchedule (query/device_mesh.h) names:
    //! a subset chosen on the device, for loops of launches whose active set
    //! moves without the host (e.g. a propagating front). `active` may also
    //! have `bool patch(std::uint32_t p) const` to skip whole patches.
    template <Op op, int BlockThreads = default_query_threads(op), typename F,
              typename Active = AllActive>
    void for_each_scheduled(const PatchSchedule& schedule, F f, Active active = {},
                            bool oriented = false, cudaStream_t stream = 0) const;
    //! Iterations of for_each_scheduled<op>(schedule, f, active), each
    //! followed by step(), as accumulate_scheduled_loop below.
    template <Op op, int BlockThreads = default_query_threads(op), typename F, typename Active,
              typename Step>
    DeviceLoopReport for_each_scheduled_loop(const PatchSchedule& schedule, F f, Active active,
                                             Step step, long max_iterations,
                                             const DeviceLoopOptions& options = {},
                                             bool oriented = false, cudaStream_t stream = 0) const;

    //! The same loop for a functor that reads the store itself: every thread
    //! of a block calls `f(patch, p)` (a __device__ functor taking a
    //! PatchInfo, query/device_mesh.h, and the patch index) for each patch
    //! the schedule names, with no staging and no shared memory; a block's
    //! threads share the patch's work among themselves (threadIdx.x,
    //! blockDim.x == BlockThreads). For per-patch passes cheaper than a
    //! query, e.g. a sweep over a patch's edges (algo/detail/toplesets.cuh).
    template <int BlockThreads = 256, typename F, typename Step>
    DeviceLoopReport for_each_patch_scheduled_loop(const PatchSchedule& schedule, F f, Step step,
                                                   long                     max_iterations,
                                                   const DeviceLoopOptions& options = {},
                                                   cudaStream_t             stream  = 0) const;

    //! Sums contributions of faces (FV) or edges (EV) into their vertices, per
    //! patch, then calls `finalize(v, sum)` once per vertex: see
    //! query/accumulate.cuh for the rules and an example. Every accumulate
    //! member takes the same template arguments, each with a default after
    //! op: T, N (N values of type T per vertex; left out, or FromFinalize,
    //! when finalize is a functor with one `operator()(VertexId, const T
    //! (&)[N])`, not a lambda: query/accumulate_args.h); Combine
    //! (query/combine.h: Plus sums, Min keeps the least; contribute receives
    //! a VertexReduction<T, N, Combine>; accumulate<op, Min>(...) reads T and
    //! N too); Policy, the launch (AccumulatePolicy<BlockThreads, MinBlocks,
    //! Form>, query/accumulate_policy.h: 128 threads, no register cap, a
    //! block per patch). The common call names only the op and the values:
    //! accumulate<Op::FV, float, 3>(contribute, finalize).
    template <Op op, typename T = FromFinalize, int N = 0, typename Combine = Plus,
              typename Policy = AccumulatePolicy<>, typename Contribute, typename Finalize>
    void accumulate(Contribute contribute, Finalize finalize, cudaStream_t stream = 0) const;
    //! The same, with a vertex input staged in shared memory per patch and
    //! handed to contribute as a StagedRow: VertexInput<U, M> (a view, e.g.
    //! of positions) or computed_vertex_input<U, M>(f).
    template <Op op, typename T = FromFinalize, int N = 0, typename Combine = Plus,
              typename Policy = AccumulatePolicy<>, typename Input, typename Contribute,
              typename Finalize>
    void accumulate(Input input, Contribute contribute, Finalize finalize,
                    cudaStream_t stream = 0) const;
    //! The same, where finalize(v, sum) returns a number: their sum over all
    //! vertices is added to *total (device memory; one atomic per block), so
    //! that a dot product rides along with the accumulation.
    template <Op op, typename T = FromFinalize, int N = 0, typename Combine = Plus,
              typename Policy = AccumulatePolicy<>, typename Input, typename Contribute,
              typename Finalize>
    void accumulate_sum(Input input, Contribute contribute, Finalize finalize, double* total,
                        cudaStream_t stream = 0) const;

    //! accumulate over a subset: only the patches that `schedule` names
    //! (PatchSchedule{}: every patch), only the owned vertices that `active`
    //! accepts (the others get neither contributions nor finalize;
    //! `active.patch(p)`, when it exists, skips whole patches). With Min,
    //! a vertex without a contribution gets +inf. A block per patch (the
    //! policy's form must be Patches). For loops whose active set moves on
    //! the device (algo/geodesic.cuh).
    template <Op op, typename T = FromFinalize, int N = 0, typename Combine = Plus,
              typename Policy = AccumulatePolicy<>, typename Input, typename Contribute,
              typename Finalize, typename Active = AllActive>
    void accumulate_scheduled(const PatchSchedule& schedule, Input input, Contribute contribute,
                              Finalize finalize, Active active = {},
                              cudaStream_t stream = 0) const;

    //! Iterations of accumulate_scheduled(schedule, input, contribute,
    //! finalize, active), each followed by step(): a __device__ functor,
    //! `bool operator()() const`, run by one thread, that moves the schedule
    //! and the caller's state on and returns true to stop; at most
    //! max_iterations iterations. One cooperative launch where the device
    //! allows and it pays (what an iteration writes, the next reads with
    //! plain loads), else chunks enqueued by the host
    //! (query/scheduled_loop.cuh).
    //! Synchronises `stream` once, at the end.
    template <Op op, typename T = FromFinalize, int N = 0, typename Combine = Plus,
              typename Policy = AccumulatePolicy<>, typename Input, typename Contribute,
              typename Finalize, typename Active, typename Step>
    DeviceLoopReport accumulate_scheduled_loop(const PatchSchedule& schedule, Input input,
                                               Contribute contribute, Finalize finalize,
                                               Active active, Step step, long max_iterations,
                                               const DeviceLoopOptions& options = {},
                                               cudaStream_t stream = 0) const;

    // ---- higher-order queries (query/kring.cuh) ----

    //! Calls `f(v, rings)` once per owned vertex v that `active` accepts,
    //! with `rings` (a KRingView) holding every vertex within k edges of v:
    //! global ids, each once, ring by ring (ring 0 is v), each ring in the
    //! order found. 0 <= k <= kMaxKRingRings. Any mesh (boundaries,
    //! non-manifold vertices, components, any valence, any k). Synchronises
    //! `stream` (it reads whether any vertex needed the global-memory path).
    //! BlockThreads, MinBlocks: the patch kernel's launch (MinBlocks, the
    //! least resident blocks per SM, caps its registers; 0: no bound). 256
    //! threads by default: the fastest in benchmarks/kring.cu's sweeps
    //! (k = 2, 3 and a ball, 52K to 13.3M faces; the H100 note
    //! mcf_launch_by_size.md, in git history: results/nvidia-h100/README.md), where 64 was the
    //! slowest at every size.
    template <int BlockThreads = 256, int MinBlocks = 0, typename F, typename Active = AllActive>
    void for_each_kring(int k, F f, Active active = {}, const KRingOptions& options = {},
                        cudaStream_t stream = 0) const;
    //! The same, growing v's rings while they find vertices u with
    //! `accept(v, u)` (a __device__ predicate on two VertexIds): ring d + 1
    //! holds the unfound neighbours of ring d that accept admits; the growth
    //! stops at the first ring that adds none, or after max_rings rings.
    //! accept may also offer `bind(VertexId v)`, returning a predicate on u
    //! alone: it runs once per v (load v's data there, not at every u).
    template <int BlockThreads = 256, int MinBlocks = 0, typename Accept, typename F,
              typename Active = AllActive>
    void for_each_kring_while(Accept accept, int max_rings, F f, Active active = {},
                              const KRingOptions& options = {}, cudaStream_t stream = 0) const;
    //! The same with `input` (VertexInput<T, N>: N values per vertex in
    //! device memory) staged per patch in shared memory for the vertices
    //! the rings can reach: accept and f see KRingVertex<T, N> {id, value}
    //! (accept(v, u) or accept.bind(v)(u); rings.vertex(i) in f, whose view
    //! is a StagedKRingView<T, N>). For predicates on positions, e.g. a ball.
    template <int BlockThreads = 256, int MinBlocks = 0, typename T, int N, typename Accept,
              typename F, typename Active = AllActive>
    void for_each_kring_while(VertexInput<T, N> input, Accept accept, int max_rings, F f,
                              Active active = {}, const KRingOptions& options = {},
                              cudaStream_t stream = 0) const;
    //! The patches' halos the k-ring queries read (query/kring_halo.h),
    //! built on the first k-ring query and kept with the mesh.
    const KRingHalo& kring_halo(cudaStream_t stream = 0) const;
    //! Device bytes the halos hold (0 before the first k-ring query).
    std::size_t kring_bytes() const { return m_kring_halo ? m_kring_halo->bytes() : 0; }

    //! The low-level form: a query prepared for the user's own kernel, with
    //! its launch configuration (query/patch_query.cuh).
    //! \throw Error when the largest patch's query does not fit the device's
    //!        shared memory (for_each handles such meshes).
    template <Op op, int BlockThreads = default_query_threads(op)>
    PatchQuery<op, BlockThreads> query(bool oriented = false) const;

    //! accumulate's lists of each vertex's local faces (Op::FV) or edges
    //! (Op::EV; query/vertex_sources.h): built on the first call, then kept
    //! and read by every accumulate of that op (faster from its second call
    //! on; about 8 bytes per face for FV, 10 for EV).
    //! \throw InvalidInputError for another op.
    const VertexSources& vertex_sources(Op op, cudaStream_t stream = 0) const;

    //! The store as query blocks see it (raw pointers; query/device_mesh.h).
    DeviceMesh device() const
    {
        DeviceMesh d{m_store.view(), m_store.limits, {}, nullptr, 0, {}, {}};
        d.face_sources = m_face_sources ? m_face_sources->view() : VertexSourcesView{};
        d.edge_sources = m_edge_sources ? m_edge_sources->view() : VertexSourcesView{};
        return d;
    }

   private:
    void build(ImportedMesh mesh, std::uint64_t num_input, std::uint64_t dropped_before,
               const BuildOptions& options, cudaStream_t stream);
    void fill_stats(const PatcherResult& patches);
    void init_attributes(const float* compact_positions, const std::uint32_t* global_to_compact,
                         cudaStream_t stream);

    PatchStore                  m_store;
    DeviceBuffer<std::uint32_t> m_input_to_global, m_global_to_input;
    BuildStats                  m_stats;
    AttributeRegistry           m_attributes{0, 0, 0};
    mutable std::shared_ptr<KRingHalo> m_kring_halo;  // built on the first k-ring query
    mutable std::shared_ptr<VertexSources> m_face_sources, m_edge_sources;  // when asked for
};

}  // namespace rxmesh

// ---- the query members: device code, for CUDA translation units only ----
#if defined(__CUDACC__)
#include "rxmesh/query/accumulate_flat.cuh"
#include "rxmesh/query/kring.cuh"
#include "rxmesh/query/launch.cuh"
#include "rxmesh/query/patch_query.cuh"

namespace rxmesh {

template <Op op, int BlockThreads, typename F, typename Active>
void RXMesh::for_each(F f, Active active, bool oriented, cudaStream_t stream) const
{
    detail::launch_for_each<op, BlockThreads>(device(), f, active, oriented, stream);
}

template <Op op, int BlockThreads, typename F, typename Active>
void RXMesh::for_each_scheduled(const PatchSchedule& schedule, F f, Active active, bool oriented,
                                cudaStream_t stream) const
{
    DeviceMesh mesh = device();
    mesh.schedule   = schedule;
    detail::launch_for_each<op, BlockThreads>(mesh, f, active, oriented, stream);
}

template <Op op, typename T, int N, typename Combine, typename Policy, typename Contribute,
          typename Finalize>
void RXMesh::accumulate(Contribute contribute, Finalize finalize, cudaStream_t stream) const
{
    accumulate<op, T, N, Combine, Policy>(NoVertexInput{}, contribute, finalize, stream);
}

template <Op op, typename T, int N, typename Combine, typename Policy, typename Input,
          typename Contribute, typename Finalize>
void RXMesh::accumulate(Input input, Contribute contribute, Finalize finalize,
                        cudaStream_t stream) const
{
    using V = detail::AccumulateValues<T, N, Combine, Policy, Finalize>;
    if constexpr (V::ok)
        detail::launch_accumulate_form<op, typename V::type, V::size, Policy::block_threads,
                                       Policy::min_blocks, Policy::form>(
            device(), num_vertices(), input,
            detail::AccumulateSpec<typename V::combine, AllActive, detail::NoSum>{}, contribute,
            finalize, stream);
}

template <Op op, typename T, int N, typename Combine, typename Policy, typename Input,
          typename Contribute, typename Finalize>
void RXMesh::accumulate_sum(Input input, Contribute contribute, Finalize finalize, double* total,
                            cudaStream_t stream) const
{
    using V = detail::AccumulateValues<T, N, Combine, Policy, Finalize>;
    if constexpr (V::ok)
        detail::launch_accumulate_form<op, typename V::type, V::size, Policy::block_threads,
                                       Policy::min_blocks, Policy::form>(
            device(), num_vertices(), input,
            detail::AccumulateSpec<typename V::combine, AllActive, detail::SumInto>{{}, {total}},
            contribute, finalize, stream);
}

template <Op op, typename T, int N, typename Combine, typename Policy, typename Input,
          typename Contribute, typename Finalize, typename Active>
void RXMesh::accumulate_scheduled(const PatchSchedule& schedule, Input input,
                                  Contribute contribute, Finalize finalize, Active active,
                                  cudaStream_t stream) const
{
    using V = detail::AccumulateValues<T, N, Combine, Policy, Finalize>;
    static_assert(Policy::form == AccumulateForm::Patches,
                  "accumulate_scheduled runs a block per patch: its policy's form is Patches");
    if constexpr (V::ok) {
        DeviceMesh mesh = device();
        mesh.schedule   = schedule;
        detail::launch_accumulate<op, typename V::type, V::size, Policy::block_threads,
                                  Policy::min_blocks>(
            mesh, input, detail::AccumulateSpec<typename V::combine, Active, detail::NoSum>{active, {}},
            contribute, finalize, stream);
    }
}

template <int BlockThreads, int MinBlocks, typename F, typename Active>
void RXMesh::for_each_kring(int k, F f, Active active, const KRingOptions& options,
                            cudaStream_t stream) const
{
    const KRingHalo&    halo = kring_halo(stream);
    const std::uint32_t capacity =
        options.capacity ? options.capacity : detail::default_kring_capacity(k);
    detail::launch_kring<BlockThreads, MinBlocks>(device(), halo.view(m_store.view()), detail::NoKRingInput{},
                                       num_vertices(), halo.max_ext, k, capacity, f,
                                       detail::AcceptAll{}, active, stream);
}

template <int BlockThreads, int MinBlocks, typename Accept, typename F, typename Active>
void RXMesh::for_each_kring_while(Accept accept, int max_rings, F f, Active active,
                                  const KRingOptions& options, cudaStream_t stream) const
{
    const KRingHalo&    halo     = kring_halo(stream);
    const std::uint32_t capacity =
        options.capacity ? options.capacity : detail::kDefaultKRingWhileCapacity;
    detail::launch_kring<BlockThreads, MinBlocks>(device(), halo.view(m_store.view()), detail::NoKRingInput{},
                                       num_vertices(), halo.max_ext, max_rings, capacity, f,
                                       accept, active, stream);
}

template <int BlockThreads, int MinBlocks, typename T, int N, typename Accept, typename F,
          typename Active>
void RXMesh::for_each_kring_while(VertexInput<T, N> input, Accept accept, int max_rings, F f,
                                  Active active, const KRingOptions& options,
                                  cudaStream_t stream) const
{
    const KRingHalo&    halo     = kring_halo(stream);
    const std::uint32_t capacity =
        options.capacity ? options.capacity : detail::kDefaultKRingWhileCapacity;
    detail::launch_kring<BlockThreads, MinBlocks>(device(), halo.view(m_store.view()), input, num_vertices(),
                                       halo.max_ext, max_rings, capacity, f, accept, active,
                                       stream);
}

template <Op op, int BlockThreads>
PatchQuery<op, BlockThreads> RXMesh::query(bool oriented) const
{
    const bool        orient   = oriented && can_orient(op);
    const std::size_t smem     = query_smem_bytes(op, orient, m_store.limits);
    const std::size_t max_smem = detail::device_limits().max_smem;  // the user's kernel adds
    if (smem > max_smem)                                           // its own at launch()
        throw Error(std::string("RXMesh::query<") + to_string(op) + ">: the largest patch needs " +
                    std::to_string(smem) + " bytes of shared memory, the device allows " +
                    std::to_string(max_smem) +
                    "; use RXMesh::for_each (it falls back to global memory) or a smaller "
                    "patch capacity");
    return PatchQuery<op, BlockThreads>(device(), orient, smem);
}

}  // namespace rxmesh

#include "rxmesh/rxmesh_loops.cuh"  // the loop members
#endif
