// The Python module rxmesh._rxmesh (pybind11): reading meshes, building an
// RXMesh from NumPy arrays or from any DLPack array (PyTorch, CuPy; CUDA
// ones are read from the device), its statistics, and GPU results as
// DeviceArray, which torch.from_dlpack and cupy.from_dlpack take without a
// copy. The library's errors become Python's: bad input ValueError, a file
// that cannot be read OSError, a wrong type, shape or device TypeError,
// device failures RuntimeError.
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "device_array.h"
#include "ops.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/io.h"
#include "rxmesh/rxmesh.h"
#include "rxmesh/version.h"

namespace py = pybind11;
using namespace rxmesh;
using python::DeviceArray;

namespace {

//! The rows of an (n, 3) array-like as T, from NumPy (any numeric dtype,
//! cast) or a CUDA DLPack array (float32 / int32 / int64, copied to the host
//! for the build). \throw py::type_error for another shape.
template <typename T>
std::vector<T> rows3(const py::object& obj, const char* what);

bool is_cuda_dlpack(const py::object& obj)
{
    if (!py::hasattr(obj, "__dlpack_device__"))
        return false;
    const auto dev = obj.attr("__dlpack_device__")().cast<std::pair<int, int>>();
    return dev.first == kDLCUDA;
}

template <typename T>
std::vector<T> rows3_from_cuda(const py::object& obj, const char* what)
{
    py::capsule      cap = obj.attr("__dlpack__")();
    DLManagedTensor* m   = static_cast<DLManagedTensor*>(cap.get_pointer());
    const DLTensor&  t   = m->dl_tensor;
    if (t.ndim != 2 || t.shape[1] != 3)
        throw py::type_error(std::string(what) + ": expected shape (n, 3)");
    const bool contiguous = !t.strides || (t.strides[1] == 1 && t.strides[0] == 3);
    if (!contiguous)
        throw py::type_error(std::string(what) + ": expected a contiguous array");
    const std::size_t n = std::size_t(t.shape[0]) * 3;
    const char* src = static_cast<const char*>(t.data) + t.byte_offset;
    std::vector<T> out(n);
    auto copy_as = [&](auto tag) {
        using S = decltype(tag);
        std::vector<S> tmp(n);
        RXMESH_CHECK_CUDA(cudaMemcpy(tmp.data(), src, n * sizeof(S), cudaMemcpyDeviceToHost));
        for (std::size_t i = 0; i < n; ++i) out[i] = T(tmp[i]);
    };
    if (t.dtype.code == kDLFloat && t.dtype.bits == 32) copy_as(float{});
    else if (t.dtype.code == kDLFloat && t.dtype.bits == 64) copy_as(double{});
    else if (t.dtype.code == kDLInt && t.dtype.bits == 32) copy_as(std::int32_t{});
    else if (t.dtype.code == kDLInt && t.dtype.bits == 64) copy_as(std::int64_t{});
    else throw py::type_error(std::string(what) + ": expected float32/64 or int32/64 values");
    if (m->deleter) m->deleter(m);
    cap.set_name("used_dltensor");
    return out;
}

template <typename T>
std::vector<T> rows3(const py::object& obj, const char* what)
{
    if (is_cuda_dlpack(obj))
        return rows3_from_cuda<T>(obj, what);
    py::array a = py::array::ensure(obj);
    if (!a)
        throw py::type_error(std::string(what) + ": expected an array (NumPy, PyTorch, CuPy)");
    if (a.ndim() != 2 || a.shape(1) != 3)
        throw py::type_error(std::string(what) + ": expected shape (n, 3)");
    auto c = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(a);
    if (!c)
        throw py::type_error(std::string(what) + ": expected numeric values");
    return std::vector<T>(c.data(), c.data() + c.size());
}

TriangleSoup soup_from(const py::object& vertices, const py::object& faces)
{
    const auto   v = rows3<float>(vertices, "vertices");
    const auto   f = rows3<std::int64_t>(faces, "faces");
    TriangleSoup s;
    s.positions.resize(v.size() / 3);
    for (std::size_t i = 0; i < s.positions.size(); ++i)
        s.positions[i] = {v[3 * i], v[3 * i + 1], v[3 * i + 2]};
    s.faces.resize(f.size() / 3);
    for (std::size_t i = 0; i < s.faces.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            const std::int64_t x = f[3 * i + k];
            if (x < 0 || x >= std::int64_t(s.positions.size()))
                throw InvalidInputError("faces: face " + std::to_string(i) + " names vertex " +
                                        std::to_string(x) + " of " +
                                        std::to_string(s.positions.size()));
            s.faces[i][k] = std::uint32_t(x);
        }
    return s;
}

py::tuple read_mesh(const std::string& path)
{
    const TriangleSoup s = io::read(path);
    py::array_t<float>        v({py::ssize_t(s.positions.size()), py::ssize_t(3)});
    py::array_t<std::int32_t> f({py::ssize_t(s.faces.size()), py::ssize_t(3)});
    auto                      vv = v.mutable_unchecked<2>();
    auto                      ff = f.mutable_unchecked<2>();
    for (std::size_t i = 0; i < s.positions.size(); ++i)
        for (int k = 0; k < 3; ++k) vv(i, k) = s.positions[i][k];
    for (std::size_t i = 0; i < s.faces.size(); ++i)
        for (int k = 0; k < 3; ++k) ff(i, k) = std::int32_t(s.faces[i][k]);
    return py::make_tuple(v, f);
}

void bind_device_array(py::module_& m)
{
    py::class_<DeviceArray>(m, "DeviceArray",
                            "A float32 array in device memory; torch.from_dlpack and "
                            "cupy.from_dlpack read it without a copy")
        .def_property_readonly("shape", [](const DeviceArray& a) { return py::tuple(py::cast(a.shape())); })
        .def_property_readonly("ptr", &DeviceArray::ptr, "the device address of the first value")
        .def("__dlpack_device__", [](const DeviceArray& a) { return py::make_tuple(int(kDLCUDA), a.device()); })
        .def("__dlpack__",
             [](const DeviceArray& a, py::object /*stream*/) {
                 // the values are complete on return (the producer synchronised)
                 return py::capsule(a.to_dlpack(), "dltensor", [](PyObject* cap) {
                     if (PyCapsule_IsValid(cap, "dltensor")) {  // never consumed
                         auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, "dltensor"));
                         if (t && t->deleter) t->deleter(t);
                     }
                 });
             },
             py::arg("stream") = py::none())
        .def("numpy", [](const DeviceArray& a) {
            const std::vector<float> h = a.to_host();
            py::array_t<float>       out(a.shape());
            std::copy(h.begin(), h.end(), out.mutable_data());
            return out;
        }, "a host copy as a NumPy array");
}

//! A Mesh as Python holds it: the RXMesh and the input it was built from
//! (the host copy the results in input order fall back on, and -o's faces).
struct MeshHandle
{
    TriangleSoup                  soup;
    std::shared_ptr<const RXMesh> mesh;
};

std::vector<float> flat_positions(const TriangleSoup& s)
{
    std::vector<float> out;
    out.reserve(3 * s.positions.size());
    for (const Vec3f& p : s.positions) out.insert(out.end(), p.begin(), p.end());
    return out;
}

py::tuple flow(const MeshHandle& h, float dt, float dt_scale, int steps, double tolerance,
               int max_iterations, bool uniform)
{
    const python::FlowResult r = python::mean_curvature_flow_input_order(
        *h.mesh, dt, dt_scale, steps, tolerance, max_iterations, uniform, flat_positions(h.soup));
    py::dict report;
    report["dt"] = r.dt, report["iterations"] = r.iterations;
    report["final_residual"] = r.final_residual, report["converged"] = r.converged;
    return py::make_tuple(DeviceArray(r.positions, {std::int64_t(h.soup.positions.size()), 3}),
                          report);
}

void write_ply_file(const std::string& path, const py::object& vertices, const py::object& faces,
                    const py::dict& scalars)
{
    const TriangleSoup            s = soup_from(vertices, faces);
    std::vector<io::VertexScalar> fields;
    for (const auto& [name, values] : scalars) {
        auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(values);
        if (!a || a.ndim() != 1)
            throw py::type_error("scalar '" + py::str(name).cast<std::string>() +
                                 "': expected a 1-D array of numbers");
        fields.push_back({py::str(name).cast<std::string>(),
                          std::vector<float>(a.data(), a.data() + a.size())});
    }
    io::write_ply(path, s.positions, s.faces, {}, fields);
}

void bind_mesh(py::module_& m)
{
    py::class_<MeshHandle>(m, "Mesh",
        "A triangle mesh on the GPU, cut into patches. vertices: (n, 3) numbers; faces: (m, 3) "
        "vertex indices; NumPy arrays, or PyTorch / CuPy arrays on the host or a CUDA device.")
        .def(py::init([](const py::object& vertices, const py::object& faces, bool weld,
                         std::uint32_t capacity) {
                 MeshHandle   h{soup_from(vertices, faces), nullptr};
                 BuildOptions opt;
                 opt.weld             = weld;
                 opt.patcher.capacity = capacity;
                 h.mesh               = std::make_shared<const RXMesh>(h.soup, opt);
                 return h;
             }),
             py::arg("vertices"), py::arg("faces"), py::arg("weld") = false,
             py::arg("capacity") = 512)
        .def_property_readonly("num_vertices", [](const MeshHandle& h) { return h.mesh->num_vertices(); })
        .def_property_readonly("num_edges", [](const MeshHandle& h) { return h.mesh->num_edges(); })
        .def_property_readonly("num_faces", [](const MeshHandle& h) { return h.mesh->num_faces(); })
        .def_property_readonly("num_patches", [](const MeshHandle& h) { return h.mesh->num_patches(); })
        .def("statistics", [](const MeshHandle& h) {
            return py::module_::import("json").attr("loads")(h.mesh->stats().to_json());
        }, "the build's statistics (patches, ribbons, bytes, times) as a dict")
        .def("vertex_normals", [](const MeshHandle& h) {
            return DeviceArray(python::vertex_normals_input_order(*h.mesh),
                               {std::int64_t(h.soup.positions.size()), 3});
        }, "unit vertex normals (Max's weights), one row per input vertex, input order")
        .def("mean_curvature_flow", &flow, py::arg("dt") = 0.f, py::arg("dt_scale") = 10.f,
             py::arg("steps") = 1, py::arg("tolerance") = 1e-5, py::arg("max_iterations") = 1000,
             py::arg("uniform") = false,
             "implicit mean curvature flow (the library's mcf): (positions, one row per input "
             "vertex in input order, on the GPU; a report dict). dt 0: dt_scale x the mean "
             "edge length squared");
}

}  // namespace

PYBIND11_MODULE(_rxmesh, m)
{
    m.doc() = "RXMesh: triangle meshes on the GPU";
    m.attr("__version__") = rxmesh::version();
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const InvalidInputError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const IOError& e) {
            PyErr_SetString(PyExc_OSError, e.what());
        } catch (const Error& e) {  // CudaError, NoDeviceError, DeviceMemoryError
            PyErr_SetString(PyExc_RuntimeError, e.what());
        }
    });
    m.def("read", &read_mesh, py::arg("path"),
          "reads OBJ, OFF, PLY or STL: (vertices float32 (n, 3), faces int32 (m, 3))");
    m.def("write_ply", &write_ply_file, py::arg("path"), py::arg("vertices"), py::arg("faces"),
          py::arg("scalars") = py::dict(),
          "writes a binary PLY: vertices (n, 3) and faces (m, 3) as any array (a GPU one is "
          "read from the device), scalars a dict of name -> (n,) values");
    bind_device_array(m);
    bind_mesh(m);
}
