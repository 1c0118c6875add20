// The curve patcher (PatcherMethod::Curve; rxmesh/patch/patcher.h describes
// the algorithm): the stages on the host side, each a few CUB calls and
// kernels of curve_kernels.cuh.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <limits>
#include <memory>

#include "curve_kernels.cuh"
#include "core/sequences.cuh"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/patch/patcher.h"

namespace rxmesh {
namespace {

using namespace detail::curve;
using detail::cub_call;
using detail::CurveGraph;
using detail::flat_grid;
using detail::kDistanceStep;
using Count            = thrust::counting_iterator<std::uint32_t>;
constexpr int kThreads = detail::kFlatBlockThreads;

//! Device state shared by the stages, all in curve order.
struct CurveState
{
    std::uint32_t                       n = 0;    // faces
    DeviceBuffer<std::uint32_t>         order;    // the face at each curve position
    DeviceBuffer<std::uint32_t>         offsets;  // the face graph renumbered
    DeviceBuffer<std::uint32_t>         nbrs;
    DeviceBuffer<std::uint64_t>         value;        // relaxation values
    DeviceBuffer<std::uint32_t>         cell;         // patch id per position
    DeviceBuffer<std::uint32_t>         seeds;        // seed positions; seed j grows patch j
    std::uint32_t                       K       = 0;  // ids in use: 0 .. K - 1
    std::uint32_t                       retired = 0;  // of which split, so empty
    std::unique_ptr<detail::Relaxation> relax;

    CurveGraph graph() const { return {offsets.data(), nbrs.data(), n}; }
};

std::uint32_t seed_spacing(const PatcherOptions& options)
{
    return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::uint64_t(options.capacity) *
                                                                 options.fill_percent / 100));
}

CurveFrame bounding_frame(const PatcherInput& in, cudaStream_t stream)
{
    DeviceBuffer<Box> box(1, stream);
    const auto        boxes = thrust::make_transform_iterator(Count(0), PointBox{in.positions});
    const float       inf   = std::numeric_limits<float>::infinity();
    const Box         empty{{inf, inf, inf}, {-inf, -inf, -inf}};
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::Reduce(tmp, bytes, boxes, box.data(), in.num_vertices,
                                         MergeBoxes{}, empty, stream);
    });
    const Box b = read_back(box.data(), stream);
    return make_curve_frame(b.lo, b.hi);
}

//! s.order (faces sorted by curve key, ties by face id) and the face graph
//! renumbered by curve position.
void order_faces(const PatcherInput& in, CurveState& s, cudaStream_t stream)
{
    const std::uint32_t         n     = in.num_faces;
    const CurveFrame            frame = bounding_frame(in, stream);
    DeviceBuffer<std::uint64_t> keys(n, stream), sorted_keys(n, stream);
    curve_keys<<<flat_grid(n), kThreads, 0, stream>>>(in.faces, in.positions, n, frame,
                                                      keys.data());
    RXMESH_CHECK_LAUNCH();
    DeviceBuffer<std::uint32_t> iota(n, stream), rank(n, stream);
    detail::fill_sequence(iota.data(), n, stream);
    s.order = DeviceBuffer<std::uint32_t>(n, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, keys.data(), sorted_keys.data(),
                                               iota.data(), s.order.data(), n, 0, 3 * kCurveBits,
                                               stream);
    });
    invert_order<<<flat_grid(n), kThreads, 0, stream>>>(s.order.data(), n, rank.data());
    RXMESH_CHECK_LAUNCH();

    const DeviceCsr& ff = *in.ff;
    s.offsets           = DeviceBuffer<std::uint32_t>(std::uint64_t(n) + 1, stream);
    s.nbrs              = DeviceBuffer<std::uint32_t>(ff.indices.size(), stream);
    const auto lengths  = thrust::make_transform_iterator(
         Count(0), CurveRowLength{s.order.data(), ff.offsets.data(), n});
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, lengths, s.offsets.data(), n + 1, stream);
    });
    renumber_rows<<<flat_grid(n), kThreads, 0, stream>>>(s.order.data(), rank.data(),
                                                         ff.offsets.data(), ff.indices.data(), n,
                                                         s.offsets.data(), s.nbrs.data());
    RXMESH_CHECK_LAUNCH();
}

struct IsRoot
{
    const std::uint32_t* root;
    __host__ __device__ std::uint32_t operator()(std::uint32_t i) const { return root[i] == i; }
};

template <typename Iterator>
std::uint32_t device_sum(Iterator values, std::uint32_t count, cudaStream_t stream)
{
    DeviceBuffer<std::uint32_t> sum(1, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::Sum(tmp, bytes, values, sum.data(), count, stream);
    });
    return read_back(sum.data(), stream);
}

//! Components of the face graph, then the seeds: the middle of every run of
//! `spacing` positions and the first position of every component left
//! without one. Fills s.seeds and s.K (seeds in curve order).
void initial_seeds(const PatcherOptions& options, CurveState& s, PatcherResult& result,
                   cudaStream_t stream)
{
    const std::uint32_t         n = s.n;
    DeviceBuffer<std::uint32_t> root(n, stream);
    detail::csr_components(s.offsets.data(), s.nbrs.data(), n, root.data(), stream);
    result.num_components =
        device_sum(thrust::make_transform_iterator(Count(0), IsRoot{root.data()}), n, stream);

    DeviceBuffer<std::uint8_t> is_seed(n, stream), seeded(n, stream);
    is_seed.memset(0);
    seeded.memset(0);
    const std::uint32_t spacing = seed_spacing(options);
    const std::uint32_t chunks  = (n + spacing - 1) / spacing;
    seed_chunks<<<flat_grid(chunks), kThreads, 0, stream>>>(n, chunks, root.data(), is_seed.data(),
                                                            seeded.data());
    seed_unseeded_components<<<flat_grid(n), kThreads, 0, stream>>>(root.data(), n, seeded.data(),
                                                                    is_seed.data());
    RXMESH_CHECK_LAUNCH();
    s.seeds = DeviceBuffer<std::uint32_t>(std::uint64_t(chunks) + result.num_components, stream);
    DeviceBuffer<std::uint32_t> count(1, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSelect::Flagged(tmp, bytes, Count(0), is_seed.data(), s.seeds.data(),
                                          count.data(), n, stream);
    });
    s.K = read_back(count.data(), stream);
}

//! Grows patch j from s.seeds[j] over the whole graph; returns the sweeps.
std::uint32_t grow(CurveState& s, cudaStream_t stream)
{
    s.value.memset(0xFF);
    plant<<<flat_grid(s.K), kThreads, 0, stream>>>(s.seeds.data(), s.K, 0, s.value.data(),
                                                   s.relax->first_dirty());
    RXMESH_CHECK_LAUNCH();
    const std::uint32_t sweeps = s.relax->run(s.graph(), nullptr, kDistanceStep, s.value.data());
    labels_of<<<flat_grid(s.n), kThreads, 0, stream>>>(s.value.data(), s.n, s.cell.data());
    RXMESH_CHECK_LAUNCH();
    return sweeps;
}

//! Moves every seed to its patch's most central position (the farthest from
//! the patch boundary, the first on the curve among equals); returns the
//! sweeps of the distance relaxation.
std::uint32_t recenter(CurveState& s, cudaStream_t stream)
{
    boundary_start<<<flat_grid(s.n), kThreads, 0, stream>>>(s.graph(), s.cell.data(),
                                                            s.value.data());
    RXMESH_CHECK_LAUNCH();
    s.relax->mark_all();
    const std::uint32_t sweeps =
        s.relax->run(s.graph(), s.cell.data(), kDistanceStep, s.value.data());
    DeviceBuffer<unsigned long long> best(s.K, stream);
    best.memset(0);
    most_central<<<flat_grid(s.n), kThreads, 0, stream>>>(s.value.data(), s.cell.data(), s.n,
                                                          best.data());
    DeviceBuffer<std::uint32_t> unsorted(s.K, stream);
    positions_of_best<<<flat_grid(s.K), kThreads, 0, stream>>>(best.data(), s.K, unsorted.data());
    RXMESH_CHECK_LAUNCH();
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(tmp, bytes, unsorted.data(), s.seeds.data(), s.K, 0,
                                              detail::bits_for(s.n), stream);
    });
    return sweeps;
}

//! Exclusive scan of f(c) for c < k into k + 1 offsets; returns the total.
template <typename PerPatch>
std::uint32_t scan_patches(PerPatch f, std::uint32_t k, DeviceBuffer<std::uint32_t>& offsets,
                           cudaStream_t stream)
{
    offsets         = DeviceBuffer<std::uint32_t>(std::uint64_t(k) + 1, stream);
    const auto each = thrust::make_transform_iterator(Count(0), f);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, each, offsets.data(), k + 1, stream);
    });
    return read_back(offsets.data() + k, stream);
}

//! The members of the split patches, grouped by patch, each group in curve
//! order (`total` of them).
DeviceBuffer<std::uint32_t> split_members(const CurveState& s, const SplitSeeds& split,
                                          std::uint32_t total, cudaStream_t stream)
{
    DeviceBuffer<std::uint32_t> list(total, stream), count(1, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSelect::If(tmp, bytes, Count(0), list.data(), count.data(), s.n,
                                     InSplitPatch{s.cell.data(), split}, stream);
    });
    DeviceBuffer<std::uint32_t> keys(total, stream), sorted(total, stream), members(total, stream);
    gather_cells<<<flat_grid(total), kThreads, 0, stream>>>(list.data(), total, s.cell.data(),
                                                            keys.data());
    RXMESH_CHECK_LAUNCH();
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {  // stable: curve order kept
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, keys.data(), sorted.data(), list.data(),
                                               members.data(), total, 0, detail::bits_for(s.K),
                                               stream);
    });
    return members;
}

struct IsSplit
{
    SplitSeeds          split;
    __host__ __device__ std::uint32_t operator()(std::uint32_t c) const { return split(c) != 0; }
};

//! One round of splits: every patch over capacity regrown from seeds spread
//! along its curve order, inside itself. Returns false (and the largest
//! patch in `largest`) when every patch fits.
bool split_round(const PatcherOptions& options, CurveState& s, std::uint32_t& largest,
                 std::uint32_t& sweeps, cudaStream_t stream)
{
    DeviceBuffer<std::uint32_t> sizes(s.K, stream);
    sizes.memset(0);
    count_members<<<flat_grid(s.n), kThreads, 0, stream>>>(s.cell.data(), s.n, sizes.data());
    RXMESH_CHECK_LAUNCH();
    const SplitSeeds            split{sizes.data(), options.capacity, seed_spacing(options), s.K};
    DeviceBuffer<std::uint32_t> seed_offsets, member_offsets;
    const std::uint32_t         extra = scan_patches(split, s.K, seed_offsets, stream);
    if (extra == 0) {
        DeviceBuffer<std::uint32_t> max(1, stream);
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceReduce::Max(tmp, bytes, sizes.data(), max.data(), s.K, stream);
        });
        largest = read_back(max.data(), stream);
        return false;
    }
    const std::uint32_t total   = scan_patches(SplitMembers{split}, s.K, member_offsets, stream);
    const auto          members = split_members(s, split, total, stream);
    DeviceBuffer<std::uint32_t> new_seeds(extra, stream);
    spread_split_seeds<<<flat_grid(s.K), kThreads, 0, stream>>>(
        split, seed_offsets.data(), member_offsets.data(), members.data(), new_seeds.data());
    clear_split_patches<<<flat_grid(s.n), kThreads, 0, stream>>>(
        s.cell.data(), s.n, split, s.value.data(), s.relax->first_dirty());
    plant<<<flat_grid(extra), kThreads, 0, stream>>>(new_seeds.data(), extra, s.K, s.value.data(),
                                                     s.relax->first_dirty());
    RXMESH_CHECK_LAUNCH();
    sweeps += s.relax->run(s.graph(), s.cell.data(), kDistanceStep, s.value.data());
    labels_of<<<flat_grid(s.n), kThreads, 0, stream>>>(s.value.data(), s.n, s.cell.data());
    RXMESH_CHECK_LAUNCH();
    s.retired += device_sum(thrust::make_transform_iterator(Count(0), IsSplit{split}), s.K, stream);
    s.K += extra;
    return true;
}

//! Patch ids in the order of each patch's first curve position (the split
//! ones, now empty, dropped), written back in face order.
void finish(CurveState& s, PatcherResult& result, cudaStream_t stream)
{
    const std::uint32_t         K = s.K, P = s.K - s.retired;
    DeviceBuffer<std::uint32_t> first(K, stream), first_sorted(K, stream);
    DeviceBuffer<std::uint32_t> ids(K, stream), by_first(K, stream), id(K, stream);
    first.memset(0xFF);
    first_positions<<<flat_grid(s.n), kThreads, 0, stream>>>(s.cell.data(), s.n, first.data());
    RXMESH_CHECK_LAUNCH();
    detail::fill_sequence(ids.data(), K, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, first.data(), first_sorted.data(),
                                               ids.data(), by_first.data(), K, 0, 32, stream);
    });
    number_patches<<<flat_grid(P), kThreads, 0, stream>>>(by_first.data(), P, id.data());
    result.face_patch = DeviceBuffer<std::uint32_t>(s.n, stream);
    scatter_patches<<<flat_grid(s.n), kThreads, 0, stream>>>(
        s.order.data(), s.cell.data(), id.data(), s.n, result.face_patch.data());
    RXMESH_CHECK_LAUNCH();
    result.num_patches = P;
}

void check_input(const PatcherInput& in, const PatcherOptions& options)
{
    if (options.capacity == 0) throw Error("curve_patches: capacity must be positive");
    if (!in.ff || in.ff->offsets.size() != std::uint64_t(in.num_faces) + 1)
        throw Error("curve_patches: the face adjacency was not built");
    if (in.num_faces != 0 && (!in.faces || !in.positions || in.num_vertices == 0))
        throw Error("curve_patches: faces and positions are required");
}

}  // namespace

PatcherResult curve_patches(const PatcherInput& in, const PatcherOptions& options,
                            cudaStream_t stream)
{
    check_input(in, options);
    PatcherResult result;
    if (in.num_faces == 0) return result;
    PatcherStageTimes& times = result.stages;
    GpuTimer           timer(stream);
    CurveState         s;
    s.n     = in.num_faces;
    s.value = DeviceBuffer<std::uint64_t>(s.n, stream);
    s.relax = std::make_unique<detail::Relaxation>(s.n, stream);
    s.cell  = DeviceBuffer<std::uint32_t>(s.n, stream);

    timer.start();
    order_faces(in, s, stream);
    times.order_ms = timer.stop_ms();
    timer.start();
    initial_seeds(options, s, result, stream);
    times.components_ms = timer.stop_ms();
    for (std::uint32_t step = 0; step <= options.recenter_steps; ++step) {
        if (step > 0) {
            timer.start();
            times.relax_passes += recenter(s, stream);
            times.central_ms += timer.stop_ms();
        }
        timer.start();
        times.propagate_passes += grow(s, stream);
        times.propagate_ms += timer.stop_ms();
        ++result.iterations;
    }
    timer.start();
    while (split_round(options, s, result.max_patch_faces, times.propagate_passes, stream))
        ++result.iterations;
    result.split_patches = s.retired;
    times.split_ms       = timer.stop_ms();
    timer.start();
    finish(s, result, stream);
    times.finish_ms = timer.stop_ms();
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return result;
}

PatcherResult make_patches(const PatcherInput& in, const PatcherOptions& options,
                           cudaStream_t stream)
{
    if (options.method == PatcherMethod::Lloyd) {
        if (!in.ff) throw Error("make_patches: the face adjacency was not built");
        return lloyd_patches(*in.ff, in.num_faces, options, stream);
    }
    return curve_patches(in, options, stream);
}

}  // namespace rxmesh
