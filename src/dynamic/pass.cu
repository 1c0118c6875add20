// One pass of edge operations after the user's callback has decided: refuse
// what would break the mesh, keep a conflict-free subset of the rest, apply
// it. Every choice depends only on the mesh and the decisions (priority
// keys are unique), never on thread order or block size.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>

#include "connectivity_build.h"
#include "edge_checks.cuh"
#include "pass_workspace.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/dynamic/dynamic_mesh.h"

namespace rxmesh {
namespace dynamic_detail {
namespace {

constexpr std::uint8_t kOpen = 0, kWon = 1, kLost = 2;
constexpr std::uint32_t kMaxRounds = 256;

//! Adds x over the warp's active threads (any subset) to *total with one atomic.
__device__ void warp_add(std::uint32_t x, std::uint32_t* total)
{
    const auto          active = cooperative_groups::coalesced_threads();
    const std::uint32_t sum    = cooperative_groups::reduce(active, x,
                                                            cooperative_groups::plus<std::uint32_t>());
    if (active.thread_rank() == 0 && sum > 0) atomicAdd(total, sum);
}

//! counters[2] += edges the callback said yes to, counters[3] += those
//! refused, counters[4] += edges it was called for (asked[e] != kSkipped).
__global__ void check_kernel(ConnectivityView c, EdgeOpKind kind, const std::uint8_t* asked,
                             const float* position, std::uint8_t* status,
                             std::uint8_t* candidate, std::uint32_t* counters)
{
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= c.num_edges) return;
    const bool yes = asked[e] == 1;
    bool       ok  = false;
    if (yes) {
        if (kind == EdgeOpKind::Flip)
            ok = flip_allowed(c, e);
        else if (kind == EdgeOpKind::Split)
            ok = split_allowed(c, e);
        else
            ok = collapse_allowed(c, e, load3(position, e));
    }
    status[e]    = std::uint8_t(!yes ? EdgeOpStatus::NotAsked
                                     : (ok ? EdgeOpStatus::Conflicted : EdgeOpStatus::Refused));
    candidate[e] = ok;
    warp_add(yes, counters + 2);
    warp_add(yes && !ok, counters + 3);
    warp_add(asked[e] != kSkipped, counters + 4);
}

//! A bijection of 32-bit ids (murmur3's finalizer): ties of user priority
//! are broken in an order unrelated to the mesh's layout, so chains of
//! neighbours waiting on each other stay short.
__device__ inline std::uint32_t scramble(std::uint32_t x)
{
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
}

__device__ inline std::uint32_t orderable(float f)
{
    const std::uint32_t bits = __float_as_uint(f);
    return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

__global__ void priority_keys_kernel(const std::uint32_t* candidates, std::uint32_t count,
                                     const float* priority, std::uint64_t* keys,
                                     std::uint8_t* state)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const std::uint32_t e = candidates[i];
    keys[i]  = (std::uint64_t(orderable(priority[e])) << 32) | scramble(e);
    state[i] = kOpen;
}

//! taken[x]: kTakenExclusive or kTakenShared by a winner of an earlier round.
constexpr std::uint8_t kTakenExclusive = 1, kTakenShared = 2;

struct ClaimLocks
{
    unsigned long long* exclusive;  // per slot: the lowest key claiming it exclusively
    unsigned long long* shared;     // per slot: the lowest key reading it
    std::uint8_t*       taken;
};

__global__ void claim_kernel(ConnectivityView c, EdgeOpKind kind, const std::uint32_t* candidates,
                             std::uint32_t count, const std::uint64_t* keys, std::uint8_t* state,
                             ClaimLocks locks, std::uint32_t* open)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count || state[i] != kOpen) return;
    bool blocked = false;
    for_each_claim(
        c, kind, candidates[i], [&](std::uint32_t x) { blocked = blocked || locks.taken[x] != 0; },
        [&](std::uint32_t x) { blocked = blocked || locks.taken[x] == kTakenExclusive; });
    if (blocked) {
        state[i] = kLost;
        return;
    }
    for_each_claim(
        c, kind, candidates[i], [&](std::uint32_t x) { atomicMin(locks.exclusive + x, keys[i]); },
        [&](std::uint32_t x) { atomicMin(locks.shared + x, keys[i]); });
    atomicAdd(open, 1u);
}

//! A candidate wins when no open candidate of lower key conflicts with it:
//! none claims its exclusive slots in either way, none claims its shared
//! slots exclusively (keys are unique, so "lower" is strict).
__global__ void resolve_kernel(ConnectivityView c, EdgeOpKind kind,
                               const std::uint32_t* candidates, std::uint32_t count,
                               const std::uint64_t* keys, std::uint8_t* state, ClaimLocks locks)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count || state[i] != kOpen) return;
    const unsigned long long key = keys[i];
    bool                     won = true;
    for_each_claim(
        c, kind, candidates[i],
        [&](std::uint32_t x) { won = won && locks.exclusive[x] == key && locks.shared[x] > key; },
        [&](std::uint32_t x) { won = won && locks.exclusive[x] > key; });
    if (!won) return;
    state[i] = kWon;
    // winners of one round never share an exclusive slot, so plain stores
    for_each_claim(
        c, kind, candidates[i], [&](std::uint32_t x) { locks.taken[x] = kTakenExclusive; },
        [&](std::uint32_t x) { locks.taken[x] = kTakenShared; });
}

__global__ void won_flags_kernel(const std::uint8_t* state, std::uint32_t count,
                                 std::uint8_t* flag, const std::uint32_t* candidates,
                                 std::uint8_t* status)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    flag[i] = state[i] == kWon;
    status[candidates[i]] =
        std::uint8_t(state[i] == kWon ? EdgeOpStatus::Applied : EdgeOpStatus::Conflicted);
}

__global__ void face_counts_kernel(ConnectivityView c, const std::uint32_t* winners,
                                   std::uint32_t count, std::uint32_t* faces_of)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) faces_of[i + 1] = c.edge_face_count(winners[i]);
}

//! Replaces halfedge `from` of edge e by `to`, keeping e's (at most two,
//! the edge being manifold) halfedges in increasing order.
__device__ void move_halfedge(const ConnectivityView& c, std::uint32_t* halfedges,
                              std::uint32_t e, std::uint32_t from, std::uint32_t to)
{
    const std::uint32_t begin = c.edge_offsets[e], end = c.edge_offsets[e + 1];
    for (std::uint32_t i = begin; i < end; ++i)
        if (halfedges[i] == from) halfedges[i] = to;
    if (end - begin == 2 && halfedges[begin] > halfedges[begin + 1]) {
        const std::uint32_t t = halfedges[begin];
        halfedges[begin]      = halfedges[begin + 1];
        halfedges[begin + 1]  = t;
    }
}

//! Flips edge e: faces (a, b, c), (b, a, d) become (c, a, d), (d, b, c), and
//! the edge table follows in place (edge e becomes (c, d), the four outer
//! edges move their halfedges, degrees and fan starts of a, b, c, d adjust);
//! winners claim disjoint vertex sets, so no two touch the same entries.
__global__ void flip_kernel(ConnectivityView c, ConnectivityArrays t, std::uint32_t* faces,
                            const std::uint32_t* winners, std::uint32_t count)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const std::uint32_t e  = winners[i];
    const EdgeQuad      q  = edge_quad(c, e);
    const int           k0 = corner_of(c, q.f0, q.a), k1 = corner_of(c, q.f1, q.b);
    const std::uint32_t bc = c.face_edges[3 * q.f0 + (k0 + 1) % 3];
    const std::uint32_t ca = c.face_edges[3 * q.f0 + (k0 + 2) % 3];
    const std::uint32_t ad = c.face_edges[3 * q.f1 + (k1 + 1) % 3];
    const std::uint32_t db = c.face_edges[3 * q.f1 + (k1 + 2) % 3];
    move_halfedge(c, t.halfedges, ca, 3 * q.f0 + (k0 + 2) % 3, 3 * q.f0);
    move_halfedge(c, t.halfedges, bc, 3 * q.f0 + (k0 + 1) % 3, 3 * q.f1 + 1);
    move_halfedge(c, t.halfedges, ad, 3 * q.f1 + (k1 + 1) % 3, 3 * q.f0 + 1);
    move_halfedge(c, t.halfedges, db, 3 * q.f1 + (k1 + 2) % 3, 3 * q.f1);
    const std::uint32_t begin = c.edge_offsets[e];
    t.halfedges[begin]        = 3 * q.f0 + 2 < 3 * q.f1 + 2 ? 3 * q.f0 + 2 : 3 * q.f1 + 2;
    t.halfedges[begin + 1]    = 3 * q.f0 + 2 < 3 * q.f1 + 2 ? 3 * q.f1 + 2 : 3 * q.f0 + 2;
    t.edge_keys[e]            = c.edge_key(q.c, q.d);
    const std::uint32_t n0[3] = {q.c, q.a, q.d}, n1[3] = {q.d, q.b, q.c};
    const std::uint32_t e0[3] = {ca, ad, e}, e1[3] = {db, bc, e};
    for (int k = 0; k < 3; ++k) {
        faces[3 * q.f0 + k]        = n0[k];
        faces[3 * q.f1 + k]        = n1[k];
        t.face_edges[3 * q.f0 + k] = e0[k];
        t.face_edges[3 * q.f1 + k] = e1[k];
    }
    t.vertex_degree[q.a] -= 1;
    t.vertex_degree[q.b] -= 1;
    t.vertex_degree[q.c] += 1;
    t.vertex_degree[q.d] += 1;
    if (t.vertex_face[q.a] == q.f1) t.vertex_face[q.a] = q.f0;
    if (t.vertex_face[q.b] == q.f0) t.vertex_face[q.b] = q.f1;
}

struct SplitTargets
{
    std::uint32_t* faces;
    float*         positions;
    std::uint8_t*  vertex_alive;
    std::uint32_t  vertex_base, face_base;
};

__global__ void split_kernel(ConnectivityView c, SplitTargets t, const std::uint32_t* winners,
                             std::uint32_t count, const std::uint32_t* face_offsets,
                             const float* position)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const std::uint32_t e = winners[i], m = t.vertex_base + i;
    const std::uint32_t a = c.edge_first(e), b = c.edge_second(e);
    store3(t.positions, m, load3(position, e));
    t.vertex_alive[m] = 1;
    for (std::uint32_t j = 0; j < c.edge_face_count(e); ++j) {
        const std::uint32_t f       = c.edge_face(e, j);
        const bool          forward = face_walks(c, f, a, b);
        const std::uint32_t s = forward ? a : b, end = forward ? b : a;
        const std::uint32_t third = third_vertex(c, f, a, b);
        const std::uint32_t g     = t.face_base + face_offsets[i] + j;
        const std::uint32_t old_face[3] = {s, m, third}, new_face[3] = {m, end, third};
        for (int k = 0; k < 3; ++k) {
            t.faces[3 * f + k] = old_face[k];
            t.faces[3 * g + k] = new_face[k];
        }
    }
}

__global__ void collapse_kernel(ConnectivityView c, std::uint32_t* faces, float* positions,
                                std::uint8_t* vertex_alive, std::uint32_t* merged_into,
                                const std::uint32_t* winners, std::uint32_t count,
                                const float* position)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const std::uint32_t e = winners[i];
    const std::uint32_t a = c.edge_first(e), b = c.edge_second(e);
    for (std::uint32_t j = 0; j < c.edge_face_count(e); ++j) {
        const std::uint32_t f = c.edge_face(e, j);
        for (int k = 0; k < 3; ++k) faces[3 * f + k] = kDeadFace;
    }
    store3(positions, a, load3(position, e));
    vertex_alive[b] = 0;
    merged_into[b]  = a;
}

__global__ void merge_kernel(std::uint32_t* faces, std::uint32_t face_slots,
                             const std::uint32_t* merged_into)
{
    const std::uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= face_slots || faces[3 * f] == kDeadFace) return;
    for (int k = 0; k < 3; ++k) {
        const std::uint32_t into = merged_into[faces[3 * f + k]];
        if (into != kNoElement) faces[3 * f + k] = into;
    }
}

//! What an applied operation changes, for the next pass to ask again: a
//! collapse, the fans of both ends and of their neighbours (the survivor's
//! fan is their union); a split, the fans of the edge's ends and third
//! vertices; a flip, those four and their neighbours (an edge whose third
//! vertex is one of the four sees the edge the flip removed or made, which
//! the engine's flip check reads). The ends of a conflicted candidate too
//! (its answer may differ next time).
__global__ void touched_kernel(ConnectivityView c, EdgeOpKind kind, const std::uint8_t* status,
                               std::uint8_t* touched)
{
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= c.num_edges) return;
    const auto s = EdgeOpStatus(status[e]);
    if (s != EdgeOpStatus::Conflicted && s != EdgeOpStatus::Applied) return;
    const EdgeQuad q = edge_quad(c, e);
    touched[q.a] = touched[q.b] = 1;  // the same value from every writer
    if (s != EdgeOpStatus::Applied) return;
    const auto mark = [&](std::uint32_t u) { touched[u] = 1; };
    if (q.c != kNoElement) touched[q.c] = 1;
    if (q.d != kNoElement) touched[q.d] = 1;
    if (kind == EdgeOpKind::Split) return;
    // the ends are manifold (collapse_allowed), the flip's four too (flip_allowed)
    for_each_neighbor(c, q.a, mark);
    for_each_neighbor(c, q.b, mark);
    if (kind == EdgeOpKind::Flip) {
        for_each_neighbor(c, q.c, mark);
        for_each_neighbor(c, q.d, mark);
    }
}

std::uint32_t read_count(const std::uint32_t* device, cudaStream_t stream)
{
    std::uint32_t host = 0;
    RXMESH_CHECK_CUDA(
        cudaMemcpyAsync(&host, device, sizeof(host), cudaMemcpyDeviceToHost, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return host;
}

}  // namespace
}  // namespace dynamic_detail

using namespace dynamic_detail;

DynamicMesh::DecisionArrays DynamicMesh::begin_pass(EdgeOpKind kind, const PassLimits& limits)
{
    PassWorkspace& w = *m_workspace;
    w.phases.record(0, m_stream);
    // split and collapse passes number edges in vertex-pair order (and
    // collapses look edges up by it); flips work on a table updated in place
    if (kind != EdgeOpKind::Flip && !m_table_canonical) rebuild_in_pair_order();
    const ConnectivityView& c = connectivity();
    const std::uint32_t     n = std::max<std::uint32_t>(c.num_edges, 1);
    ensure_size(w.asked, n, m_stream);
    ensure_size(w.status, n, m_stream);
    ensure_size(w.candidate_flag, n, m_stream);
    if (kind != EdgeOpKind::Flip) ensure_size(w.position, 3ull * n, m_stream);  // flips move nothing
    ensure_size(w.priority, n, m_stream);
    ensure_size(w.edge_keys, n, m_stream);
    ensure_size(w.counters, 5, m_stream);
    if (c.num_edges > 0)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(w.edge_keys.data(), c.edge_keys,
                                          c.num_edges * sizeof(std::uint64_t),
                                          cudaMemcpyDeviceToDevice, m_stream));
    w.key_bits  = c.key_bits;
    w.num_edges = c.num_edges;
    w.phases.record(1, m_stream);
    const bool near = limits.ask == AskEdges::NearLastChanges && m_touched_known;
    return {w.asked.data(), kind == EdgeOpKind::Flip ? nullptr : w.position.data(),
            w.priority.data(), near ? m_touched.data() : nullptr};
}

PassReport DynamicMesh::finish_pass(EdgeOpKind kind, const PassLimits& limits)
{
    PassWorkspace& w = *m_workspace;
    w.phases.record(2, m_stream);  // the callback ran
    PassReport report;
    report.kind  = kind;
    report.edges = connectivity().num_edges;
    if (report.edges > 0) {
        run_checks_and_apply(kind, limits, report);
    } else {
        mark_touched(kind, 0);  // nothing
        for (int phase = 3; phase < PhaseEvents::kCount; ++phase) w.phases.record(phase, m_stream);
    }
    report.table_ms   = w.phases.ms(1);
    report.decide_ms  = w.phases.ms(2);
    report.select_ms  = w.phases.ms(3);
    report.resolve_ms = w.phases.ms(4);
    report.apply_ms   = w.phases.ms(5);
    report.ms = report.table_ms + report.decide_ms + report.select_ms + report.resolve_ms +
                report.apply_ms;
    return report;
}

//! The engine's part of a pass after the callback: checks, selection,
//! conflict rounds, application, each ending at its phase event.
void DynamicMesh::run_checks_and_apply(EdgeOpKind kind, const PassLimits& limits,
                                       PassReport& report)
{
    const ConnectivityView c     = connectivity();
    PassWorkspace&         w     = *m_workspace;
    const std::uint32_t    block = m_options.block_threads, num_edges = c.num_edges;
    RXMESH_CHECK_CUDA(cudaMemsetAsync(w.counters.data(), 0, 5 * sizeof(std::uint32_t), m_stream));
    check_kernel<<<grid_for(num_edges, block), block, 0, m_stream>>>(
        c, kind, w.asked.data(), w.position.data(), w.status.data(), w.candidate_flag.data(),
        w.counters.data());
    RXMESH_CHECK_LAUNCH();
    std::uint32_t       counts[5];
    const std::uint32_t selected = select_candidates(num_edges, counts);
    report.called                = counts[4];
    report.asked                 = counts[2];
    report.refused               = counts[3];
    const std::uint32_t candidates = std::min(selected, limits.max_applied);
    if (candidates < selected) keep_cheapest(selected, candidates);
    w.phases.record(3, m_stream);
    const std::uint32_t winners = candidates == 0 ? 0 : resolve_conflicts(kind, candidates,
                                                                        &report.rounds);
    w.phases.record(4, m_stream);
    mark_touched(kind, winners);  // before the winners change the faces it walks
    if (winners > 0) apply(kind, winners);
    w.phases.record(5, m_stream);
    report.applied    = winners;
    report.conflicted = selected - winners;  // the ones left out by the limit too
}

//! Flags what the pass changes for the next one (AskEdges::NearLastChanges):
//! from the statuses and the table before the winners apply; a split's new
//! vertices take the slots after the current ones.
void DynamicMesh::mark_touched(EdgeOpKind kind, std::uint32_t winners)
{
    const std::uint32_t slots = m_vertex_slots + (kind == EdgeOpKind::Split ? winners : 0);
    ensure_size(m_touched, std::max<std::uint32_t>(slots, 1), m_stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(m_touched.data(), 0, slots, m_stream));
    const ConnectivityView c     = connectivity();
    const std::uint32_t    block = m_options.block_threads;
    if (c.num_edges > 0) {
        touched_kernel<<<grid_for(c.num_edges, block), block, 0, m_stream>>>(
            c, kind, m_workspace->status.data(), m_touched.data());
        RXMESH_CHECK_LAUNCH();
    }
    if (kind == EdgeOpKind::Split && winners > 0)
        RXMESH_CHECK_CUDA(
            cudaMemsetAsync(m_touched.data() + m_vertex_slots, 1, winners, m_stream));
    m_touched_known = true;
}

//! Selects the candidate edges; reads every counter of the pass so far.
std::uint32_t DynamicMesh::select_candidates(std::uint32_t num_edges, std::uint32_t counts[5])
{
    PassWorkspace& w = *m_workspace;
    ensure_size(w.candidates, num_edges, m_stream);
    thrust::counting_iterator<std::uint32_t> ids(0);
    detail::cub_call(m_stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSelect::Flagged(tmp, bytes, ids, w.candidate_flag.data(),
                                          w.candidates.data(), w.counters.data(), num_edges,
                                          m_stream);
    });
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(counts, w.counters.data(), 5 * sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToHost, m_stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(m_stream));
    return counts[0];
}

//! Keeps the `keep` candidates of lowest priority key (priority, then the
//! scrambled edge id: unique, so the choice is deterministic), in key order.
void DynamicMesh::keep_cheapest(std::uint32_t count, std::uint32_t keep)
{
    PassWorkspace&      w     = *m_workspace;
    const std::uint32_t block = m_options.block_threads;
    ensure_size(w.priority_keys, count, m_stream);
    ensure_size(w.state, count, m_stream);
    ensure_size(w.winners, count, m_stream);
    priority_keys_kernel<<<grid_for(count, block), block, 0, m_stream>>>(
        w.candidates.data(), count, w.priority.data(), w.priority_keys.data(), w.state.data());
    RXMESH_CHECK_LAUNCH();
    DeviceBuffer<std::uint64_t> sorted_keys(count, m_stream);
    detail::cub_call(m_stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, w.priority_keys.data(),
                                               sorted_keys.data(), w.candidates.data(),
                                               w.winners.data(), count, 0, 64, m_stream);
    });
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(w.candidates.data(), w.winners.data(),
                                      keep * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice,
                                      m_stream));
}

std::uint32_t DynamicMesh::resolve_conflicts(EdgeOpKind kind, std::uint32_t count,
                                             std::uint32_t* rounds)
{
    const ConnectivityView c     = connectivity();
    PassWorkspace&         w     = *m_workspace;
    const std::uint32_t    block = m_options.block_threads, grid = grid_for(count, block);
    ensure_size(w.priority_keys, count, m_stream);
    ensure_size(w.state, count, m_stream);
    ensure_size(w.winners, count, m_stream);
    // claimed slots are vertices, or faces for splits
    const std::uint64_t slots = std::max(m_vertex_slots, m_face_slots);
    ensure_size(w.lock, 2 * slots, m_stream);  // exclusive, then shared
    ensure_size(w.taken, slots, m_stream);
    priority_keys_kernel<<<grid, block, 0, m_stream>>>(w.candidates.data(), count,
                                                       w.priority.data(), w.priority_keys.data(),
                                                       w.state.data());
    RXMESH_CHECK_LAUNCH();
    RXMESH_CHECK_CUDA(cudaMemsetAsync(w.taken.data(), 0, slots, m_stream));
    auto* lock = reinterpret_cast<unsigned long long*>(w.lock.data());
    const ClaimLocks locks{lock, lock + slots, w.taken.data()};
    // Each round the open candidate with the lowest key wins, so every round
    // that has open candidates makes progress; the cap only bounds the host loop.
    for (*rounds = 0; *rounds < kMaxRounds; ++*rounds) {
        RXMESH_CHECK_CUDA(cudaMemsetAsync(lock, 0xFF, 16ull * slots, m_stream));
        RXMESH_CHECK_CUDA(cudaMemsetAsync(w.counters.data() + 1, 0, 4, m_stream));
        claim_kernel<<<grid, block, 0, m_stream>>>(c, kind, w.candidates.data(), count,
                                                   w.priority_keys.data(), w.state.data(),
                                                   locks, w.counters.data() + 1);
        RXMESH_CHECK_LAUNCH();
        if (read_count(w.counters.data() + 1, m_stream) == 0) break;
        resolve_kernel<<<grid, block, 0, m_stream>>>(c, kind, w.candidates.data(), count,
                                                     w.priority_keys.data(), w.state.data(),
                                                     locks);
        RXMESH_CHECK_LAUNCH();
    }
    won_flags_kernel<<<grid, block, 0, m_stream>>>(w.state.data(), count,
                                                   w.candidate_flag.data(), w.candidates.data(),
                                                   w.status.data());
    RXMESH_CHECK_LAUNCH();
    detail::cub_call(m_stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSelect::Flagged(tmp, bytes, w.candidates.data(),
                                          w.candidate_flag.data(), w.winners.data(),
                                          w.counters.data(), count, m_stream);
    });
    return read_count(w.counters.data(), m_stream);
}

//! Offsets of the winners' faces (count + 1, first 0); returns the total.
std::uint32_t DynamicMesh::winner_face_offsets(std::uint32_t count)
{
    const ConnectivityView c = connectivity();
    PassWorkspace&         w = *m_workspace;
    const std::uint32_t    block = m_options.block_threads;
    ensure_size(w.new_faces, count + 1ull, m_stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(w.new_faces.data(), 0, 4, m_stream));
    face_counts_kernel<<<grid_for(count, block), block, 0, m_stream>>>(c, w.winners.data(),
                                                                      count, w.new_faces.data());
    RXMESH_CHECK_LAUNCH();
    std::uint32_t* offsets = w.new_faces.data();
    detail::cub_call(m_stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::InclusiveSum(tmp, bytes, offsets + 1, offsets + 1, count,
                                             m_stream);
    });
    return read_count(offsets + count, m_stream);
}

void DynamicMesh::apply(EdgeOpKind kind, std::uint32_t count)
{
    PassWorkspace&      w     = *m_workspace;
    const std::uint32_t block = m_options.block_threads, grid = grid_for(count, block);
    const std::uint32_t faces_of_winners =
        kind == EdgeOpKind::Flip ? 0 : winner_face_offsets(count);  // flips make no faces
    const std::uint32_t vertex_base = m_vertex_slots, face_base = m_face_slots;
    if (kind == EdgeOpKind::Split) reserve(m_vertex_slots + count, m_face_slots + faces_of_winners);
    const ConnectivityView c = connectivity();  // after reserve: the mesh may have moved
    if (kind == EdgeOpKind::Flip) {
        flip_kernel<<<grid, block, 0, m_stream>>>(c, m_connectivity->arrays(), m_faces.data(),
                                                  w.winners.data(), count);
    } else if (kind == EdgeOpKind::Split) {
        const SplitTargets t{m_faces.data(), m_positions.data(), m_vertex_alive.data(),
                             vertex_base, face_base};
        split_kernel<<<grid, block, 0, m_stream>>>(c, t, w.winners.data(), count,
                                                   w.new_faces.data(), w.position.data());
        m_vertex_slots += count;
        m_face_slots += faces_of_winners;
        m_num_vertices += count;
        m_num_faces += faces_of_winners;
    } else {
        ensure_size(w.merged_into, m_vertex_slots, m_stream);
        RXMESH_CHECK_CUDA(
            cudaMemsetAsync(w.merged_into.data(), 0xFF, 4ull * m_vertex_slots, m_stream));
        collapse_kernel<<<grid, block, 0, m_stream>>>(c, m_faces.data(), m_positions.data(),
                                                      m_vertex_alive.data(), w.merged_into.data(),
                                                      w.winners.data(), count, w.position.data());
        RXMESH_CHECK_LAUNCH();
        merge_kernel<<<grid_for(m_face_slots, block), block, 0, m_stream>>>(
            m_faces.data(), m_face_slots, w.merged_into.data());
        m_num_vertices -= count;
        m_num_faces -= faces_of_winners;
    }
    RXMESH_CHECK_LAUNCH();
    notify_attributes(kind, AppliedEdges{c, w.winners.data(), count, w.new_faces.data(),
                                         vertex_base, face_base});
    if (kind == EdgeOpKind::Flip)
        m_table_canonical = false;  // updated in place: ids kept, keys no longer sorted
    else
        mark_changed();
    remap_edge_attributes(kind, count, vertex_base);
}

}  // namespace rxmesh
