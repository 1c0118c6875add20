// rxmesh.DeviceArray: results in device memory, exported through DLPack.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>

#include "bindings.h"
#include "device_array.h"

namespace py = pybind11;

namespace rxmesh::python {

namespace {

py::capsule export_dlpack(const DeviceArray& a, const py::object& stream)
{
    // order the consumer's stream after our writes (DLPack: -1 asks for no
    // ordering; None means CUDA's legacy default stream)
    const std::int64_t value = stream.is_none() ? 1 : stream.cast<std::int64_t>();
    if (value != -1)
        a.ready().order_before(dlpack_stream(value));
    return py::capsule(a.to_dlpack(), "dltensor", [](PyObject* cap) {
        if (PyCapsule_IsValid(cap, "dltensor")) {  // never consumed
            auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, "dltensor"));
            if (t && t->deleter) t->deleter(t);
        }
    });
}

py::array to_numpy(const DeviceArray& a)
{
    const std::vector<unsigned char> bytes = a.to_host_bytes();
    py::array out(py::dtype(dtype_name(a.dtype())), a.shape());
    if (!bytes.empty())
        std::memcpy(out.mutable_data(), bytes.data(), bytes.size());
    return out;
}

}  // namespace

void bind_device_array(py::module_& m)
{
    py::class_<DeviceArray>(m, "DeviceArray",
                            "An array in device memory (float32, float64, int32 or uint8); torch.from_dlpack "
                            "and cupy.from_dlpack read it without a copy, ordered after the "
                            "stream that wrote it")
        .def_property_readonly("shape", [](const DeviceArray& a) { return py::tuple(py::cast(a.shape())); })
        .def_property_readonly("dtype", [](const DeviceArray& a) { return std::string(dtype_name(a.dtype())); })
        .def_property_readonly("ptr", &DeviceArray::ptr, "the device address of the first value")
        .def("__len__", [](const DeviceArray& a) { return a.shape().empty() ? 0 : a.shape()[0]; })
        .def("__dlpack_device__", [](const DeviceArray& a) { return py::make_tuple(int(kDLCUDA), a.device()); })
        .def("__dlpack__", &export_dlpack, py::arg("stream") = py::none())
        .def("numpy", &to_numpy, "a host copy as a NumPy array (waits for the values)")
        .def("__array__", [](const DeviceArray& a, py::args, py::kwargs) { return to_numpy(a); })
        .def("__repr__", [](const DeviceArray& a) {
            std::string s = "DeviceArray(shape=(";
            for (std::size_t i = 0; i < a.shape().size(); ++i)
                s += (i ? ", " : "") + std::to_string(a.shape()[i]);
            return s + (a.shape().size() == 1 ? ",)" : ")") + ", dtype=" + dtype_name(a.dtype()) +
                   ", device=cuda:" + std::to_string(a.device()) + ")";
        });
}

}  // namespace rxmesh::python
