"""RXMesh: triangle meshes on the GPU, from NumPy, PyTorch and CuPy.

    import rxmesh, torch
    vertices, faces = rxmesh.read("bunny.obj")
    mesh = rxmesh.Mesh(vertices, faces)
    normals = torch.from_dlpack(mesh.vertex_normals())  # no copy
"""
from ._rxmesh import DeviceArray, Mesh, read, write_ply, __version__  # noqa: F401
