// The sparse-matrix layer from Python: the mesh's operators as CSR device
// arrays (rxmesh/sparse.py makes PyTorch / CuPy matrices of them, without
// a copy), the GPU Cholesky of a caller's CSR matrix, the heat method and
// the parameterization.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "device_array.h"
#include "ops.h"
#include "rxmesh/core/error.h"

namespace rxmesh::python {

namespace {

std::int64_t n64(std::uint64_t n)
{
    return std::int64_t(n);
}

using Ready = std::shared_ptr<const ReadyEvent>;

//! (row offsets, columns, values): views of the arrays A's owner holds.
py::tuple csr_arrays(const DeviceCsr& A, bool dbl, cudaStream_t s)
{
    const Ready ready = std::make_shared<const ReadyEvent>(s);
    return py::make_tuple(
        DeviceArray(A.owner, const_cast<int*>(A.row_offsets), DType::Int32,
                    {n64(A.num_rows) + 1}, ready),
        DeviceArray(A.owner, const_cast<int*>(A.columns), DType::Int32, {n64(A.nnz)}, ready),
        DeviceArray(A.owner, A.values, dbl ? DType::Float64 : DType::Float32, {n64(A.nnz)},
                    ready));
}

bool input_order(const std::string& order, const char* what)
{
    if (order != "mesh" && order != "input")
        throw InvalidInputError(std::string(what) + ": order must be 'mesh' or 'input', got '" +
                                order + "'");
    return order == "input";
}

py::tuple matrix_py(const MeshHandle& h, MeshMatrix which, bool dbl, const std::string& order,
                    const char* what, const py::object& stream)
{
    const bool         input = input_order(order, what);
    const cudaStream_t s     = resolve_stream(stream);
    DeviceCsr          A     = mesh_matrix(h, which, dbl, s);
    if (input)
        A = csr_to_input_order(h, A, dbl, s);
    return csr_arrays(A, dbl, s);
}

py::object mass_py(const MeshHandle& h, const std::string& kind, bool dbl, const std::string& order,
                   const py::object& stream)
{
    if (kind == "full")
        return matrix_py(h, MeshMatrix::FullMass, dbl, order, "mass_matrix", stream);
    if (kind != "lumped")
        throw InvalidInputError("mass_matrix: kind must be 'lumped' or 'full', got '" + kind + "'");
    const bool         input = input_order(order, "mass_matrix");
    const cudaStream_t s     = resolve_stream(stream);
    const DeviceValues m     = lumped_mass(h, dbl, input, s);
    return py::cast(DeviceArray(m.owner, m.data, dbl ? DType::Float64 : DType::Float32,
                                {n64(m.size)}, std::make_shared<const ReadyEvent>(s)));
}

py::dict heat_report(const HeatGeodesicReport& r)
{
    py::dict d;
    d["heat_solve_ms"] = r.heat_solve_ms, d["field_ms"] = r.field_ms;
    d["poisson_solve_ms"] = r.poisson_solve_ms, d["shift_ms"] = r.shift_ms;
    d["total_ms"] = r.total_ms, d["unreachable"] = r.unreachable;
    d["time_step"] = r.time_step, d["time_step_raises"] = r.time_step_raises;
    d["heat_rescales"] = r.heat_rescales, d["heat_scale"] = r.heat_scale;
    d["low_heat_vertices"] = r.low_heat_vertices;
    return d;
}

py::dict analysis_dict(const CholeskyAnalysis& a)
{
    py::dict d;
    d["rows"] = a.rows, d["supernodes"] = a.supernodes, d["levels"] = a.levels;
    d["matrix_entries"] = a.matrix_entries, d["factor_nonzeros"] = a.factor_nonzeros;
    d["panel_values"] = a.panel_values, d["flops"] = a.flops;
    d["ordering_ms"] = a.ordering_ms, d["symbolic_ms"] = a.symbolic_ms, d["plan_ms"] = a.plan_ms;
    d["device_bytes"] = a.device_bytes;
    return d;
}

py::dict setup_dict(const HeatGeodesicSetup& s)
{
    py::dict d;
    d["time_step"] = s.time_step, d["mean_edge_length"] = s.mean_edge_length;
    d["components"] = s.components, d["assembly_ms"] = s.assembly_ms;
    d["factor_ms"] = s.factor_ms, d["analysis_ms"] = s.analysis_ms;
    d["analysis"] = analysis_dict(s.analysis);
    return d;
}

//! A Python HeatGeodesic: the factored systems and the mesh they are of.
struct HeatHandle
{
    MeshHandle                          mesh;
    std::shared_ptr<const HeatGeodesic> heat;
};

HeatHandle make_heat(const MeshHandle& h, double time_factor, const py::object& stream)
{
    const cudaStream_t     s = resolve_stream(stream);
    py::gil_scoped_release release;  // assembly, analysis and two factorizations
    return {h, make_heat_geodesic(h, time_factor, s)};
}

py::tuple heat_result(const HeatHandle& q, const std::vector<std::uint32_t>& global,
                      cudaStream_t s)
{
    const HeatResult r = heat_distance(q.mesh, *q.heat, global, s);
    return py::make_tuple(DeviceArray::of(r.distance, DType::Float32,
                                          {n64(q.mesh.num_input_vertices)},
                                          std::make_shared<const ReadyEvent>(s)),
                          heat_report(r.report));
}

py::tuple heat_query(const HeatHandle& q, const std::vector<std::int64_t>& sources,
                     const py::object& stream)
{
    const cudaStream_t s = resolve_stream(stream);
    return heat_result(q, global_sources(q.mesh, sources, "heat_geodesic", s), s);
}

py::tuple param_py(const MeshHandle& h, const std::string& method, const py::object& stream)
{
    if (method != "tutte" && method != "harmonic" && method != "lscm")
        throw InvalidInputError("parameterize: method must be 'tutte', 'harmonic' or 'lscm', got '" +
                                method + "'");
    const cudaStream_t s = resolve_stream(stream);
    ParamResult        r;
    {
        py::gil_scoped_release release;
        r = parameterize(h, method, s);
    }
    py::dict report;
    report["boundary_vertices"] = r.report.boundary_vertices;
    report["flipped_faces"]     = r.report.flipped_faces;
    report["assembly_ms"] = r.report.assembly_ms, report["analysis_ms"] = r.report.analysis_ms;
    report["factor_ms"] = r.report.factor_ms, report["solve_ms"] = r.report.solve_ms;
    return py::make_tuple(DeviceArray::of(r.uv, DType::Float32, {n64(h.num_input_vertices), 2},
                                          std::make_shared<const ReadyEvent>(s)),
                          report);
}

// ---- the Cholesky of a caller's CSR matrix ----

//! A CSR matrix's arrays, read in place from CUDA memory, and the shape.
class CsrArgs
{
   public:
    CsrArgs(const py::object& offsets, const py::object& columns, const py::object& values,
            std::pair<std::int64_t, std::int64_t> shape, std::uint32_t n, cudaStream_t s)
    {
        if (shape.first != n || shape.second != n)
            throw py::type_error("A: expected shape (" + std::to_string(n) + ", " +
                                 std::to_string(n) + ") (one row per mesh vertex), got (" +
                                 std::to_string(shape.first) + ", " +
                                 std::to_string(shape.second) + ")");
        for (const py::object* a : {&offsets, &columns})
            if (!is_cuda_array(*a))
                throw py::type_error("A: expected its arrays on the current CUDA device "
                                     "(a torch sparse CSR tensor or a cupyx csr_matrix)");
        m_offsets = std::make_unique<InputArray>(offsets, "A's row offsets", "ids", 1, s);
        m_columns = std::make_unique<InputArray>(columns, "A's columns", "ids", 1, s);
        if (!values.is_none())
            m_values = std::make_unique<InputArray>(values, "A's values", "float64", 1, s);
        m_in = {std::uint64_t(shape.first), std::uint64_t(shape.second), &m_offsets->in(),
                &m_columns->in(), m_values ? &m_values->in() : nullptr};
    }
    const CsrIn& in() const { return m_in; }

   private:
    std::unique_ptr<InputArray> m_offsets, m_columns, m_values;
    CsrIn                       m_in;
};

using Shape = std::pair<std::int64_t, std::int64_t>;

std::unique_ptr<Cholesky> make_cholesky(const py::object& offsets, const py::object& columns,
                                        Shape shape, const MeshHandle& h, const py::object& stream)
{
    const cudaStream_t     s = resolve_stream(stream);
    const CsrArgs          A(offsets, columns, py::none(), shape, h.mesh->num_vertices(), s);
    py::gil_scoped_release release;  // the analysis: host work, possibly long
    return std::make_unique<Cholesky>(A.in(), h, s);
}

void factor_py(Cholesky& c, const py::object& offsets, const py::object& columns,
               const py::object& values, Shape shape, const py::object& stream)
{
    const cudaStream_t s = resolve_stream(stream);
    const CsrArgs      A(offsets, columns, values, shape, c.rows(), s);
    c.factor(A.in(), s);
}

DeviceArray solve_py(const Cholesky& c, const py::object& b, const py::object& stream)
{
    const cudaStream_t s = resolve_stream(stream);
    const InputArray   in(b, "b", "float64", -1, s);
    if (in.in().rows != c.rows())
        throw py::type_error("b: expected " + std::to_string(c.rows()) + " rows, got " +
                             std::to_string(in.in().rows));
    std::vector<std::int64_t> shape{n64(in.in().rows)};
    if (py::len(b.attr("shape")) == 2)
        shape.push_back(in.in().cols);
    return DeviceArray::of(c.solve(in.in(), s), DType::Float64, shape,
                           std::make_shared<const ReadyEvent>(s));
}

}  // namespace

void bind_mesh_matrices(py::class_<MeshHandle>& c)
{
    // the arrays only: rxmesh/sparse.py makes Mesh.laplacian and
    // Mesh.mass_matrix of them (a torch or CuPy matrix, no copy)
    c.def("_laplacian", [](const MeshHandle& h, bool dbl, const std::string& order,
                           const py::object& stream) {
        return matrix_py(h, MeshMatrix::CotangentLaplacian, dbl, order, "laplacian", stream);
    }, py::arg("double_precision"), py::arg("order"), py::arg("stream") = py::none());
    c.def("_mass_matrix", &mass_py, py::arg("kind"), py::arg("double_precision"),
          py::arg("order"), py::arg("stream") = py::none());
    c.def("heat_geodesic", [](const MeshHandle& h, const std::vector<std::int64_t>& sources,
                              double time_factor, const py::object& stream) {
        // the sources first: a bad one is refused before the systems are factored
        const cudaStream_t s      = resolve_stream(stream);
        const auto         global = global_sources(h, sources, "heat_geodesic", s);
        const HeatHandle   q      = make_heat(h, time_factor, stream);
        py::tuple          r      = heat_result(q, global, s);
        r[1].cast<py::dict>()["setup"] = setup_dict(q.heat->setup());
        return r;
    }, py::arg("sources"), py::arg("time_factor") = 1.0, py::arg("stream") = py::none(),
       "geodesic distance by the heat method (Crane et al. 2013) from input vertex ids: "
       "(distances in input order, +inf unreachable, nan dropped; report dict with 'setup'); "
       "rxmesh.HeatGeodesic keeps the factored systems for more queries");
    c.def("parameterize", &param_py, py::arg("method") = "tutte", py::arg("stream") = py::none(),
          "UV of a disk: the boundary on the unit circle by arc length, 'tutte' (uniform "
          "weights: no flipped face) or 'harmonic' (cotangent weights), or 'lscm' (free "
          "boundary, least-squares conformal, two boundary vertices pinned at (0, 0) and "
          "(1, 0)); (uv (n, 2) in input order, nan for a dropped vertex; report dict). Not a "
          "disk: ValueError saying why");
}

void bind_solvers(py::module_& m)
{
    py::class_<HeatHandle>(m, "HeatGeodesic",
        "The heat method's two systems of a mesh, assembled and factored once (time step "
        "time_factor x the mean edge length squared); distance(sources) answers queries")
        .def(py::init(&make_heat), py::arg("mesh"), py::arg("time_factor") = 1.0,
             py::arg("stream") = py::none())
        .def("distance", &heat_query, py::arg("sources"), py::arg("stream") = py::none(),
             "(distances in input order, report dict) from input vertex ids")
        .def("setup", [](const HeatHandle& q) { return setup_dict(q.heat->setup()); },
             "what the construction measured and found, as a dict");

    // the arrays only: rxmesh.CholeskySolver (rxmesh/sparse.py) takes the
    // torch / CuPy matrices
    py::class_<Cholesky>(m, "_Cholesky")
        .def(py::init(&make_cholesky), py::arg("row_offsets"), py::arg("columns"),
             py::arg("shape"), py::arg("mesh"), py::arg("stream") = py::none())
        .def("factor", &factor_py, py::arg("row_offsets"), py::arg("columns"), py::arg("values"),
             py::arg("shape"), py::arg("stream") = py::none())
        .def("solve", &solve_py, py::arg("b"), py::arg("stream") = py::none())
        .def("analysis", [](const Cholesky& c) { return analysis_dict(c.analysis()); })
        .def_property_readonly("factored", &Cholesky::factored)
        .def_property_readonly("rows", &Cholesky::rows);
}

}  // namespace rxmesh::python
