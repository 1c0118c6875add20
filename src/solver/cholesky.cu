#include <algorithm>
#include <chrono>
#include <climits>
#include <string>
#include <utility>

#include "cholesky_kernels.cuh"
#include "cholesky_plan.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/matrix/host_export.h"
#include "rxmesh/rxmesh.h"
#include "rxmesh/solver/cholesky.h"

namespace rxmesh {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

//! A's pattern as host compressed rows (the values are not read).
HostCsr host_pattern(const SparseMatrix<double>& A)
{
    HostCsr h;
    h.num_rows = A.num_rows();
    const auto offsets =
        detail::download(A.pattern()->row_offsets(), std::size_t(A.num_rows()) + 1);
    const auto columns = detail::download(A.pattern()->columns(), std::size_t(A.num_blocks()));
    h.row_offsets.assign(offsets.begin(), offsets.end());
    h.columns.assign(columns.begin(), columns.end());
    return h;
}

//! The mesh's positions (its global numbering) on the host.
std::vector<Vec3f> host_positions(const RXMesh& mesh)
{
    const std::vector<float> flat = to_host(mesh.positions().view());
    std::vector<Vec3f>       out(flat.size() / 3);
    for (std::size_t v = 0; v < out.size(); ++v)
        out[v] = {flat[3 * v], flat[3 * v + 1], flat[3 * v + 2]};
    return out;
}

void require_options(const CholeskyOptions& o)
{
    if (o.supernodes.max_columns > detail::kMaxPanelColumns)
        throw InvalidInputError("CholeskySolver: supernodes.max_columns " +
                                std::to_string(o.supernodes.max_columns) + " is above " +
                                std::to_string(detail::kMaxPanelColumns) +
                                ", the widest panel the kernels factor");
    if (!(o.pivot_tolerance >= 0 && o.pivot_tolerance < 1))
        throw InvalidInputError("CholeskySolver: pivot_tolerance is not in [0, 1)");
    if (!(o.symmetry_tolerance >= 0))
        throw InvalidInputError("CholeskySolver: symmetry_tolerance is not >= 0");
    if (o.solve.target_blocks == 0 || o.solve.min_chunk_rows == 0)
        throw InvalidInputError("CholeskySolver: solve.target_blocks and solve.min_chunk_rows must be >= 1");
}

unsigned blocks_for(std::uint64_t threads)
{
    return unsigned((threads + detail::kCholeskyThreads - 1) / detail::kCholeskyThreads);
}

}  // namespace

struct CholeskySolver::Impl
{
    //! The analysis' plan: what two solvers of one pattern share.
    struct Plan
    {
        std::vector<std::uint32_t> level_offsets, level_tiles;
        std::vector<detail::SolveLevel> solve_levels;
        std::vector<std::uint32_t> new_to_old;  // the analysis' order, for messages

        DeviceBuffer<std::uint32_t> first_column, rows, column_supernode, level_supernodes,
            tile_start, d_new_to_old, solve_tasks;
        DeviceBuffer<std::uint64_t> row_offsets, value_offsets, entry_mirror, diagonal;
        DeviceBuffer<std::int64_t>  entry_slot;
    };
    CholeskyOptions                      options;
    CholeskyAnalysis                     analysis;
    std::shared_ptr<Plan>                shared;
    DeviceBuffer<double>                 panels;
    DeviceBuffer<detail::FactorFailures> failures{1};
    mutable DeviceBuffer<double>         work;
    //! Per supernode, the solve's chunks done (0 between launches).
    mutable DeviceBuffer<std::uint32_t> solve_counters;
    bool                                 factored = false;

    void               analyze(const HostCsr& pattern, const std::vector<Vec3f>& positions);
    void               factor(const double* values);
    void               solve(const double* b, double* x, std::uint32_t columns) const;
    detail::PanelsView view() const
    {
        const Plan& q = *shared;
        return {
            q.first_column.data(),  q.row_offsets.data(),      q.rows.data(),
            q.value_offsets.data(), q.column_supernode.data(), const_cast<double*>(panels.data())};
    }
    void throw_failures(const detail::FactorFailures& f) const;
    void make_solve_counters();
    void solve_levels(double* y, std::uint32_t R, std::uint32_t r0, std::uint32_t group) const;
};

void CholeskySolver::Impl::analyze(const HostCsr& pattern, const std::vector<Vec3f>& positions)
{
    require_options(options);
    if (positions.size() != pattern.num_rows)
        throw InvalidInputError("CholeskySolver: " + std::to_string(positions.size()) +
                                " positions for " + std::to_string(pattern.num_rows) + " rows");
    // the symmetry first: the analysis reads the pattern as symmetric
    auto                       start        = Clock::now();
    std::vector<std::uint64_t> mirror       = detail::entry_mirrors(pattern);
    const double               mirror_ms    = ms_since(start);
    start                                   = Clock::now();
    const Permutation          p = geometric_nested_dissection(pattern, positions, options.ordering);
    analysis.ordering_ms     = ms_since(start);
    start                    = Clock::now();
    const SymbolicFactor   s = symbolic_factor(pattern, p);
    const SupernodalFactor f = supernodal_factor(pattern, p, s, options.supernodes);
    analysis.symbolic_ms     = ms_since(start);
    start                    = Clock::now();
    const detail::CholeskyPlan plan = detail::plan_cholesky(pattern, f, options.solve, std::move(mirror));
    std::vector<std::uint64_t> diagonal_new(plan.num_rows);
    for (std::uint32_t k = 0; k < plan.num_rows; ++k)
        diagonal_new[k] = plan.diagonal_entries[f.order.new_to_old[k]];

    shared                   = std::make_shared<Plan>();
    shared->level_offsets    = plan.level_offsets;
    shared->level_tiles      = plan.level_tiles;
    shared->solve_levels     = plan.solve_levels;
    shared->solve_tasks      = DeviceBuffer<std::uint32_t>::from_host(plan.solve_tasks);
    shared->new_to_old       = f.order.new_to_old;
    shared->first_column     = DeviceBuffer<std::uint32_t>::from_host(plan.first_column);
    shared->row_offsets      = DeviceBuffer<std::uint64_t>::from_host(plan.row_offsets);
    shared->rows             = DeviceBuffer<std::uint32_t>::from_host(plan.rows);
    shared->value_offsets    = DeviceBuffer<std::uint64_t>::from_host(plan.value_offsets);
    shared->column_supernode = DeviceBuffer<std::uint32_t>::from_host(plan.column_supernode);
    shared->level_supernodes = DeviceBuffer<std::uint32_t>::from_host(plan.level_supernodes);
    shared->tile_start       = DeviceBuffer<std::uint32_t>::from_host(plan.tile_start);
    shared->d_new_to_old     = DeviceBuffer<std::uint32_t>::from_host(f.order.new_to_old);
    shared->entry_slot       = DeviceBuffer<std::int64_t>::from_host(plan.entry_slot);
    shared->entry_mirror     = DeviceBuffer<std::uint64_t>::from_host(plan.entry_mirror);
    shared->diagonal         = DeviceBuffer<std::uint64_t>::from_host(diagonal_new);
    panels                   = DeviceBuffer<double>(plan.value_offsets.back());
    analysis.plan_ms         = mirror_ms + ms_since(start);

    analysis.rows            = plan.num_rows;
    analysis.supernodes      = f.num_supernodes();
    analysis.levels          = f.num_levels();
    analysis.matrix_entries  = pattern.columns.size();
    analysis.factor_nonzeros = f.factor_nonzeros;
    analysis.panel_values    = f.stored_values;
    analysis.flops           = f.flops;
    analysis.solve_tasks     = plan.solve_tasks.size() / 2;
    make_solve_counters();
    analysis.device_bytes =
        shared->first_column.allocated_bytes() + shared->row_offsets.allocated_bytes() +
        shared->rows.allocated_bytes() + shared->value_offsets.allocated_bytes() +
        shared->column_supernode.allocated_bytes() + shared->level_supernodes.allocated_bytes() +
        shared->tile_start.allocated_bytes() + shared->d_new_to_old.allocated_bytes() +
        shared->entry_slot.allocated_bytes() + shared->entry_mirror.allocated_bytes() +
        shared->diagonal.allocated_bytes() + shared->solve_tasks.allocated_bytes() +
        panels.allocated_bytes() + solve_counters.allocated_bytes() + failures.allocated_bytes();
}

void CholeskySolver::Impl::make_solve_counters()
{
    solve_counters = DeviceBuffer<std::uint32_t>(std::max<std::size_t>(analysis.supernodes, 1));
    solve_counters.memset(0);
}

void CholeskySolver::Impl::throw_failures(const detail::FactorFailures& f) const
{
    constexpr unsigned long long none = ULLONG_MAX;
    if (f.not_finite != none)
        throw InvalidInputError("CholeskySolver::factor: entry " + std::to_string(f.not_finite) +
                                " of the matrix is not finite");
    if (f.not_symmetric != none)
        throw InvalidInputError("CholeskySolver::factor: the matrix is not symmetric (entry " +
                                std::to_string(f.not_symmetric) +
                                " differs from its transposed entry)");
    if (f.pivot != none)
        throw InvalidInputError(
            "CholeskySolver::factor: the matrix is not positive definite (the pivot of row " +
            std::to_string(shared->new_to_old[f.pivot]) + " is not positive, or below " +
            std::to_string(options.pivot_tolerance) + " x its diagonal entry)");
}

void CholeskySolver::Impl::factor(const double* values)
{
    factored = false;
    const detail::FactorFailures none{ULLONG_MAX, ULLONG_MAX, ULLONG_MAX};
    failures.upload(&none, 1);
    if (analysis.matrix_entries == 0) {
        factored = true;
        return;
    }
    panels.memset(0);
    detail::scatter_entries<<<blocks_for(analysis.matrix_entries), detail::kCholeskyThreads>>>(
        analysis.matrix_entries, values, shared->entry_slot.data(), shared->entry_mirror.data(),
        panels.data(), options.symmetry_tolerance, failures.data());
    RXMESH_CHECK_CUDA(cudaGetLastError());
    // the entries' checks are read with the pivots', after the factor: a
    // refused matrix's factor is wasted work, a good one's waits for no read
    const detail::PanelsView p = view();
    for (std::size_t l = 0; l + 1 < shared->level_offsets.size(); ++l) {
        const std::uint32_t  count = shared->level_offsets[l + 1] - shared->level_offsets[l];
        const std::uint32_t* level = shared->level_supernodes.data() + shared->level_offsets[l];
        detail::factor_panels<<<count, detail::kCholeskyThreads>>>(
            level, p, values, shared->diagonal.data(), options.pivot_tolerance, failures.data());
        RXMESH_CHECK_CUDA(cudaGetLastError());
        if (shared->level_tiles[l] == 0) continue;
        detail::update_ancestors<<<shared->level_tiles[l], detail::kCholeskyThreads>>>(
            level, shared->tile_start.data() + shared->level_offsets[l], count, p);
        RXMESH_CHECK_CUDA(cudaGetLastError());
    }
    throw_failures(failures.to_host()[0]);  // synchronizes
    factored = true;
}

void CholeskySolver::Impl::solve(const double* b, double* x, std::uint32_t R) const
{
    if (!factored) throw Error("CholeskySolver::solve: no factorization (call factor first)");
    if (R == 0) throw InvalidInputError("CholeskySolver::solve: 0 right-hand sides");
    const std::uint32_t n = analysis.rows;
    if (n == 0) return;
    work.resize_discard(std::size_t(n) * R);
    const unsigned permute_blocks = blocks_for(std::uint64_t(n) * R);
    detail::permute_rows<<<permute_blocks, detail::kCholeskyThreads>>>(
        n, R, shared->d_new_to_old.data(), b, work.data(), false);
    RXMESH_CHECK_CUDA(cudaGetLastError());
    for (std::uint32_t r0 = 0; r0 < R; r0 += detail::kSolveColumns)
        solve_levels(work.data(), R, r0, std::min(detail::kSolveColumns, R - r0));
    detail::permute_rows<<<permute_blocks, detail::kCholeskyThreads>>>(
        n, R, shared->d_new_to_old.data(), work.data(), x, true);
    RXMESH_CHECK_CUDA(cudaGetLastError());
    RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
}

//! Columns [r0, r0 + group) of y (rows x R): forward up the levels, then
//! backward down them, a launch per level and direction.
void CholeskySolver::Impl::solve_levels(double* y, std::uint32_t R, std::uint32_t r0,
                                        std::uint32_t group) const
{
    const detail::PanelsView p     = view();
    const auto&              plan  = *shared;
    const std::uint32_t*     tasks = plan.solve_tasks.data();
    auto launch = [&](const detail::SolveLevel& level, auto kernel) {
        if (level.tasks == 0) return;
        kernel<<<level.tasks, level.threads, detail::solve_shared_bytes(level.max_columns)>>>(
            tasks + 2 * std::size_t(level.first_task), level.chunk_rows, p, y, R, r0, group,
            solve_counters.data());
        RXMESH_CHECK_CUDA(cudaGetLastError());
    };
    for (const detail::SolveLevel& level : plan.solve_levels) launch(level, detail::forward_level);
    for (auto level = plan.solve_levels.rbegin(); level != plan.solve_levels.rend(); ++level)
        launch(*level, detail::backward_level);
}

CholeskySolver::CholeskySolver(const SparseMatrix<double>& A, const RXMesh& mesh,
                               const CholeskyOptions& options)
    : m_impl(std::make_unique<Impl>())
{
    if (mesh.num_vertices() != A.num_rows())
        throw InvalidInputError("CholeskySolver: the matrix has " + std::to_string(A.num_rows()) +
                                " rows, the mesh " + std::to_string(mesh.num_vertices()) +
                                " vertices");
    m_impl->options = options;
    m_impl->analyze(host_pattern(A), host_positions(mesh));
}

CholeskySolver::CholeskySolver(const HostCsr& pattern, const std::vector<Vec3f>& positions,
                               const CholeskyOptions& options)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->options = options;
    m_impl->analyze(pattern, positions);
}

CholeskySolver CholeskySolver::with_same_analysis() const
{
    CholeskySolver other;
    other.m_impl           = std::make_unique<Impl>();
    other.m_impl->options  = m_impl->options;
    other.m_impl->analysis = m_impl->analysis;
    other.m_impl->shared   = m_impl->shared;
    other.m_impl->panels   = DeviceBuffer<double>(m_impl->panels.size());
    other.m_impl->make_solve_counters();
    return other;
}

CholeskySolver::CholeskySolver()                                     = default;
CholeskySolver::~CholeskySolver()                                    = default;
CholeskySolver::CholeskySolver(CholeskySolver&&) noexcept            = default;
CholeskySolver& CholeskySolver::operator=(CholeskySolver&&) noexcept = default;

void CholeskySolver::factor(const SparseMatrix<double>& A)
{
    if (A.num_values() != m_impl->analysis.matrix_entries)
        throw InvalidInputError("CholeskySolver::factor: the matrix has " +
                                std::to_string(A.num_values()) + " entries, the analyzed pattern " +
                                std::to_string(m_impl->analysis.matrix_entries));
    m_impl->factor(A.values());
}

void CholeskySolver::factor(const HostCsr& A)
{
    if (A.values.size() != m_impl->analysis.matrix_entries || A.num_rows != m_impl->analysis.rows)
        throw InvalidInputError("CholeskySolver::factor: the matrix has " +
                                std::to_string(A.values.size()) + " entries and " +
                                std::to_string(A.num_rows) + " rows, the analyzed pattern " +
                                std::to_string(m_impl->analysis.matrix_entries) + " and " +
                                std::to_string(m_impl->analysis.rows));
    const DeviceBuffer<double> values = DeviceBuffer<double>::from_host(A.values);
    m_impl->factor(values.data());
}

void CholeskySolver::solve(const double* b, double* x, std::uint32_t columns) const
{
    m_impl->solve(b, x, columns);
}

std::vector<double> CholeskySolver::solve(const std::vector<double>& b, std::uint32_t columns) const
{
    if (b.size() != std::size_t(m_impl->analysis.rows) * columns)
        throw InvalidInputError("CholeskySolver::solve: " + std::to_string(b.size()) +
                                " values for " + std::to_string(m_impl->analysis.rows) +
                                " rows x " + std::to_string(columns) + " columns");
    DeviceBuffer<double> x = DeviceBuffer<double>::from_host(b);
    m_impl->solve(x.data(), x.data(), columns);
    return x.to_host();
}

const CholeskyAnalysis& CholeskySolver::analysis() const { return m_impl->analysis; }
bool                    CholeskySolver::factored() const { return m_impl->factored; }

}  // namespace rxmesh
