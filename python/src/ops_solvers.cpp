// The algorithms on the sparse-matrix layer and the GPU Cholesky: geodesic
// distance by the heat method and the fixed-boundary parameterization,
// results in input order. Both run on CUDA's default stream and are
// synchronous: the caller's stream is waited for first (its writes to the
// positions come before), and their results are complete when they return.
#include <limits>
#include <stdexcept>
#include <string>

#include "ops.h"
#include "rxmesh/core/attribute_view.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/reference/parameterization.h"

namespace rxmesh::python {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

//! The mesh's one boundary loop (mesh order, the faces' orientation), found
//! on the host as the apps find it (reference::disk_boundary, whose message
//! says why a mesh is not a disk).
std::vector<std::uint32_t> disk_loop(const MeshHandle& h, cudaStream_t s)
{
    const std::vector<float>         p = to_host(h.mesh->positions().view(), s);
    const std::vector<std::uint32_t> f = h.mesh->faces(s).to_host();
    std::vector<Vec3f>               positions(p.size() / 3);
    std::vector<Triangle>            faces(f.size() / 3);
    for (std::size_t v = 0; v < positions.size(); ++v)
        positions[v] = {p[3 * v], p[3 * v + 1], p[3 * v + 2]};
    for (std::size_t i = 0; i < faces.size(); ++i)
        faces[i] = {f[3 * i], f[3 * i + 1], f[3 * i + 2]};
    try {
        return reference::disk_boundary(positions, faces);
    } catch (const std::invalid_argument& e) {
        // the reason, without the reference's own prefix: the caller called parameterize
        std::string       why    = e.what();
        const std::string prefix = "reference parameterization: ";
        if (why.rfind(prefix, 0) == 0)
            why.erase(0, prefix.size());
        throw InvalidInputError("parameterize: " + why);
    }
}

}  // namespace

std::shared_ptr<const HeatGeodesic> make_heat_geodesic(const MeshHandle& h, double time_factor,
                                                       cudaStream_t s)
{
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));
    HeatGeodesicOptions o;
    o.time_factor = time_factor;
    return std::make_shared<const HeatGeodesic>(*h.mesh, o);
}

HeatResult heat_distance(const MeshHandle& h, const HeatGeodesic& heat,
                         const std::vector<std::uint32_t>& sources, cudaStream_t s)
{
    const std::uint32_t n = h.mesh->num_vertices();
    // on the caller's stream, which reads it last; complete before the query
    DeviceBuffer<float> d(n, s);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));
    HeatResult r;
    r.report   = heat.distance(sources, VertexView<float>(d.data(), n));
    r.distance = to_input_order(h, d.data(), 1, nullptr, kNaN, s);
    return r;
}

ParamResult parameterize(const MeshHandle& h, const std::string& method, cudaStream_t s)
{
    const std::vector<std::uint32_t> loop = disk_loop(h, s);  // waits for s
    const std::uint32_t              n    = h.mesh->num_vertices();
    // on the caller's stream, which reads it last; complete before the map
    DeviceBuffer<float> uv(2 * std::size_t(n), s);
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));
    const VertexView<float, 2> view(uv.data(), n);
    ParamResult                r;
    if (method == "lscm") {
        r.report = conformal_map(*h.mesh, loop, view);
    } else {
        ParamOptions o;
        o.weights = method == "harmonic" ? ParamWeighting::cotangent : ParamWeighting::uniform;
        r.report  = rxmesh::parameterize(*h.mesh, loop, view, o);
    }
    r.uv     = to_input_order(h, uv.data(), 2, nullptr, kNaN, s);
    return r;
}

}  // namespace rxmesh::python
