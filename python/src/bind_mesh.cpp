// rxmesh.Mesh and the functions that make new meshes.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <string>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "device_array.h"
#include "ops.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

namespace rxmesh::python {

namespace {

std::int64_t n64(std::uint64_t n)
{
    return std::int64_t(n);
}

using Ready = std::shared_ptr<const ReadyEvent>;

//! The event every result of a call shares: recorded on its stream after
//! the call's work.
Ready ready_on(cudaStream_t s)
{
    return std::make_shared<const ReadyEvent>(s);
}

DeviceArray floats(Shared<float> b, std::vector<std::int64_t> shape, const Ready& r)
{
    return DeviceArray::of(std::move(b), DType::Float32, std::move(shape), r);
}
DeviceArray ids(Shared<std::uint32_t> b, std::vector<std::int64_t> shape, const Ready& r)
{
    return DeviceArray::of(std::move(b), DType::Int32, std::move(shape), r);
}
DeviceArray floats(Shared<float> b, std::vector<std::int64_t> shape, cudaStream_t s)
{
    return floats(std::move(b), std::move(shape), ready_on(s));
}
DeviceArray ids(Shared<std::uint32_t> b, std::vector<std::int64_t> shape, cudaStream_t s)
{
    return ids(std::move(b), std::move(shape), ready_on(s));
}
//! A view of memory the mesh holds (written before the call: no stream's
//! work to wait for beyond the default stream's).
DeviceArray mesh_view(const MeshHandle& h, void* data, DType dtype, std::vector<std::int64_t> shape)
{
    return DeviceArray(h.mesh, data, dtype, std::move(shape), ready_on(0));
}

py::object json(const std::string& text)
{
    return py::module_::import("json").attr("loads")(text);
}

Op parse_op(const std::string& name)
{
    for (int i = 0; i < 8; ++i)  // the eight queries, named as the library names them
        if (name == to_string(Op(i)))
            return Op(i);
    throw InvalidInputError("query: unknown query '" + name +
                            "'; expected one of VV, VE, VF, EV, EF, FV, FE, FF");
}

py::tuple rows(const Rows& r, cudaStream_t s)
{
    const Ready ready = ready_on(s);
    return py::make_tuple(ids(r.offsets, {n64(r.num_rows) + 1}, ready),
                          ids(r.indices, {n64(r.indices->size())}, ready));
}

py::tuple new_mesh(const NewMesh& m, cudaStream_t s)
{
    const Ready ready = ready_on(s);
    py::object  input = py::none();
    if (m.input_vertex)
        input = py::cast(ids(m.input_vertex, {n64(m.num_vertices)}, ready));
    return py::make_tuple(floats(m.positions, {n64(m.num_vertices), 3}, ready),
                          ids(m.faces, {n64(m.num_faces), 3}, ready), input, json(m.report_json));
}

//! Host faces (int64) are checked here, before any GPU work, so that the
//! error needs no device; device ones by the build (the same error, worded
//! by reindex).
void check_host_faces(const ArrayIn& f, std::uint64_t num_vertices)
{
    if (f.on_device)
        return;
    const auto* ids = static_cast<const std::int64_t*>(f.data);
    for (std::uint64_t i = 0; i < 3 * f.rows; ++i)
        if (ids[i] < 0 || std::uint64_t(ids[i]) >= num_vertices)
            throw InvalidInputError("faces: face " + std::to_string(i / 3) + " corner " +
                                    std::to_string(i % 3) + " names vertex " +
                                    std::to_string(ids[i]) + "; there are " +
                                    std::to_string(num_vertices) + " vertices");
}

//! A changing-topology call on the caller's arrays: checked, then straight
//! into a DynamicMesh (no patches built); the result as new_mesh gives it.
template <typename Call>
py::tuple on_arrays(const py::object& vertices, const py::object& faces, const py::object& stream,
                    Call&& call)
{
    const cudaStream_t s = resolve_stream(stream);
    const InputArray   v(vertices, "vertices", "positions", 3, s);
    const InputArray   f(faces, "faces", "ids", 3, s);
    check_host_faces(f.in(), v.in().rows);
    NewMesh m;
    {
        py::gil_scoped_release release;
        m = call(TopologyInput{nullptr, &v.in(), &f.in()}, s);
    }
    return new_mesh(m, s);
}

MeshHandle make_mesh(const py::object& vertices, const py::object& faces, bool weld,
                     std::uint32_t capacity, const py::object& stream)
{
    const cudaStream_t s = resolve_stream(stream);
    const InputArray   v(vertices, "vertices", "positions", 3, s);
    const InputArray   f(faces, "faces", "ids", 3, s);
    check_host_faces(f.in(), v.in().rows);
    py::gil_scoped_release release;
    return build_mesh(v.in(), f.in(), weld, capacity, s);
}

py::dict validation(const MeshHandle& h, std::size_t max_reports)
{
    const ValidationReport r = h.mesh->validate(max_reports);
    py::dict               d;
    d["ok"]         = r.ok();
    d["violations"] = r.total;
    d["summary"]    = r.summary();
    return d;
}

//! The attribute `a` describes, as a device array.
DeviceArray view_of(const MeshHandle& h, const AttributeInfo& a)
{
    const DType         dtype = a.dtype == "float32" ? DType::Float32
                                : a.dtype == "int32" ? DType::Int32
                                                     : DType::UInt8;
    std::vector<std::int64_t> shape{n64(a.num_elements)};
    if (a.components > 1)
        shape.push_back(a.components);
    return mesh_view(h, a.data, dtype, shape);
}

DeviceArray attribute_view(const MeshHandle& h, const std::string& name)
{
    return view_of(h, attribute_info(h, name));
}

std::uint32_t elements_of(const MeshHandle& h, char kind)
{
    return kind == 'v' ? h.mesh->num_vertices() : kind == 'e' ? h.mesh->num_edges() : h.mesh->num_faces();
}

DeviceArray add_attribute_py(const MeshHandle& h, const std::string& name, const py::object& values,
                             const std::string& kind, int components, const py::object& stream)
{
    const cudaStream_t s = resolve_stream(stream);
    if (kind != "vertex" && kind != "edge" && kind != "face")
        throw InvalidInputError("add_attribute: kind must be 'vertex', 'edge' or 'face', got '" +
                                kind + "'");
    const char k = kind[0];
    if (values.is_none())
        return view_of(h, add_attribute(h, name, k, components, nullptr, s));
    const DeviceFloats v(values, "values", 0, elements_of(h, k), s);
    return view_of(h, add_attribute(h, name, k, v.cols(), v.data(), s));
}

//! A pointer argument of the autograd helpers (a tensor's data_ptr()).
const void* cptr(std::uintptr_t p)
{
    return reinterpret_cast<const void*>(p);
}
void* mptr(std::uintptr_t p)
{
    return reinterpret_cast<void*>(p);
}

void bind_autograd_helpers(py::class_<MeshHandle>& c)
{
    // the caller (rxmesh/autograd.py) checks shapes, dtypes and devices
    c.def("_normals_forward", [](const MeshHandle& h, bool dbl, std::uintptr_t p, std::uintptr_t out,
                                 const py::object& stream) {
        normals_forward(h, dbl, cptr(p), mptr(out), resolve_stream(stream));
    });
    c.def("_normals_backward", [](const MeshHandle& h, bool dbl, std::uintptr_t p, std::uintptr_t g,
                                  std::uintptr_t gp, const py::object& stream) {
        normals_backward(h, dbl, cptr(p), cptr(g), mptr(gp), resolve_stream(stream));
    });
    c.def("_laplacian_forward", [](const MeshHandle& h, bool dbl, int cols, std::uintptr_t p,
                                   std::uintptr_t x, std::uintptr_t y, const py::object& stream) {
        laplacian_forward(h, dbl, cols, cptr(p), cptr(x), mptr(y), resolve_stream(stream));
    });
    c.def("_laplacian_backward", [](const MeshHandle& h, bool dbl, int cols, std::uintptr_t p,
                                    std::uintptr_t x, std::uintptr_t g, std::uintptr_t gp,
                                    std::uintptr_t gx, const py::object& stream) {
        laplacian_backward(h, dbl, cols, cptr(p), cptr(x), cptr(g), mptr(gp), mptr(gx),
                           resolve_stream(stream));
    });
}

//! The C++ side of the Python overhead benchmark (python/benchmarks):
//! `repeats` times, `runs` calls of one op back to back and one wait for
//! the stream, after two warm-up calls; each repeat's wall time per call,
//! ms. The Python side times its own calls the same way.
std::vector<double> time_from_cpp(const MeshHandle& h, const std::string& what, int runs,
                                  int repeats, const py::object& stream)
{
    const cudaStream_t s = resolve_stream(stream);
    py::gil_scoped_release release;
    auto call = [&] {
        if (what == "query_vv")
            (void)query_rows(h, Op::VV, false, s);
        else if (what == "vertex_normals")
            (void)vertex_normals(h, s);
        else if (what == "mcf")
            (void)mean_curvature_flow(h, 0.f, 10.f, 1, 1e-5, 1000, false, McfSolver::cg, s);
        else if (what == "remesh")
            (void)isotropic_remesh({&h}, 0.0, 1, true, 0.0, s);
        else
            throw InvalidInputError("_time_cpp: unknown op '" + what + "'");
    };
    call(), call();
    std::vector<double> ms;
    for (int r = 0; r < repeats; ++r) {
        RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < runs; ++i)
            call();
        RXMESH_CHECK_CUDA(cudaStreamSynchronize(s));
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
                     runs);
    }
    return ms;
}

void bind_sizes(py::class_<MeshHandle>& c)
{
    c.def_property_readonly("num_vertices", [](const MeshHandle& h) { return h.mesh->num_vertices(); })
        .def_property_readonly("num_edges", [](const MeshHandle& h) { return h.mesh->num_edges(); })
        .def_property_readonly("num_faces", [](const MeshHandle& h) { return h.mesh->num_faces(); })
        .def_property_readonly("num_patches", [](const MeshHandle& h) { return h.mesh->num_patches(); })
        .def_property_readonly("num_input_vertices", [](const MeshHandle& h) { return h.num_input_vertices; })
        .def_property_readonly("built_from_device", [](const MeshHandle& h) { return h.built_from_device; },
                               "whether both arrays were read in place from device memory")
        .def("statistics", [](const MeshHandle& h) { return json(h.mesh->stats().to_json()); },
             "the build's statistics (patches, ribbons, bytes, times in ms) as a dict")
        .def("memory", [](const MeshHandle& h) { return json(h.mesh->memory().to_json()); },
             "device bytes the mesh holds, by part, as a dict")
        .def("validate", &validation, py::arg("max_reports") = 20,
             "checks every contract of the patch store (downloads it): {ok, violations, summary}");
}

void bind_elements(py::class_<MeshHandle>& c)
{
    c.def("positions", [](const MeshHandle& h, const std::string& order, const py::object& stream) {
        if (order == "mesh")
            return mesh_view(h, h.mesh->positions().device_data(), DType::Float32,
                             {n64(h.mesh->num_vertices()), 3});
        if (order != "input")
            throw InvalidInputError("positions: order must be 'input' or 'mesh', got '" + order + "'");
        const cudaStream_t s = resolve_stream(stream);
        return floats(to_input_order(h, h.mesh->positions().device_data(), 3,
                                     h.fallback_positions(), 0.f, s),
                      {n64(h.num_input_vertices), 3}, s);
    }, py::arg("order") = "input", py::arg("stream") = py::none(),
       "the positions: order 'input' (a copy, one row per input vertex) or 'mesh' (the mesh's "
       "own array, no copy: writing it moves the mesh)")
    .def("faces", [](const MeshHandle& h, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        return ids(mesh_faces(h, s), {n64(h.mesh->num_faces()), 3}, s);
    }, py::arg("stream") = py::none(), "the faces, 3 vertex ids each, in mesh numbering")
    .def("edges", [](const MeshHandle& h, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        const Rows         r = query_rows(h, Op::EV, false, s);
        return ids(r.indices, {n64(r.num_rows), 2}, s);
    }, py::arg("stream") = py::none(), "the edges, 2 vertex ids each (smaller first), mesh numbering")
    .def("input_vertex_to_global", [](const MeshHandle& h) {
        const auto& b = h.mesh->input_vertex_to_global();
        return mesh_view(h, const_cast<std::uint32_t*>(b.data()), DType::Int32, {n64(b.size())});
    }, "input vertex -> mesh vertex (-1: dropped); no copy")
    .def("global_vertex_to_input", [](const MeshHandle& h) {
        const auto& b = h.mesh->global_vertex_to_input();
        return mesh_view(h, const_cast<std::uint32_t*>(b.data()), DType::Int32, {n64(b.size())});
    }, "mesh vertex -> its (first) input vertex; no copy")
    .def("to_input_order", [](const MeshHandle& h, const py::object& values, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        const DeviceFloats v(values, "values", 0, h.mesh->num_vertices(), s);
        return floats(to_input_order(h, v.data(), v.cols(), nullptr, 0.f, s),
                      {n64(h.num_input_vertices), v.cols()}, s);
    }, py::arg("values"), py::arg("stream") = py::none(),
       "per-vertex float32 values from mesh order to input order (dropped vertices: 0)")
    .def("to_mesh_order", [](const MeshHandle& h, const py::object& values, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        const DeviceFloats v(values, "values", 0, h.num_input_vertices, s);
        return floats(to_mesh_order(h, v.data(), v.cols(), s), {n64(h.mesh->num_vertices()), v.cols()}, s);
    }, py::arg("values"), py::arg("stream") = py::none(),
       "per-vertex float32 values from input order to mesh order");
}

void bind_queries(py::class_<MeshHandle>& c)
{
    c.def("query", [](const MeshHandle& h, const std::string& op, bool oriented, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        return rows(query_rows(h, parse_op(op), oriented, s), s);
    }, py::arg("op"), py::arg("oriented") = false, py::arg("stream") = py::none(),
       "a query ('VV', 'VE', 'VF', 'EV', 'EF', 'FV', 'FE', 'FF') as CSR (offsets, indices), "
       "int32 device arrays in mesh numbering; oriented: VV/VE/VF counter-clockwise")
    .def("kring", [](const MeshHandle& h, int k, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        return rows(kring_rows(h, k, s), s);
    }, py::arg("k"), py::arg("stream") = py::none(),
       "every vertex's k-ring as CSR (offsets, indices), mesh numbering: the vertex itself, "
       "then ring 1, 2, ... k");
}

void bind_attributes(py::class_<MeshHandle>& c)
{
    c.def("attribute_names", &attribute_names)
        .def("attribute", &attribute_view, py::arg("name"),
             "the attribute's values in mesh order, no copy (writes reach the mesh)")
        .def("add_attribute", &add_attribute_py, py::arg("name"), py::arg("values") = py::none(),
             py::arg("kind") = "vertex", py::arg("components") = 1, py::arg("stream") = py::none(),
             "adds a float32 attribute: values (n,) or (n, 1..4) in mesh order (a copy), or zeros "
             "with `components` values per element")
        .def("remove_attribute", &remove_attribute, py::arg("name"));
}

void bind_algorithms(py::class_<MeshHandle>& c)
{
    c.def("vertex_normals", [](const MeshHandle& h, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        return floats(vertex_normals(h, s), {n64(h.num_input_vertices), 3}, s);
    }, py::arg("stream") = py::none(),
       "unit vertex normals (Max's weights), one row per input vertex, input order")
    .def("mean_curvature_flow", [](const MeshHandle& h, float dt, float dt_scale, int steps,
                                   double tolerance, int max_iterations, bool uniform,
                                   const std::string& solver, const py::object& stream) {
        if (solver != "cg" && solver != "cholesky")
            throw InvalidInputError("mean_curvature_flow: solver must be 'cg' or 'cholesky', got '" +
                                    solver + "'");
        const cudaStream_t s = resolve_stream(stream);
        const FlowResult   r = mean_curvature_flow(
            h, dt, dt_scale, steps, tolerance, max_iterations, uniform,
            solver == "cholesky" ? McfSolver::cholesky : McfSolver::cg, s);
        py::dict report;
        report["solver"] = solver;
        report["dt"] = r.dt, report["iterations"] = r.iterations;
        report["final_residual"] = r.final_residual, report["converged"] = r.converged;
        return py::make_tuple(floats(r.positions, {n64(h.num_input_vertices), 3}, s), report);
    }, py::arg("dt") = 0.f, py::arg("dt_scale") = 10.f, py::arg("steps") = 1,
       py::arg("tolerance") = 1e-5, py::arg("max_iterations") = 1000, py::arg("uniform") = false,
       py::arg("solver") = "cg", py::arg("stream") = py::none(),
       "implicit mean curvature flow: (positions in input order, report dict); dt 0: dt_scale x "
       "the mean edge length squared; solver 'cg' (matrix-free, to tolerance) or 'cholesky' "
       "(the same system factored, one analysis for all steps)")
    .def("geodesic_distance", [](const MeshHandle& h, const std::vector<std::int64_t>& sources,
                                 double tolerance, const py::object& stream) {
        const cudaStream_t   s = resolve_stream(stream);
        const GeodesicResult r = geodesic_distance(h, sources, tolerance, s);
        py::dict report;
        report["levels"] = r.levels, report["iterations"] = r.iterations;
        report["converged"] = r.converged;
        return py::make_tuple(floats(r.distance, {n64(h.num_input_vertices)}, s), report);
    }, py::arg("sources"), py::arg("tolerance") = 1e-4, py::arg("stream") = py::none(),
       "geodesic distance from input vertex ids (inf: unreachable, nan: a dropped vertex): "
       "(distances in input order, report dict)")
    .def("bilateral_denoise", [](const MeshHandle& h, int iterations, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        return floats(bilateral_denoise(h, iterations, s), {n64(h.num_input_vertices), 3}, s);
    }, py::arg("iterations") = 1, py::arg("stream") = py::none(),
       "bilateral mesh denoising (Fleishman et al.): positions in input order")
    .def("remesh", [](const MeshHandle& h, double target_length, int iterations, bool project,
                      double feature_angle, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        return new_mesh(isotropic_remesh({&h}, target_length, iterations, project, feature_angle, s), s);
    }, py::arg("target_length") = 0.0, py::arg("iterations") = 3, py::arg("project") = true,
       py::arg("feature_angle") = 0.0, py::arg("stream") = py::none(),
       "isotropic remeshing: (vertices, faces, input_vertex (-1: created), report)")
    .def("simplify", [](const MeshHandle& h, std::uint32_t target_faces, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        return new_mesh(qem_simplify({&h}, target_faces, s), s);
    }, py::arg("target_faces"), py::arg("stream") = py::none(),
       "QEM simplification to target_faces: (vertices, faces, input_vertex, report)")
    .def("delaunay", [](const MeshHandle& h, const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        return new_mesh(delaunay_flips({&h}, s), s);
    }, py::arg("stream") = py::none(),
       "Delaunay edge flips (Lawson): (vertices, faces, input_vertex, report)");
}

}  // namespace

void bind_mesh(py::module_& m)
{
    py::class_<MeshHandle> c(m, "Mesh",
        "A triangle mesh on the GPU, cut into patches. vertices: (n, 3) numbers; faces: (m, 3) "
        "vertex indices; NumPy arrays, or PyTorch / CuPy arrays on the host or the current CUDA "
        "device (read in place when float32 / int32). Every GPU method takes `stream` (None: "
        "the current stream of PyTorch, else CuPy, else CUDA's default).");
    c.def(py::init(&make_mesh), py::arg("vertices"), py::arg("faces"), py::arg("weld") = false,
          py::arg("capacity") = 512, py::arg("stream") = py::none());
    bind_sizes(c);
    bind_elements(c);
    bind_queries(c);
    bind_attributes(c);
    bind_algorithms(c);
    bind_mesh_matrices(c);
    bind_autograd_helpers(c);
    c.def("_time_cpp", &time_from_cpp, py::arg("what"), py::arg("runs"), py::arg("repeats"),
          py::arg("stream") = py::none());

    m.def("loop_subdivide", [](const py::object& vertices, const py::object& faces, int levels,
                               const py::object& stream) {
        const cudaStream_t s = resolve_stream(stream);
        const InputArray   v(vertices, "vertices", "positions", 3, s);
        const InputArray   f(faces, "faces", "ids", 3, s);
        const NewMesh      r = loop_subdivide(v.in(), f.in(), levels, s);
        const Ready        ready = ready_on(s);
        return py::make_tuple(floats(r.positions, {n64(r.num_vertices), 3}, ready),
                              ids(r.faces, {n64(r.num_faces), 3}, ready));
    }, py::arg("vertices"), py::arg("faces"), py::arg("levels") = 1, py::arg("stream") = py::none(),
       "Loop subdivision: (vertices, faces) as device arrays (numbering of "
       "reference/loop_subdivision.h: input vertices first, then one per edge)");
    // The changing-topology algorithms straight from arrays: no Mesh (and
    // no patches) is built; input_vertex is the input array's row.
    m.def("remesh", [](const py::object& vertices, const py::object& faces, double target_length,
                       int iterations, bool project, double feature_angle,
                       const py::object& stream) {
        return on_arrays(vertices, faces, stream, [&](const TopologyInput& in, cudaStream_t s) {
            return isotropic_remesh(in, target_length, iterations, project, feature_angle, s);
        });
    }, py::arg("vertices"), py::arg("faces"), py::arg("target_length") = 0.0,
       py::arg("iterations") = 3, py::arg("project") = true, py::arg("feature_angle") = 0.0,
       py::arg("stream") = py::none(),
       "isotropic remeshing of arrays, as Mesh.remesh: (vertices, faces, input_vertex (-1: "
       "created), report)");
    m.def("simplify", [](const py::object& vertices, const py::object& faces,
                         std::uint32_t target_faces, const py::object& stream) {
        return on_arrays(vertices, faces, stream, [&](const TopologyInput& in, cudaStream_t s) {
            return qem_simplify(in, target_faces, s);
        });
    }, py::arg("vertices"), py::arg("faces"), py::arg("target_faces"),
       py::arg("stream") = py::none(),
       "QEM simplification of arrays, as Mesh.simplify: (vertices, faces, input_vertex, report)");
    m.def("delaunay", [](const py::object& vertices, const py::object& faces,
                         const py::object& stream) {
        return on_arrays(vertices, faces, stream, [&](const TopologyInput& in, cudaStream_t s) {
            return delaunay_flips(in, s);
        });
    }, py::arg("vertices"), py::arg("faces"), py::arg("stream") = py::none(),
       "Delaunay edge flips of arrays, as Mesh.delaunay: (vertices, faces, input_vertex, report)");
}

}  // namespace rxmesh::python
