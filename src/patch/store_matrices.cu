// The patch store's LAR matrices (M_FE, M_EV), its PatchLimits and the
// oriented-manifold flags: the last stages of build_patch_store.
#include <cub/device/device_for.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"
#include "store_slots.cuh"
#include "store_stages.h"

namespace rxmesh::detail {
namespace {

constexpr int           kThreads  = kFlatBlockThreads;
constexpr std::uint32_t kMaxLocal = 0xFFFF;  // 16-bit local ids; 0xFFFF is never an id
// M_FE keeps the flip bit beside the local edge id in 16 bits.
constexpr std::uint32_t kMaxLocalEdges = 0x7FFF;

//! The LAR rows of every local slot, faces first: slot s < face_slots is
//! M_FE row s ((local edge << 1) | flip per side), the rest are M_EV rows
//! (local vertices, smaller global id first). One launch for both matrices.
struct FillLarRows
{
    std::uint64_t        face_slots;
    SlotLayout           faces, edges;
    const std::uint32_t* new_faces;  // renumbered, 3 per face
    const std::uint32_t* face_new_to_old;
    const std::uint32_t* edge_new_to_old;
    const std::uint32_t* fe_old;  // the input topology's FE and EV
    const std::uint32_t* ev_old;
    const std::uint32_t* edge_old_to_new;
    const std::uint32_t* vertex_old_to_new;
    LocalIds             edge_ids, vertex_ids;
    std::uint16_t*       m_fe;
    std::uint16_t*       m_ev;

    __device__ void operator()(std::uint64_t s) const
    {
        if (s < face_slots)
            face_row(faces(s));
        else
            edge_row(edges(s - face_slots));
    }

    __device__ void face_row(const LocalSlot& lf) const
    {
        const std::uint64_t  old = face_new_to_old[lf.element];
        const std::uint32_t* t   = new_faces + 3 * std::uint64_t(lf.element);
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t le = edge_ids(edge_old_to_new[fe_old[3 * old + k] >> 1], lf.patch);
            m_fe[3 * std::uint64_t(lf.position) + k] =
                static_cast<std::uint16_t>((le << 1) | (t[k] > t[(k + 1) % 3] ? 1u : 0u));
        }
    }

    __device__ void edge_row(const LocalSlot& le) const
    {
        const std::uint64_t e = edge_new_to_old[le.element];
        const std::uint32_t x = vertex_old_to_new[ev_old[2 * e]];
        const std::uint32_t y = vertex_old_to_new[ev_old[2 * e + 1]];
        std::uint16_t*      row = m_ev + 2 * std::uint64_t(le.position);
        row[0] = static_cast<std::uint16_t>(vertex_ids(min(x, y), le.patch));
        row[1] = static_cast<std::uint16_t>(vertex_ids(max(x, y), le.patch));
    }
};

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

void set_patch_limits(const StoreBuild& b, PatchedDeviceMesh& out)
{
    PatchStore&         st = out.store;
    const std::uint32_t P  = b.P;
    enum Max { kLocalV, kLocalE, kLocalF, kRibbonV, kRibbonE, kRibbonF, kOwnedF, kFF, kNumMax };
    DeviceBuffer<std::uint32_t> maxima(kNumMax, b.stream);
    maxima.memset(0);
    std::uint32_t* m = maxima.data();
    max_over_patches(LocalCount{st.vertex_offsets.data(), st.ribbon_v_offsets.data()}, P,
                     m + kLocalV, b.stream);
    max_over_patches(LocalCount{st.edge_offsets.data(), st.ribbon_e_offsets.data()}, P,
                     m + kLocalE, b.stream);
    max_over_patches(LocalCount{st.face_offsets.data(), st.ribbon_f_offsets.data()}, P,
                     m + kLocalF, b.stream);
    max_over_patches(OwnedCount{st.ribbon_v_offsets.data()}, P, m + kRibbonV, b.stream);
    max_over_patches(OwnedCount{st.ribbon_e_offsets.data()}, P, m + kRibbonE, b.stream);
    max_over_patches(OwnedCount{st.ribbon_f_offsets.data()}, P, m + kRibbonF, b.stream);
    max_over_patches(OwnedCount{st.face_offsets.data()}, P, m + kOwnedF, b.stream);
    if (b.topo.ff.offsets.size() == std::uint64_t(b.F) + 1) {
        DeviceBuffer<std::uint32_t> per_patch(P, b.stream);
        ff_entries_per_patch<<<flat_grid(P), kThreads, 0, b.stream>>>(
            st.face_offsets.data(), out.face_new_to_old.data(), b.topo.ff.offsets.data(), P,
            per_patch.data());
        RXMESH_CHECK_LAUNCH();
        cub_call(b.stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceReduce::Max(tmp, bytes, per_patch.data(), m + kFF, P, b.stream);
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
}

void fill_lar_matrices(const StoreBuild& b, PatchedDeviceMesh& out)
{
    PatchStore&         st          = out.store;
    const std::uint64_t local_faces = b.local_faces(), local_edges = b.local_edges();
    st.m_fe = DeviceBuffer<std::uint16_t>(3 * local_faces, b.stream);
    st.m_ev = DeviceBuffer<std::uint16_t>(2 * local_edges, b.stream);
    const FillLarRows fill{
        local_faces,
        SlotLayout{b.F, b.face_patch_sorted.data(), st.face_offsets.data(),
                   st.ribbon_f_offsets.data(), b.rf_unique.data(), b.fbits},
        SlotLayout{b.E, b.edge_owner_sorted.data(), st.edge_offsets.data(),
                   st.ribbon_e_offsets.data(), b.re_unique.data(), b.ebits},
        out.faces.data(),
        out.face_new_to_old.data(),
        out.edge_new_to_old.data(),
        b.topo.fe.data(),
        b.topo.ev.data(),
        b.edge_old_to_new.data(),
        out.vertex_old_to_new.data(),
        LocalIds{b.edge_owner_sorted.data(), st.edge_offsets.data(), st.ribbon_e_offsets.data(),
                 st.ribbon_e.data()},
        LocalIds{b.vertex_owner_sorted.data(), st.vertex_offsets.data(),
                 st.ribbon_v_offsets.data(), st.ribbon_v.data()},
        st.m_fe.data(),
        st.m_ev.data()};
    RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(local_faces + local_edges, fill, b.stream));
}

void classify_orientation(const StoreBuild& b, PatchStore& st)
{
    const std::uint32_t P = b.P;
    st.oriented_manifold  = DeviceBuffer<std::uint8_t>(P, b.stream);
    DeviceBuffer<std::uint32_t> irregular(1, b.stream);
    irregular.memset(0);
    const std::size_t smem = ((2 * std::size_t(st.limits.edges) + 31) / 32) * sizeof(std::uint32_t);
    classify_patches<<<std::min<std::uint32_t>(P, 65535u), 128, smem, b.stream>>>(
        P, st.face_offsets.data(), st.ribbon_f_offsets.data(), st.edge_offsets.data(),
        st.ribbon_e_offsets.data(), st.m_fe.data(), st.oriented_manifold.data(), irregular.data());
    RXMESH_CHECK_LAUNCH();
    st.limits.irregular_patches = read_back(irregular.data(), b.stream);
}

}  // namespace rxmesh::detail
