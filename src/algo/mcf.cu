// mean_curvature_flow and MeanCurvatureFlow (algo/mcf.h): the steps over the
// pieces of mcf.cuh, with the CG or with a Cholesky factorization of the
// same system assembled in double.
#include <thrust/iterator/counting_iterator.h>

#include <cmath>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <string>

#include "rxmesh/algo/mcf.cuh"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/vertex_pattern.h"

namespace rxmesh {

namespace {

void check_options(const McfOptions& o)
{
    if (!(o.dt >= 0) || !std::isfinite(o.dt) ||
        (o.dt == 0 && !(o.relative_dt > 0 && std::isfinite(o.relative_dt))))
        throw InvalidInputError("mean_curvature_flow: the time step must be finite and > 0");
    if (o.solver == McfSolver::cg && (!(o.cg.tolerance > 0) || o.cg.max_iterations < 0))
        throw InvalidInputError(
            "mean_curvature_flow: tolerance > 0 and max_iterations >= 0 required");
}

//! b = 2 a X0 (3 columns, row-major), X0 itself on a kept row.
void right_hand_side(const float* area, const std::uint8_t* kept, VertexView<const float, 3> x,
                     double* b, cudaStream_t stream)
{
    detail::for_indices(
        std::uint64_t(x.num_values()),
        [=] __device__(std::uint64_t i) {
            b[i] = (kept[i / 3] ? 1.0 : 2.0 * double(area[i / 3])) * double(x[i]);
        },
        stream);
}

//! x = the solution, rounded to float.
void to_float(const double* solution, VertexView<float, 3> x, cudaStream_t stream)
{
    detail::for_indices(
        x.num_values(), [=] __device__(std::uint64_t i) { x[i] = float(solution[i]); }, stream);
}

//! sqrt(sum of squares) of n doubles.
double norm(const double* v, std::uint64_t n, cudaStream_t stream)
{
    const thrust::counting_iterator<std::uint64_t> ids(0);
    DeviceBuffer<double>                           out(1, stream);
    detail::cub_call(stream, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(
            tmp, bytes, ids, out.data(), n, ::cuda::std::plus<>{},
            [=] __device__(std::uint64_t i) -> double { return v[i] * v[i]; }, 0.0, stream);
    });
    return std::sqrt(read_back(out.data(), stream));
}

}  // namespace

struct MeanCurvatureFlow::Impl
{
    const RXMesh*                   mesh = nullptr;
    McfOptions                      options;
    float                           dt               = 0;
    double                          mean_edge_length = 0;
    std::shared_ptr<const SparsePattern> pattern;  // the Cholesky's, from the first step
    DeviceBuffer<std::uint32_t>     ev;            // each edge's two vertices
    std::unique_ptr<CholeskySolver> cholesky;

    McfReport cholesky_step(const McfSystem& s, VertexView<float, 3> x, cudaStream_t stream);
};

McfReport MeanCurvatureFlow::Impl::cholesky_step(const McfSystem& s, VertexView<float, 3> x,
                                                 cudaStream_t stream)
{
    McfReport      rep;
    GpuTimer       timer(stream);
    const std::uint32_t n = mesh->num_vertices();
    timer.start();
    if (!pattern) {
        pattern = vertex_pattern(*mesh, stream);
        ev      = DeviceBuffer<std::uint32_t>(2 * std::size_t(mesh->num_edges()), stream);
        mesh->for_each<Op::EV>(mcf::StoreEdgeVertices{ev.data()}, AllActive{}, false, stream);
    }
    SparseMatrix<double>       A(pattern, stream);
    DeviceBuffer<std::uint8_t> kept(n, stream);
    mcf_system_matrix(s, ev.data(), mesh->num_edges(), dt, A, kept.data(), stream);
    DeviceBuffer<double> b(3 * std::size_t(n), stream), sol(3 * std::size_t(n), stream);
    right_hand_side(s.a.data(), kept.data(), x, b.data(), stream);
    rep.assembly_ms = timer.stop_ms();
    if (!cholesky) {
        cholesky        = std::make_unique<CholeskySolver>(A, *mesh, options.cholesky);
        rep.analysis_ms = float(cholesky->analysis().ordering_ms + cholesky->analysis().symbolic_ms +
                                cholesky->analysis().plan_ms);
    }
    timer.start();
    cholesky->factor(A);
    rep.factor_ms = timer.stop_ms();
    timer.start();
    cholesky->solve(b.data(), sol.data(), 3);
    rep.solve_ms = timer.stop_ms();
    // the double solution's residual |b - A x| / |b|, before x is rounded
    const double b_norm = norm(b.data(), b.size(), stream);
    multiply(A, VertexView<const double, 3>(sol.data(), n), VertexView<double, 3>(b.data(), n),
             -1.0, 1.0, stream);
    rep.final_residual = b_norm > 0 ? norm(b.data(), b.size(), stream) / b_norm : 0;
    to_float(sol.data(), x, stream);
    rep.converged = std::isfinite(rep.final_residual);
    return rep;
}

MeanCurvatureFlow::MeanCurvatureFlow(const RXMesh& mesh, VertexView<const float, 3> positions,
                                     const McfOptions& options)
    : m_impl(std::make_unique<Impl>())
{
    check_options(options);
    require_vertex_count("MeanCurvatureFlow", mesh, positions, positions);
    m_impl->mesh             = &mesh;
    m_impl->options          = options;
    m_impl->mean_edge_length = rxmesh::mean_edge_length(mesh, positions);
    m_impl->dt               = options.dt > 0 ? options.dt
                                              : float(options.relative_dt * m_impl->mean_edge_length *
                                                      m_impl->mean_edge_length);
    if (!(m_impl->dt > 0) || !std::isfinite(m_impl->dt))
        throw InvalidInputError("mean_curvature_flow: the time step " +
                                std::to_string(m_impl->dt) +
                                " (relative_dt x mean edge length^2) is not a positive float");
}

MeanCurvatureFlow::~MeanCurvatureFlow()                                      = default;
MeanCurvatureFlow::MeanCurvatureFlow(MeanCurvatureFlow&&) noexcept            = default;
MeanCurvatureFlow& MeanCurvatureFlow::operator=(MeanCurvatureFlow&&) noexcept = default;

float  MeanCurvatureFlow::dt() const { return m_impl->dt; }
double MeanCurvatureFlow::mean_edge_length() const { return m_impl->mean_edge_length; }
const CholeskyAnalysis* MeanCurvatureFlow::analysis() const
{
    return m_impl->cholesky ? &m_impl->cholesky->analysis() : nullptr;
}

McfReport MeanCurvatureFlow::step(VertexView<float, 3> x, cudaStream_t stream)
{
    Impl& m = *m_impl;
    require_vertex_count("MeanCurvatureFlow::step", *m.mesh, x, x);
    GpuTimer timer(stream);
    timer.start();
    const McfSystem s = mcf_system(*m.mesh, x, m.options.uniform, stream);
    const float terms = timer.stop_ms();
    McfReport   rep;
    if (m.options.solver == McfSolver::cholesky) {
        rep = m.cholesky_step(s, x, stream);
    } else {
        timer.start();
        const CgReport cg  = mcf_step(*m.mesh, s, m.dt, x, m.options.cg, stream);
        rep.solve_ms       = timer.stop_ms();
        rep.iterations     = cg.iterations;
        rep.final_residual = cg.initial_residual > 0 ? cg.final_residual / cg.initial_residual : 0;
        rep.converged      = cg.converged;
    }
    rep.terms_ms         = terms;
    rep.dt               = m.dt;
    rep.mean_edge_length = m.mean_edge_length;
    return rep;
}

McfReport mean_curvature_flow(const RXMesh& mesh, VertexView<const float, 3> positions,
                              VertexView<float, 3> smoothed, const McfOptions& options,
                              cudaStream_t stream)
{
    check_options(options);
    if (options.steps < 1) throw InvalidInputError("mean_curvature_flow: steps >= 1 required");
    require_vertex_count("mean_curvature_flow", mesh, positions, smoothed);
    MeanCurvatureFlow flow(mesh, positions, options);  // the time step of the input
    copy(smoothed, positions, stream);
    McfReport         total;
    total.dt               = flow.dt();
    total.mean_edge_length = flow.mean_edge_length();
    for (int step = 0; step < options.steps; ++step) add_step(total, flow.step(smoothed, stream));
    return total;
}

}  // namespace rxmesh
