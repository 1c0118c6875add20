"""The mesh's sparse matrices and the GPU Cholesky, for PyTorch and CuPy.

    L = mesh.laplacian()                          # torch.sparse_csr_tensor, float64, no copy
    M = mesh.mass_matrix("full")                  # the same pattern as L
    A = torch.sparse_csr_tensor(L.crow_indices(), L.col_indices(), M.values() + t * L.values(),
                                L.shape)
    x = rxmesh.CholeskySolver(A, mesh).solve(b)   # b: (n,) or (n, k) float64 on the GPU

Rows and columns are the mesh's vertices in mesh order (Mesh.global_vertex_to_input()
names each one's input vertex); order="input" gives a copy in input order.
"""
import sys
import warnings

from . import _rxmesh

__all__ = ["CholeskySolver", "laplacian", "mass_matrix"]

_FORMATS = ("torch", "cupy", "arrays")


def _double(dtype):
    """True for float64, False for float32 (NumPy, PyTorch or CuPy dtypes, or their names)."""
    if dtype is float:  # NumPy's reading of Python's float
        return True
    name = dtype if isinstance(dtype, str) else getattr(dtype, "__name__", None) or str(dtype)
    name = name.rsplit(".", 1)[-1]
    if name in ("float64", "float32"):
        return name == "float64"
    raise TypeError(f"dtype: expected float64 or float32, got {dtype!r}")


def _format(format):
    """The output format; None: PyTorch when it is imported, else CuPy when
    it is imported, else PyTorch (the package's order for streams too)."""
    if format is None:
        return "torch" if "torch" in sys.modules or "cupy" not in sys.modules else "cupy"
    if format not in _FORMATS:
        raise ValueError(f"format must be one of {', '.join(_FORMATS)}, got {format!r}")
    return format


def _import(name):
    try:
        return __import__(name)
    except ImportError as e:
        raise ImportError(f"format={name!r} needs {name}; format='arrays' returns the CSR "
                          "arrays as rxmesh.DeviceArray") from e


def _csr(fmt, arrays, n):
    """A square CSR matrix of (row offsets, columns, values) DeviceArrays,
    the same memory (torch.from_dlpack / cupy.from_dlpack copy nothing)."""
    offsets, columns, values = arrays
    if fmt == "torch":
        torch = _import("torch")
        with warnings.catch_warnings():  # "sparse CSR support is in beta": said once is enough
            warnings.filterwarnings("ignore", ".*[Ss]parse CSR tensor support is in beta.*")
            return torch.sparse_csr_tensor(torch.from_dlpack(offsets), torch.from_dlpack(columns),
                                           torch.from_dlpack(values), size=(n, n))
    if fmt == "cupy":
        cupy = _import("cupy")
        import cupyx.scipy.sparse
        return cupyx.scipy.sparse.csr_matrix(
            (cupy.from_dlpack(values), cupy.from_dlpack(columns), cupy.from_dlpack(offsets)),
            shape=(n, n), copy=False)
    return arrays


def _vector(fmt, values):
    if fmt == "torch":
        return _import("torch").from_dlpack(values)
    if fmt == "cupy":
        return _import("cupy").from_dlpack(values)
    return values


def _rows(mesh, order):
    return mesh.num_input_vertices if order == "input" else mesh.num_vertices


def laplacian(mesh, dtype="float64", format=None, order="mesh", stream=None):
    """The cotangent Laplacian: L_ij = -(cot a + cot b) / 2 over the angles
    opposite edge ij, L_ii = -sum_j L_ij (positive semi-definite, L 1 = 0),
    a square CSR matrix on the GPU with int32 indices and rows sorted.

    format: "torch" (torch.sparse_csr_tensor), "cupy" (cupyx.scipy.sparse.csr_matrix)
    or "arrays" (row offsets, columns, values as rxmesh.DeviceArray); None: PyTorch
    when it is imported, else CuPy when it is, else PyTorch. The matrix uses the
    library's arrays, no copy (writing it writes them).
    order: "mesh" (rows are mesh vertices) or "input" (rows are input vertices; a
    copy: a welded vertex's row is its first input copy's, a dropped vertex's empty)."""
    fmt, double = _format(format), _double(dtype)
    arrays = mesh._laplacian(double, order, stream)
    return _csr(fmt, arrays, _rows(mesh, order))


def mass_matrix(mesh, kind="lumped", dtype="float64", format=None, order="mesh", stream=None):
    """The mass matrix: kind "lumped" is each vertex's mixed Voronoi area
    (Meyer et al. 2003) as a vector (n,); "full" the consistent mass of linear
    elements (area / 6 on the diagonal, area / 12 between two corners of a face)
    as a CSR matrix. dtype, format and order as laplacian(); in input order a
    lumped vector is 0 where the matrices have an empty row."""
    fmt, double = _format(format), _double(dtype)
    out = mesh._mass_matrix(kind, double, order, stream)
    return _csr(fmt, out, _rows(mesh, order)) if kind == "full" else _vector(fmt, out)


def _csr_parts(A):
    """(row offsets, columns, values, shape) of a CSR matrix: a torch sparse
    CSR tensor, a cupyx.scipy.sparse.csr_matrix, or a tuple (row offsets,
    columns, values) of CUDA arrays (what format="arrays" returns)."""
    if str(getattr(A, "layout", "")) == "torch.sparse_csr":
        return A.crow_indices(), A.col_indices(), A.values(), tuple(A.shape)
    if getattr(A, "format", None) == "csr" and hasattr(A, "indptr"):
        return A.indptr, A.indices, A.data, tuple(A.shape)
    if isinstance(A, tuple) and len(A) == 3:
        n = len(A[0]) - 1
        return A[0], A[1], A[2], (n, n)
    raise TypeError("A: expected a torch sparse CSR tensor (layout torch.sparse_csr), a "
                    "cupyx.scipy.sparse.csr_matrix or (row_offsets, columns, values), got "
                    f"{type(A).__name__}")


def _like(x, b):
    """The solution as the framework of b holds it (no copy)."""
    top = type(b).__module__.split(".")[0]
    if top == "torch":
        return _import("torch").from_dlpack(x)
    if top == "cupy":
        return _import("cupy").from_dlpack(x)
    return x


class CholeskySolver:
    """A = L L^T on the GPU, supernodal (include/rxmesh/solver/cholesky.h), for a
    symmetric positive definite float64 CSR matrix over the mesh's vertices in
    mesh order (the analysis orders the rows by nested dissection of the mesh's
    positions): a torch sparse CSR tensor, a cupyx csr_matrix or (row_offsets,
    columns, values), on the current CUDA device, read in place.

    The constructor analyzes A's pattern (on the host: its indices are downloaded
    once) and, unless factor=False, factors A. factor(A) refactors new values of
    the same pattern (checked on the device); solve(b) solves for b of shape (n,)
    or (n, k), float64, C-contiguous, on the GPU, and returns x in b's framework.
    A matrix that is not symmetric or not positive definite raises ValueError
    with the library's message (naming the row); a wrong shape, dtype or device
    TypeError. factor and solve wait for the GPU (they return finished results)."""

    def __init__(self, A, mesh, factor=True, stream=None):
        offsets, columns, _, shape = _csr_parts(A)
        self._solver = _rxmesh._Cholesky(offsets, columns, shape, mesh, stream)
        if factor:
            self.factor(A, stream)

    def factor(self, A, stream=None):
        """The numeric factorization of A (the analyzed pattern, new values)."""
        offsets, columns, values, shape = _csr_parts(A)
        self._solver.factor(offsets, columns, values, shape, stream)
        return self

    def solve(self, b, stream=None):
        """x = A^-1 b for b (n,) or (n, k) float64 on the GPU; x as b's framework
        holds it (torch, CuPy; a rxmesh.DeviceArray otherwise)."""
        return _like(self._solver.solve(b, stream), b)

    @property
    def factored(self):
        return self._solver.factored

    @property
    def rows(self):
        return self._solver.rows

    def analysis(self):
        """What the analysis found: rows, supernodes, levels, entries of A and
        of L, flops, host times in ms, device bytes."""
        return self._solver.analysis()


def _cholesky(mesh, A, factor=True, stream=None):
    """rxmesh.CholeskySolver(A, mesh): the GPU Cholesky of A (mesh order)."""
    return CholeskySolver(A, mesh, factor=factor, stream=stream)


# the methods of rxmesh.Mesh that hand out framework objects live here, in Python
_rxmesh.Mesh.laplacian = laplacian
_rxmesh.Mesh.mass_matrix = mass_matrix
_rxmesh.Mesh.cholesky = _cholesky
