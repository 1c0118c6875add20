"""rxmesh.autograd: the forward values against NumPy references of the same
formulas, and the gradients against finite differences
(torch.autograd.gradcheck, in float64) on closed, open and welded meshes."""
import numpy as np
import pytest

import rxmesh
from meshes import fan, grid, max_normals, torus

pytestmark = pytest.mark.gpu
try:
    import torch
    import rxmesh.autograd as ag
except ImportError:  # the tests skip (the cpu run never collects them)
    torch = ag = None


@pytest.fixture
def gpu_torch(gpu):
    if torch is None:
        pytest.skip("PyTorch is not installed")


def cot_laplacian_numpy(v, f, x):
    """y_i = sum over faces, for each corner c opposite edge (a, b): cot(c) / 2 (x_b - x_a) at a
    and (x_a - x_b) at b, in double."""
    v, x = v.astype(np.float64), x.astype(np.float64)
    y = np.zeros_like(x)
    for c in range(3):
        a, b = (c + 1) % 3, (c + 2) % 3
        u, w = v[f[:, a]] - v[f[:, c]], v[f[:, b]] - v[f[:, c]]
        cot = np.sum(u * w, 1) / np.linalg.norm(np.cross(u, w), axis=1)
        d = 0.5 * cot.reshape((-1,) + (1,) * (x.ndim - 1)) * (x[f[:, b]] - x[f[:, a]])
        np.add.at(y, f[:, a], d)
        np.add.at(y, f[:, b], -d)
    return y


def small(kind):
    rng = np.random.default_rng(11)
    v, f = {"torus": lambda: torus(8, 6), "grid": lambda: grid(5, 4), "fan": lambda: fan(7)}[kind]()
    return v + rng.normal(0, 0.02, v.shape).astype(np.float32), f


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_forward_values(gpu_torch, dtype):
    v, f = torus()
    mesh = rxmesh.Mesh(v, f)
    dtype = getattr(torch, dtype)
    p = torch.from_numpy(v).cuda().to(dtype)
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    np.testing.assert_allclose(ag.vertex_normals(mesh, p).cpu().numpy(), max_normals(v, f), atol=tol)
    x = torch.randn(len(v), 2, device="cuda", dtype=dtype)
    np.testing.assert_allclose(ag.cotan_laplacian(mesh, p, x).cpu().numpy(),
                               cot_laplacian_numpy(v, f, x.cpu().numpy()), atol=100 * tol)


@pytest.mark.parametrize("kind", ["torus", "grid", "fan"])
def test_vertex_normals_gradcheck(gpu_torch, kind):
    v, f = small(kind)
    mesh = rxmesh.Mesh(v, f)
    p = torch.from_numpy(v).cuda().double().requires_grad_()
    assert torch.autograd.gradcheck(lambda q: ag.vertex_normals(mesh, q), (p,), eps=1e-6, atol=1e-6)


@pytest.mark.parametrize("kind", ["torus", "grid"])
@pytest.mark.parametrize("cols", [1, 3])
def test_cotan_laplacian_gradcheck(gpu_torch, kind, cols):
    v, f = small(kind)
    mesh = rxmesh.Mesh(v, f)
    p = torch.from_numpy(v).cuda().double().requires_grad_()
    shape = (len(v),) if cols == 1 else (len(v), cols)
    x = torch.randn(shape, device="cuda", dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda q, y: ag.cotan_laplacian(mesh, q, y), (p, x),
                                    eps=1e-6, atol=1e-6)


def test_welded_copies_share_a_gradient(gpu_torch):
    """A welded input vertex appears twice: its positions' gradient goes to the
    first copy, and the outputs of both copies are equal."""
    v, f = small("grid")
    v2 = np.vstack([v, v[:1]])  # vertex len(v) is a bit-identical copy of vertex 0
    f2 = f.copy()
    f2[f2 == 0] = len(v)  # faces name only the copy
    f2[0, np.flatnonzero(f[0] == 0)] = 0  # ... except face 0
    mesh = rxmesh.Mesh(v2, f2, weld=True)
    assert mesh.num_vertices == len(v)
    p = torch.from_numpy(v2).cuda().double().requires_grad_()
    n = ag.vertex_normals(mesh, p)
    torch.testing.assert_close(n[0], n[len(v)])
    n.sum().backward()
    assert torch.all(p.grad[len(v)] == 0) and torch.any(p.grad[0] != 0)


def test_argument_errors(gpu_torch):
    v, f = small("grid")
    mesh = rxmesh.Mesh(v, f)
    with pytest.raises(TypeError, match="CUDA"):
        ag.vertex_normals(mesh, torch.from_numpy(v))
    with pytest.raises(TypeError, match="shape"):
        ag.vertex_normals(mesh, torch.zeros(len(v) + 1, 3, device="cuda"))
    with pytest.raises(TypeError, match="float32 or float64"):
        ag.vertex_normals(mesh, torch.zeros(len(v), 3, device="cuda", dtype=torch.int32))
    p = torch.from_numpy(v).cuda()
    with pytest.raises(TypeError, match="x:"):
        ag.cotan_laplacian(mesh, p, torch.zeros(len(v), 4, device="cuda"))
    with pytest.raises(TypeError, match="dtype"):
        ag.cotan_laplacian(mesh, p, torch.zeros(len(v), device="cuda", dtype=torch.float64))
