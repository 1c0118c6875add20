// RXMesh::vertex_sources (query/vertex_sources.h): accumulate's per-patch
// transpose, run once per patch and written to global memory in two passes
// of one kernel: the count of each owned vertex's sources, an exclusive
// scan (CUB) into the offsets, then the sources themselves.
#include <cub/device/device_scan.cuh>

#include <string>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/error.h"
#include "rxmesh/query/accumulate.cuh"
#include "rxmesh/rxmesh.h"

namespace rxmesh {
namespace {

constexpr int kSourcesBlockThreads = 256;

//! Per patch: the transpose of its rows, then for every owned vertex its
//! count into offsets[g] (sources null) or its sources at offsets[g].
template <Op op, bool kShared>
__global__ void __launch_bounds__(kSourcesBlockThreads)
    vertex_sources_kernel(DeviceMesh mesh, std::uint32_t* offsets, std::uint16_t* sources)
{
    constexpr int BlockThreads = kSourcesBlockThreads;
    extern __shared__ __align__(16) unsigned char rxmesh_sources_smem[];
    __shared__ typename detail::BlockArrayScan<BlockThreads>::TempStorage scan_tmp;
    unsigned char* smem =
        kShared ? rxmesh_sources_smem : mesh.scratch + blockIdx.x * mesh.scratch_stride;
    for (std::uint32_t p = mesh.first_item() + blockIdx.x; p < mesh.end_item(); p += gridDim.x) {
        const PatchInfo    pi = mesh.patch(mesh.scheduled_patch(p));
        SmemCarver         carver(smem);
        const auto         a = detail::carve_accumulate<NoVertexInput, OpTraits<op>::row_length>(
            carver, pi.nV, op == Op::EV ? pi.nE : pi.nF, false);
        __syncthreads();  // the previous patch's arrays are read
        detail::build_vertex_sources<op, BlockThreads>(pi, a, scan_tmp);
        for (std::uint32_t v = threadIdx.x; v < pi.vmap.num_owned; v += BlockThreads) {
            const std::uint32_t g = pi.vmap.owned_offset + v, first = a.v_off[v];
            if (sources == nullptr)
                offsets[g] = a.v_off[v + 1] - first;
            else
                for (std::uint32_t j = first; j < a.v_off[v + 1]; ++j)
                    sources[offsets[g] + (j - first)] = a.v_val[j];
        }
    }
}

template <Op op>
void launch_vertex_sources(const DeviceMesh& mesh, std::uint32_t* offsets, std::uint16_t* sources,
                           cudaStream_t stream)
{
    DeviceMesh bare = mesh;  // the transpose itself, not kept lists
    bare.face_sources = bare.edge_sources = {};
    detail::launch_patches<vertex_sources_kernel<op, true>, vertex_sources_kernel<op, false>,
                           kSourcesBlockThreads>(
        bare, detail::accumulate_smem_bytes<op, NoVertexInput>(bare), stream, offsets, sources);
}

template <Op op>
VertexSources make_vertex_sources(const RXMesh& mesh, cudaStream_t stream)
{
    const std::uint32_t n = mesh.num_vertices();
    VertexSources       s;
    s.offsets = DeviceBuffer<std::uint32_t>(std::size_t(n) + 1, stream);
    s.offsets.memset(0);
    std::uint32_t* offsets = s.offsets.data();
    launch_vertex_sources<op>(mesh.device(), offsets, nullptr, stream);
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, offsets, offsets, n + 1, stream);
    });
    const std::uint32_t total = read_back(offsets + n, stream);
    const std::uint64_t want = std::uint64_t(OpTraits<op>::row_length) *
                               (op == Op::EV ? mesh.num_edges() : mesh.num_faces());
    if (total != want)
        throw Error("vertex_sources: " + std::to_string(total) + " (vertex, source) pairs, the " +
                    "mesh has " + std::to_string(want) + " (corrupt patch store)");
    s.sources = DeviceBuffer<std::uint16_t>(total, stream);
    launch_vertex_sources<op>(mesh.device(), offsets, s.sources.data(), stream);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return s;
}

}  // namespace

const VertexSources& RXMesh::vertex_sources(Op op, cudaStream_t stream) const
{
    if (op != Op::FV && op != Op::EV)
        throw InvalidInputError("vertex_sources: accumulate gathers faces (Op::FV) or edges "
                                "(Op::EV) into their vertices; got another op");
    std::shared_ptr<VertexSources>& kept = op == Op::FV ? m_face_sources : m_edge_sources;
    if (!kept)
        kept = std::make_shared<VertexSources>(op == Op::FV
                                                   ? make_vertex_sources<Op::FV>(*this, stream)
                                                   : make_vertex_sources<Op::EV>(*this, stream));
    return *kept;
}

}  // namespace rxmesh
