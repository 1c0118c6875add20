#include "rxmesh/algo/mesh_quality.h"

#include <cub/device/device_histogram.cuh>

#include <cmath>
#include <cstdio>

#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/device_sum.cuh"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"

namespace rxmesh {
namespace {

constexpr unsigned kBlock        = 256;
constexpr int      kLengthBins   = 20;  // of 0.1 L
constexpr int      kValenceBins  = 33;  // 0 .. 32, the last also larger

unsigned grid(std::uint64_t n) { return unsigned(n == 0 ? 1 : (n + kBlock - 1) / kBlock); }

__global__ void edge_length_kernel(ConnectivityView c, float* length)
{
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= c.num_edges) return;
    length[e] = norm(c.position(c.edge_second(e)) - c.position(c.edge_first(e)));
}

//! The smallest angle of each face in degrees (180 for a dead slot, 0 for a
//! face with a zero-length edge), in double as the oracle.
__global__ void min_angle_kernel(ConnectivityView c, float* angle)
{
    const std::uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= c.num_face_slots) return;
    if (!c.face_alive(f)) {
        angle[f] = 180.f;
        return;
    }
    double smallest = 180.0;
    for (int k = 0; k < 3; ++k) {
        const Vec3   a = c.position(c.face_vertex(f, k)), b = c.position(c.face_vertex(f, (k + 1) % 3)),
                   d = c.position(c.face_vertex(f, (k + 2) % 3));
        const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
        const double wx = double(d.x) - a.x, wy = double(d.y) - a.y, wz = double(d.z) - a.z;
        const double lu = sqrt(ux * ux + uy * uy + uz * uz), lw = sqrt(wx * wx + wy * wy + wz * wz);
        if (lu == 0 || lw == 0) {
            smallest = 0;
            continue;
        }
        const double cosine = fmin(1.0, fmax(-1.0, (ux * wx + uy * wy + uz * wz) / (lu * lw)));
        smallest            = fmin(smallest, acos(cosine) * 180.0 / 3.14159265358979323846);
    }
    angle[f] = float(smallest);
}

//! An interior manifold vertex's valence; -1 for the others (out of range).
__global__ void valence_kernel(ConnectivityView c, int* valence)
{
    const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= c.num_vertex_slots) return;
    const bool counted = c.vertex_alive[v] && c.vertex_degree[v] > 0 && c.vertex_manifold(v) &&
                         !c.vertex_boundary(v);
    valence[v] = counted ? min(int(c.vertex_degree[v]), kValenceBins - 1) : -1;
}

//! Counts of n samples in `bins` even bins over [lo, hi) (others ignored).
template <typename T>
std::vector<std::uint32_t> histogram(const T* values, std::uint32_t n, int bins, T lo, T hi,
                                     cudaStream_t stream)
{
    DeviceBuffer<int> counts(bins, stream);
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceHistogram::HistogramEven(tmp, bytes, values, counts.data(), bins + 1,
                                                   lo, hi, int(n), stream);
    });
    std::vector<int> host(bins);
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(host.data(), counts.data(), bins * sizeof(int),
                                      cudaMemcpyDeviceToHost, stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return std::vector<std::uint32_t>(host.begin(), host.end());
}

}  // namespace

double SurfaceQuality::share_valence6() const
{
    std::uint64_t all = 0;
    for (std::uint32_t n : interior_valences) all += n;
    return all == 0 || interior_valences.size() <= 6 ? 0 : double(interior_valences[6]) / all;
}

std::string SurfaceQuality::to_json() const
{
    auto list = [](const std::vector<std::uint32_t>& v) {
        std::string s = "[";
        for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
        return s + "]";
    };
    char head[512];
    std::snprintf(head, sizeof(head),
                  "{\"vertices\":%u,\"edges\":%u,\"faces\":%u,\"target_length\":%.9g,"
                  "\"mean_edge\":%.9g,\"min_edge\":%.9g,\"max_edge\":%.9g,"
                  "\"share_in_band\":%.6f,\"min_angle_degrees\":%.6f,"
                  "\"share_below_5_degrees\":%.6f,\"share_valence6\":%.6f,",
                  vertices, edges, faces, target_length, mean_edge, min_edge, max_edge,
                  share_in_band, min_angle_degrees, share_below_5_degrees, share_valence6());
    return std::string(head) + "\"length_histogram_tenths_of_L\":" + list(length_histogram) +
           ",\"interior_valences\":" + list(interior_valences) + "}";
}

double mean_edge_length(DynamicMesh& mesh)
{
    const ConnectivityView c = mesh.connectivity();
    if (c.num_edges == 0) return 0;
    DeviceBuffer<float> length(c.num_edges, mesh.stream());
    edge_length_kernel<<<grid(c.num_edges), kBlock, 0, mesh.stream()>>>(c, length.data());
    RXMESH_CHECK_LAUNCH();
    return detail::sum_as_double(length.data(), c.num_edges, mesh.stream()) / c.num_edges;
}

SurfaceQuality surface_quality(DynamicMesh& mesh, double target_length)
{
    if (!(target_length > 0) || !std::isfinite(target_length))
        throw InvalidInputError("surface_quality: the target length " +
                                std::to_string(target_length) + " is not positive");
    const ConnectivityView c      = mesh.connectivity();
    cudaStream_t           stream = mesh.stream();
    SurfaceQuality         q;
    q.vertices      = mesh.num_vertices();
    q.faces         = mesh.num_faces();
    q.edges         = c.num_edges;
    q.target_length = target_length;
    if (c.num_edges > 0) {
        DeviceBuffer<float> length(c.num_edges, stream);
        edge_length_kernel<<<grid(c.num_edges), kBlock, 0, stream>>>(c, length.data());
        RXMESH_CHECK_LAUNCH();
        q.mean_edge = detail::sum_as_double(length.data(), c.num_edges, stream) / c.num_edges;
        q.min_edge  = detail::reduce_floats(length.data(), c.num_edges, INFINITY, cuda::minimum<float>{}, stream);
        q.max_edge  = detail::reduce_floats(length.data(), c.num_edges, 0.f, cuda::maximum<float>{}, stream);
        // band counts from a two-bin histogram over [4/5 L, 4/3 L] (inclusive
        // upper end: one ulp past it)
        const float lo = float(0.8 * target_length), hi = float(4.0 / 3.0 * target_length);
        const auto  band = histogram(length.data(), c.num_edges, 1, lo, nextafterf(hi, INFINITY), stream);
        q.share_in_band  = double(band[0]) / c.num_edges;
        q.length_histogram = histogram(length.data(), c.num_edges, kLengthBins, 0.f,
                                       float(2.0 * target_length), stream);
        std::uint64_t counted = 0;
        for (std::uint32_t n : q.length_histogram) counted += n;
        q.length_histogram.push_back(std::uint32_t(c.num_edges - counted));  // >= 2 L
    }
    if (c.num_face_slots > 0 && q.faces > 0) {
        DeviceBuffer<float> angle(c.num_face_slots, stream);
        min_angle_kernel<<<grid(c.num_face_slots), kBlock, 0, stream>>>(c, angle.data());
        RXMESH_CHECK_LAUNCH();
        q.min_angle_degrees = detail::reduce_floats(angle.data(), c.num_face_slots, 180.f,
                                           cuda::minimum<float>{}, stream);
        const auto slivers = histogram(angle.data(), c.num_face_slots, 1, 0.f,
                                       float(kSliverDegrees), stream);  // dead slots: 180
        q.share_below_5_degrees = double(slivers[0]) / q.faces;
    }
    if (c.num_vertex_slots > 0) {
        DeviceBuffer<int> valence(c.num_vertex_slots, stream);
        valence_kernel<<<grid(c.num_vertex_slots), kBlock, 0, stream>>>(c, valence.data());
        RXMESH_CHECK_LAUNCH();
        q.interior_valences =
            histogram(valence.data(), c.num_vertex_slots, kValenceBins, 0, kValenceBins, stream);
        while (!q.interior_valences.empty() && q.interior_valences.back() == 0)
            q.interior_valences.pop_back();
    }
    return q;
}

}  // namespace rxmesh
