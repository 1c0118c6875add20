// The Python module rxmesh._rxmesh (pybind11): reading and writing meshes,
// DeviceArray, the Mesh (bind_mesh.cpp) and the solvers (bind_solvers.cpp).
// The library's errors become Python's: bad input ValueError, a file that
// cannot be read OSError, a wrong type, shape or device TypeError, device
// failures RuntimeError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "device_array.h"
#include "rxmesh/core/error.h"
#include "rxmesh/io/io.h"
#include "rxmesh/version.h"

namespace py = pybind11;

namespace rxmesh::python {

namespace {

py::tuple read_mesh(const std::string& path)
{
    const TriangleSoup s = io::read(path);
    py::array_t<float>        v({py::ssize_t(s.positions.size()), py::ssize_t(3)});
    py::array_t<std::int32_t> f({py::ssize_t(s.faces.size()), py::ssize_t(3)});
    if (!s.positions.empty())
        std::copy_n(s.positions.front().data(), 3 * s.positions.size(), v.mutable_data());
    for (std::size_t i = 0; i < s.faces.size(); ++i)
        for (int k = 0; k < 3; ++k) f.mutable_data()[3 * i + k] = std::int32_t(s.faces[i][k]);
    return py::make_tuple(v, f);
}

//! (n, cols) rows of any array (a device one is read back) as host values.
template <typename T>
std::vector<T> host_rows(const py::object& obj, const char* what, const char* kind, int cols)
{
    const InputArray a(obj, what, kind, cols, 0);
    const ArrayIn&   in = a.in();
    const std::size_t n = in.rows * in.cols;
    std::vector<T> out(n);
    auto copy_as = [&](auto tag) {
        using S = decltype(tag);
        std::vector<S> tmp(n);
        if (n > 0 && in.on_device)
            RXMESH_CHECK_CUDA(cudaMemcpy(tmp.data(), in.data, n * sizeof(S), cudaMemcpyDeviceToHost));
        else if (n > 0)
            std::memcpy(tmp.data(), in.data, n * sizeof(S));
        std::transform(tmp.begin(), tmp.end(), out.begin(), [](S x) { return T(x); });
    };
    switch (in.type) {
        case InType::F32: copy_as(float{}); break;
        case InType::F64: copy_as(double{}); break;
        case InType::I32: copy_as(std::int32_t{}); break;
        case InType::U32: copy_as(std::uint32_t{}); break;
        case InType::I64: copy_as(std::int64_t{}); break;
    }
    return out;
}

void write_ply_file(const std::string& path, const py::object& vertices, const py::object& faces,
                    const py::dict& scalars)
{
    const auto   v = host_rows<float>(vertices, "vertices", "positions", 3);
    const auto   f = host_rows<std::int64_t>(faces, "faces", "ids", 3);
    TriangleSoup s;
    s.positions.resize(v.size() / 3);
    std::copy(v.begin(), v.end(), s.positions.empty() ? nullptr : s.positions.front().data());
    s.faces.resize(f.size() / 3);
    for (std::size_t i = 0; i < f.size(); ++i) {
        if (f[i] < 0 || f[i] >= std::int64_t(s.positions.size()))
            throw InvalidInputError("faces: face " + std::to_string(i / 3) + " names vertex " +
                                    std::to_string(f[i]) + " of " + std::to_string(s.positions.size()));
        s.faces[i / 3][i % 3] = std::uint32_t(f[i]);
    }
    std::vector<io::VertexScalar> fields;
    for (const auto& [name, values] : scalars) {
        const std::string n = py::str(name).cast<std::string>();
        fields.push_back({n, host_rows<float>(py::reinterpret_borrow<py::object>(values),
                                              ("scalar '" + n + "'").c_str(), "positions", 1)});
        if (fields.back().values.size() != s.positions.size())
            throw py::type_error("scalar '" + n + "': " + std::to_string(fields.back().values.size()) +
                                 " values for " + std::to_string(s.positions.size()) + " vertices");
    }
    io::write_ply(path, s.positions, s.faces, {}, fields);
}

void translate_errors()
{
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
}

}  // namespace

}  // namespace rxmesh::python

PYBIND11_MODULE(_rxmesh, m)
{
    using namespace rxmesh::python;
    m.doc()               = "RXMesh: triangle meshes on the GPU";
    m.attr("__version__") = rxmesh::version();
    translate_errors();
    m.def("read", &read_mesh, py::arg("path"),
          "reads OBJ, OFF, PLY or STL: (vertices float32 (n, 3), faces int32 (m, 3))");
    m.def("write_ply", &write_ply_file, py::arg("path"), py::arg("vertices"), py::arg("faces"),
          py::arg("scalars") = py::dict(),
          "writes a binary PLY: vertices (n, 3) and faces (m, 3) as any array (a GPU one is "
          "read from the device), scalars a dict of name -> (n,) values");
    bind_device_array(m);
    bind_mesh(m);
    bind_solvers(m);
}
