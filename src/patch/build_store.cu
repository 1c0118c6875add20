#include "rxmesh/patch/build_store.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <string>

#include "detail/csr_rows.cuh"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"

namespace rxmesh {
namespace {

using detail::cub_call;
using detail::flat_grid;
constexpr int           kThreads = detail::kFlatBlockThreads;
constexpr std::uint32_t kMaxLocal = 0xFFFF;  // 16-bit local ids; 0xFFFF is never an id
// M_FE keeps the flip bit beside the local edge id in 16 bits.
constexpr std::uint32_t kMaxLocalEdges = 0x7FFF;

__global__ void iota_kernel(std::uint32_t* out, std::uint64_t n)
{
    RXMESH_FOR_EACH_ITEM(i, n) { out[i] = static_cast<std::uint32_t>(i); }
}

//! Owner of each row element: the smallest patch among its incident faces
//! (a CSR row of faces); 0 for an element with no face.
__global__ void min_patch_of_rows(const std::uint32_t* offsets,
                                  const std::uint32_t* faces,
                                  std::uint32_t        rows,
                                  const std::uint32_t* face_patch,
                                  std::uint32_t*       owner)
{
    RXMESH_FOR_EACH_ITEM(r, rows)
    {
        std::uint32_t p = offsets[r + 1] > offsets[r] ? ~0u : 0u;
        for (std::uint32_t i = offsets[r]; i < offsets[r + 1]; ++i)
            p = min(p, face_patch[faces[i]]);
        owner[r] = p;
    }
}

__global__ void scatter_inverse(const std::uint32_t* new_to_old, std::uint64_t n,
                                std::uint32_t* old_to_new)
{
    RXMESH_FOR_EACH_ITEM(i, n) { old_to_new[new_to_old[i]] = static_cast<std::uint32_t>(i); }
}

__global__ void renumber_faces(const std::uint32_t* old_faces,
                               const std::uint32_t* face_new_to_old,
                               const std::uint32_t* vertex_old_to_new,
                               std::uint32_t        num_faces,
                               std::uint32_t*       new_faces)
{
    RXMESH_FOR_EACH_ITEM(f, num_faces)
    {
        const std::uint64_t old = face_new_to_old[f];
        for (int k = 0; k < 3; ++k)
            new_faces[3 * f + k] = vertex_old_to_new[old_faces[3 * old + k]];
    }
}

//! (vertex << pbits) | patch for every face corner.
__global__ void vertex_patch_keys(const std::uint32_t* old_faces,
                                  const std::uint32_t* face_patch,
                                  std::uint64_t        num_corners,
                                  int                  pbits,
                                  std::uint64_t*       keys)
{
    RXMESH_FOR_EACH_ITEM(c, num_corners)
    {
        keys[c] = (std::uint64_t(old_faces[c]) << pbits) | face_patch[c / 3];
    }
}

//! Ribbon faces: a (vertex, patch) pair with a vertex shared by several
//! patches yields every face of the vertex that lies in another patch.
struct RibbonSlots
{
    const std::uint64_t* vp;  // unique (v, p) keys
    const std::uint32_t* vp_row_offsets;
    const std::uint32_t* vf_offsets;
    int                  pbits;
    std::uint64_t        num_vp;  // 0 past the end: the scan's last output is the total
    __host__ __device__ std::uint64_t operator()(std::uint64_t i) const
    {
        if (i >= num_vp)
            return 0;
        const std::uint32_t v = static_cast<std::uint32_t>(vp[i] >> pbits);
        if (vp_row_offsets[v + 1] - vp_row_offsets[v] < 2)
            return 0;
        return vf_offsets[v + 1] - vf_offsets[v];
    }
};

__global__ void emit_ribbon_faces(const std::uint64_t* vp,
                                  std::uint64_t        num_vp,
                                  const std::uint64_t* slot_offsets,
                                  const std::uint32_t* vp_row_offsets,
                                  const std::uint32_t* vf_offsets,
                                  const std::uint32_t* vf_faces,
                                  const std::uint32_t* face_patch,
                                  const std::uint32_t* face_old_to_new,
                                  int                  pbits,
                                  int                  fbits,
                                  std::uint64_t        sentinel,
                                  std::uint64_t*       keys)
{
    RXMESH_FOR_EACH_ITEM(i, num_vp)
    {
        const std::uint32_t v = static_cast<std::uint32_t>(vp[i] >> pbits);
        const std::uint32_t p = static_cast<std::uint32_t>(vp[i] & ((1ull << pbits) - 1));
        if (vp_row_offsets[v + 1] - vp_row_offsets[v] < 2)
            continue;
        std::uint64_t out = slot_offsets[i];
        for (std::uint32_t j = vf_offsets[v]; j < vf_offsets[v + 1]; ++j) {
            const std::uint32_t g = vf_faces[j];
            keys[out++] = face_patch[g] == p
                              ? sentinel
                              : (std::uint64_t(p) << fbits) | face_old_to_new[g];
        }
    }
}

//! A local face slot: owned faces [0, F) then ribbon entries [F, F + R).
struct LocalFace
{
    std::uint32_t patch, face, position;  // position: slot in M_FE (in faces)
};

__device__ inline LocalFace local_face(std::uint64_t        s,
                                       std::uint32_t        num_faces,
                                       const std::uint32_t* face_patch_sorted,
                                       const std::uint32_t* face_offsets,
                                       const std::uint32_t* ribbon_f_offsets,
                                       const std::uint64_t* ribbon_f_keys,
                                       int                  fbits)
{
    LocalFace lf;
    if (s < num_faces) {
        lf.face     = static_cast<std::uint32_t>(s);
        lf.patch    = face_patch_sorted[s];
        lf.position = lf.face + ribbon_f_offsets[lf.patch];
    } else {
        const std::uint64_t j = s - num_faces;
        lf.patch    = static_cast<std::uint32_t>(ribbon_f_keys[j] >> fbits);
        lf.face     = static_cast<std::uint32_t>(ribbon_f_keys[j] & ((1ull << fbits) - 1));
        lf.position = face_offsets[lf.patch + 1] + static_cast<std::uint32_t>(j);
    }
    return lf;
}

//! For every local face slot and corner: (patch << bits) | element when the
//! face's edge (or vertex) is not owned by the slot's patch; else sentinel.
template <bool Edges>
__global__ void emit_ribbon_elements(std::uint64_t        num_slots,
                                     std::uint32_t        num_faces,
                                     const std::uint32_t* face_patch_sorted,
                                     const std::uint32_t* face_offsets,
                                     const std::uint32_t* ribbon_f_offsets,
                                     const std::uint64_t* ribbon_f_keys,
                                     int                  fbits,
                                     const std::uint32_t* new_faces,
                                     const std::uint32_t* face_new_to_old,
                                     const std::uint32_t* fe_old,
                                     const std::uint32_t* edge_old_to_new,
                                     const std::uint32_t* owner_sorted,
                                     int                  bits,
                                     std::uint64_t        sentinel,
                                     std::uint64_t*       keys)
{
    RXMESH_FOR_EACH_ITEM(s, num_slots)
    {
        const LocalFace lf = local_face(s, num_faces, face_patch_sorted, face_offsets,
                                        ribbon_f_offsets, ribbon_f_keys, fbits);
        for (int k = 0; k < 3; ++k) {
            std::uint32_t x;
            if (Edges)
                x = edge_old_to_new[fe_old[3 * std::uint64_t(face_new_to_old[lf.face]) + k] >> 1];
            else
                x = new_faces[3 * std::uint64_t(lf.face) + k];
            keys[3 * s + k] = owner_sorted[x] == lf.patch
                                  ? sentinel
                                  : (std::uint64_t(lf.patch) << bits) | x;
        }
    }
}

struct KeyRow
{
    const std::uint64_t* keys;
    int                  shift;
    __host__ __device__ std::uint32_t operator()(std::uint64_t i) const
    {
        return static_cast<std::uint32_t>(keys[i] >> shift);
    }
};

__global__ void low_bits(const std::uint64_t* keys, std::uint64_t n, int bits, std::uint32_t* out)
{
    RXMESH_FOR_EACH_ITEM(i, n)
    {
        out[i] = static_cast<std::uint32_t>(keys[i] & ((1ull << bits) - 1));
    }
}

struct Lookup32
{
    const std::uint32_t* v;
    __host__ __device__ std::uint32_t operator()(std::uint64_t i) const { return v[i]; }
};

//! Local id in patch p of global element x: owned ones by offset, ribbon
//! ones by binary search in the patch's sorted ribbon list.
__device__ inline std::uint32_t local_id(std::uint32_t        x,
                                         std::uint32_t        p,
                                         const std::uint32_t* owner_sorted,
                                         const std::uint32_t* offsets,
                                         const std::uint32_t* ribbon_offsets,
                                         const std::uint32_t* ribbon)
{
    if (owner_sorted[x] == p)
        return x - offsets[p];
    std::uint32_t lo = ribbon_offsets[p], hi = ribbon_offsets[p + 1];
    while (lo < hi) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (ribbon[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (offsets[p + 1] - offsets[p]) + (lo - ribbon_offsets[p]);
}

__global__ void fill_m_fe(std::uint64_t        num_slots,
                          std::uint32_t        num_faces,
                          const std::uint32_t* face_patch_sorted,
                          const std::uint32_t* face_offsets,
                          const std::uint32_t* ribbon_f_offsets,
                          const std::uint64_t* ribbon_f_keys,
                          int                  fbits,
                          const std::uint32_t* new_faces,
                          const std::uint32_t* face_new_to_old,
                          const std::uint32_t* fe_old,
                          const std::uint32_t* edge_old_to_new,
                          const std::uint32_t* edge_owner_sorted,
                          const std::uint32_t* edge_offsets,
                          const std::uint32_t* ribbon_e_offsets,
                          const std::uint32_t* ribbon_e,
                          std::uint16_t*       m_fe)
{
    RXMESH_FOR_EACH_ITEM(s, num_slots)
    {
        const LocalFace lf = local_face(s, num_faces, face_patch_sorted, face_offsets,
                                        ribbon_f_offsets, ribbon_f_keys, fbits);
        const std::uint64_t old = face_new_to_old[lf.face];
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t e  = edge_old_to_new[fe_old[3 * old + k] >> 1];
            const std::uint32_t le = local_id(e, lf.patch, edge_owner_sorted, edge_offsets,
                                              ribbon_e_offsets, ribbon_e);
            const std::uint32_t a = new_faces[3 * std::uint64_t(lf.face) + k];
            const std::uint32_t b = new_faces[3 * std::uint64_t(lf.face) + (k + 1) % 3];
            m_fe[3 * std::uint64_t(lf.position) + k] =
                static_cast<std::uint16_t>((le << 1) | (a > b ? 1u : 0u));
        }
    }
}

__global__ void fill_m_ev(std::uint64_t        num_slots,
                          std::uint32_t        num_edges,
                          const std::uint32_t* edge_owner_sorted,
                          const std::uint32_t* edge_offsets,
                          const std::uint32_t* ribbon_e_offsets,
                          const std::uint64_t* ribbon_e_keys,
                          int                  ebits,
                          const std::uint32_t* edge_new_to_old,
                          const std::uint32_t* ev_old,
                          const std::uint32_t* vertex_old_to_new,
                          const std::uint32_t* vertex_owner_sorted,
                          const std::uint32_t* vertex_offsets,
                          const std::uint32_t* ribbon_v_offsets,
                          const std::uint32_t* ribbon_v,
                          std::uint16_t*       m_ev)
{
    RXMESH_FOR_EACH_ITEM(s, num_slots)
    {
        std::uint32_t p, e, position;
        if (s < num_edges) {
            e        = static_cast<std::uint32_t>(s);
            p        = edge_owner_sorted[e];
            position = e + ribbon_e_offsets[p];
        } else {
            const std::uint64_t j = s - num_edges;
            p        = static_cast<std::uint32_t>(ribbon_e_keys[j] >> ebits);
            e        = static_cast<std::uint32_t>(ribbon_e_keys[j] & ((1ull << ebits) - 1));
            position = edge_offsets[p + 1] + static_cast<std::uint32_t>(j);
        }
        const std::uint64_t old = edge_new_to_old[e];
        const std::uint32_t x   = vertex_old_to_new[ev_old[2 * old]];
        const std::uint32_t y   = vertex_old_to_new[ev_old[2 * old + 1]];
        const std::uint32_t a = min(x, y), b = max(x, y);
        m_ev[2 * std::uint64_t(position)] = static_cast<std::uint16_t>(
            local_id(a, p, vertex_owner_sorted, vertex_offsets, ribbon_v_offsets, ribbon_v));
        m_ev[2 * std::uint64_t(position) + 1] = static_cast<std::uint16_t>(
            local_id(b, p, vertex_owner_sorted, vertex_offsets, ribbon_v_offsets, ribbon_v));
    }
}

//! FF outputs of the owned faces of patch p: the global FF row sizes.
__global__ void ff_entries_per_patch(const std::uint32_t* face_offsets,
                                     const std::uint32_t* face_new_to_old,
                                     const std::uint32_t* ff_offsets,
                                     std::uint32_t        num_patches,
                                     std::uint32_t*       out)
{
    RXMESH_FOR_EACH_ITEM(p, num_patches)
    {
        std::uint32_t n = 0;
        for (std::uint32_t f = face_offsets[p]; f < face_offsets[p + 1]; ++f) {
            const std::uint32_t old = face_new_to_old[f];
            n += ff_offsets[old + 1] - ff_offsets[old];
        }
        out[p] = n;
    }
}

struct OwnedCount
{
    const std::uint32_t* offsets;
    __host__ __device__ std::uint32_t operator()(std::uint32_t p) const
    {
        return offsets[p + 1] - offsets[p];
    }
};

struct LocalCount
{
    const std::uint32_t* offsets;
    const std::uint32_t* ribbon_offsets;
    __host__ __device__ std::uint32_t operator()(std::uint32_t p) const
    {
        return offsets[p + 1] - offsets[p] + ribbon_offsets[p + 1] - ribbon_offsets[p];
    }
};

//! Sorts owner keys with element ids; gives new -> old, the owner of each new
//! id, the owned ranges and old -> new.
void renumber_by_owner(DeviceBuffer<std::uint32_t>& owner,
                       std::uint32_t                n,
                       std::uint32_t                num_patches,
                       int                          pbits,
                       DeviceBuffer<std::uint32_t>& owner_sorted,
                       DeviceBuffer<std::uint32_t>& new_to_old,
                       DeviceBuffer<std::uint32_t>& old_to_new,
                       DeviceBuffer<std::uint32_t>& offsets,
                       cudaStream_t                 stream)
{
    DeviceBuffer<std::uint32_t> ids(n, stream);
    owner_sorted = DeviceBuffer<std::uint32_t>(n, stream);
    new_to_old   = DeviceBuffer<std::uint32_t>(n, stream);
    old_to_new   = DeviceBuffer<std::uint32_t>(n, stream);
    offsets      = DeviceBuffer<std::uint32_t>(std::uint64_t(num_patches) + 1, stream);
    if (n > 0) {
        iota_kernel<<<flat_grid(n), kThreads, 0, stream>>>(ids.data(), n);
        RXMESH_CHECK_LAUNCH();
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceRadixSort::SortPairs(tmp, bytes, owner.data(), owner_sorted.data(),
                                                   ids.data(), new_to_old.data(), n, 0, pbits,
                                                   stream);
        });
        scatter_inverse<<<flat_grid(n), kThreads, 0, stream>>>(new_to_old.data(), n,
                                                                old_to_new.data());
        RXMESH_CHECK_LAUNCH();
    }
    detail::csr_offsets(Lookup32{owner_sorted.data()}, n, num_patches, offsets.data(), stream);
}

//! Sorts (patch << bits | element) keys, drops repeats and sentinels; gives
//! the element list (low bits), its per-patch offsets, and keeps the keys.
void ribbon_from_keys(DeviceBuffer<std::uint64_t>& keys,
                      std::uint64_t                n,
                      int                          bits,
                      std::uint32_t                num_patches,
                      int                          pbits,
                      std::uint64_t                sentinel,
                      DeviceBuffer<std::uint64_t>& unique_keys,
                      std::uint64_t&               num_unique,
                      DeviceBuffer<std::uint32_t>& list,
                      DeviceBuffer<std::uint32_t>& offsets,
                      cudaStream_t                 stream)
{
    unique_keys = DeviceBuffer<std::uint64_t>(n, stream);
    num_unique  = 0;
    if (n > 0) {
        DeviceBuffer<std::uint64_t> sorted(n, stream), count(1, stream);
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceRadixSort::SortKeys(tmp, bytes, keys.data(), sorted.data(), n, 0,
                                                  bits + pbits + 1, stream);
        });
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceSelect::Unique(tmp, bytes, sorted.data(), unique_keys.data(),
                                             count.data(), n, stream);
        });
        num_unique = read_back(count.data(), stream);
        if (num_unique > 0 && read_back(unique_keys.data() + num_unique - 1, stream) == sentinel)
            --num_unique;
    }
    list    = DeviceBuffer<std::uint32_t>(num_unique, stream);
    offsets = DeviceBuffer<std::uint32_t>(std::uint64_t(num_patches) + 1, stream);
    if (num_unique > 0) {
        low_bits<<<flat_grid(num_unique), kThreads, 0, stream>>>(unique_keys.data(), num_unique,
                                                                  bits, list.data());
        RXMESH_CHECK_LAUNCH();
    }
    detail::csr_offsets(KeyRow{unique_keys.data(), bits}, num_unique, num_patches, offsets.data(),
                        stream);
}

//! oriented_manifold[p]: whether no two local faces of patch p walk a local
//! edge in the same direction. An M_FE entry (edge << 1 | flip) is the bit
//! of one edge direction, so the check is one shared-memory bit set per
//! entry that must not have been set before. One block per patch; counts the
//! patches that fail in *irregular.
__global__ void classify_patches(std::uint32_t        num_patches,
                                 const std::uint32_t* face_offsets,
                                 const std::uint32_t* ribbon_f_offsets,
                                 const std::uint32_t* edge_offsets,
                                 const std::uint32_t* ribbon_e_offsets,
                                 const std::uint16_t* m_fe,
                                 std::uint8_t*        oriented_manifold,
                                 std::uint32_t*       irregular)
{
    extern __shared__ std::uint32_t direction_bits[];
    for (std::uint32_t p = blockIdx.x; p < num_patches; p += gridDim.x) {
        const std::uint32_t nE = edge_offsets[p + 1] - edge_offsets[p] + ribbon_e_offsets[p + 1] -
                                 ribbon_e_offsets[p];
        const std::uint32_t nF = face_offsets[p + 1] - face_offsets[p] + ribbon_f_offsets[p + 1] -
                                 ribbon_f_offsets[p];
        const std::uint16_t* fe = m_fe + 3 * std::uint64_t(face_offsets[p] + ribbon_f_offsets[p]);
        const std::uint32_t words = (2 * nE + 31) / 32;
        __syncthreads();  // the previous patch's bits are no longer read
        for (std::uint32_t w = threadIdx.x; w < words; w += blockDim.x)
            direction_bits[w] = 0;
        __syncthreads();
        bool repeated = false;
        for (std::uint32_t j = threadIdx.x; j < 3 * nF; j += blockDim.x) {
            const std::uint32_t bit = fe[j];
            const std::uint32_t old = atomicOr(direction_bits + bit / 32, 1u << (bit % 32));
            repeated                = repeated || (old >> (bit % 32)) & 1u;
        }
        repeated = __syncthreads_or(repeated);
        if (threadIdx.x == 0) {
            oriented_manifold[p] = repeated ? 0 : 1;
            if (repeated)
                atomicAdd(irregular, 1u);
        }
    }
}

//! *out = the largest count(p) over patches p < num_patches, stream-ordered
//! (no host round trip: the build reads all its maxima back at once).
template <typename Count>
void max_over_patches(Count count, std::uint32_t num_patches, std::uint32_t* out,
                      cudaStream_t stream)
{
    auto counts =
        thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0), count);
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::Max(tmp, bytes, counts, out, num_patches, stream);
    });
}

}  // namespace

PatchedDeviceMesh build_patch_store(const std::uint32_t*  d_faces,
                                    const DeviceTopology& topo,
                                    const std::uint32_t*  d_face_patch,
                                    std::uint32_t         num_patches,
                                    std::uint32_t         capacity,
                                    cudaStream_t          stream)
{
    const std::uint32_t F = topo.num_faces, E = topo.num_edges, V = topo.num_vertices,
                        P = num_patches;
    if (topo.vf.offsets.size() != std::uint64_t(V) + 1 || topo.ef.offsets.size() != std::uint64_t(E) + 1)
        throw Error("build_patch_store: the topology lacks the vertex CSR");
    if (F == 0 || P == 0)
        throw InvalidInputError("build_patch_store: the mesh has no faces");
    const int pbits = detail::bits_for(P), fbits = detail::bits_for(F),
              ebits = detail::bits_for(E), vbits = detail::bits_for(V);
    if (pbits + std::max({fbits, ebits, vbits}) + 1 > 64)
        throw InvalidInputError("build_patch_store: too many patches and elements for 64-bit keys");

    PatchedDeviceMesh out;
    PatchStore&       st = out.store;
    st.num_patches       = P;
    st.capacity          = capacity;

    // ---- owners and renumbering: faces by patch, vertices/edges by min patch ----
    DeviceBuffer<std::uint32_t> face_patch(F, stream);
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(face_patch.data(), d_face_patch, face_patch.bytes(),
                                      cudaMemcpyDeviceToDevice, stream));
    DeviceBuffer<std::uint32_t> face_patch_sorted, face_old_to_new;
    renumber_by_owner(face_patch, F, P, pbits, face_patch_sorted, out.face_new_to_old,
                      face_old_to_new, st.face_offsets, stream);

    DeviceBuffer<std::uint32_t> vertex_owner(V, stream), vertex_owner_sorted;
    if (V > 0) {
        min_patch_of_rows<<<flat_grid(V), kThreads, 0, stream>>>(
            topo.vf.offsets.data(), topo.vf.indices.data(), V, d_face_patch, vertex_owner.data());
        RXMESH_CHECK_LAUNCH();
    }
    renumber_by_owner(vertex_owner, V, P, pbits, vertex_owner_sorted, out.vertex_new_to_old,
                      out.vertex_old_to_new, st.vertex_offsets, stream);

    DeviceBuffer<std::uint32_t> edge_owner(E, stream), edge_owner_sorted, edge_old_to_new;
    min_patch_of_rows<<<flat_grid(E), kThreads, 0, stream>>>(
        topo.ef.offsets.data(), topo.ef.indices.data(), E, d_face_patch, edge_owner.data());
    RXMESH_CHECK_LAUNCH();
    renumber_by_owner(edge_owner, E, P, pbits, edge_owner_sorted, out.edge_new_to_old,
                      edge_old_to_new, st.edge_offsets, stream);

    out.faces = DeviceBuffer<std::uint32_t>(3 * std::uint64_t(F), stream);
    renumber_faces<<<flat_grid(F), kThreads, 0, stream>>>(
        d_faces, out.face_new_to_old.data(), out.vertex_old_to_new.data(), F, out.faces.data());
    RXMESH_CHECK_LAUNCH();

    // ---- ribbon faces, through the (vertex, patch) incidences ----
    const std::uint64_t         corners = 3 * std::uint64_t(F);
    DeviceBuffer<std::uint64_t> vp_keys(corners, stream), vp_sorted(corners, stream),
        vp(corners, stream), vp_count(1, stream);
    vertex_patch_keys<<<flat_grid(corners), kThreads, 0, stream>>>(d_faces, d_face_patch, corners,
                                                                    pbits, vp_keys.data());
    RXMESH_CHECK_LAUNCH();
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(tmp, bytes, vp_keys.data(), vp_sorted.data(),
                                              corners, 0, vbits + pbits, stream);
    });
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSelect::Unique(tmp, bytes, vp_sorted.data(), vp.data(),
                                         vp_count.data(), corners, stream);
    });
    const std::uint64_t num_vp = read_back(vp_count.data(), stream);
    vp_keys   = DeviceBuffer<std::uint64_t>();
    vp_sorted = DeviceBuffer<std::uint64_t>();
    DeviceBuffer<std::uint32_t> vp_rows(std::uint64_t(V) + 1, stream);
    detail::csr_offsets(KeyRow{vp.data(), pbits}, num_vp, V, vp_rows.data(), stream);

    DeviceBuffer<std::uint64_t> slot_offsets(num_vp + 1, stream);
    auto slots = thrust::make_transform_iterator(
        thrust::counting_iterator<std::uint64_t>(0),
        RibbonSlots{vp.data(), vp_rows.data(), topo.vf.offsets.data(), pbits, num_vp});
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, slots, slot_offsets.data(), num_vp + 1,
                                             stream);
    });
    const std::uint64_t num_slots = read_back(slot_offsets.data() + num_vp, stream);
    const std::uint64_t f_sentinel = std::uint64_t(1) << (pbits + fbits);
    DeviceBuffer<std::uint64_t> rf_keys(num_slots, stream), rf_unique;
    if (num_slots > 0) {
        emit_ribbon_faces<<<flat_grid(num_vp), kThreads, 0, stream>>>(
            vp.data(), num_vp, slot_offsets.data(), vp_rows.data(), topo.vf.offsets.data(),
            topo.vf.indices.data(), d_face_patch, face_old_to_new.data(), pbits, fbits, f_sentinel,
            rf_keys.data());
        RXMESH_CHECK_LAUNCH();
    }
    std::uint64_t num_rf = 0;
    ribbon_from_keys(rf_keys, num_slots, fbits, P, pbits, f_sentinel, rf_unique, num_rf,
                     st.ribbon_f, st.ribbon_f_offsets, stream);
    rf_keys = DeviceBuffer<std::uint64_t>();
    vp      = DeviceBuffer<std::uint64_t>();

    // ---- ribbon edges and vertices: those of local faces owned elsewhere ----
    const std::uint64_t local_faces = F + num_rf;
    auto                ribbon_of   = [&](bool edges, int bits, DeviceBuffer<std::uint32_t>& list,
                          DeviceBuffer<std::uint32_t>& offsets, DeviceBuffer<std::uint64_t>& uniq,
                          std::uint64_t& count) {
        const std::uint64_t         sentinel = std::uint64_t(1) << (pbits + bits);
        DeviceBuffer<std::uint64_t> keys(3 * local_faces, stream);
        const auto                  kernel =
            edges ? emit_ribbon_elements<true> : emit_ribbon_elements<false>;
        kernel<<<flat_grid(local_faces), kThreads, 0, stream>>>(
            local_faces, F, face_patch_sorted.data(), st.face_offsets.data(),
            st.ribbon_f_offsets.data(), rf_unique.data(), fbits, out.faces.data(),
            out.face_new_to_old.data(), topo.fe.data(), edge_old_to_new.data(),
            edges ? edge_owner_sorted.data() : vertex_owner_sorted.data(), bits, sentinel,
            keys.data());
        RXMESH_CHECK_LAUNCH();
        ribbon_from_keys(keys, 3 * local_faces, bits, P, pbits, sentinel, uniq, count, list,
                         offsets, stream);
    };
    DeviceBuffer<std::uint64_t> re_unique, rv_unique;
    std::uint64_t               num_re = 0, num_rv = 0;
    ribbon_of(true, ebits, st.ribbon_e, st.ribbon_e_offsets, re_unique, num_re);
    ribbon_of(false, vbits, st.ribbon_v, st.ribbon_v_offsets, rv_unique, num_rv);

    // ---- patch sizes: 16-bit local ids must hold every patch, and the
    // largest query block must hold the largest patch (one read-back) ----
    enum Max { kLocalV, kLocalE, kLocalF, kRibbonV, kRibbonE, kRibbonF, kOwnedF, kFF, kNumMax };
    DeviceBuffer<std::uint32_t> maxima(kNumMax, stream);
    maxima.memset(0);
    std::uint32_t* m = maxima.data();
    max_over_patches(LocalCount{st.vertex_offsets.data(), st.ribbon_v_offsets.data()}, P,
                     m + kLocalV, stream);
    max_over_patches(LocalCount{st.edge_offsets.data(), st.ribbon_e_offsets.data()}, P,
                     m + kLocalE, stream);
    max_over_patches(LocalCount{st.face_offsets.data(), st.ribbon_f_offsets.data()}, P,
                     m + kLocalF, stream);
    max_over_patches(OwnedCount{st.ribbon_v_offsets.data()}, P, m + kRibbonV, stream);
    max_over_patches(OwnedCount{st.ribbon_e_offsets.data()}, P, m + kRibbonE, stream);
    max_over_patches(OwnedCount{st.ribbon_f_offsets.data()}, P, m + kRibbonF, stream);
    max_over_patches(OwnedCount{st.face_offsets.data()}, P, m + kOwnedF, stream);
    if (topo.ff.offsets.size() == std::uint64_t(F) + 1) {
        DeviceBuffer<std::uint32_t> per_patch(P, stream);
        ff_entries_per_patch<<<flat_grid(P), kThreads, 0, stream>>>(
            st.face_offsets.data(), out.face_new_to_old.data(), topo.ff.offsets.data(), P,
            per_patch.data());
        RXMESH_CHECK_LAUNCH();
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceReduce::Max(tmp, bytes, per_patch.data(), m + kFF, P, stream);
        });
    }
    const std::vector<std::uint32_t> max = maxima.to_host();
    const std::uint32_t max_v = max[kLocalV], max_e = max[kLocalE], max_f = max[kLocalF];
    if (max_v > kMaxLocal || max_e > kMaxLocalEdges || max_f > kMaxLocal)
        throw InvalidInputError(
            "build_patch_store: a patch needs " + std::to_string(max_v) + " vertices, " +
            std::to_string(max_e) + " edges, " + std::to_string(max_f) +
            " faces with its ribbon; 16-bit local ids hold at most 65535 vertices or faces and "
            "32767 edges (a vertex of very high valence, or too large a capacity)");
    st.limits.vertices        = max_v;
    st.limits.edges           = max_e;
    st.limits.faces           = max_f;
    st.limits.ribbon_vertices = max[kRibbonV];
    st.limits.ribbon_edges    = max[kRibbonE];
    st.limits.ribbon_faces    = max[kRibbonF];
    st.limits.owned_faces     = max[kOwnedF];
    st.limits.ff_entries      = max[kFF];

    // ---- the LAR matrices ----
    st.m_fe = DeviceBuffer<std::uint16_t>(3 * local_faces, stream);
    fill_m_fe<<<flat_grid(local_faces), kThreads, 0, stream>>>(
        local_faces, F, face_patch_sorted.data(), st.face_offsets.data(),
        st.ribbon_f_offsets.data(), rf_unique.data(), fbits, out.faces.data(),
        out.face_new_to_old.data(), topo.fe.data(), edge_old_to_new.data(),
        edge_owner_sorted.data(), st.edge_offsets.data(), st.ribbon_e_offsets.data(),
        st.ribbon_e.data(), st.m_fe.data());
    RXMESH_CHECK_LAUNCH();
    const std::uint64_t local_edges = E + num_re;
    st.m_ev = DeviceBuffer<std::uint16_t>(2 * local_edges, stream);
    if (local_edges > 0) {
        fill_m_ev<<<flat_grid(local_edges), kThreads, 0, stream>>>(
            local_edges, E, edge_owner_sorted.data(), st.edge_offsets.data(),
            st.ribbon_e_offsets.data(), re_unique.data(), ebits, out.edge_new_to_old.data(),
            topo.ev.data(), out.vertex_old_to_new.data(), vertex_owner_sorted.data(),
            st.vertex_offsets.data(), st.ribbon_v_offsets.data(), st.ribbon_v.data(),
            st.m_ev.data());
        RXMESH_CHECK_LAUNCH();
    }

    // ---- the EF / FF hint: which patches are oriented-manifold ----
    st.oriented_manifold = DeviceBuffer<std::uint8_t>(P, stream);
    {
        DeviceBuffer<std::uint32_t> irregular(1, stream);
        irregular.memset(0);
        const std::size_t smem = ((2 * std::size_t(max_e) + 31) / 32) * sizeof(std::uint32_t);
        classify_patches<<<std::min<std::uint32_t>(P, 65535u), 128, smem, stream>>>(
            P, st.face_offsets.data(), st.ribbon_f_offsets.data(), st.edge_offsets.data(),
            st.ribbon_e_offsets.data(), st.m_fe.data(), st.oriented_manifold.data(),
            irregular.data());
        RXMESH_CHECK_LAUNCH();
        st.limits.irregular_patches = read_back(irregular.data(), stream);
    }
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return out;
}

}  // namespace rxmesh
