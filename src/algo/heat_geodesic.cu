// HeatGeodesic (algo/heat_geodesic.h): the two systems, their factors, and a
// query's four passes. Everything per vertex or per face runs on the device;
// the host sees only the sources' components and values (a few numbers).
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cub/device/device_reduce.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
#include <limits>
#include <string>
#include <utility>

#include "core/union_find.cuh"
#include "rxmesh/algo/heat_geodesic.h"
#include "rxmesh/algo/heat_underflow.h"
#include "rxmesh/core/cub_call.cuh"
#include "rxmesh/core/device_sum.cuh"
#include "rxmesh/core/gpu_timer.h"
#include "rxmesh/matrix/matrix_ops.cuh"
#include "rxmesh/matrix/mesh_operators.cuh"
#include "rxmesh/matrix/vertex_pattern.h"

namespace rxmesh {

namespace {

using Point = detail::Point3<double>;

RXMESH_HD Point cross3(const Point& a, const Point& b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
RXMESH_HD Point axpy3(double s, const Point& a, const Point& b)
{
    return {s * a.x + b.x, s * a.y + b.y, s * a.z + b.z};
}

//! The mean length of the pattern's edges (each off-diagonal pair once).
double mean_edge_length(const SparsePattern& pattern, VertexView<const float, 3> positions)
{
    const SparsePatternView p = pattern.view();
    const std::uint64_t edges = (pattern.num_blocks() - p.num_rows) / 2;  // diagonal in every row
    if (edges == 0) throw InvalidInputError("HeatGeodesic: the mesh has no edge");
    DeviceBuffer<double> row_sum(p.num_rows);
    double*              out = row_sum.data();
    detail::for_indices(
        p.num_rows,
        [=] __device__(std::uint32_t row) {
            const Point a   = detail::point_of<double>(positions, row);
            double      sum = 0;
            for (int k = p.row_offsets[row]; k < p.row_offsets[row + 1]; ++k)
                if (std::uint32_t(p.columns[k]) > row) {
                    const Point d =
                        detail::minus(detail::point_of<double>(positions, p.columns[k]), a);
                    sum += sqrt(detail::dot3(d, d));
                }
            out[row] = sum;
        },
        0);
    DeviceBuffer<double> total(1);
    detail::cub_call(0, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::Sum(tmp, bytes, out, total.data(), p.num_rows, 0);
    });
    return detail::read_back(total.data(), cudaStream_t(0)) / double(edges);
}

//! A row whose entries are all 0 (a vertex of no face of positive area)
//! gets a 1 on its diagonal and a flag: it is decoupled, and no distance
//! reaches it.
void decouple_empty_rows(SparseMatrix<double>& A, std::uint8_t* empty)
{
    const SparseMatrixView<double, 1> a = A.view();
    detail::for_indices(
        A.num_rows(),
        [=] __device__(std::uint32_t row) {
            bool zero = true;
            for (int k = a.pattern.row_offsets[row]; k < a.pattern.row_offsets[row + 1]; ++k)
                zero = zero && a.values[k] == 0.0;
            if (zero) a.at(row, row) = 1.0;
            if (empty != nullptr) empty[row] = zero ? 1 : 0;
        },
        0);
}

//! A face's gradient below this share of its terms' sizes is rounding noise
//! (u equal at its corners to ten digits, as on a face that a symmetry makes
//! a level set): its direction would be arbitrary, so X is 0 there instead.
constexpr double kFlatGradient = 1e-10;

//! X = -grad u / |grad u| on each face (0 where the face is degenerate or
//! grad u is flat, kFlatGradient); the gradient's sign and size do not
//! depend on the face's orientation (the normal and the edges' turn flip
//! together).
void unit_field(const SparsePattern& pattern, VertexView<const float, 3> positions, const double* u,
                double* X)
{
    const SparsePatternView p = pattern.view();
    detail::for_indices(
        pattern.num_faces(),
        [=] __device__(std::uint32_t f) {
            const std::uint32_t* v = p.faces + 3 * std::uint64_t(f);
            Point                c[3];
            for (int i = 0; i < 3; ++i) c[i] = detail::point_of<double>(positions, v[i]);
            Point        n  = cross3(detail::minus(c[1], c[0]), detail::minus(c[2], c[0]));
            const double a2 = sqrt(detail::dot3(n, n));  // twice the area
            Point        g{0, 0, 0};
            double       scale = 0;  // the terms' sizes: what rounding in g is relative to
            // X does not change when u is scaled: u over its largest corner
            // keeps g's square away from underflow where the heat is tiny
            const double top = fmax(fabs(u[v[0]]), fmax(fabs(u[v[1]]), fabs(u[v[2]])));
            if (a2 > 0 && top > 0) {
                n = {n.x / a2, n.y / a2, n.z / a2};
                for (int i = 0; i < 3; ++i) {  // u_i N x (the edge opposite i, in turn)
                    const Point  e  = detail::minus(c[(i + 2) % 3], c[(i + 1) % 3]);
                    const double ui = u[v[i]] / top;
                    g               = axpy3(ui, cross3(n, e), g);
                    scale += fabs(ui) * sqrt(detail::dot3(e, e));
                }
            }
            const double len = sqrt(detail::dot3(g, g));
            const double s   = len > kFlatGradient * scale && isfinite(len) ? -1.0 / len : 0.0;
            X[3 * std::uint64_t(f)]     = s * g.x;
            X[3 * std::uint64_t(f) + 1] = s * g.y;
            X[3 * std::uint64_t(f) + 2] = s * g.z;
        },
        0);
}

//! b = -div X at each vertex (the cotangent divergence, Crane et al. eq. 4:
//! 1/2 sum over faces of cot(opposite) (edge . X) for the vertex's two
//! edges), summed in ascending face id; 0 at the fixed vertices.
void negative_divergence(const SparsePattern& pattern, VertexView<const float, 3> positions,
                         const double* X, const std::uint8_t* fixed, double* b)
{
    const SparsePatternView p = pattern.view();
    detail::for_indices(
        p.num_rows,
        [=] __device__(std::uint32_t row) {
            double div = 0;
            for (int k = p.incidence_offsets[row]; k < p.incidence_offsets[row + 1]; ++k) {
                const std::uint32_t  f = p.incidences[k] >> 2, corner = p.incidences[k] & 3;
                const std::uint32_t* v  = p.faces + 3 * std::uint64_t(f);
                const Point          pi = detail::point_of<double>(positions, v[corner]);
                const Point          pj = detail::point_of<double>(positions, v[(corner + 1) % 3]);
                const Point          pk = detail::point_of<double>(positions, v[(corner + 2) % 3]);
                const Point          x{X[3 * std::uint64_t(f)], X[3 * std::uint64_t(f) + 1],
                              X[3 * std::uint64_t(f) + 2]};
                div += 0.5 * (detail::cot_at(pk, pi, pj) * detail::dot3(detail::minus(pj, pi), x) +
                              detail::cot_at(pj, pi, pk) * detail::dot3(detail::minus(pk, pi), x));
            }
            b[row] = fixed[row] != 0 ? 0.0 : -div;
        },
        0);
}

//! fixed[v] = 1 where v is its component's root.
void mark_roots(const std::uint32_t* root, std::uint32_t n, std::uint8_t* fixed)
{
    detail::for_indices(
        n, [=] __device__(std::uint32_t v) { fixed[v] = root[v] == v ? 1 : 0; }, 0);
}

//! out[i] = values[index[i]] for i < count.
void gather(const double* values, const std::uint32_t* index, std::size_t count, double* out)
{
    detail::for_indices(
        count, [=] __device__(std::uint32_t i) { out[i] = values[index[i]]; }, 0);
}

//! values[index[i]] = 1 for i < count.
void set_value(const std::uint32_t* index, std::size_t count, double value, double* values)
{
    detail::for_indices(
        count, [=] __device__(std::uint32_t i) { values[index[i]] = value; }, 0);
}

//! The index of component root c in the sorted `roots`, or -1.
RXMESH_HD int find_root(std::uint32_t c, const std::uint32_t* roots, int count)
{
    int lo = 0, hi = count;
    while (lo < hi) {  // the first root >= c
        const int mid = (lo + hi) / 2;
        if (roots[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < count && roots[lo] == c ? lo : -1;
}

//! The components that hold a source (their roots, sorted) and the share
//! of the heat below which it has lost its digits.
struct Reached
{
    const std::uint32_t* root;     // per vertex
    const std::uint8_t*  no_face;  // per vertex
    const std::uint32_t* roots;    // of the sources' components, sorted
    int                  count;

    RXMESH_HD int component(std::uint32_t v) const
    {
        return no_face[v] != 0 ? -1 : find_root(root[v], roots, count);
    }
};

//! out[v] = phi[v] - shifts[k], k v's component among the reached ones;
//! +inf where v's has no source or v has no face.
void write_shifted(const double* phi, Reached reached, const double* shifts, std::uint32_t n,
                   float* out)
{
    detail::for_indices(
        n,
        [=] __device__(std::uint32_t v) {
            const int k = reached.component(v);
            out[v]      = k >= 0 ? float(phi[v] - shifts[k]) : INFINITY;
        },
        0);
}

//! The largest heat on a reached vertex, and how many reached vertices are
//! not above kHeatFloor (underflowed, or lost their digits: their gradient
//! says nothing).
std::pair<double, std::uint32_t> heat_range(const double* u, Reached reached, std::uint32_t n)
{
    // two reductions over the vertex ids, no scratch array
    const thrust::counting_iterator<std::uint32_t> ids(0);
    DeviceBuffer<double>                           largest(1);
    detail::cub_call(0, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(
            tmp, bytes, ids, largest.data(), n, ::cuda::maximum<>{},
            [=] __device__(std::uint32_t v) -> double {
                return reached.component(v) >= 0 ? u[v] : 0.0;
            },
            0.0, 0);
    });
    DeviceBuffer<std::uint32_t> count(1);
    detail::cub_call(0, [&](void* tmp, std::size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(
            tmp, bytes, ids, count.data(), n, ::cuda::std::plus<>{},
            [=] __device__(std::uint32_t v) -> std::uint32_t {
                return reached.component(v) >= 0 && !(u[v] > kHeatFloor) ? 1u : 0u;
            },
            0u, 0);
    });
    return {detail::read_back(largest.data(), cudaStream_t(0)),
            detail::read_back(count.data(), cudaStream_t(0))};
}

double host_ms_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

}  // namespace

struct HeatGeodesic::Impl
{
    std::uint32_t                        n = 0;
    DeviceBuffer<float>                  position_copy;  // the mesh's, at construction
    VertexView<const float, 3>           positions;
    std::shared_ptr<const SparsePattern> pattern;
    std::unique_ptr<CholeskySolver>      heat, poisson;
    DeviceBuffer<std::uint32_t>          root;       // smallest vertex of each vertex's component
    DeviceBuffer<std::uint8_t>           fixed;      // root[v] == v: the Poisson system's pins
    DeviceBuffer<std::uint8_t>           no_face;    // decoupled rows: no distance
    std::vector<std::uint32_t>           host_root;  // the sources' components, on the host
    std::vector<std::uint32_t>           component_size;  // by root
    SparseMatrix<double>                 laplacian;       // L, for a heat system of a new t
    DeviceBuffer<double>                 mass;
    mutable double                       time_step  = 0;  // now: raised by queries that need it
    mutable double                       heat_scale = 1;  // the right-hand side's, likewise
    HeatGeodesicSetup                    setup;

    void find_components();
    void assemble_and_factor(const RXMesh& mesh, const HeatGeodesicOptions& options);
    SparseMatrix<double> heat_system(double t, std::uint8_t* empty_rows) const;
    //! The sorted roots of the sources' components; how many vertices they hold.
    std::vector<std::uint32_t> source_roots(const std::vector<std::uint32_t>& sources,
                                            std::uint64_t&                    vertices) const;
    //! `sources`: the query's, on the device.
    void heat_solve(const DeviceBuffer<std::uint32_t>& sources, Reached reached, double* u,
                    HeatGeodesicReport& r) const;
    void shift(const std::vector<std::uint32_t>& sources, const DeviceBuffer<std::uint32_t>& src,
               const std::vector<std::uint32_t>& roots, const double* phi, Reached reached,
               float* out) const;
};

SparseMatrix<double> HeatGeodesic::Impl::heat_system(double t, std::uint8_t* empty_rows) const
{
    SparseMatrix<double> H = laplacian.clone();
    scale(H, t);
    add_to_diagonal(H, VertexView<const double>(mass.data(), n), 1.0);
    decouple_empty_rows(H, empty_rows);
    return H;
}

void HeatGeodesic::Impl::find_components()
{
    root  = DeviceBuffer<std::uint32_t>(n);
    fixed = DeviceBuffer<std::uint8_t>(n);
    // the pattern's offsets and columns are non-negative ints: the same bits as uint32
    detail::csr_components(reinterpret_cast<const std::uint32_t*>(pattern->row_offsets()),
                           reinterpret_cast<const std::uint32_t*>(pattern->columns()), n,
                           root.data(), 0);
    mark_roots(root.data(), n, fixed.data());
    host_root = root.to_host();
    component_size.assign(n, 0);
    for (std::uint32_t c : host_root) ++component_size[c];
    setup.components = std::uint32_t(
        std::count_if(component_size.begin(), component_size.end(), [](auto s) { return s > 0; }));
}

void HeatGeodesic::Impl::assemble_and_factor(const RXMesh& mesh, const HeatGeodesicOptions& o)
{
    GpuTimer timer;
    timer.start();
    pattern                = vertex_pattern(mesh);
    setup.mean_edge_length = mean_edge_length(*pattern, positions);
    setup.time_step        = o.time_factor * setup.mean_edge_length * setup.mean_edge_length;
    if (!(setup.time_step > 0) || !std::isfinite(setup.time_step))
        throw InvalidInputError("HeatGeodesic: the time step " + std::to_string(setup.time_step) +
                                " (time_factor x mean edge length^2) is not positive and finite");
    laplacian = cotangent_laplacian<double>(pattern, positions);
    mass      = DeviceBuffer<double>(n);
    lumped_voronoi_mass<double>(*pattern, positions, VertexView<double>(mass.data(), n));
    time_step                    = setup.time_step;
    no_face                      = DeviceBuffer<std::uint8_t>(n);
    const SparseMatrix<double> H = heat_system(time_step, no_face.data());
    SparseMatrix<double>       L = laplacian.clone();
    find_components();
    DeviceBuffer<double> zeros(n);
    zeros.memset(0);
    impose_dirichlet(L, VertexView<const std::uint8_t>(fixed.data(), n),
                     VertexView<const double>(zeros.data(), n),
                     VertexView<double>(zeros.data(), n));
    decouple_empty_rows(L, nullptr);
    setup.assembly_ms = timer.stop_ms();

    const auto start = std::chrono::steady_clock::now();
    heat             = std::make_unique<CholeskySolver>(H, mesh, o.cholesky);
    poisson          = std::make_unique<CholeskySolver>(heat->with_same_analysis());  // one pattern
    setup.analysis_ms = host_ms_since(start);
    timer.start();
    heat->factor(H);
    poisson->factor(L);
    setup.factor_ms = timer.stop_ms();
    setup.analysis  = heat->analysis();
}

std::vector<std::uint32_t> HeatGeodesic::Impl::source_roots(
    const std::vector<std::uint32_t>& sources, std::uint64_t& vertices) const
{
    std::vector<std::uint32_t> roots;
    for (std::uint32_t s : sources) roots.push_back(host_root[s]);
    std::sort(roots.begin(), roots.end());
    roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
    vertices = 0;
    for (std::uint32_t c : roots) vertices += component_size[c];
    return roots;
}

void HeatGeodesic::Impl::heat_solve(const DeviceBuffer<std::uint32_t>& sources, Reached reached,
                                    double* u, HeatGeodesicReport& r) const
{
    for (std::uint32_t pass = 0; pass < kMaxHeatPasses; ++pass) {
        RXMESH_CHECK_CUDA(cudaMemset(u, 0, sizeof(double) * n));
        set_value(sources.data(), sources.size(), heat_scale, u);
        heat->solve(u, u, 1);
        const auto [largest, low] = heat_range(u, reached, n);
        r.low_heat_vertices       = low;
        const HeatStep step       = next_heat_step(largest, low, r.time_step_raises);
        if (step == HeatStep::done) break;
        if (step == HeatStep::rescale) {  // kept, like t: the next query starts from it
            heat_scale = rescaled_heat(heat_scale, largest);
            ++r.heat_rescales;
            continue;
        }
        time_step *= kTimeStepRaise;
        heat->factor(heat_system(time_step, nullptr));
        ++r.time_step_raises;
    }
    r.heat_scale = heat_scale;
    r.time_step  = time_step;
}

void HeatGeodesic::Impl::shift(const std::vector<std::uint32_t>&  sources,
                               const DeviceBuffer<std::uint32_t>& src,
                               const std::vector<std::uint32_t>& roots, const double* phi,
                               Reached reached, float* out) const
{
    // the smallest phi among each component's sources, in the order of the roots
    DeviceBuffer<double> at(sources.size());
    gather(phi, src.data(), sources.size(), at.data());
    const std::vector<double> values = at.to_host();
    std::vector<double>       shifts(roots.size(), std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const int k = find_root(host_root[sources[i]], roots.data(), int(roots.size()));
        shifts[k]   = std::min(shifts[k], values[i]);
    }
    const DeviceBuffer<double> dshifts = DeviceBuffer<double>::from_host(shifts);
    write_shifted(phi, reached, dshifts.data(), n, out);
}

HeatGeodesic::HeatGeodesic(const RXMesh& mesh, const HeatGeodesicOptions& options)
    : m_impl(std::make_unique<Impl>())
{
    if (!(options.time_factor > 0) || !std::isfinite(options.time_factor))
        throw InvalidInputError("HeatGeodesic: time_factor must be > 0 and finite, not " +
                                std::to_string(options.time_factor));
    m_impl->n = mesh.num_vertices();
    // a copy: a query must not read a mesh that was destroyed or moved since
    const VertexView<const float, 3> p = mesh.positions();
    m_impl->position_copy              = DeviceBuffer<float>(3 * std::uint64_t(m_impl->n));
    if (m_impl->n != 0)
        RXMESH_CHECK_CUDA(cudaMemcpy(m_impl->position_copy.data(), p.data(),
                                     m_impl->position_copy.bytes(), cudaMemcpyDeviceToDevice));
    m_impl->positions = VertexView<const float, 3>(m_impl->position_copy.data(), m_impl->n);
    m_impl->assemble_and_factor(mesh, options);
}

HeatGeodesic::~HeatGeodesic()                                  = default;
HeatGeodesic::HeatGeodesic(HeatGeodesic&&) noexcept            = default;
HeatGeodesic& HeatGeodesic::operator=(HeatGeodesic&&) noexcept = default;

const HeatGeodesicSetup& HeatGeodesic::setup() const { return m_impl->setup; }

HeatGeodesicReport HeatGeodesic::distance(const std::vector<std::uint32_t>& sources,
                                          VertexView<float>                 distance) const
{
    const Impl& m = *m_impl;
    if (sources.empty()) throw InvalidInputError("HeatGeodesic::distance: no source vertex");
    for (std::uint32_t s : sources)
        if (s >= m.n)
            throw InvalidInputError("HeatGeodesic::distance: source " + std::to_string(s) +
                                    " is out of range (the mesh has " + std::to_string(m.n) +
                                    " vertices)");
    if (distance.num_elements() != m.n)
        throw Error("HeatGeodesic::distance: the output holds " +
                    std::to_string(distance.num_elements()) + " values for " + std::to_string(m.n) +
                    " vertices");
    HeatGeodesicReport r;
    GpuTimer           timer, total;
    total.start();
    timer.start();
    DeviceBuffer<double>             u(m.n), phi(m.n), X(3 * std::uint64_t(m.pattern->num_faces()));
    std::uint64_t                    reached_vertices = 0;
    const std::vector<std::uint32_t> roots            = m.source_roots(sources, reached_vertices);
    const DeviceBuffer<std::uint32_t> droots = DeviceBuffer<std::uint32_t>::from_host(roots);
    const Reached reached{m.root.data(), m.no_face.data(), droots.data(), int(roots.size())};
    r.unreachable                         = std::uint32_t(m.n - reached_vertices);
    const DeviceBuffer<std::uint32_t> src = DeviceBuffer<std::uint32_t>::from_host(sources);
    m.heat_solve(src, reached, u.data(), r);
    r.heat_solve_ms = timer.stop_ms();
    timer.start();
    unit_field(*m.pattern, m.positions, u.data(), X.data());
    negative_divergence(*m.pattern, m.positions, X.data(), m.fixed.data(), phi.data());
    r.field_ms = timer.stop_ms();
    timer.start();
    m.poisson->solve(phi.data(), phi.data(), 1);
    r.poisson_solve_ms = timer.stop_ms();
    timer.start();
    m.shift(sources, src, roots, phi.data(), reached, distance.data());
    r.shift_ms = timer.stop_ms();
    r.total_ms = total.stop_ms();
    return r;
}

}  // namespace rxmesh
