// Mean curvature flow (algo/mcf.cuh, solver/cg.cuh) against the serial double
// reference (reference/mcf.h) and, for whole solves, Eigen's sparse LDLT:
// edge weights, mixed areas and the operator entry by entry, the operator's
// symmetry, mutated operators that these checks must reject, and converged
// CG within 1e-4 of the bounding-box diagonal, on generated meshes of every
// kind and on real ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test.h"
#include "mesh_faces.h"
#include "mesh_families.h"
#include "random_values.h"
#include "rxmesh/algo/mcf.cuh"
#include "rxmesh/io/bounding_box.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/reference/mcf.h"
#include "rxmesh/rxmesh.cuh"
#include "test_data.h"
#if RXMESH_HAVE_EIGEN
#include "eigen_mcf.h"
#endif

namespace mcf_test {

using namespace rxmesh;

//! A mesh as the reference sees it: the RXMesh's global numbering.
struct HostMesh
{
    std::vector<Vec3f>    positions;
    std::vector<Triangle> faces;
};

HostMesh host_mesh(const RXMesh& mesh)
{
    HostMesh   h;
    const auto p = to_host(mesh.positions().view());
    h.positions.resize(mesh.num_vertices());
    std::memcpy(h.positions.data(), p.data(), p.size() * sizeof(float));
    h.faces = test::faces_of(mesh);
    return h;
}

//! The GPU's edges: global edge id -> (smaller, larger) vertex.
std::vector<std::array<std::uint32_t, 2>> gpu_edges(const RXMesh& mesh)
{
    DeviceBuffer<std::uint32_t> ev(2 * std::size_t(mesh.num_edges()));
    mesh.for_each<Op::EV>(mcf::StoreEdgeVertices{ev.data()});
    const auto                                 flat = ev.to_host();
    std::vector<std::array<std::uint32_t, 2>> out(mesh.num_edges());
    for (std::size_t e = 0; e < out.size(); ++e)
        out[e] = {std::min(flat[2 * e], flat[2 * e + 1]), std::max(flat[2 * e], flat[2 * e + 1])};
    return out;
}

//! Reference weight of each GPU edge (the edge sets must be the same).
std::vector<double> reference_weights_by_gpu_edge(const RXMesh& mesh, const reference::McfSystem& s)
{
    std::map<std::array<std::uint32_t, 2>, double> by_pair;
    for (std::size_t e = 0; e < s.edges.size(); ++e)
        by_pair[s.edges[e]] = s.weight[e];
    const auto          edges = gpu_edges(mesh);
    std::vector<double> out;
    EXPECT_EQ(edges.size(), s.edges.size());
    for (const auto& e : edges) {
        const auto it = by_pair.find(e);
        EXPECT_NE(it, by_pair.end()) << "GPU edge " << e[0] << "-" << e[1] << " not in the reference";
        out.push_back(it == by_pair.end() ? 0.0 : it->second);
    }
    return out;
}

//! Float evaluation error bound of a cotangent sum of magnitude |w|: the
//! cross product's cancellation grows like 1 / sin(angle) ~ |cot|.
double weight_tolerance(double w) { return 1e-5 * (1 + std::abs(w)) * (1 + std::abs(w)); }

//! A grid with a zero-area triangle glued to one of its boundary edges.
TriangleSoup grid_with_zero_area_triangle()
{
    TriangleSoup s = generate::grid(4, 3);  // vertex (i, j) = j * 5 + i; y = 0 is a boundary row
    const Vec3f a = s.positions[0], b = s.positions[1];
    s.positions.push_back({(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2});
    s.faces.push_back({1, 0, std::uint32_t(s.positions.size() - 1)});
    return s;
}

test::NamedMeshes generated_meshes()
{
    test::NamedMeshes meshes = test::noisy_families(3, {24, 12}, {12, 9}, {16, 6});
    meshes.push_back({"zero-area triangle", grid_with_zero_area_triangle()});
    return meshes;
}

BuildOptions with_capacity(std::uint32_t faces_per_patch)
{
    BuildOptions o;
    o.patcher.capacity = faces_per_patch;
    return o;
}

//! Small patches so that every mesh spans several (ribbons exercised).
BuildOptions small_patches() { return with_capacity(64); }

//! A mesh at one patch capacity with the reference's and the GPU's MCF
//! systems (cotangent weights).
struct SystemAt
{
    SystemAt(const TriangleSoup& soup, std::uint32_t capacity)
        : mesh(soup, with_capacity(capacity)),
          h(host_mesh(mesh)),
          ref(reference::mcf_system(h.positions, h.faces, false)),
          s(mcf_system(mesh, mesh.positions(), false))
    {
    }
    RXMesh               mesh;
    HostMesh             h;
    reference::McfSystem ref;
    McfSystem            s;
};

void expect_weights_and_areas(const RXMesh& mesh, bool uniform, const std::string& name)
{
    const HostMesh                h   = host_mesh(mesh);
    const reference::McfSystem    ref = reference::mcf_system(h.positions, h.faces, uniform);
    const McfSystem               s   = mcf_system(mesh, mesh.positions(), uniform);
    const std::vector<float>      w = s.w.to_host(), a = s.a.to_host();
    const std::vector<double>     rw = reference_weights_by_gpu_edge(mesh, ref);
    for (std::size_t e = 0; e < rw.size(); ++e)
        ASSERT_NEAR(w[e], rw[e], weight_tolerance(rw[e])) << name << ": edge " << e;
    double total = 0;
    for (double x : ref.area)
        total += x;
    const double area_tol = 1e-5 * std::max(total / std::max<std::size_t>(ref.area.size(), 1), 1e-30);
    for (std::size_t v = 0; v < a.size(); ++v)
        ASSERT_NEAR(a[v], ref.area[v], area_tol + 1e-5 * ref.area[v]) << name << ": vertex " << v;
}

TEST(GpuMcf, WeightsAndAreasMatchReference)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& m : generated_meshes()) {
        const RXMesh mesh(m.soup, small_patches());
        expect_weights_and_areas(mesh, false, m.name);
        expect_weights_and_areas(mesh, true, m.name + " (uniform)");
    }
}

//! x: random values in [-1, 1], 3 per vertex.
std::vector<float> random_vector(std::size_t n, unsigned seed)
{
    return test::random_values<float>(n, seed);
}

std::vector<float> gpu_apply(const RXMesh& mesh, const McfSystem& s, float dt,
                             const std::vector<float>& x)
{
    const auto          dx = DeviceBuffer<float>::from_host(x);
    DeviceBuffer<float> dy(x.size());
    mcf_apply(mesh, s, dt, {dx.data(), mesh.num_vertices()}, {dy.data(), mesh.num_vertices()});
    return dy.to_host();
}

//! max |y - y_ref| over max(1, the row's absolute scale): 0 for a match.
double apply_error(const reference::McfSystem& ref, double dt, const std::vector<float>& x,
                   const std::vector<float>& y)
{
    const std::vector<double> xd(x.begin(), x.end());
    const std::vector<double> yr = reference::mcf_apply(ref, dt, xd);
    std::vector<double>       scale(ref.area.size(), 0);  // sum |A_ij| per row
    for (std::size_t v = 0; v < scale.size(); ++v)
        scale[v] = 2 * ref.area[v];
    for (std::size_t e = 0; e < ref.edges.size(); ++e)
        for (int k = 0; k < 2; ++k)
            scale[ref.edges[e][k]] += 2 * dt * ref.weight[e];
    double worst = 0;
    for (std::size_t i = 0; i < yr.size(); ++i)
        worst = std::max(worst, std::abs(double(y[i]) - yr[i]) / std::max(scale[i / 3], 1e-30));
    return worst;
}

//! The same product through the operator cached per patch
//! (solver/patch_laplacian.cuh).
std::vector<float> gpu_apply_cached(const RXMesh& mesh, const McfSystem& s, float dt,
                                    const std::vector<float>& x)
{
    const auto           dx = DeviceBuffer<float>::from_host(x);
    DeviceBuffer<float>  dy(x.size());
    const PatchLaplacian lap(mesh, {s.w.data(), mesh.num_edges()}, dt);
    apply_cached<3>(mesh, lap, {s.a.data(), mesh.num_vertices()}, 2.f,
                    {dx.data(), mesh.num_vertices()}, {dy.data(), mesh.num_vertices()});
    return dy.to_host();
}

TEST(GpuMcf, CachedOperatorMatchesReferenceEntryByEntry)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& m : generated_meshes())
        for (std::uint32_t capacity : {64u, 512u}) {
            const SystemAt sys(m.soup, capacity);
            const RXMesh&  mesh = sys.mesh;
            const auto&    ref  = sys.ref;
            const auto&    s    = sys.s;
            const auto  x  = random_vector(3 * std::size_t(mesh.num_vertices()), 11);
            const float dt = 0.37f;
            const auto  y  = gpu_apply_cached(mesh, s, dt, x);
            EXPECT_LT(apply_error(ref, dt, x, y), 1e-4) << m.name << ", capacity " << capacity;
            EXPECT_GT(apply_error(ref, dt, x, gpu_apply_cached(mesh, s, -dt, x)), 1e-3) << m.name;
            // the same sums in every run (rows sorted by neighbour)
            EXPECT_EQ(gpu_apply_cached(mesh, s, dt, x), y) << m.name;
        }
}

TEST(GpuMcf, OperatorMatchesReferenceEntryByEntry)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& m : generated_meshes()) {
        const RXMesh               mesh(m.soup, small_patches());
        const HostMesh             h   = host_mesh(mesh);
        const reference::McfSystem ref = reference::mcf_system(h.positions, h.faces, false);
        const McfSystem            s   = mcf_system(mesh, mesh.positions(), false);
        const auto                 x   = random_vector(3 * std::size_t(mesh.num_vertices()), 11);
        const float                dt  = 0.37f;
        EXPECT_LT(apply_error(ref, dt, x, gpu_apply(mesh, s, dt, x)), 1e-4) << m.name;
        // mutations the comparison must catch: a flipped sign of L, and the
        // boundary (one-face) edges' terms dropped
        EXPECT_GT(apply_error(ref, dt, x, gpu_apply(mesh, s, -dt, x)), 1e-3) << m.name;
    }
}

TEST(GpuMcf, DroppedBoundaryTermsAreCaught)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh               mesh(generate::noisy(generate::grid(10, 7), 0.1f, 2), small_patches());
    const HostMesh             h   = host_mesh(mesh);
    const reference::McfSystem ref = reference::mcf_system(h.positions, h.faces, false);
    McfSystem                  s   = mcf_system(mesh, mesh.positions(), false);
    auto                       w   = s.w.to_host();
    const auto                 eb  = mesh.boundary_edges();
    eb.to_host();
    for (std::uint32_t e = 0; e < mesh.num_edges(); ++e)
        if (eb.host(EdgeId(e)))
            w[e] = 0.f;
    s.w.upload(w.data(), w.size());
    const auto x = random_vector(3 * std::size_t(mesh.num_vertices()), 4);
    EXPECT_GT(apply_error(ref, 0.5, x, gpu_apply(mesh, s, 0.5f, x)), 1e-3);
}

double dot(const std::vector<float>& a, const std::vector<float>& b)
{
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += double(a[i]) * b[i];
    return s;
}

TEST(GpuMcf, OperatorIsSymmetric)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& m : generated_meshes()) {
        const RXMesh    mesh(m.soup, small_patches());
        const McfSystem s = mcf_system(mesh, mesh.positions(), false);
        const auto x = random_vector(3 * std::size_t(mesh.num_vertices()), 1);
        const auto y = random_vector(3 * std::size_t(mesh.num_vertices()), 2);
        const auto ax = gpu_apply(mesh, s, 0.8f, x), ay = gpu_apply(mesh, s, 0.8f, y);
        const double xay = dot(x, ay), yax = dot(y, ax);
        const double scale = std::sqrt(dot(ax, ax) * dot(y, y)) + std::sqrt(dot(ay, ay) * dot(x, x));
        EXPECT_LE(std::abs(xay - yax), 1e-5 * scale) << m.name;
    }
}

//! A mutation the symmetry check must catch: edge terms weighted by one
//! end only (w scaled by 2 at the edge's second vertex).
struct LopsidedOperator
{
    mcf::McfOperator op;
    __device__ void operator()(EdgeId e, const RowView<VertexId>& ev, const StagedRow<float, 3>& x,
                               const VertexSums<float, 3>& sums) const
    {
        const float we = op.dt * op.w[e.id()] * (sums.owns(1) ? 2.f : 1.f);
        for (int k = 0; k < 2; ++k)
            if (sums.owns(k)) {
                const float t[3] = {we * (x(k, 0) - x(1 - k, 0)), we * (x(k, 1) - x(1 - k, 1)),
                                    we * (x(k, 2) - x(1 - k, 2))};
                sums.add(k, t);
            }
    }
};

TEST(GpuMcf, LopsidedOperatorFailsSymmetry)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const RXMesh    mesh(generate::noisy(generate::icosphere(3), 0.2f, 3), small_patches());
    const McfSystem s = mcf_system(mesh, mesh.positions(), false);
    const mcf::McfOperator op = s.op(mesh, 0.8f);
    auto apply = [&](const std::vector<float>& x) {
        const auto          dx = DeviceBuffer<float>::from_host(x);
        DeviceBuffer<float> dy(x.size());
        const VertexView<const float, 3> vx(dx.data(), mesh.num_vertices());
        const VertexView<float, 3>       vy(dy.data(), mesh.num_vertices());
        mesh.accumulate<Op::EV, float, 3>(VertexInput<float, 3>{dx.data()}, LopsidedOperator{op},
                                          mcf::StoreProduct{op, vx, vy, 1.f});
        return dy.to_host();
    };
    const auto x = random_vector(3 * std::size_t(mesh.num_vertices()), 1);
    const auto y = random_vector(3 * std::size_t(mesh.num_vertices()), 2);
    const auto ax = apply(x), ay = apply(y);
    const double scale = std::sqrt(dot(ax, ax) * dot(y, y)) + std::sqrt(dot(ay, ay) * dot(x, x));
    EXPECT_GT(std::abs(dot(x, ay) - dot(y, ax)), 1e-3 * scale);
}

//! One MCF step on the GPU against the double reference system: how far
//! the result is from Eigen's LDLT solution, its true residual, and the
//! bound on that distance which the residual proves, all over the
//! bounding-box diagonal.
struct SolveCheck
{
    double                 error = 0;  // max |x_gpu - x_ldlt| / bbox diagonal
    double                 proven_bound = 0;  // |r_true| / lambda_min lower bound, / bbox
    reference::McfResidual residual;
    int                    iterations = 0;
    bool                   converged  = false;
};

constexpr double kSolveTolerance = 1e-6;

SolveCheck check_solve(const TriangleSoup& soup, bool uniform, double relative_dt,
                       McfSolver solver = McfSolver::cg)
{
    const RXMesh        mesh(soup, small_patches());
    const HostMesh      h = host_mesh(mesh);
    DeviceBuffer<float> x(3 * std::size_t(mesh.num_vertices()));
    McfOptions o;
    o.uniform           = uniform;
    o.relative_dt       = float(relative_dt);
    o.cg.tolerance      = kSolveTolerance;
    o.cg.max_iterations = 20000;
    o.solver            = solver;
    const McfReport rep =
        mean_curvature_flow(mesh, mesh.positions(), {x.data(), mesh.num_vertices()}, o);
    SolveCheck      c;
    c.iterations = rep.iterations;
    c.converged  = rep.converged;
    const reference::McfSystem ref = reference::mcf_system(h.positions, h.faces, uniform);
    const std::vector<double>  want = test::eigen_mcf_step(ref, rep.dt, h.positions);
    const std::vector<float>   got  = x.to_host();
    std::vector<double>        x0(3 * h.positions.size());
    double                     a_min = 1e300;  // lambda_min(A) >= 2 min a over the solved rows
    for (std::size_t v = 0; v < h.positions.size(); ++v) {
        for (int d = 0; d < 3; ++d)
            x0[3 * v + d] = h.positions[v][d];
        if (ref.area[v] > 0)
            a_min = std::min(a_min, ref.area[v]);
    }
    for (std::size_t i = 0; i < got.size(); ++i)
        c.error = std::max(c.error, std::abs(double(got[i]) - want[i]));
    const double bbox = bounding_box_diagonal(h.positions);
    c.error /= bbox;
    c.residual     = reference::mcf_residual(ref, rep.dt, x0, std::vector<double>(got.begin(), got.end()));
    c.proven_bound = c.residual.residual / (2 * a_min) / bbox;
    return c;
}

//! One MCF step's CG on the cached operator with the given loop: the
//! solution solves the reference system to the tolerance.
struct LoopRun
{
    CgReport           report;
    std::vector<float> x, r;
};

double norm_of(const std::vector<float>& v)
{
    double s = 0;
    for (float f : v) s += double(f) * f;
    return std::sqrt(s);
}

template <int BlockThreads = 128, int MinBlocks = 0>
LoopRun solve_with_loop(const RXMesh& mesh, const McfSystem& s, float dt, CgLoop loop)
{
    const std::size_t   n = 3 * std::size_t(mesh.num_vertices());
    DeviceBuffer<float> x(n), r(n);
    const VertexView<float, 3> xv(x.data(), mesh.num_vertices()), rv(r.data(), mesh.num_vertices());
    copy(xv, mesh.positions());
    mcf_apply(mesh, s, dt, xv, rv, false, -1.f);  // r0 = -dt L x0
    const PatchLaplacian lap(mesh, {s.w.data(), mesh.num_edges()}, dt);
    CgOptions            o;
    o.tolerance      = kSolveTolerance;
    o.max_iterations = 20000;
    LoopRun run;
    run.report = cg_solve_cached<3, BlockThreads, MinBlocks>(
        mesh, lap, {s.a.data(), mesh.num_vertices()}, 2.f, xv, rv, o, 0, loop);
    run.x      = x.to_host();
    run.r      = r.to_host();
    return run;
}

TEST(GpuMcf, EveryLoopSolvesTheReferenceSystem)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const CgLoop loops[] = {CgLoop::Launches, CgLoop::Persistent, CgLoop::SinglePass};
    const char*  names[] = {"launches", "persistent", "single pass"};
    for (const auto& m : generated_meshes())
        for (std::uint32_t capacity : {64u, 512u}) {
            SCOPED_TRACE(m.name + ", capacity " + std::to_string(capacity));
            const SystemAt      sys(m.soup, capacity);
            const float         dt = 0.37f;
            std::vector<double> x0;
            for (const auto& p : sys.h.positions) x0.insert(x0.end(), p.begin(), p.end());
            LoopRun runs[3];
            for (int l = 0; l < 3; ++l) {
                SCOPED_TRACE(names[l]);
                runs[l] = solve_with_loop(sys.mesh, sys.s, dt, loops[l]);
                const LoopRun& run = runs[l];
                EXPECT_TRUE(run.report.converged) << run.report.iterations << " iterations";
                const reference::McfResidual res = reference::mcf_residual(
                    sys.ref, dt, x0, std::vector<double>(run.x.begin(), run.x.end()));
                EXPECT_TRUE(res.within(kSolveTolerance, run.report.iterations))
                    << "residual " << res.residual << ", initial " << res.initial;
                // the reported residual is the norm of the returned r
                const double r_norm = norm_of(run.r);
                EXPECT_NEAR(run.report.final_residual, r_norm, 1e-6 * r_norm + 1e-30);
                EXPECT_LE(run.report.final_residual,
                          kSolveTolerance * run.report.initial_residual * (1 + 1e-3));
            }
            // the same iteration in all (sums differ only in block order and,
            // in the single pass, in how r.r is formed)
            EXPECT_NEAR(runs[0].report.iterations, runs[1].report.iterations, 2);
            EXPECT_NEAR(runs[0].report.iterations, runs[2].report.iterations, 2);
        }
}

//! The solution of `run` solves the reference system to the tolerance.
void expect_solves(const SystemAt& sys, float dt, const LoopRun& run)
{
    std::vector<double> x0;
    for (const auto& p : sys.h.positions) x0.insert(x0.end(), p.begin(), p.end());
    EXPECT_TRUE(run.report.converged) << run.report.iterations << " iterations";
    const reference::McfResidual res = reference::mcf_residual(
        sys.ref, dt, x0, std::vector<double>(run.x.begin(), run.x.end()));
    EXPECT_TRUE(res.within(kSolveTolerance, run.report.iterations))
        << "residual " << res.residual << ", initial " << res.initial;
}

// The two-pass loops with their registers capped (full occupancy: 32
// registers, a few spilled), as bench_mcf sweeps them.
TEST(GpuMcf, RegisterCappedLoopsSolveTheReferenceSystem)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    for (const auto& m : generated_meshes())
        for (std::uint32_t capacity : {64u, 512u}) {
            SCOPED_TRACE(m.name + ", capacity " + std::to_string(capacity));
            const SystemAt sys(m.soup, capacity);
            const float    dt = 0.37f;
            for (CgLoop loop : {CgLoop::Launches, CgLoop::Persistent}) {
                SCOPED_TRACE(loop == CgLoop::Launches ? "launches" : "persistent");
                expect_solves(sys, dt, solve_with_loop<128, 16>(sys.mesh, sys.s, dt, loop));
                expect_solves(sys, dt, solve_with_loop<256, 8>(sys.mesh, sys.s, dt, loop));
            }
        }
}

// Also the compute-sanitizer runs' case of the three loops (small patches,
// so that blocks loop over several patches and meet at grid barriers).
TEST(GpuMcf, EveryLoopStopsAtTheIterationLimit)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const CgLoop loops[] = {CgLoop::Launches, CgLoop::Persistent, CgLoop::SinglePass};
    const char*  names[] = {"launches", "persistent", "single pass"};
    // a limit of 0 iterations leaves x alone; a limit of k stops at k
    const RXMesh    mesh(generated_meshes().front().soup, small_patches());
    const McfSystem s = mcf_system(mesh, mesh.positions(), false);
    for (int limit : {0, 1, 2, 5}) {
        std::vector<float> xs[3];
        for (int l = 0; l < 3; ++l) {
            SCOPED_TRACE(std::string(names[l]) + ", limit " + std::to_string(limit));
            const std::size_t   n = 3 * std::size_t(mesh.num_vertices());
            DeviceBuffer<float> x(n), r(n);
            const VertexView<float, 3> xv(x.data(), mesh.num_vertices()),
                rv(r.data(), mesh.num_vertices());
            copy(xv, mesh.positions());
            mcf_apply(mesh, s, 0.37f, xv, rv, false, -1.f);
            const PatchLaplacian lap(mesh, {s.w.data(), mesh.num_edges()}, 0.37f);
            CgOptions            o;
            o.max_iterations = limit;
            o.tolerance      = 1e-30;
            const CgReport rep = cg_solve_cached<3>(mesh, lap, {s.a.data(), mesh.num_vertices()},
                                                    2.f, xv, rv, o, 0, loops[l]);
            EXPECT_EQ(rep.iterations, limit);
            EXPECT_FALSE(rep.converged);
            xs[l] = x.to_host();
            if (limit == 0) EXPECT_EQ(xs[l], to_host(mesh.positions().view()));
            else EXPECT_NE(xs[l], to_host(mesh.positions().view()));
        }
        // after the same k iterations every form holds the same iterate (up
        // to float rounding): the one-launch loops' deferred x updates and
        // pass-combined updates end where the textbook launches end
        const std::vector<float> x0   = to_host(mesh.positions().view());
        double                   move = 0;
        for (std::size_t i = 0; i < x0.size(); ++i)
            move = std::max(move, std::abs(double(xs[0][i]) - x0[i]));
        for (int l = 1; l < 3; ++l) {
            double diff = 0;
            for (std::size_t i = 0; i < x0.size(); ++i)
                diff = std::max(diff, std::abs(double(xs[l][i]) - xs[0][i]));
            EXPECT_LE(diff, 1e-3 * move + 1e-7)
                << names[l] << " after " << limit << " iterations; launches moved x by " << move;
        }
    }
}

TEST(GpuMcf, ConvergedCgMatchesEigenOnGeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
#if !RXMESH_HAVE_EIGEN
    GTEST_SKIP() << "Eigen3 not found: no independent direct solver to compare with";
#else
    for (const auto& m : generated_meshes())
        for (bool uniform : {false, true}) {
            SCOPED_TRACE(m.name + (uniform ? " (uniform)" : ""));
            const SolveCheck c = check_solve(m.soup, uniform, 10.0);
            EXPECT_TRUE(c.converged) << c.iterations << " iterations";
            EXPECT_TRUE(c.residual.within(kSolveTolerance, c.iterations))
                << "true residual " << c.residual.residual << ", initial " << c.residual.initial;
            EXPECT_LE(c.error, 1e-4) << c.iterations << " iterations";
        }
#endif
}

//! Real meshes: the GPU's result must solve the reference system (true
//! residual within the CG tolerance) and be within 1e-4 of the bbox
//! diagonal of Eigen's solution, or, on meshes so ill-conditioned (sliver
//! triangles: weights up to 1e6 and more) that no CG stopped at a relative
//! residual of 1e-6 gets there, in double precision either, within the
//! distance |r| / lambda_min that its residual proves.
TEST(GpuMcf, ConvergedCgMatchesEigenOnRealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
#if !RXMESH_HAVE_EIGEN
    GTEST_SKIP() << "Eigen3 not found: no independent direct solver to compare with";
#else
    const auto files = test::cgal_mesh_files({".off"});
    if (files.empty())
        GTEST_SKIP() << "libcgal-demo meshes not installed";
    int within_1e4 = 0;
    // at most 60000 faces: the direct solve stays quick
    const int tested = test::for_each_mesh_file(
        files, {60000}, [&](const std::string&, const TriangleSoup& soup) {
            const SolveCheck c = check_solve(soup, false, 1.0);
            EXPECT_TRUE(c.converged) << c.iterations << " iterations";
            EXPECT_TRUE(c.residual.within(kSolveTolerance, c.iterations))
                << "true residual " << c.residual.residual << ", initial " << c.residual.initial;
            EXPECT_LE(c.error, std::max(1e-4, c.proven_bound)) << c.iterations << " iterations";
            within_1e4 += c.error <= 1e-4;
        });
    EXPECT_GT(tested, 5);
    EXPECT_GE(2 * within_1e4, tested) << "most real meshes must meet 1e-4 of the bbox diagonal";
#endif
}

//! The Cholesky path solves the same system exactly up to rounding: its
//! float result solves the reference system as a converged CG's does (with
//! no iterations' drift), and lies within 1e-5 of the bounding box diagonal
//! of Eigen's double solution (A^-1 dt L has norm <= 1 in the a-norm, so the
//! float weights' rounding moves X by a few 1e-7 of |X|, not kappa times).
TEST(GpuMcf, CholeskyMatchesEigenOnGeneratedMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
#if !RXMESH_HAVE_EIGEN
    GTEST_SKIP() << "Eigen3 not found: no independent direct solver to compare with";
#else
    for (const auto& m : generated_meshes())
        for (bool uniform : {false, true}) {
            SCOPED_TRACE(m.name + (uniform ? " (uniform)" : ""));
            const SolveCheck c = check_solve(m.soup, uniform, 10.0, McfSolver::cholesky);
            EXPECT_TRUE(c.converged);
            EXPECT_EQ(c.iterations, 0);
            EXPECT_TRUE(c.residual.within(kSolveTolerance, 0))
                << "true residual " << c.residual.residual << ", initial " << c.residual.initial;
            EXPECT_LE(c.error, 1e-5);
        }
#endif
}

TEST(GpuMcf, CholeskyMatchesEigenOnRealMeshes)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
#if !RXMESH_HAVE_EIGEN
    GTEST_SKIP() << "Eigen3 not found: no independent direct solver to compare with";
#else
    const auto files = test::cgal_mesh_files({".off"});
    if (files.empty())
        GTEST_SKIP() << "libcgal-demo meshes not installed";
    const int tested = test::for_each_mesh_file(
        files, {60000}, [&](const std::string&, const TriangleSoup& soup) {
            const SolveCheck c = check_solve(soup, false, 1.0, McfSolver::cholesky);
            EXPECT_TRUE(c.converged);
            EXPECT_TRUE(c.residual.within(kSolveTolerance, 0))
                << "true residual " << c.residual.residual << ", initial " << c.residual.initial;
            EXPECT_LE(c.error, std::max(1e-5, c.proven_bound));
        });
    EXPECT_GT(tested, 5);
#endif
}

//! Several steps of one MeanCurvatureFlow: the analysis once (the first
//! step's report has it, the later ones none), every step's result solving
//! the reference system of its own starting positions, the flow's time
//! step fixed by the first positions.
TEST(GpuMcf, CholeskyStepsReuseTheAnalysis)
{
    RXMESH_REQUIRE_DEVICE_OR_SKIP();
    const TriangleSoup soup = generate::noisy(generate::icosphere(3), 0.3f, 2);
    const RXMesh       mesh(soup, small_patches());
    const HostMesh     h = host_mesh(mesh);
    DeviceBuffer<float> x(3 * std::size_t(mesh.num_vertices()));
    const VertexView<float, 3> xv(x.data(), mesh.num_vertices());
    copy(xv, mesh.positions());
    McfOptions o;
    o.solver = McfSolver::cholesky;
    MeanCurvatureFlow flow(mesh, xv, o);
    EXPECT_EQ(flow.analysis(), nullptr);
    const float dt = flow.dt();
    for (int step = 0; step < 3; ++step) {
        SCOPED_TRACE("step " + std::to_string(step));
        const std::vector<float> before = x.to_host();
        const McfReport          r      = flow.step(xv);
        ASSERT_NE(flow.analysis(), nullptr);
        EXPECT_EQ(r.dt, dt);
        if (step == 0)
            EXPECT_GT(r.analysis_ms, 0.f);
        else
            EXPECT_EQ(r.analysis_ms, 0.f);
        EXPECT_LT(r.final_residual, 1e-10);
        std::vector<Vec3f> p(mesh.num_vertices());
        for (std::size_t v = 0; v < p.size(); ++v)
            p[v] = {before[3 * v], before[3 * v + 1], before[3 * v + 2]};
        const reference::McfSystem ref   = reference::mcf_system(p, h.faces, false);
        const std::vector<float>   after = x.to_host();
        const reference::McfResidual res = reference::mcf_residual(
            ref, dt, std::vector<double>(before.begin(), before.end()),
            std::vector<double>(after.begin(), after.end()));
        EXPECT_TRUE(res.within(kSolveTolerance, 0))
            << "residual " << res.residual << ", initial " << res.initial;
        EXPECT_NE(after, before);
    }
}

}  // namespace mcf_test
