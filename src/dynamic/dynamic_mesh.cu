#include "rxmesh/dynamic/dynamic_mesh.h"

#include <cub/device/device_for.cuh>

#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "connectivity_build.h"
#include "pass_workspace.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/rxmesh.h"

namespace rxmesh {

using namespace dynamic_detail;

namespace {

//! The size limits both constructors share.
void check_sizes(std::size_t vertices, std::size_t faces)
{
    if (vertices >= 0x7FFFFFFFu || faces >= 0x3FFFFFFFu)
        throw InvalidInputError("DynamicMesh: the mesh exceeds 2^31 vertices or 2^30 faces");
}

void check_soup(const TriangleSoup& soup)
{
    for (std::size_t v = 0; v < soup.positions.size(); ++v)
        for (float x : soup.positions[v])
            if (!std::isfinite(x))
                throw InvalidInputError("DynamicMesh: vertex " + std::to_string(v) +
                                        " has a non-finite coordinate");
    for (std::size_t f = 0; f < soup.faces.size(); ++f) {
        const Triangle& t = soup.faces[f];
        for (std::uint32_t v : t)
            if (v >= soup.positions.size())
                throw InvalidInputError("DynamicMesh: face " + std::to_string(f) +
                                        " names vertex " + std::to_string(v) + " of " +
                                        std::to_string(soup.positions.size()));
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
            throw InvalidInputError("DynamicMesh: face " + std::to_string(f) +
                                    " repeats a vertex");
    }
    check_sizes(soup.positions.size(), soup.faces.size());
}

constexpr unsigned long long kNoneBad = std::numeric_limits<unsigned long long>::max();

//! check_soup on the device: the first vertex with a non-finite coordinate
//! and the first face naming a vertex out of range or repeating one
//! (kNoneBad: none), found with atomicMin so the lowest id is named.
std::array<unsigned long long, 2> first_bad_on_device(VertexView<const float, 3> positions,
                                                      FaceView<const std::uint32_t, 3> faces,
                                                      cudaStream_t stream)
{
    DeviceBuffer<unsigned long long> bad(2, stream);
    RXMESH_CHECK_CUDA(cudaMemsetAsync(bad.data(), 0xFF, 2 * sizeof(unsigned long long), stream));
    unsigned long long* first = bad.data();
    const float*        p     = positions.data();
    const std::uint32_t *f = faces.data(), nv = positions.num_elements();
    if (positions.num_elements() > 0)
        RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(
            std::uint64_t(nv),
            [=] __device__(std::uint64_t v) {
                if (!isfinite(p[3 * v]) || !isfinite(p[3 * v + 1]) || !isfinite(p[3 * v + 2]))
                    atomicMin(first, v);
            },
            stream));
    if (faces.num_elements() > 0)
        RXMESH_CHECK_CUDA(cub::DeviceFor::Bulk(
            std::uint64_t(faces.num_elements()),
            [=] __device__(std::uint64_t i) {
                const std::uint32_t a = f[3 * i], b = f[3 * i + 1], c = f[3 * i + 2];
                if (a >= nv || b >= nv || c >= nv || a == b || b == c || a == c)
                    atomicMin(first + 1, i);
            },
            stream));
    std::array<unsigned long long, 2> out{};
    RXMESH_CHECK_CUDA(cudaMemcpyAsync(out.data(), first, sizeof(out), cudaMemcpyDeviceToHost,
                                      stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    return out;
}

//! \throw InvalidInputError naming the first bad vertex or face, in the
//! words check_soup uses.
void check_on_device(VertexView<const float, 3> positions, FaceView<const std::uint32_t, 3> faces,
                     cudaStream_t stream)
{
    check_sizes(positions.num_elements(), faces.num_elements());
    const auto bad = first_bad_on_device(positions, faces, stream);
    if (bad[0] != kNoneBad)
        throw InvalidInputError("DynamicMesh: vertex " + std::to_string(bad[0]) +
                                " has a non-finite coordinate");
    if (bad[1] != kNoneBad)
        throw InvalidInputError("DynamicMesh: face " + std::to_string(bad[1]) +
                                " names a vertex >= " +
                                std::to_string(positions.num_elements()) +
                                " or repeats a vertex");
}

//! Grows `buffer` to `count` elements keeping its first `keep` elements.
template <typename T>
void grow_keeping(DeviceBuffer<T>& buffer, std::size_t count, std::size_t keep, cudaStream_t s)
{
    if (buffer.size() >= count) return;
    DeviceBuffer<T> bigger(count, s);
    if (keep > 0)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(bigger.data(), buffer.data(), keep * sizeof(T),
                                          cudaMemcpyDeviceToDevice, s));
    buffer = std::move(bigger);
}

}  // namespace

DynamicMesh::DynamicMesh(const TriangleSoup& soup, const DynamicOptions& options,
                         cudaStream_t stream)
    : m_options(options), m_stream(stream)
{
    check_soup(soup);
    std::vector<float> positions;
    positions.reserve(3 * soup.positions.size());
    for (const Vec3f& p : soup.positions) positions.insert(positions.end(), p.begin(), p.end());
    std::vector<std::uint32_t> faces;
    faces.reserve(3 * soup.faces.size());
    for (const Triangle& t : soup.faces) faces.insert(faces.end(), t.begin(), t.end());
    upload(positions, faces);
}

DynamicMesh::DynamicMesh(const RXMesh& mesh, const DynamicOptions& options, cudaStream_t stream)
    : m_options(options), m_stream(stream)
{
    const auto positions = mesh.positions();
    const auto faces     = mesh.faces(stream);
    copy_from_device(positions.device_data(), faces.data(), mesh.num_vertices(), mesh.num_faces());
}

DynamicMesh::DynamicMesh(VertexView<const float, 3> positions,
                         FaceView<const std::uint32_t, 3> faces, const DynamicOptions& options,
                         cudaStream_t stream)
    : m_options(options), m_stream(stream)
{
    check_on_device(positions, faces, stream);
    copy_from_device(positions.data(), faces.data(), positions.num_elements(),
                     faces.num_elements());
}

void DynamicMesh::copy_from_device(const float* positions, const std::uint32_t* faces,
                                   std::uint32_t num_vertices, std::uint32_t num_faces)
{
    m_connectivity = std::make_unique<Connectivity>();
    m_workspace    = std::make_unique<PassWorkspace>();
    reserve(num_vertices, num_faces);
    if (num_vertices > 0) {
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_positions.data(), positions, 12ull * num_vertices,
                                          cudaMemcpyDeviceToDevice, m_stream));
        RXMESH_CHECK_CUDA(cudaMemsetAsync(m_vertex_alive.data(), 1, num_vertices, m_stream));
    }
    if (num_faces > 0)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_faces.data(), faces, 12ull * num_faces,
                                          cudaMemcpyDeviceToDevice, m_stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(m_stream));
    m_vertex_slots = m_num_vertices = m_input_vertices = num_vertices;
    m_face_slots = m_num_faces = num_faces;
}

void DynamicMesh::upload(const std::vector<float>&         positions,
                         const std::vector<std::uint32_t>& faces)
{
    m_connectivity = std::make_unique<Connectivity>();
    m_workspace    = std::make_unique<PassWorkspace>();
    const auto num_vertices = std::uint32_t(positions.size() / 3);
    const auto num_faces    = std::uint32_t(faces.size() / 3);
    reserve(num_vertices, num_faces);
    if (num_vertices > 0) {
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_positions.data(), positions.data(),
                                          positions.size() * 4, cudaMemcpyHostToDevice, m_stream));
        RXMESH_CHECK_CUDA(cudaMemsetAsync(m_vertex_alive.data(), 1, num_vertices, m_stream));
    }
    if (num_faces > 0)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_faces.data(), faces.data(), faces.size() * 4,
                                          cudaMemcpyHostToDevice, m_stream));
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(m_stream));
    m_vertex_slots = m_num_vertices = m_input_vertices = num_vertices;
    m_face_slots = m_num_faces = num_faces;
}

DynamicMesh::~DynamicMesh()                                 = default;
DynamicMesh::DynamicMesh(DynamicMesh&&) noexcept            = default;
DynamicMesh& DynamicMesh::operator=(DynamicMesh&&) noexcept = default;

//! Capacity doubles (at least) when it runs out, so n appended elements cost
//! O(n) copies in all; nothing for a user to tune.
void DynamicMesh::reserve(std::uint32_t vertex_slots, std::uint32_t face_slots)
{
    const std::size_t vertex_capacity = m_vertex_alive.size(), face_capacity = m_faces.size() / 3;
    if (vertex_slots > vertex_capacity) {
        const std::size_t n = std::max<std::size_t>(vertex_slots, 2 * vertex_capacity);
        grow_keeping(m_positions, 3 * n, 3ull * m_vertex_slots, m_stream);
        grow_keeping(m_vertex_alive, n, m_vertex_slots, m_stream);
        for (const auto& a : m_attributes)
            if (a->kind() == ElementKind::Vertex) a->reserve(n, m_vertex_slots, m_stream);
    }
    if (face_slots > face_capacity) {
        const std::size_t n = std::max<std::size_t>(face_slots, 2 * face_capacity);
        grow_keeping(m_faces, 3 * n, 3ull * m_face_slots, m_stream);
        for (const auto& a : m_attributes)
            if (a->kind() == ElementKind::Face) a->reserve(n, m_face_slots, m_stream);
    }
}

const ConnectivityView& DynamicMesh::connectivity()
{
    if (!m_connectivity_current) {
        m_connectivity->build(m_faces.data(), m_vertex_slots, m_face_slots,
                              m_options.block_threads, m_stream);
        m_connectivity_current = true;
        m_table_canonical      = true;
    }
    m_view              = m_connectivity->view();
    m_view.positions    = m_positions.data();
    m_view.faces        = m_faces.data();
    m_view.vertex_alive = m_vertex_alive.data();
    return m_view;
}

std::uint32_t DynamicMesh::num_edges() { return connectivity().num_edges; }

std::int64_t DynamicMesh::euler_characteristic()
{
    return std::int64_t(m_num_vertices) - num_edges() + m_num_faces;
}

float* DynamicMesh::scratch_positions()
{
    if (m_moved.size() != m_positions.size())
        m_moved = DeviceBuffer<float>(m_positions.size(), m_stream);
    if (m_vertex_slots > 0)
        RXMESH_CHECK_CUDA(cudaMemcpyAsync(m_moved.data(), m_positions.data(),
                                          12ull * m_vertex_slots, cudaMemcpyDeviceToDevice,
                                          m_stream));
    return m_moved.data();
}

void DynamicMesh::commit_moved_positions()
{
    std::swap(m_moved, m_positions);
    m_touched_known = false;  // every fan may hold a moved vertex
}

std::vector<EdgeOpStatus> DynamicMesh::last_statuses() const
{
    const auto raw = m_workspace->status.to_host();
    std::vector<EdgeOpStatus> out(m_workspace->num_edges);
    for (std::size_t e = 0; e < out.size(); ++e) out[e] = EdgeOpStatus(raw[e]);
    return out;
}

namespace {

std::vector<std::array<std::uint32_t, 2>> decode_edges(const std::uint64_t* device_keys,
                                                       std::uint32_t count, std::uint32_t bits)
{
    std::vector<std::uint64_t> keys(count);
    if (count > 0)
        RXMESH_CHECK_CUDA(
            cudaMemcpy(keys.data(), device_keys, count * 8ull, cudaMemcpyDeviceToHost));
    std::vector<std::array<std::uint32_t, 2>> out(count);
    for (std::size_t e = 0; e < out.size(); ++e)
        out[e] = {std::uint32_t(keys[e] >> bits),
                  std::uint32_t(keys[e] & ((std::uint64_t(1) << bits) - 1))};
    return out;
}

}  // namespace

std::vector<std::array<std::uint32_t, 2>> DynamicMesh::last_edges() const
{
    return decode_edges(m_workspace->edge_keys.data(), m_workspace->num_edges,
                        m_workspace->key_bits);
}

std::vector<std::array<std::uint32_t, 2>> DynamicMesh::edges()
{
    const ConnectivityView& c = connectivity();
    return decode_edges(c.edge_keys, c.num_edges, c.key_bits);
}

std::vector<float> DynamicMesh::slot_positions() const
{
    std::vector<float> out(3ull * m_vertex_slots);
    if (!out.empty())
        RXMESH_CHECK_CUDA(cudaMemcpy(out.data(), m_positions.data(), out.size() * 4,
                                     cudaMemcpyDeviceToHost));
    return out;
}

std::vector<std::uint32_t> DynamicMesh::slot_faces() const
{
    std::vector<std::uint32_t> out(3ull * m_face_slots);
    if (!out.empty())
        RXMESH_CHECK_CUDA(
            cudaMemcpy(out.data(), m_faces.data(), out.size() * 4, cudaMemcpyDeviceToHost));
    return out;
}

DynamicMemory DynamicMesh::memory() const
{
    DynamicMemory m;
    m.mesh = m_positions.allocated_bytes() + m_faces.allocated_bytes() +
             m_vertex_alive.allocated_bytes();
    m.connectivity = m_connectivity ? m_connectivity->bytes() : 0;
    m.workspace    = (m_workspace ? m_workspace->bytes() : 0) + m_moved.allocated_bytes() +
                  m_edge_sources.allocated_bytes() + m_touched.allocated_bytes();
    for (const auto& a : m_attributes) m.attributes += a->bytes();
    m.peak = m.total() - m.connectivity +
             std::max(m.connectivity, m_connectivity ? m_connectivity->peak_bytes() : 0);
    return m;
}

void DynamicMesh::release_workspace()
{
    m_workspace = std::make_unique<PassWorkspace>();
    m_moved     = DeviceBuffer<float>();
}

const char* to_string(EdgeOpKind kind)
{
    switch (kind) {
        case EdgeOpKind::Flip: return "flip";
        case EdgeOpKind::Split: return "split";
        case EdgeOpKind::Collapse: return "collapse";
    }
    return "?";
}

std::string PassReport::to_json() const
{
    return std::string("{\"kind\":\"") + to_string(kind) + "\",\"edges\":" +
           std::to_string(edges) + ",\"called\":" + std::to_string(called) + ",\"asked\":" + std::to_string(asked) +
           ",\"refused\":" + std::to_string(refused) + ",\"conflicted\":" +
           std::to_string(conflicted) + ",\"applied\":" + std::to_string(applied) +
           ",\"rounds\":" + std::to_string(rounds) + ",\"ms\":" + std::to_string(ms) +
           ",\"table_ms\":" + std::to_string(table_ms) + ",\"decide_ms\":" +
           std::to_string(decide_ms) + ",\"select_ms\":" + std::to_string(select_ms) +
           ",\"resolve_ms\":" + std::to_string(resolve_ms) + ",\"apply_ms\":" +
           std::to_string(apply_ms) + "}";
}

}  // namespace rxmesh
