"""RXMesh: triangle meshes on the GPU, from NumPy, PyTorch and CuPy.

    import rxmesh, torch
    vertices, faces = rxmesh.read("bunny.obj")
    mesh = rxmesh.Mesh(vertices, faces)                  # or CUDA tensors, read in place
    normals = torch.from_dlpack(mesh.vertex_normals())   # no copy

Results that follow the input's vertices (normals, smoothed positions,
distances) are in input order; the mesh's own arrays (faces(), edges(),
query(), kring(), attributes) use the mesh's numbering, and
Mesh.to_input_order / to_mesh_order convert. Every GPU method takes
`stream` (None: the current stream of PyTorch, else CuPy, else CUDA's
default). rxmesh.remesh, simplify and delaunay take arrays straight (no
Mesh, no patches built), as Mesh.remesh, ... do. rxmesh.autograd holds the
differentiable operators (PyTorch). Mesh.laplacian and Mesh.mass_matrix
give the sparse operators as PyTorch or CuPy CSR matrices (mesh order, no
copy), rxmesh.CholeskySolver factors and solves on the GPU, and
Mesh.heat_geodesic / rxmesh.HeatGeodesic and Mesh.parameterize run on them
(rxmesh/sparse.py).
"""
from ._rxmesh import (  # noqa: F401
    DeviceArray, HeatGeodesic, Mesh, delaunay, loop_subdivide, read, remesh, simplify, write_ply,
    __version__)
from .sparse import CholeskySolver  # noqa: F401  (also adds Mesh.laplacian, mass_matrix, cholesky)
