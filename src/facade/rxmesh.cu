#include "rxmesh/rxmesh.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "rxmesh/build/import.h"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/core/launch.cuh"
#include "boundary.h"
#include "rxmesh/patch/build_store.h"
#include "rxmesh/patch/store_faces.h"

namespace rxmesh {
namespace {

__global__ void compose_maps(const std::uint32_t* input_to_compact,
                             std::uint64_t        num_input,
                             const std::uint32_t* compact_to_global,
                             std::uint32_t*       input_to_global,
                             std::uint32_t*       global_to_input)
{
    RXMESH_FOR_EACH_ITEM(v, num_input)
    {
        const std::uint32_t c = input_to_compact[v];
        const std::uint32_t g = c == ~0u ? ~0u : compact_to_global[c];
        input_to_global[v]    = g;
        if (g != ~0u)
            atomicMin(global_to_input + g, static_cast<std::uint32_t>(v));
    }
}

__global__ void gather_positions(const float*         compact,
                                 const std::uint32_t* global_to_compact,
                                 std::uint32_t        n,
                                 float*               out)
{
    RXMESH_FOR_EACH_ITEM(v, n)
    {
        const std::uint64_t c = global_to_compact[v];
        for (int d = 0; d < 3; ++d)
            out[3 * v + d] = compact[3 * c + d];
    }
}

}  // namespace

namespace {

ImportOptions store_import_options(const BuildOptions& options)
{
    ImportOptions o;
    o.weld                = options.weld;
    o.parts.vertex_edges  = false;  // the store needs FF, VF, EF only
    return o;
}

}  // namespace

RXMesh::RXMesh(const TriangleSoup& soup, const BuildOptions& options, cudaStream_t stream)
{
    if (soup.faces.empty())
        throw InvalidInputError("RXMesh: the mesh has no faces");
    GpuTimer total(stream);
    total.start();
    build(import_mesh(soup, store_import_options(options), stream), soup.positions.size(),
          soup.dropped_faces, options, stream);
    m_stats.total_ms = total.stop_ms();
}

RXMesh::RXMesh(VertexView<const float, 3> positions, FaceView<const std::uint32_t, 3> faces,
               const BuildOptions& options, cudaStream_t stream)
{
    if (faces.empty())
        throw InvalidInputError("RXMesh: the mesh has no faces");
    GpuTimer total(stream);
    total.start();
    build(import_mesh(positions, faces, store_import_options(options), stream),
          positions.num_elements(), 0, options, stream);
    m_stats.total_ms = total.stop_ms();
}

//! Everything after the import: patches, the store, the vertex maps, the
//! attributes (num_input: the input's vertex count).
void RXMesh::build(ImportedMesh mesh, std::uint64_t num_input, std::uint64_t dropped_before,
                   const BuildOptions& options, cudaStream_t stream)
{
    if (mesh.num_faces == 0)
        throw InvalidInputError("RXMesh: every face is degenerate");
    GpuTimer timer(stream);
    m_stats.upload_ms     = mesh.timings.upload_ms;
    m_stats.reindex_ms    = mesh.timings.reindex_ms;
    m_stats.topology_ms   = mesh.timings.topology_ms;
    m_stats.dropped_faces = dropped_before + mesh.dropped_faces;

    timer.start();
    PatcherResult patches = make_patches(patcher_input(mesh), options.patcher, stream);
    m_stats.patching_ms   = timer.stop_ms();

    timer.start();
    PatchedDeviceMesh patched =
        build_patch_store(mesh.faces.data(), mesh.topology, patches.face_patch.data(),
                          patches.num_patches, options.patcher.capacity, stream);
    m_store = std::move(patched.store);

    const std::uint32_t V = mesh.num_vertices;
    m_input_to_global = DeviceBuffer<std::uint32_t>(num_input, stream);
    m_global_to_input = DeviceBuffer<std::uint32_t>(V, stream);
    m_global_to_input.memset(0xFF);
    compose_maps<<<detail::flat_grid(num_input), detail::kFlatBlockThreads, 0, stream>>>(
        mesh.old_to_new.data(), num_input, patched.vertex_old_to_new.data(),
        m_input_to_global.data(), m_global_to_input.data());
    RXMESH_CHECK_LAUNCH();
    m_stats.store_ms = timer.stop_ms();

    m_stats.num_vertices = V;
    m_stats.num_edges    = mesh.topology.num_edges;
    m_stats.num_faces    = mesh.num_faces;
    fill_stats(patches);
    timer.start();
    init_attributes(mesh.positions.data(), patched.vertex_new_to_old.data(), stream);
    m_stats.attributes_ms = timer.stop_ms();
}

MemoryReport RXMesh::memory() const
{
    MemoryReport m;
    m.patch_store = m_store.allocated_bytes();
    m.positions   = m_attributes.contains("position") ? m_attributes.device_bytes("position") : 0;
    m.vertex_maps = m_input_to_global.allocated_bytes() + m_global_to_input.allocated_bytes();
    m.attributes  = m_attributes.device_bytes() - m.positions;
    m.kring_halo  = kring_bytes();
    for (const auto* kept : {m_face_sources.get(), m_edge_sources.get()})
        m.vertex_sources += kept ? kept->bytes() : 0;
    return m;
}

//! Sizes and patch statistics (small downloads: per-patch offsets only).
void RXMesh::fill_stats(const PatcherResult& patches)
{
    m_stats.num_patches        = patches.num_patches;
    m_stats.num_components     = patches.num_components;
    m_stats.patcher_iterations = patches.iterations;
    m_stats.patcher_stages     = patches.stages;
    m_stats.split_patches      = patches.split_patches;
    const auto face_offsets    = m_store.face_offsets.to_host();
    std::uint32_t lo = ~0u, hi = 0;
    for (std::uint32_t p = 0; p < patches.num_patches; ++p) {
        const std::uint32_t s = face_offsets[p + 1] - face_offsets[p];
        lo                    = std::min(lo, s);
        hi                    = std::max(hi, s);
    }
    m_stats.min_patch_faces  = lo;
    m_stats.max_patch_faces  = hi;
    m_stats.mean_patch_faces = double(m_stats.num_faces) / patches.num_patches;
    m_stats.ribbon_overhead_faces    = double(m_store.ribbon_f.size()) / m_stats.num_faces;
    m_stats.ribbon_overhead_edges    = double(m_store.ribbon_e.size()) / m_stats.num_edges;
    m_stats.ribbon_overhead_vertices = double(m_store.ribbon_v.size()) / std::max(1u, m_stats.num_vertices);
    m_stats.store_bytes              = m_store.bytes();
    m_stats.store_bytes_per_face     = double(m_store.bytes()) / m_stats.num_faces;
}

//! The attribute registry sized for this mesh, "position" gathered from
//! the import's compact order into the global one, and the boundary flags:
//! all computed on the device, with nothing copied to or from the host
//! (their host mirrors are current after to_host()).
void RXMesh::init_attributes(const float* compact_positions, const std::uint32_t* global_to_compact,
                             cudaStream_t stream)
{
    m_attributes = AttributeRegistry(m_stats.num_vertices, m_stats.num_edges, m_stats.num_faces, stream);
    const auto          position = m_attributes.add_unset<float, 3, VertexId>("position");
    const std::uint32_t V        = m_stats.num_vertices;
    gather_positions<<<detail::flat_grid(V), detail::kFlatBlockThreads, 0, stream>>>(
        compact_positions, global_to_compact, V, position.device_data());
    RXMESH_CHECK_LAUNCH();
    const auto v_boundary = m_attributes.add_unset<std::uint8_t, 1, VertexId>("v:boundary");
    const auto e_boundary = m_attributes.add_unset<std::uint8_t, 1, EdgeId>("e:boundary");
    const auto f_boundary = m_attributes.add_unset<std::uint8_t, 1, FaceId>("f:boundary");
    detail::compute_boundary_flags(*this, v_boundary, e_boundary, f_boundary, stream);  // syncs
}

DeviceBuffer<std::uint32_t> RXMesh::faces(cudaStream_t stream) const
{
    return store_face_vertices(m_store, num_faces(), stream);
}

ValidationReport RXMesh::validate(std::size_t max_reports) const
{
    const HostPatchStore       host  = m_store.to_host();
    const auto                 flat  = faces().to_host();
    std::vector<Triangle>      faces(flat.size() / 3);
    std::memcpy(faces.data(), flat.data(), flat.size() * sizeof(std::uint32_t));
    return rxmesh::validate(host, faces, num_vertices(), max_reports);
}

std::string BuildStats::to_json() const
{
    char buf[2048];
    std::snprintf(
        buf, sizeof(buf),
        "{\"vertices\": %u, \"edges\": %u, \"faces\": %u, \"patches\": %u, "
        "\"face_components\": %u, \"patch_faces\": {\"min\": %u, \"mean\": %.1f, \"max\": %u}, "
        "\"patcher_iterations\": %u, \"split_patches\": %u, "
        "\"ribbon_overhead\": {\"faces\": %.3f, \"edges\": %.3f, \"vertices\": %.3f}, "
        "\"store_bytes\": %llu, \"store_bytes_per_face\": %.2f, "
        "\"build_ms\": {\"upload\": %.3f, \"reindex\": %.3f, \"topology\": %.3f, "
        "\"patching\": %.3f, \"store\": %.3f, \"attributes\": %.3f, \"total\": %.3f}, "
        "\"patcher_ms\": {\"order\": %.3f, \"components\": %.3f, \"propagate\": %.3f, "
        "\"members\": %.3f, \"central\": %.3f, \"seeds\": %.3f, \"split\": %.3f, "
        "\"finish\": %.3f}, "
        "\"patcher_passes\": {\"propagate\": %u, \"relax\": %u}}",
        num_vertices, num_edges, num_faces, num_patches, num_components, min_patch_faces,
        mean_patch_faces, max_patch_faces, patcher_iterations, split_patches,
        ribbon_overhead_faces, ribbon_overhead_edges, ribbon_overhead_vertices,
        static_cast<unsigned long long>(store_bytes), store_bytes_per_face, upload_ms, reindex_ms,
        topology_ms, patching_ms, store_ms, attributes_ms, total_ms,
        patcher_stages.order_ms, patcher_stages.components_ms, patcher_stages.propagate_ms,
        patcher_stages.members_ms, patcher_stages.central_ms, patcher_stages.seeds_ms,
        patcher_stages.split_ms, patcher_stages.finish_ms, patcher_stages.propagate_passes, patcher_stages.relax_passes);
    return buf;
}

std::string MemoryReport::to_json() const
{
    char buf[512];
    std::snprintf(buf, sizeof(buf),
                  "{\"patch_store\": %zu, \"positions\": %zu, "
                  "\"vertex_maps\": %zu, \"attributes\": %zu, \"kring_halo\": %zu, "
                  "\"vertex_sources\": %zu, \"total\": %zu}",
                  patch_store, positions, vertex_maps, attributes, kring_halo, vertex_sources,
                  total());
    return buf;
}

}  // namespace rxmesh
