// The parts of the module rxmesh._rxmesh, each bound in its own file.
#pragma once

#include <pybind11/pybind11.h>

namespace rxmesh::python {

void bind_device_array(pybind11::module_& m);
void bind_mesh(pybind11::module_& m);

}  // namespace rxmesh::python
