// HeatGeodesic (algo/heat_geodesic.h): the two systems, their factors, and a
// query's four passes. Everything per vertex or per face runs on the device;
// the host sees only the sources' components and values (a few numbers).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cub/device/device_reduce.cuh>
#include <limits>
#include <string>

#include "core/union_find.cuh"
#include "rxmesh/algo/heat_geodesic.h"
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
            if (a2 > 0) {
                n = {n.x / a2, n.y / a2, n.z / a2};
                for (int i = 0; i < 3; ++i) {  // u_i N x (the edge opposite i, in turn)
                    const Point e = detail::minus(c[(i + 2) % 3], c[(i + 1) % 3]);
                    g             = axpy3(u[v[i]], cross3(n, e), g);
                    scale += fabs(u[v[i]]) * sqrt(detail::dot3(e, e));
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
void set_ones(const std::uint32_t* index, std::size_t count, double* values)
{
    detail::for_indices(
        count, [=] __device__(std::uint32_t i) { values[index[i]] = 1.0; }, 0);
}

//! out[v] = phi[v] - shifts[k] where roots[k] == root[v] (sorted roots),
//! +inf where no root matches or v has no face.
void write_shifted(const double* phi, const std::uint32_t* root, const std::uint8_t* no_face,
                   const std::uint32_t* roots, const double* shifts, int count, std::uint32_t n,
                   float* out)
{
    detail::for_indices(
        n,
        [=] __device__(std::uint32_t v) {
            const std::uint32_t c  = root[v];
            int                 lo = 0, hi = count;
            while (lo < hi) {  // the first root >= c
                const int mid = (lo + hi) / 2;
                if (roots[mid] < c)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            const bool reached = lo < count && roots[lo] == c && no_face[v] == 0;
            out[v]             = reached ? float(phi[v] - shifts[lo]) : INFINITY;
        },
        0);
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
    HeatGeodesicSetup                    setup;

    void find_components();
    void assemble_and_factor(const RXMesh& mesh, const HeatGeodesicOptions& options);
    void shift(const std::vector<std::uint32_t>& sources, const double* phi, float* out,
               HeatGeodesicReport& r) const;
};

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
    SparseMatrix<double> L = cotangent_laplacian<double>(pattern, positions);
    DeviceBuffer<double> mass(n);
    lumped_voronoi_mass<double>(*pattern, positions, VertexView<double>(mass.data(), n));
    SparseMatrix<double> H = L.clone();
    scale(H, setup.time_step);
    add_to_diagonal(H, VertexView<const double>(mass.data(), n), 1.0);
    no_face = DeviceBuffer<std::uint8_t>(n);
    decouple_empty_rows(H, no_face.data());
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

void HeatGeodesic::Impl::shift(const std::vector<std::uint32_t>& sources, const double* phi,
                               float* out, HeatGeodesicReport& r) const
{
    // the smallest phi among each component's sources
    DeviceBuffer<std::uint32_t> src = DeviceBuffer<std::uint32_t>::from_host(sources);
    DeviceBuffer<double>        at(sources.size());
    gather(phi, src.data(), sources.size(), at.data());
    const std::vector<double>                     values = at.to_host();
    std::vector<std::pair<std::uint32_t, double>> lowest;  // (root, phi), sorted by root
    for (std::size_t i = 0; i < sources.size(); ++i)
        lowest.emplace_back(host_root[sources[i]], values[i]);
    std::sort(lowest.begin(), lowest.end());
    std::vector<std::uint32_t> roots;
    std::vector<double>        shifts;
    std::uint64_t              reached = 0;
    for (const auto& [c, v] : lowest)
        if (roots.empty() || roots.back() != c) {  // the first of a root is its smallest phi
            roots.push_back(c);
            shifts.push_back(v);
            reached += component_size[c];
        }
    r.unreachable                             = std::uint32_t(n - reached);
    const DeviceBuffer<std::uint32_t> droots  = DeviceBuffer<std::uint32_t>::from_host(roots);
    const DeviceBuffer<double>        dshifts = DeviceBuffer<double>::from_host(shifts);
    write_shifted(phi, root.data(), no_face.data(), droots.data(), dshifts.data(),
                  int(roots.size()), n, out);
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
    DeviceBuffer<double>        u(m.n), phi(m.n), X(3 * std::uint64_t(m.pattern->num_faces()));
    DeviceBuffer<std::uint32_t> src = DeviceBuffer<std::uint32_t>::from_host(sources);
    u.memset(0);
    set_ones(src.data(), sources.size(), u.data());
    m.heat->solve(u.data(), u.data(), 1);
    r.heat_solve_ms = timer.stop_ms();
    timer.start();
    unit_field(*m.pattern, m.positions, u.data(), X.data());
    negative_divergence(*m.pattern, m.positions, X.data(), m.fixed.data(), phi.data());
    r.field_ms = timer.stop_ms();
    timer.start();
    m.poisson->solve(phi.data(), phi.data(), 1);
    r.poisson_solve_ms = timer.stop_ms();
    timer.start();
    m.shift(sources, phi.data(), distance.data(), r);
    r.shift_ms = timer.stop_ms();
    r.total_ms = total.stop_ms();
    return r;
}

}  // namespace rxmesh
