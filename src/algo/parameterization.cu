// parameterize (algo/parameterization.h): the fixed-boundary map's system
// assembled, factored and solved on the device; the host sees only the
// boundary loop's points (to lay it out by arc length) and a count.
// conformal_map: the LSCM energy assembled on the device; its 2n x 2n
// scalar pattern, the pins and the ordering's points go through the host.
#include <thrust/iterator/counting_iterator.h>

#include <cfloat>
#include <chrono>
#include <cmath>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <string>

#include "rxmesh/algo/parameterization.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/device_sum.cuh"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/matrix/assemble.cuh"
#include "rxmesh/matrix/host_export.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/mesh_operators.cuh"
#include "rxmesh/matrix/vertex_pattern.h"

namespace rxmesh {

namespace {

//! Every off-diagonal entry -1 and each diagonal its row's count of them:
//! the graph Laplacian on the cotangent Laplacian's pattern.
void make_uniform(SparseMatrix<double>& L)
{
    const SparseMatrixView<double, 1> a = L.view();
    detail::for_indices(
        L.num_rows(),
        [=] __device__(std::uint32_t row) {
            const int begin = a.pattern.row_offsets[row], end = a.pattern.row_offsets[row + 1];
            for (int k = begin; k < end; ++k)
                a.values[k] =
                    std::uint32_t(a.pattern.columns[k]) == row ? double(end - begin - 1) : -1.0;
        },
        0);
}

//! out[3 i ..] = the position of vertex ids[i].
void gather_points(VertexView<const float, 3> positions, const std::uint32_t* ids,
                   std::size_t count, float* out)
{
    const float* p = positions.data();
    detail::for_indices(
        count,
        [=] __device__(std::uint32_t i) {
            for (int c = 0; c < 3; ++c) out[3 * i + c] = p[3 * std::uint64_t(ids[i]) + c];
        },
        0);
}

//! fixed[ids[i]] = 1 and values[ids[i]] = at[i] (2 per vertex).
void scatter_boundary(const std::uint32_t* ids, const double* at, std::size_t count,
                      std::uint8_t* fixed, double* values)
{
    detail::for_indices(
        count,
        [=] __device__(std::uint32_t i) {
            fixed[ids[i]]                         = 1;
            values[2 * std::uint64_t(ids[i])]     = at[2 * i];
            values[2 * std::uint64_t(ids[i]) + 1] = at[2 * i + 1];
        },
        0);
}

void to_float(const double* x, std::uint64_t count, float* out)
{
    detail::for_indices(
        count, [=] __device__(std::uint32_t i) { out[i] = float(x[i]); }, 0);
}

//! Faces whose UV triangle has a signed area <= 0 (computed in double from
//! the double solution).
std::uint32_t count_flipped(const SparsePattern& pattern, const double* uv)
{
    const SparsePatternView                        p = pattern.view();
    const thrust::counting_iterator<std::uint32_t> ids(0);
    DeviceBuffer<std::uint32_t>                    total(1);
    detail::cub_call(0, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(
            tmp, bytes, ids, total.data(), pattern.num_faces(), ::cuda::std::plus<>{},
            [=] __device__(std::uint32_t face) -> std::uint32_t {
                const std::uint32_t* v = p.faces + 3 * std::uint64_t(face);
                const double*        a = uv + 2 * std::uint64_t(v[0]);
                const double*        b = uv + 2 * std::uint64_t(v[1]);
                const double*        c = uv + 2 * std::uint64_t(v[2]);
                return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) > 0 ? 0u : 1u;
            },
            0u, 0);
    });
    return detail::read_back(total.data(), cudaStream_t(0));
}

//! The boundary's points on the unit circle by arc length (2 per vertex).
std::vector<double> circle_points(const std::vector<float>& p)
{
    const std::size_t   m = p.size() / 3;
    std::vector<double> arc(m + 1, 0.0);
    for (std::size_t k = 0; k < m; ++k) {
        const std::size_t j = (k + 1) % m;
        const double dx = double(p[3 * j]) - p[3 * k], dy = double(p[3 * j + 1]) - p[3 * k + 1],
                     dz = double(p[3 * j + 2]) - p[3 * k + 2];
        arc[k + 1]      = arc[k] + std::sqrt(dx * dx + dy * dy + dz * dz);
    }
    if (!(arc[m] > 0) || !std::isfinite(arc[m]))
        throw InvalidInputError("parameterize: the boundary loop has no length");
    std::vector<double> at(2 * m);
    const double        two_pi = 2 * std::acos(-1.0);
    for (std::size_t k = 0; k < m; ++k) {
        at[2 * k]     = std::cos(two_pi * arc[k] / arc[m]);
        at[2 * k + 1] = std::sin(two_pi * arc[k] / arc[m]);
    }
    return at;
}

void require_loop(const std::vector<std::uint32_t>& boundary, std::uint32_t n)
{
    if (boundary.size() < 3)
        throw InvalidInputError("parameterize: a boundary loop of " +
                                std::to_string(boundary.size()) + " vertices");
    std::vector<bool> seen(n, false);
    for (const std::uint32_t v : boundary) {
        if (v >= n)
            throw InvalidInputError("parameterize: boundary vertex " + std::to_string(v) +
                                    " is out of range (the mesh has " + std::to_string(n) +
                                    " vertices)");
        if (seen[v])
            throw InvalidInputError("parameterize: boundary vertex " + std::to_string(v) +
                                    " is listed twice");
        seen[v] = true;
    }
}

//! Q = blockdiag(L, L) - 2 M, a vertex's (u, v) as one 2 x 2 block, summed
//! per face: the cotangent terms of E_D, and for each of the face's oriented
//! edges a -> b the terms of -A = -1/2 sum (u_a v_b - u_b v_a), as
//! reference::lscm sums them: each face its own conformal energy (>= 0),
//! none for a degenerate face (it has no cotangent weights either: its area
//! terms alone would make Q indefinite). An interior edge's area terms
//! cancel exactly (+-0.5) between its two faces.
SparseMatrix<double, 2> conformal_energy(std::shared_ptr<const SparsePattern> pattern,
                                         VertexView<const float, 3>          positions)
{
    SparseMatrix<double, 2> Q(std::move(pattern));
    assemble_faces(Q, [=] __device__(FaceId, const VertexId(&v)[3], FaceBlocks<double, 2>& local) {
        const detail::CornerPoints<double> c(positions, v);
        const bool has_area = detail::cross_norm(detail::minus(c.p[1], c.p[0]),
                                                 detail::minus(c.p[2], c.p[0])) > double(FLT_MIN);
        for (int k = 0; k < 3; ++k) {  // edge i -> j, opposite corner o
            const int    i = k, j = (k + 1) % 3, o = (k + 2) % 3;
            const double w = 0.5 * detail::cot_at(c.p[o], c.p[i], c.p[j]);
            for (int d = 0; d < 2; ++d) {
                local(i, j, d, d) -= w;
                local(j, i, d, d) -= w;
                local(i, i, d, d) += w;
                local(j, j, d, d) += w;
            }
            if (!has_area) continue;
            local(i, j, 0, 1) -= 0.5;
            local(j, i, 1, 0) -= 0.5;
            local(j, i, 0, 1) += 0.5;
            local(i, j, 1, 0) += 0.5;
        }
    });
    return Q;
}

//! The loop's vertex farthest from loop[from] (the first of equal ones).
std::size_t farthest(const std::vector<float>& p, std::size_t from)
{
    std::size_t best = 0;
    double      far  = -1;
    for (std::size_t k = 0; k < p.size() / 3; ++k) {
        double d = 0;
        for (int c = 0; c < 3; ++c) d += std::pow(double(p[3 * k + c]) - p[3 * from + c], 2);
        if (std::sqrt(d) > far) far = std::sqrt(d), best = k;
    }
    return best;
}

//! Rows and columns of the fixed unknowns become the identity, their
//! values moved to the right-hand side b (which then holds them).
void pin(HostCsr& Q, const std::vector<std::uint64_t>& fixed, const std::vector<double>& at,
         std::vector<double>& b)
{
    std::vector<double> value(Q.num_rows, 0.0);
    std::vector<char>   is_fixed(Q.num_rows, 0);
    for (std::size_t k = 0; k < fixed.size(); ++k) is_fixed[fixed[k]] = 1, value[fixed[k]] = at[k];
    for (std::uint64_t r = 0; r < Q.num_rows; ++r)
        for (std::uint64_t e = Q.row_offsets[r]; e < Q.row_offsets[r + 1]; ++e) {
            const std::uint64_t c = Q.columns[e];
            if (is_fixed[r]) {
                Q.values[e] = c == r ? 1.0 : 0.0;
            } else if (is_fixed[c]) {
                b[r] -= Q.values[e] * value[c];
                Q.values[e] = 0.0;
            }
        }
    for (std::size_t k = 0; k < fixed.size(); ++k) b[fixed[k]] = at[k];
}

//! Each vertex's position twice: the ordering's point of its u and v rows.
std::vector<Vec3f> doubled_points(const RXMesh& mesh)
{
    const VertexView<const float, 3> positions = mesh.positions();
    const std::vector<float> p = detail::download(positions.data(), positions.num_values());
    std::vector<Vec3f>       out(2 * (p.size() / 3));
    for (std::size_t v = 0; v < p.size() / 3; ++v)
        out[2 * v] = out[2 * v + 1] = {p[3 * v], p[3 * v + 1], p[3 * v + 2]};
    return out;
}

}  // namespace

ParamReport conformal_map(const RXMesh& mesh, const std::vector<std::uint32_t>& boundary,
                          VertexView<float, 2> uv, const CholeskyOptions& options)
{
    const std::uint32_t n = mesh.num_vertices();
    if (uv.num_elements() != n)
        throw Error("conformal_map: the output holds " + std::to_string(uv.num_elements()) +
                    " pairs for " + std::to_string(n) + " vertices");
    require_loop(boundary, n);
    ParamReport r;
    r.boundary_vertices                 = std::uint32_t(boundary.size());
    const auto                     start = std::chrono::steady_clock::now();
    const DeviceBuffer<std::uint32_t> ids = DeviceBuffer<std::uint32_t>::from_host(boundary);
    DeviceBuffer<float>               points(3 * boundary.size());
    gather_points(mesh.positions(), ids.data(), boundary.size(), points.data());
    const std::vector<float> p = points.to_host();
    const std::size_t        a = farthest(p, 0), b = farthest(p, a);
    if (p[3 * a] == p[3 * b] && p[3 * a + 1] == p[3 * b + 1] && p[3 * a + 2] == p[3 * b + 2])
        throw InvalidInputError("conformal_map: the boundary has no length (two pins at one point)");
    r.pins[0] = boundary[a];
    r.pins[1] = boundary[b];
    const auto          pattern = vertex_pattern(mesh);
    HostCsr             Q       = to_host(conformal_energy(pattern, mesh.positions()));
    std::vector<double> rhs(Q.num_rows, 0.0);
    pin(Q, {2ull * r.pins[0], 2ull * r.pins[0] + 1, 2ull * r.pins[1], 2ull * r.pins[1] + 1},
        {0, 0, 1, 0}, rhs);
    r.assembly_ms = float(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    const auto     analysis = std::chrono::steady_clock::now();
    CholeskySolver chol(Q, doubled_points(mesh), options);
    r.analysis_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - analysis).count();
    GpuTimer timer;
    timer.start();
    chol.factor(Q);
    r.factor_ms = timer.stop_ms();
    timer.start();
    DeviceBuffer<double> x = DeviceBuffer<double>::from_host(rhs);
    chol.solve(x.data(), x.data(), 1);
    to_float(x.data(), 2 * std::uint64_t(n), uv.data());
    r.solve_ms      = timer.stop_ms();
    r.flipped_faces = count_flipped(*pattern, x.data());
    return r;
}

ParamReport parameterize(const RXMesh& mesh, const std::vector<std::uint32_t>& boundary,
                         VertexView<float, 2> uv, const ParamOptions& options)
{
    const std::uint32_t n = mesh.num_vertices();
    if (uv.num_elements() != n)
        throw Error("parameterize: the output holds " + std::to_string(uv.num_elements()) +
                    " pairs for " + std::to_string(n) + " vertices");
    require_loop(boundary, n);
    ParamReport r;
    r.boundary_vertices = std::uint32_t(boundary.size());
    GpuTimer timer;
    timer.start();
    const DeviceBuffer<std::uint32_t> ids = DeviceBuffer<std::uint32_t>::from_host(boundary);
    DeviceBuffer<float>               points(3 * boundary.size());
    gather_points(mesh.positions(), ids.data(), boundary.size(), points.data());
    const DeviceBuffer<double> at =
        DeviceBuffer<double>::from_host(circle_points(points.to_host()));
    const auto           pattern = vertex_pattern(mesh);
    SparseMatrix<double> L       = cotangent_laplacian<double>(pattern, mesh.positions());
    if (options.weights == ParamWeighting::uniform) make_uniform(L);
    DeviceBuffer<std::uint8_t> fixed(n);
    DeviceBuffer<double>       values(2 * std::uint64_t(n)), rhs(2 * std::uint64_t(n));
    fixed.memset(0);
    values.memset(0);
    rhs.memset(0);
    scatter_boundary(ids.data(), at.data(), boundary.size(), fixed.data(), values.data());
    impose_dirichlet(L, VertexView<const std::uint8_t>(fixed.data(), n),
                     VertexView<const double, 2>(values.data(), n),
                     VertexView<double, 2>(rhs.data(), n));
    r.assembly_ms        = timer.stop_ms();
    const auto     start = std::chrono::steady_clock::now();
    CholeskySolver chol(L, mesh, options.cholesky);
    r.analysis_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    timer.start();
    chol.factor(L);
    r.factor_ms = timer.stop_ms();
    timer.start();
    chol.solve(rhs.data(), rhs.data(), 2);  // in place: rhs becomes (u, v)
    to_float(rhs.data(), 2 * std::uint64_t(n), uv.data());
    r.solve_ms      = timer.stop_ms();
    r.flipped_faces = count_flipped(*pattern, rhs.data());
    return r;
}

}  // namespace rxmesh
