#include "rxmesh/patch/patcher.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <deque>
#include <vector>

#include "core/csr_rows.cuh"
#include "core/sequences.cuh"
#include "core/union_find.cuh"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/error.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/core/launch.cuh"
#include "rxmesh/core/search.cuh"

namespace rxmesh {
namespace {

using detail::cub_call;
using detail::flat_grid;
constexpr int           kThreads = detail::kFlatBlockThreads;
constexpr std::uint32_t kNone    = ~0u;

__host__ __device__ inline std::uint64_t mix64(std::uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

//! Seed k lies in component c (seed_offsets is the scan of seeds per
//! component); it is drawn at random from the k-th equal slice of the
//! component's faces, so seeds of one component are distinct and spread.
__global__ void pick_initial_seeds(const std::uint32_t* comp_offsets,
                                   const std::uint32_t* seed_offsets,
                                   std::uint32_t        num_comps,
                                   std::uint32_t        num_seeds,
                                   const std::uint32_t* faces_by_comp,
                                   std::uint64_t        random_seed,
                                   std::uint32_t*       seeds)
{
    RXMESH_FOR_EACH_ITEM(k, num_seeds)
    {
        const std::uint32_t c = detail::segment_of(seed_offsets, num_comps, std::uint32_t(k));
        const std::uint64_t i = k - seed_offsets[c];
        const std::uint64_t s = seed_offsets[c + 1] - seed_offsets[c];
        const std::uint64_t n = comp_offsets[c + 1] - comp_offsets[c];
        const std::uint64_t a = i * n / s, b = (i + 1) * n / s;  // b > a since s <= n
        const std::uint64_t pos = a + mix64(random_seed ^ (k * 0x9e3779b97f4a7c15ull)) % (b - a);
        seeds[k] = faces_by_comp[comp_offsets[c] + pos];
    }
}

__global__ void plant_seeds(const std::uint32_t* seeds,
                            std::uint32_t        num_seeds,
                            std::uint32_t*       patch)
{
    RXMESH_FOR_EACH_ITEM(k, num_seeds) { patch[seeds[k]] = static_cast<std::uint32_t>(k); }
}

//! One breadth-first round: an unassigned face takes the smallest patch id
//! among its neighbours assigned in the previous round.
__global__ void propagate_round(const std::uint32_t* ff_offsets,
                                const std::uint32_t* ff_faces,
                                std::uint32_t        num_faces,
                                const std::uint32_t* cur,
                                std::uint32_t*       next,
                                int*                 changed)
{
    RXMESH_FOR_EACH_ITEM(f, num_faces)
    {
        std::uint32_t p = cur[f];
        if (p == kNone) {
            for (std::uint32_t i = ff_offsets[f]; i < ff_offsets[f + 1]; ++i)
                p = min(p, cur[ff_faces[i]]);
            if (p != kNone)
                *changed = 1;
        }
        next[f] = p;
    }
}

//! Distance 0 for faces on a patch boundary (a neighbour in another patch,
//! or fewer than three neighbours: a mesh boundary), "infinity" otherwise.
__global__ void init_boundary_distance(const std::uint32_t* ff_offsets,
                                       const std::uint32_t* ff_faces,
                                       std::uint32_t        num_faces,
                                       const std::uint32_t* patch,
                                       std::uint32_t*       dist)
{
    RXMESH_FOR_EACH_ITEM(f, num_faces)
    {
        bool boundary = ff_offsets[f + 1] - ff_offsets[f] < 3;
        for (std::uint32_t i = ff_offsets[f]; i < ff_offsets[f + 1]; ++i)
            boundary = boundary || patch[ff_faces[i]] != patch[f];
        dist[f] = boundary ? 0 : kNone;
    }
}

__global__ void relax_distance(const std::uint32_t* ff_offsets,
                               const std::uint32_t* ff_faces,
                               std::uint32_t        num_faces,
                               const std::uint32_t* patch,
                               const std::uint32_t* cur,
                               std::uint32_t*       next,
                               int*                 changed)
{
    RXMESH_FOR_EACH_ITEM(f, num_faces)
    {
        std::uint32_t d = cur[f];
        for (std::uint32_t i = ff_offsets[f]; i < ff_offsets[f + 1]; ++i) {
            const std::uint32_t g = ff_faces[i];
            if (patch[g] == patch[f] && cur[g] != kNone && cur[g] + 1 < d)
                d = cur[g] + 1;
        }
        if (d != cur[f])
            *changed = 1;
        next[f] = d;
    }
}

//! Key whose maximum over a patch is its most central face: largest
//! distance first, then the smallest face id.
struct CentralityKey
{
    const std::uint32_t* members;
    const std::uint32_t* dist;
    __host__ __device__ std::uint64_t operator()(std::uint32_t i) const
    {
        const std::uint32_t f = members[i];
        const std::uint32_t d = dist[f] == kNone ? 0xFFFFFFFEu : dist[f];
        return (std::uint64_t(d) << 32) | (0xFFFFFFFFu - f);
    }
};

__global__ void seeds_from_keys(const std::uint64_t* keys, std::uint32_t n, std::uint32_t* seeds)
{
    RXMESH_FOR_EACH_ITEM(i, n) { seeds[i] = 0xFFFFFFFFu - static_cast<std::uint32_t>(keys[i]); }
}

//! Extra seeds for patch p; 0 past the last patch (the scan's last output
//! is the total).
struct ExtraSeeds
{
    const std::uint32_t* offsets;
    std::uint32_t        capacity;
    std::uint32_t        num_patches;
    __host__ __device__ std::uint32_t operator()(std::uint32_t p) const
    {
        if (p >= num_patches)
            return 0;
        const std::uint32_t s = offsets[p + 1] - offsets[p];
        return s > capacity ? (s + capacity - 1) / capacity - 1 : 0;
    }
};

//! Oversized patch p gets m extra seeds, spread evenly over its members.
__global__ void add_seeds(const std::uint32_t* offsets,
                          const std::uint32_t* members,
                          const std::uint32_t* extra_offsets,
                          std::uint32_t        num_patches,
                          std::uint32_t*       out)
{
    RXMESH_FOR_EACH_ITEM(p, num_patches)
    {
        const std::uint32_t m = extra_offsets[p + 1] - extra_offsets[p];
        const std::uint64_t s = offsets[p + 1] - offsets[p];
        for (std::uint32_t j = 1; j <= m; ++j)
            out[extra_offsets[p] + j - 1] = members[offsets[p] + (j * s) / (m + 1)];
    }
}

struct RowSize
{
    const std::uint32_t* offsets;
    __host__ __device__ std::uint32_t operator()(std::uint32_t r) const
    {
        return offsets[r + 1] - offsets[r];
    }
};

//! Sorts seeds and removes repeats; returns the new count.
std::uint32_t sort_unique(DeviceBuffer<std::uint32_t>& seeds, std::uint32_t n, cudaStream_t stream)
{
    DeviceBuffer<std::uint32_t> sorted(n, stream), count(1, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(tmp, bytes, seeds.data(), sorted.data(), n, 0, 32,
                                              stream);
    });
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSelect::Unique(tmp, bytes, sorted.data(), seeds.data(), count.data(), n,
                                         stream);
    });
    return read_back(count.data(), stream);
}

//! Runs BFS rounds from the planted seeds until every face is assigned;
//! returns how many ran.
std::uint32_t propagate(const DeviceCsr&             ff,
                        std::uint32_t                num_faces,
                        DeviceBuffer<std::uint32_t>& patch,
                        DeviceBuffer<std::uint32_t>& scratch,
                        DeviceBuffer<int>&           changed,
                        cudaStream_t                 stream)
{
    for (std::uint32_t rounds = 1;; ++rounds) {
        changed.memset(0);
        propagate_round<<<flat_grid(num_faces), kThreads, 0, stream>>>(
            ff.offsets.data(), ff.indices.data(), num_faces, patch.data(), scratch.data(),
            changed.data());
        RXMESH_CHECK_LAUNCH();
        std::swap(patch, scratch);
        if (read_back(changed.data(), stream) == 0)
            return rounds;
    }
}

//! Renumbers patch ids (all < num_ids) as 0, 1, ... in order of first use;
//! returns how many remain.
std::uint32_t compact_ids(std::vector<std::uint32_t>& patch, std::uint32_t num_ids)
{
    std::vector<std::uint32_t> remap(num_ids, kNone);
    std::uint32_t              count = 0;
    for (std::uint32_t& p : patch) {
        if (remap[p] == kNone)
            remap[p] = count++;
        p = remap[p];
    }
    return count;
}

//! Splits every patch larger than `capacity` into edge-connected pieces of
//! at most `capacity` faces by breadth-first growth from its smallest
//! unassigned face (host fallback; it runs only when Lloyd did not converge).
std::uint32_t split_oversized(std::vector<std::uint32_t>&       patch,
                              const std::vector<std::uint32_t>& ff_offsets,
                              const std::vector<std::uint32_t>& ff_faces,
                              std::uint32_t                     num_patches,
                              std::uint32_t                     capacity,
                              std::uint32_t&                    split_count)
{
    std::vector<std::uint32_t> size(num_patches, 0);
    for (std::uint32_t p : patch)
        ++size[p];
    std::vector<std::uint8_t> taken(patch.size(), 0);
    std::uint32_t             next_id = num_patches;
    split_count                       = 0;
    for (std::uint32_t f = 0; f < patch.size(); ++f) {
        if (taken[f])
            continue;  // already in a new piece (its id is >= num_patches)
        const std::uint32_t p = patch[f];
        if (size[p] <= capacity)
            continue;
        // grow one piece from f (the smallest untaken face of p)
        const std::uint32_t id    = next_id++;
        std::uint32_t       count = 0;
        std::deque<std::uint32_t> queue{f};
        taken[f] = 1;
        while (!queue.empty() && count < capacity) {
            const std::uint32_t g = queue.front();
            queue.pop_front();
            patch[g] = id;
            ++count;
            for (std::uint32_t i = ff_offsets[g]; i < ff_offsets[g + 1]; ++i) {
                const std::uint32_t h = ff_faces[i];
                if (!taken[h] && patch[h] == p) {
                    taken[h] = 1;
                    queue.push_back(h);
                }
            }
        }
        for (std::uint32_t g : queue)
            taken[g] = 0;  // not reached within this piece: left for the next
        ++split_count;
    }
    // compact ids: patches that were split entirely no longer exist
    return compact_ids(patch, next_id);
}

//! Device state of the Lloyd loop, shared by its stages: the K current seeds
//! and per-face buffers reused from iteration to iteration.
struct LloydState
{
    DeviceBuffer<std::uint32_t> faces_iota;  // 0, 1, ..., F - 1: the sort payload
    DeviceBuffer<std::uint32_t> seeds;
    std::uint32_t               K = 0;
    DeviceBuffer<std::uint32_t> patch, scratch, dist;
    DeviceBuffer<std::uint32_t> members, patch_sorted;
    DeviceBuffer<int>           changed;
    DeviceBuffer<std::uint32_t> max_size_d;
};

//! Edge-connected components of the face graph (result.num_components), then
//! the initial seeds: at least one per component, spread over its faces.
//! Fills s.faces_iota, s.seeds and s.K.
void components_and_seeds(const DeviceCsr&      ff,
                          std::uint32_t         F,
                          const PatcherOptions& options,
                          LloydState&           s,
                          PatcherResult&        result,
                          cudaStream_t          stream)
{
    // ---- edge-connected components of the face graph ----
    DeviceBuffer<std::uint32_t> comp(F, stream);
    s.faces_iota = DeviceBuffer<std::uint32_t>(F, stream);
    detail::fill_sequence(s.faces_iota.data(), F, stream);
    detail::csr_components(ff.offsets.data(), ff.indices.data(), F, comp.data(), stream);
    const int fbits = detail::bits_for(F);

    DeviceBuffer<std::uint32_t> comp_sorted(F, stream), faces_by_comp(F, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, comp.data(), comp_sorted.data(),
                                               s.faces_iota.data(), faces_by_comp.data(), F, 0,
                                               fbits, stream);
    });
    DeviceBuffer<std::uint32_t> comp_ids(F, stream), comp_sizes(F, stream), num_comps_d(1, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRunLengthEncode::Encode(tmp, bytes, comp_sorted.data(), comp_ids.data(),
                                                  comp_sizes.data(), num_comps_d.data(), F,
                                                  stream);
    });
    const std::uint32_t C  = read_back(num_comps_d.data(), stream);
    result.num_components = C;

    // seeds per component: at least one, then one per `target` faces
    const std::uint32_t target = std::max<std::uint32_t>(1, options.capacity * 3 / 4);
    std::vector<std::uint32_t> h_sizes(C);
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(h_sizes.data(), comp_sizes.data(), C * sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToHost, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<std::uint32_t> h_comp_offsets(C + 1, 0), h_seed_offsets(C + 1, 0);
    for (std::uint32_t c = 0; c < C; ++c) {
        h_comp_offsets[c + 1] = h_comp_offsets[c] + h_sizes[c];
        h_seed_offsets[c + 1] =
            h_seed_offsets[c] + std::max<std::uint32_t>(1, (h_sizes[c] + target - 1) / target);
    }
    s.K               = h_seed_offsets[C];
    auto comp_offsets = DeviceBuffer<std::uint32_t>::from_host(h_comp_offsets, stream);
    auto seed_offsets = DeviceBuffer<std::uint32_t>::from_host(h_seed_offsets, stream);
    s.seeds           = DeviceBuffer<std::uint32_t>(s.K, stream);
    pick_initial_seeds<<<flat_grid(s.K), kThreads, 0, stream>>>(
        comp_offsets.data(), seed_offsets.data(), C, s.K, faces_by_comp.data(),
        options.random_seed, s.seeds.data());
    RXMESH_CHECK_LAUNCH();
    s.K = sort_unique(s.seeds, s.K, stream);
    comp_sorted = DeviceBuffer<std::uint32_t>();
    faces_by_comp = DeviceBuffer<std::uint32_t>();
}

//! Grows patches from the seeds, then lists each patch's members contiguously
//! in face order (their ranges in `offsets`); returns the largest patch size.
std::uint32_t assign_patches(const DeviceCsr&             ff,
                             std::uint32_t                F,
                             LloydState&                  s,
                             DeviceBuffer<std::uint32_t>& offsets,
                             PatcherStageTimes&           times,
                             cudaStream_t                 stream)
{
    GpuTimer timer(stream);
    timer.start();
    s.patch.memset(0xFF);
    plant_seeds<<<flat_grid(s.K), kThreads, 0, stream>>>(s.seeds.data(), s.K, s.patch.data());
    RXMESH_CHECK_LAUNCH();
    times.propagate_passes += propagate(ff, F, s.patch, s.scratch, s.changed, stream);
    times.propagate_ms += timer.stop_ms();
    timer.start();

    // members of each patch, contiguous and in face order
    const int pbits = detail::bits_for(s.K);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, s.patch.data(), s.patch_sorted.data(),
                                               s.faces_iota.data(), s.members.data(), F, 0, pbits,
                                               stream);
    });
    offsets = DeviceBuffer<std::uint32_t>(std::uint64_t(s.K) + 1, stream);
    detail::csr_offsets(detail::RowFromArray{s.patch_sorted.data()}, F, s.K, offsets.data(),
                        stream);
    auto sizes = thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0),
                                                 RowSize{offsets.data()});
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::Max(tmp, bytes, sizes, s.max_size_d.data(), s.K, stream);
    });
    const std::uint32_t largest = read_back(s.max_size_d.data(), stream);
    times.members_ms += timer.stop_ms();
    return largest;
}

//! Per patch, the centrality key (see CentralityKey) of the face farthest
//! from its patch boundary: the next seed of that patch.
DeviceBuffer<std::uint64_t> central_faces(const DeviceCsr&                   ff,
                                          std::uint32_t                      F,
                                          LloydState&                        s,
                                          const DeviceBuffer<std::uint32_t>& offsets,
                                          std::uint32_t&                     relax_passes,
                                          cudaStream_t                       stream)
{
    init_boundary_distance<<<flat_grid(F), kThreads, 0, stream>>>(
        ff.offsets.data(), ff.indices.data(), F, s.patch.data(), s.dist.data());
    RXMESH_CHECK_LAUNCH();
    while (true) {
        s.changed.memset(0);
        relax_distance<<<flat_grid(F), kThreads, 0, stream>>>(
            ff.offsets.data(), ff.indices.data(), F, s.patch.data(), s.dist.data(),
            s.scratch.data(), s.changed.data());
        RXMESH_CHECK_LAUNCH();
        std::swap(s.dist, s.scratch);
        ++relax_passes;
        if (read_back(s.changed.data(), stream) == 0)
            break;
    }
    DeviceBuffer<std::uint64_t> best(s.K, stream);
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0),
                                                CentralityKey{s.members.data(), s.dist.data()});
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSegmentedReduce::Max(tmp, bytes, keys, best.data(), s.K,
                                               offsets.data(), offsets.data() + 1, stream);
    });
    return best;
}

//! Replaces the seeds by the central faces in `best`, adding extra seeds
//! inside oversized patches every options.add_seeds_every iterations.
void update_seeds(std::uint32_t                      iter,
                  const PatcherOptions&              options,
                  const DeviceBuffer<std::uint32_t>& offsets,
                  const DeviceBuffer<std::uint64_t>& best,
                  LloydState&                        s,
                  cudaStream_t                       stream)
{
    const std::uint32_t K = s.K;

    // seed addition inside oversized patches, every few iterations
    std::uint32_t extra = 0;
    DeviceBuffer<std::uint32_t> extra_offsets(std::uint64_t(K) + 1, stream);
    const bool add = (iter + 1) % std::max<std::uint32_t>(1, options.add_seeds_every) == 0;
    if (add) {
        auto extra_of = thrust::make_transform_iterator(
            thrust::counting_iterator<std::uint32_t>(0),
            ExtraSeeds{offsets.data(), options.capacity, K});
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceScan::ExclusiveSum(tmp, bytes, extra_of, extra_offsets.data(),
                                                 K + 1, stream);
        });
        extra = read_back(extra_offsets.data() + K, stream);
    }
    DeviceBuffer<std::uint32_t> new_seeds(std::uint64_t(K) + extra, stream);
    seeds_from_keys<<<flat_grid(K), kThreads, 0, stream>>>(best.data(), K, new_seeds.data());
    RXMESH_CHECK_LAUNCH();
    if (extra > 0) {
        add_seeds<<<flat_grid(K), kThreads, 0, stream>>>(
            offsets.data(), s.members.data(), extra_offsets.data(), K, new_seeds.data() + K);
        RXMESH_CHECK_LAUNCH();
    }
    s.seeds = std::move(new_seeds);
    s.K     = sort_unique(s.seeds, K + extra, stream);
}

//! Host fallback when Lloyd did not converge: splits the oversized ones of
//! the K patches (result.num_patches, result.split_patches) and recounts the
//! largest patch.
void split_fallback(const DeviceCsr&             ff,
                    std::uint32_t                K,
                    const PatcherOptions&        options,
                    DeviceBuffer<std::uint32_t>& patch,
                    PatcherResult&               result)
{
    std::vector<std::uint32_t> h_patch = patch.to_host();
    const auto h_off   = ff.offsets.to_host();
    const auto h_faces = ff.indices.to_host();
    result.num_patches = split_oversized(h_patch, h_off, h_faces, K, options.capacity,
                                         result.split_patches);
    patch.upload(h_patch.data(), h_patch.size());
    std::vector<std::uint32_t> sizes(result.num_patches, 0);
    for (std::uint32_t p : h_patch)
        ++sizes[p];
    result.max_patch_faces = *std::max_element(sizes.begin(), sizes.end());
}

}  // namespace

PatcherResult lloyd_patches(const DeviceCsr&      ff,
                            std::uint32_t         num_faces,
                            const PatcherOptions& options,
                            cudaStream_t          stream)
{
    if (options.capacity == 0)
        throw Error("lloyd_patches: capacity must be positive");
    if (ff.offsets.size() != std::uint64_t(num_faces) + 1)
        throw Error("lloyd_patches: the face adjacency was not built");
    PatcherResult result;
    if (num_faces == 0)
        return result;
    const std::uint32_t F = num_faces;

    LloydState         s;
    PatcherStageTimes& times = result.stages;
    GpuTimer           timer(stream);
    timer.start();
    components_and_seeds(ff, F, options, s, result, stream);
    times.components_ms = timer.stop_ms();

    // ---- Lloyd iterations ----
    s.patch        = DeviceBuffer<std::uint32_t>(F, stream);
    s.scratch      = DeviceBuffer<std::uint32_t>(F, stream);
    s.dist         = DeviceBuffer<std::uint32_t>(F, stream);
    s.members      = DeviceBuffer<std::uint32_t>(F, stream);
    s.patch_sorted = DeviceBuffer<std::uint32_t>(F, stream);
    s.changed      = DeviceBuffer<int>(1, stream);
    s.max_size_d   = DeviceBuffer<std::uint32_t>(1, stream);
    std::uint32_t max_size = 0;
    for (std::uint32_t iter = 0;; ++iter) {
        result.iterations = iter + 1;
        DeviceBuffer<std::uint32_t> offsets;  // this iteration's patch member ranges
        max_size = assign_patches(ff, F, s, offsets, times, stream);
        if (max_size <= options.capacity || iter + 1 >= options.max_iterations)
            break;

        // seed update: the face farthest from its patch boundary
        timer.start();
        const DeviceBuffer<std::uint64_t> best =
            central_faces(ff, F, s, offsets, times.relax_passes, stream);
        times.central_ms += timer.stop_ms();
        timer.start();
        update_seeds(iter, options, offsets, best, s, stream);
        times.seeds_ms += timer.stop_ms();
    }

    result.num_patches     = s.K;
    result.max_patch_faces = max_size;
    if (max_size > options.capacity) {
        timer.start();
        split_fallback(ff, s.K, options, s.patch, result);
        times.split_ms = timer.stop_ms();
    }
    result.face_patch = std::move(s.patch);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return result;
}

}  // namespace rxmesh
