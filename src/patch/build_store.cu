// build_patch_store: owners and renumbering by patch, then the ribbons; the
// LAR matrices and limits follow in store_matrices.cu.
#include "rxmesh/patch/build_store.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <string>

#include "core/csr_rows.cuh"
#include "core/sequences.cuh"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/error.h"
#include "rxmesh/core/launch.cuh"
#include "store_slots.cuh"
#include "store_stages.h"

namespace rxmesh::detail {
namespace {

constexpr int           kThreads = kFlatBlockThreads;

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
        const LocalSlot lf = SlotLayout{num_faces,        face_patch_sorted, face_offsets,
                                        ribbon_f_offsets, ribbon_f_keys,     fbits}(s);
        for (int k = 0; k < 3; ++k) {
            std::uint32_t x;
            if (Edges)
                x = edge_old_to_new[fe_old[3 * std::uint64_t(face_new_to_old[lf.element]) + k] >> 1];
            else
                x = new_faces[3 * std::uint64_t(lf.element) + k];
            keys[3 * s + k] = owner_sorted[x] == lf.patch
                                  ? sentinel
                                  : (std::uint64_t(lf.patch) << bits) | x;
        }
    }
}

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
        fill_sequence(ids.data(), n, stream);
        cub_call(stream, [&](void* tmp, std::size_t& bytes) {
            return cub::DeviceRadixSort::SortPairs(tmp, bytes, owner.data(), owner_sorted.data(),
                                                   ids.data(), new_to_old.data(), n, 0, pbits,
                                                   stream);
        });
        scatter_inverse<<<flat_grid(n), kThreads, 0, stream>>>(new_to_old.data(), n,
                                                                old_to_new.data());
        RXMESH_CHECK_LAUNCH();
    }
    csr_offsets(RowFromArray{owner_sorted.data()}, n, num_patches, offsets.data(), stream);
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
    low_bits(unique_keys.data(), num_unique, bits, list.data(), stream);
    csr_offsets(RowFromKey{unique_keys.data(), bits}, num_unique, num_patches, offsets.data(),
                        stream);
}

}  // namespace

void renumber_by_patch(StoreBuild& b, PatchedDeviceMesh& out)
{
    PatchStore&        st     = out.store;
    const cudaStream_t stream = b.stream;
    DeviceBuffer<std::uint32_t> face_patch(b.F, stream);
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(face_patch.data(), b.face_patch, face_patch.bytes(),
                                      cudaMemcpyDeviceToDevice, stream));
    renumber_by_owner(face_patch, b.F, b.P, b.pbits, b.face_patch_sorted, out.face_new_to_old,
                      b.face_old_to_new, st.face_offsets, stream);

    DeviceBuffer<std::uint32_t> vertex_owner(b.V, stream);
    if (b.V > 0) {
        min_patch_of_rows<<<flat_grid(b.V), kThreads, 0, stream>>>(
            b.topo.vf.offsets.data(), b.topo.vf.indices.data(), b.V, b.face_patch,
            vertex_owner.data());
        RXMESH_CHECK_LAUNCH();
    }
    renumber_by_owner(vertex_owner, b.V, b.P, b.pbits, b.vertex_owner_sorted,
                      out.vertex_new_to_old, out.vertex_old_to_new, st.vertex_offsets, stream);

    DeviceBuffer<std::uint32_t> edge_owner(b.E, stream);
    min_patch_of_rows<<<flat_grid(b.E), kThreads, 0, stream>>>(
        b.topo.ef.offsets.data(), b.topo.ef.indices.data(), b.E, b.face_patch, edge_owner.data());
    RXMESH_CHECK_LAUNCH();
    renumber_by_owner(edge_owner, b.E, b.P, b.pbits, b.edge_owner_sorted, out.edge_new_to_old,
                      b.edge_old_to_new, st.edge_offsets, stream);

    out.faces = DeviceBuffer<std::uint32_t>(3 * std::uint64_t(b.F), stream);
    renumber_faces<<<flat_grid(b.F), kThreads, 0, stream>>>(
        b.faces, out.face_new_to_old.data(), out.vertex_old_to_new.data(), b.F, out.faces.data());
    RXMESH_CHECK_LAUNCH();
}

namespace {

//! The (vertex, patch) incidences of every face corner, sorted and unique,
//! with CSR rows by vertex.
std::uint64_t vertex_patch_pairs(const StoreBuild& b, DeviceBuffer<std::uint64_t>& vp,
                                 DeviceBuffer<std::uint32_t>& vp_rows)
{
    const cudaStream_t          stream  = b.stream;
    const std::uint64_t         corners = 3 * std::uint64_t(b.F);
    DeviceBuffer<std::uint64_t> vp_keys(corners, stream), vp_sorted(corners, stream),
        vp_count(1, stream);
    vp = DeviceBuffer<std::uint64_t>(corners, stream);
    vertex_patch_keys<<<flat_grid(corners), kThreads, 0, stream>>>(b.faces, b.face_patch, corners,
                                                                    b.pbits, vp_keys.data());
    RXMESH_CHECK_LAUNCH();
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(tmp, bytes, vp_keys.data(), vp_sorted.data(),
                                              corners, 0, b.vbits + b.pbits, stream);
    });
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceSelect::Unique(tmp, bytes, vp_sorted.data(), vp.data(),
                                         vp_count.data(), corners, stream);
    });
    const std::uint64_t num_vp = read_back(vp_count.data(), stream);
    vp_rows = DeviceBuffer<std::uint32_t>(std::uint64_t(b.V) + 1, stream);
    csr_offsets(RowFromKey{vp.data(), b.pbits}, num_vp, b.V, vp_rows.data(), stream);
    return num_vp;
}

}  // namespace

void build_ribbon_faces(StoreBuild& b, PatchStore& st)
{
    const cudaStream_t          stream = b.stream;
    DeviceBuffer<std::uint64_t> vp;
    DeviceBuffer<std::uint32_t> vp_rows;
    const std::uint64_t         num_vp = vertex_patch_pairs(b, vp, vp_rows);

    DeviceBuffer<std::uint64_t> slot_offsets(num_vp + 1, stream);
    auto slots = thrust::make_transform_iterator(
        thrust::counting_iterator<std::uint64_t>(0),
        RibbonSlots{vp.data(), vp_rows.data(), b.topo.vf.offsets.data(), b.pbits, num_vp});
    cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, slots, slot_offsets.data(), num_vp + 1,
                                             stream);
    });
    const std::uint64_t num_slots  = read_back(slot_offsets.data() + num_vp, stream);
    const std::uint64_t f_sentinel = std::uint64_t(1) << (b.pbits + b.fbits);
    DeviceBuffer<std::uint64_t> rf_keys(num_slots, stream);
    if (num_slots > 0) {
        emit_ribbon_faces<<<flat_grid(num_vp), kThreads, 0, stream>>>(
            vp.data(), num_vp, slot_offsets.data(), vp_rows.data(), b.topo.vf.offsets.data(),
            b.topo.vf.indices.data(), b.face_patch, b.face_old_to_new.data(), b.pbits, b.fbits,
            f_sentinel, rf_keys.data());
        RXMESH_CHECK_LAUNCH();
    }
    ribbon_from_keys(rf_keys, num_slots, b.fbits, b.P, b.pbits, f_sentinel, b.rf_unique, b.num_rf,
                     st.ribbon_f, st.ribbon_f_offsets, stream);
}

void build_ribbon_elements(StoreBuild& b, PatchedDeviceMesh& out)
{
    PatchStore&         st          = out.store;
    const std::uint64_t local_faces = b.local_faces();
    auto ribbon_of = [&](bool edges, int bits, DeviceBuffer<std::uint32_t>& list,
                         DeviceBuffer<std::uint32_t>& offsets, DeviceBuffer<std::uint64_t>& uniq,
                         std::uint64_t& count) {
        const std::uint64_t         sentinel = std::uint64_t(1) << (b.pbits + bits);
        DeviceBuffer<std::uint64_t> keys(3 * local_faces, b.stream);
        const auto kernel = edges ? emit_ribbon_elements<true> : emit_ribbon_elements<false>;
        kernel<<<flat_grid(local_faces), kThreads, 0, b.stream>>>(
            local_faces, b.F, b.face_patch_sorted.data(), st.face_offsets.data(),
            st.ribbon_f_offsets.data(), b.rf_unique.data(), b.fbits, out.faces.data(),
            out.face_new_to_old.data(), b.topo.fe.data(), b.edge_old_to_new.data(),
            edges ? b.edge_owner_sorted.data() : b.vertex_owner_sorted.data(), bits, sentinel,
            keys.data());
        RXMESH_CHECK_LAUNCH();
        ribbon_from_keys(keys, 3 * local_faces, bits, b.P, b.pbits, sentinel, uniq, count, list,
                         offsets, b.stream);
    };
    ribbon_of(true, b.ebits, st.ribbon_e, st.ribbon_e_offsets, b.re_unique, b.num_re);
    ribbon_of(false, b.vbits, st.ribbon_v, st.ribbon_v_offsets, b.rv_unique, b.num_rv);
}

}  // namespace rxmesh::detail

namespace rxmesh {

PatchedDeviceMesh build_patch_store(const std::uint32_t*  d_faces,
                                    const DeviceTopology& topo,
                                    const std::uint32_t*  d_face_patch,
                                    std::uint32_t         num_patches,
                                    std::uint32_t         capacity,
                                    cudaStream_t          stream)
{
    detail::StoreBuild b{d_faces, topo, d_face_patch, stream};
    b.F = topo.num_faces;
    b.E = topo.num_edges;
    b.V = topo.num_vertices;
    b.P = num_patches;
    if (topo.vf.offsets.size() != std::uint64_t(b.V) + 1 ||
        topo.ef.offsets.size() != std::uint64_t(b.E) + 1)
        throw Error("build_patch_store: the topology lacks the vertex CSR");
    if (b.F == 0 || b.P == 0)
        throw InvalidInputError("build_patch_store: the mesh has no faces");
    b.pbits = detail::bits_for(b.P);
    b.fbits = detail::bits_for(b.F);
    b.ebits = detail::bits_for(b.E);
    b.vbits = detail::bits_for(b.V);
    if (b.pbits + std::max({b.fbits, b.ebits, b.vbits}) + 1 > 64)
        throw InvalidInputError("build_patch_store: too many patches and elements for 64-bit keys");

    PatchedDeviceMesh out;
    out.store.num_patches = b.P;
    out.store.capacity    = capacity;
    detail::renumber_by_patch(b, out);
    detail::build_ribbon_faces(b, out.store);
    detail::build_ribbon_elements(b, out);
    detail::set_patch_limits(b, out);
    detail::fill_lar_matrices(b, out);
    detail::classify_orientation(b, out.store);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return out;
}

}  // namespace rxmesh
