// The parts of the module rxmesh._rxmesh, each bound in its own file.
#pragma once

#include <pybind11/pybind11.h>

namespace rxmesh::python {

struct MeshHandle;

void bind_device_array(pybind11::module_& m);
void bind_mesh(pybind11::module_& m);
//! Mesh's sparse matrices, heat method and parameterization (bind_solvers.cpp).
void bind_mesh_matrices(pybind11::class_<MeshHandle>& c);
//! HeatGeodesic and the Cholesky of a caller's matrix (bind_solvers.cpp).
void bind_solvers(pybind11::module_& m);

}  // namespace rxmesh::python
