"""Differentiable mesh operators for torch.autograd, computed by RXMesh.

    import rxmesh, rxmesh.autograd, torch
    mesh = rxmesh.Mesh(vertices, faces)
    p = torch.tensor(vertices, device="cuda", requires_grad=True)
    n = rxmesh.autograd.vertex_normals(mesh, p)           # (n, 3), unit
    y = rxmesh.autograd.cotan_laplacian(mesh, p, p)       # L(p) x with x = p
    (n.sum() + y.square().sum()).backward()               # p.grad

The mesh gives the connectivity; `positions` (one row per input vertex, in
input order, float32 or float64, on the mesh's CUDA device) are the
variable. The gradients are exact vector-Jacobian products (no finite
differences), in the positions' precision: gradcheck them in float64.
"""
import torch

__all__ = ["vertex_normals", "cotan_laplacian"]


def _stream():
    return torch.cuda.current_stream().cuda_stream


def _check(mesh, name, t, cols):
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor")
    if not t.is_cuda:
        raise TypeError(f"{name}: expected a CUDA tensor")
    if t.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"{name}: expected float32 or float64, got {t.dtype}")
    want = (mesh.num_input_vertices, cols) if cols > 1 else None
    if cols > 1 and tuple(t.shape) != want:
        raise TypeError(f"{name}: expected shape {want}, got {tuple(t.shape)}")
    return t.contiguous()


class _VertexNormals(torch.autograd.Function):
    @staticmethod
    def forward(ctx, positions, mesh):
        out = torch.empty_like(positions)
        mesh._normals_forward(positions.dtype == torch.float64, positions.data_ptr(),
                              out.data_ptr(), _stream())
        ctx.mesh = mesh
        ctx.save_for_backward(positions)
        return out

    @staticmethod
    def backward(ctx, grad):
        (positions,) = ctx.saved_tensors
        grad = grad.contiguous()
        out = torch.empty_like(positions)
        ctx.mesh._normals_backward(positions.dtype == torch.float64, positions.data_ptr(),
                                   grad.data_ptr(), out.data_ptr(), _stream())
        return out, None


class _CotanLaplacian(torch.autograd.Function):
    @staticmethod
    def forward(ctx, positions, x, mesh):
        cols = 1 if x.dim() == 1 else x.shape[1]
        y = torch.empty_like(x)
        mesh._laplacian_forward(positions.dtype == torch.float64, cols, positions.data_ptr(),
                                x.data_ptr(), y.data_ptr(), _stream())
        ctx.mesh, ctx.cols = mesh, cols
        ctx.save_for_backward(positions, x)
        return y

    @staticmethod
    def backward(ctx, grad):
        positions, x = ctx.saved_tensors
        grad = grad.contiguous()
        want_p, want_x = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        gp = torch.empty_like(positions) if want_p else None
        gx = torch.empty_like(x) if want_x else None
        if want_p or want_x:
            ctx.mesh._laplacian_backward(positions.dtype == torch.float64, ctx.cols,
                                         positions.data_ptr(), x.data_ptr(), grad.data_ptr(),
                                         gp.data_ptr() if want_p else 0,
                                         gx.data_ptr() if want_x else 0, _stream())
        return gp, gx, None


def vertex_normals(mesh, positions):
    """Unit vertex normals (Max's weights) of `positions` (n, 3), differentiable."""
    positions = _check(mesh, "positions", positions, 3)
    return _VertexNormals.apply(positions, mesh)


def cotan_laplacian(mesh, positions, x):
    """y = L(positions) x: y_i = sum_j (cot a_ij + cot b_ij) / 2 (x_j - x_i), for x of
    shape (n,), (n, 1), (n, 2) or (n, 3); differentiable in positions and x."""
    positions = _check(mesh, "positions", positions, 3)
    if not isinstance(x, torch.Tensor) or x.dim() not in (1, 2) or x.shape[0] != mesh.num_input_vertices \
            or (x.dim() == 2 and not 1 <= x.shape[1] <= 3):
        raise TypeError(f"x: expected shape ({mesh.num_input_vertices},) or "
                        f"({mesh.num_input_vertices}, 1..3)")
    if x.dtype != positions.dtype or x.device != positions.device:
        raise TypeError("x: expected the positions' dtype and device")
    return _CotanLaplacian.apply(positions, x.contiguous(), mesh)
