#include "rxmesh/build/reindex.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/tuple>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <limits>
#include <string>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"

namespace rxmesh {
namespace {

constexpr std::uint32_t kUnused = ~0u;
constexpr std::uint64_t kNoError = std::numeric_limits<std::uint64_t>::max();

//! A position as Dim raw 32-bit words: equality is bit equality.
template <int Dim>
struct BitKey
{
    std::uint32_t w[Dim];
};

template <int Dim>
struct BitKeyDecomposer
{
    __host__ __device__ auto operator()(BitKey<Dim>& k) const
    {
        if constexpr (Dim == 2)
            return ::cuda::std::tuple<std::uint32_t&, std::uint32_t&>{k.w[0],
                                                                      k.w[1]};
        else
            return ::cuda::std::tuple<std::uint32_t&, std::uint32_t&,
                                      std::uint32_t&>{k.w[0], k.w[1], k.w[2]};
    }
};

template <int Dim>
__device__ bool same_key(const BitKey<Dim>& a, const BitKey<Dim>& b)
{
    for (int d = 0; d < Dim; ++d)
        if (a.w[d] != b.w[d])
            return false;
    return true;
}

//! Flags used vertices; records the first out-of-range corner.
__global__ void mark_used(const std::uint32_t* indices,
                          std::uint64_t        num_corners,
                          std::uint64_t        num_vertices,
                          std::uint8_t*        used,
                          unsigned long long*  first_bad_corner)
{
    RXMESH_FOR_EACH_ITEM(c, num_corners)
    {
        const std::uint32_t v = indices[c];
        if (v < num_vertices)
            used[v] = 1;
        else
            atomicMin(first_bad_corner, static_cast<unsigned long long>(c));
    }
}

template <int Dim>
__global__ void gather_keys(const float*         positions,
                            const std::uint32_t* used_ids,
                            std::uint64_t        num_used,
                            BitKey<Dim>*         keys,
                            unsigned long long*  first_bad_vertex)
{
    RXMESH_FOR_EACH_ITEM(i, num_used)
    {
        const std::uint32_t v = used_ids[i];
        BitKey<Dim>         k;
        bool                finite = true;
        for (int d = 0; d < Dim; ++d) {
            const float x = positions[std::uint64_t(v) * Dim + d];
            finite        = finite && isfinite(x);
            k.w[d]        = __float_as_uint(x);
        }
        keys[i] = k;
        if (!finite)
            atomicMin(first_bad_vertex, static_cast<unsigned long long>(v));
    }
}

//! 1 where a sorted key differs from its predecessor (a new unique vertex).
template <int Dim>
struct IsFirstOfRun
{
    const BitKey<Dim>* keys;
    __host__ __device__ std::uint32_t operator()(std::uint64_t i) const
    {
        return (i == 0 || !same_key(keys[i], keys[i - 1])) ? 1u : 0u;
    }
};

//! After the sort: assigns each used input vertex its unique id and writes
//! each unique position once.
template <int Dim>
__global__ void scatter_unique(const BitKey<Dim>*   sorted_keys,
                               const std::uint32_t* sorted_ids,
                               const std::uint32_t* run_id_plus_one,
                               std::uint64_t        num_used,
                               std::uint32_t*       old_to_new,
                               float*               new_positions)
{
    RXMESH_FOR_EACH_ITEM(i, num_used)
    {
        const std::uint32_t id = run_id_plus_one[i] - 1;
        old_to_new[sorted_ids[i]] = id;
        if (i == 0 || run_id_plus_one[i - 1] != run_id_plus_one[i])
            for (int d = 0; d < Dim; ++d)
                new_positions[std::uint64_t(id) * Dim + d] =
                    __uint_as_float(sorted_keys[i].w[d]);
    }
}

//! Without welding: the new id of a used vertex is its rank among used ones.
template <int Dim>
__global__ void scatter_ranked(const float*         positions,
                               const std::uint32_t* used_ids,
                               std::uint64_t        num_used,
                               std::uint32_t*       old_to_new,
                               float*               new_positions,
                               unsigned long long*  first_bad_vertex)
{
    RXMESH_FOR_EACH_ITEM(i, num_used)
    {
        const std::uint32_t v      = used_ids[i];
        bool                finite = true;
        for (int d = 0; d < Dim; ++d) {
            const float x = positions[std::uint64_t(v) * Dim + d];
            finite        = finite && isfinite(x);
            new_positions[i * Dim + d] = x;
        }
        old_to_new[v] = static_cast<std::uint32_t>(i);
        if (!finite)
            atomicMin(first_bad_vertex, static_cast<unsigned long long>(v));
    }
}

template <int Corners>
__global__ void remap_elements(const std::uint32_t* indices,
                               std::uint64_t        num_elements,
                               const std::uint32_t* old_to_new,
                               bool                 drop_degenerate,
                               std::uint32_t*       out,
                               std::uint8_t*        keep,
                               unsigned long long*  num_degenerate)
{
    RXMESH_FOR_EACH_ITEM(e, num_elements)
    {
        std::uint32_t v[Corners];
        for (int c = 0; c < Corners; ++c)
            v[c] = old_to_new[indices[e * Corners + c]];
        bool degenerate = false;
        for (int a = 0; a < Corners; ++a)
            for (int b = a + 1; b < Corners; ++b)
                degenerate = degenerate || v[a] == v[b];
        for (int c = 0; c < Corners; ++c)
            out[e * Corners + c] = v[c];
        const bool dropped = drop_degenerate && degenerate;
        keep[e]            = dropped ? 0 : 1;
        if (dropped)
            atomicAdd(num_degenerate, 1ull);
    }
}

template <int Corners>
struct Element
{
    std::uint32_t v[Corners];
};

void throw_if_bad_corner(unsigned long long bad, int corners, std::size_t nv)
{
    if (bad == kNoError)
        return;
    throw InvalidInputError("reindex: element " + std::to_string(bad / corners) +
                            " corner " + std::to_string(bad % corners) +
                            " references a vertex >= the vertex count " +
                            std::to_string(nv));
}

void throw_if_bad_vertex(unsigned long long bad)
{
    if (bad == kNoError)
        return;
    throw InvalidInputError("reindex: vertex " + std::to_string(bad) +
                            " has a non-finite coordinate (NaN or inf)");
}

using detail::cub_call;
using detail::flat_grid;

//! Steps 1-2: flags the vertices the elements use (throwing on a corner out
//! of range), then compacts their ids into `used_ids`; returns how many.
template <int Corners>
std::uint32_t select_used_vertices(const std::uint32_t*              d_indices,
                                   std::uint64_t                     num_corners,
                                   std::size_t                       num_vertices,
                                   DeviceBuffer<unsigned long long>& errors,
                                   DeviceBuffer<std::uint32_t>&      used_ids,
                                   cudaStream_t                      stream)
{
    constexpr int T = detail::kFlatBlockThreads;

    // 1. which vertices do the elements use?
    DeviceBuffer<std::uint8_t> used(num_vertices, stream);
    used.memset(0);
    if (num_corners > 0) {
        mark_used<<<flat_grid(num_corners), T, 0, stream>>>(
            d_indices, num_corners, num_vertices, used.data(), errors.data());
        RXMESH_CHECK_LAUNCH();
    }
    throw_if_bad_corner(read_back(errors.data(), stream), Corners, num_vertices);

    // 2. compact the used vertex ids (drops unused vertices before the sort)
    used_ids = DeviceBuffer<std::uint32_t>(num_vertices, stream);
    DeviceBuffer<std::uint32_t> num_used_d(1, stream);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSelect::Flagged(tmp, bytes,
                                          thrust::counting_iterator<std::uint32_t>(0),
                                          used.data(), used_ids.data(),
                                          num_used_d.data(), num_vertices, stream);
    });
    const std::uint32_t num_used = read_back(num_used_d.data(), stream);
    used = DeviceBuffer<std::uint8_t>();
    return num_used;
}

//! Without welding: new ids are the ranks among used vertices (input order
//! kept); throws on a non-finite coordinate.
template <int Dim>
void number_ranked(const float*                       d_positions,
                   const DeviceBuffer<std::uint32_t>& used_ids,
                   std::uint32_t                      num_used,
                   DeviceBuffer<unsigned long long>&  errors,
                   ReindexResult&                     result,
                   cudaStream_t                       stream)
{
    constexpr int T = detail::kFlatBlockThreads;

    result.num_vertices = num_used;
    result.positions    = DeviceBuffer<float>(std::size_t(num_used) * Dim, stream);
    if (num_used > 0) {
        scatter_ranked<Dim><<<flat_grid(num_used), T, 0, stream>>>(
            d_positions, used_ids.data(), num_used, result.old_to_new.data(),
            result.positions.data(), errors.data() + 1);
        RXMESH_CHECK_LAUNCH();
    }
    throw_if_bad_vertex(read_back(errors.data() + 1, stream));
}

//! Steps 3-5, welding (num_used > 0): sorts the used positions as bit keys,
//! then gives every run of equal keys one new id and one output position.
//! The sort may leave its result in `used_ids`' storage.
template <int Dim>
void number_welded(const float*                      d_positions,
                   DeviceBuffer<std::uint32_t>&      used_ids,
                   std::uint32_t                     num_used,
                   DeviceBuffer<unsigned long long>& errors,
                   ReindexResult&                    result,
                   cudaStream_t                      stream)
{
    constexpr int T = detail::kFlatBlockThreads;

    // 3. sort positions as bit keys, carrying the vertex id
    DeviceBuffer<BitKey<Dim>>   keys(num_used, stream), keys_alt(num_used, stream);
    DeviceBuffer<std::uint32_t> ids_alt(num_used, stream);
    gather_keys<Dim><<<flat_grid(num_used), T, 0, stream>>>(
        d_positions, used_ids.data(), num_used, keys.data(), errors.data() + 1);
    RXMESH_CHECK_LAUNCH();
    throw_if_bad_vertex(read_back(errors.data() + 1, stream));

    cub::DoubleBuffer<BitKey<Dim>>   key_buf(keys.data(), keys_alt.data());
    cub::DoubleBuffer<std::uint32_t> id_buf(used_ids.data(), ids_alt.data());
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(tmp, bytes, key_buf, id_buf,
                                               num_used, BitKeyDecomposer<Dim>{},
                                               stream);
    });

    // 4. number the runs of equal keys: inclusive scan of first-of-run flags
    DeviceBuffer<std::uint32_t> run_ids(num_used, stream);
    auto first_of_run = thrust::make_transform_iterator(
        thrust::counting_iterator<std::uint64_t>(0),
        IsFirstOfRun<Dim>{key_buf.Current()});
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::InclusiveSum(tmp, bytes, first_of_run,
                                             run_ids.data(), num_used, stream);
    });
    const std::uint32_t num_unique = read_back(run_ids.data() + num_used - 1, stream);

    // 5. new positions and the old -> new map
    result.num_vertices = num_unique;
    result.positions = DeviceBuffer<float>(std::size_t(num_unique) * Dim, stream);
    scatter_unique<Dim><<<flat_grid(num_used), T, 0, stream>>>(
        key_buf.Current(), id_buf.Current(), run_ids.data(), num_used,
        result.old_to_new.data(), result.positions.data());
    RXMESH_CHECK_LAUNCH();
}

//! Step 6: remaps the elements into result.indices, then compacts away
//! those that became degenerate (when options.drop_degenerate).
template <int Corners>
void remap_and_drop(const std::uint32_t*              d_indices,
                    std::size_t                       num_elements,
                    std::uint64_t                     num_corners,
                    const ReindexOptions&             options,
                    DeviceBuffer<unsigned long long>& errors,
                    ReindexResult&                    result,
                    cudaStream_t                      stream)
{
    constexpr int T = detail::kFlatBlockThreads;

    result.indices = DeviceBuffer<std::uint32_t>(num_corners, stream);
    if (num_elements > 0) {
        DeviceBuffer<std::uint8_t> keep(num_elements, stream);
        remap_elements<Corners><<<flat_grid(num_elements), T, 0, stream>>>(
            d_indices, num_elements, result.old_to_new.data(),
            options.drop_degenerate, result.indices.data(), keep.data(),
            errors.data() + 2);
        RXMESH_CHECK_LAUNCH();
        result.dropped_elements = read_back(errors.data() + 2, stream);
        if (result.dropped_elements > 0) {
            DeviceBuffer<std::uint32_t> kept(num_corners, stream);
            DeviceBuffer<std::uint64_t> num_kept(1, stream);
            auto* in  = reinterpret_cast<const Element<Corners>*>(result.indices.data());
            auto* out = reinterpret_cast<Element<Corners>*>(kept.data());
            cub_call(stream, [&](void* tmp, std::size_t& bytes) {
                return cub::DeviceSelect::Flagged(tmp, bytes, in, keep.data(), out,
                                                  num_kept.data(), num_elements,
                                                  stream);
            });
            result.indices = std::move(kept);
        }
    }
}

}  // namespace

template <int Dim, int Corners>
ReindexResult reindex(const float*         d_positions,
                      std::size_t          num_vertices,
                      const std::uint32_t* d_indices,
                      std::size_t          num_elements,
                      ReindexOptions       options,
                      cudaStream_t         stream)
{
    if (num_vertices >= kUnused)
        throw InvalidInputError("reindex: more than 2^32-2 vertices");

    ReindexResult result;
    const std::uint64_t num_corners = std::uint64_t(num_elements) * Corners;

    // error slots: [0] first bad corner, [1] first bad vertex, [2] degenerate count
    DeviceBuffer<unsigned long long> errors(3, stream);
    const unsigned long long init[3] = {kNoError, kNoError, 0};
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(errors.data(), init, sizeof(init),
                                      cudaMemcpyHostToDevice, stream));

    DeviceBuffer<std::uint32_t> used_ids;
    const std::uint32_t         num_used = select_used_vertices<Corners>(
        d_indices, num_corners, num_vertices, errors, used_ids, stream);

    result.old_to_new = DeviceBuffer<std::uint32_t>(num_vertices, stream);
    result.old_to_new.memset(0xFF);

    if (!options.weld)
        number_ranked<Dim>(d_positions, used_ids, num_used, errors, result, stream);
    else if (num_used > 0)
        number_welded<Dim>(d_positions, used_ids, num_used, errors, result, stream);
    used_ids = DeviceBuffer<std::uint32_t>();

    remap_and_drop<Corners>(d_indices, num_elements, num_corners, options, errors, result,
                            stream);
    result.num_elements = num_elements - result.dropped_elements;
    result.indices.shrink(result.num_elements * Corners);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return result;
}

#define RXMESH_INSTANTIATE_REINDEX(D, C)                                        \
    template ReindexResult reindex<D, C>(const float*, std::size_t,             \
                                         const std::uint32_t*, std::size_t,     \
                                         ReindexOptions, cudaStream_t);
RXMESH_INSTANTIATE_REINDEX(2, 3)
RXMESH_INSTANTIATE_REINDEX(2, 4)
RXMESH_INSTANTIATE_REINDEX(3, 3)
RXMESH_INSTANTIATE_REINDEX(3, 4)
#undef RXMESH_INSTANTIATE_REINDEX

}  // namespace rxmesh
