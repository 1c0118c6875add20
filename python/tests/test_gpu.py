"""The module on a GPU: the build's statistics, vertex normals against a
NumPy reference of the same formula, and zero-copy hand-over to PyTorch and
CuPy (the tensor's address is the array's)."""
import numpy as np
import pytest

import rxmesh
from meshes import max_normals, torus

pytestmark = pytest.mark.gpu


def test_statistics(gpu):
    v, f = torus()
    mesh = rxmesh.Mesh(v, f)
    assert (mesh.num_vertices, mesh.num_faces, mesh.num_edges) == (len(v), len(f), len(v) + len(f))
    stats = mesh.statistics()
    assert stats["patches"] == mesh.num_patches >= 1


def test_vertex_normals_match_numpy(gpu):
    v, f = torus()
    normals = rxmesh.Mesh(v, f).vertex_normals()
    assert normals.shape == (len(v), 3)
    np.testing.assert_allclose(normals.numpy(), max_normals(v, f), atol=1e-5)


def test_torch_reads_without_a_copy(gpu):
    torch = pytest.importorskip("torch")
    v, f = torus()
    mesh = rxmesh.Mesh(torch.from_numpy(v).cuda(), torch.from_numpy(f).cuda())
    normals = mesh.vertex_normals()
    t = torch.from_dlpack(normals)
    assert t.is_cuda and t.data_ptr() == normals.ptr and tuple(t.shape) == (len(v), 3)
    np.testing.assert_allclose(t.cpu().numpy(), max_normals(v, f), atol=1e-5)
    del normals  # the tensor keeps the memory alive
    assert torch.isfinite(t).all()


def test_cupy_reads_without_a_copy(gpu):
    cupy = pytest.importorskip("cupy")
    v, f = torus()
    normals = rxmesh.Mesh(cupy.asarray(v), cupy.asarray(f)).vertex_normals()
    c = cupy.from_dlpack(normals)
    assert c.data.ptr == normals.ptr and c.shape == (len(v), 3)
    np.testing.assert_allclose(cupy.asnumpy(c), max_normals(v, f), atol=1e-5)


def test_mean_curvature_flow_by_cholesky_is_the_converged_cg(gpu):
    """The factored solve and a CG run to a tight tolerance solve one system."""
    rng = np.random.default_rng(3)
    v, f = torus()
    v = v + rng.normal(0, 0.01, v.shape).astype(np.float32)
    mesh = rxmesh.Mesh(v, f)
    direct, report = mesh.mean_curvature_flow(dt_scale=10, steps=2, solver="cholesky")
    cg, _ = mesh.mean_curvature_flow(dt_scale=10, steps=2, tolerance=1e-6, max_iterations=20000)
    assert report["solver"] == "cholesky" and report["iterations"] == 0 and report["converged"]
    assert report["final_residual"] < 1e-10
    # tests/algo/test_mcf.cu's bound for a CG stopped at 1e-6 against a direct solve
    diagonal = np.linalg.norm(v.max(0) - v.min(0))
    np.testing.assert_allclose(direct.numpy(), cg.numpy(), atol=1e-4 * diagonal)
    assert np.abs(direct.numpy() - v).max() > 1e-3  # it moved
    with pytest.raises(ValueError, match="solver"):
        mesh.mean_curvature_flow(solver="lu")


def test_mean_curvature_flow_equals_the_app(gpu, tmp_path):
    """The package and rxmesh-mcf run the same library call on the same mesh."""
    import os
    import subprocess
    app = os.path.join(os.environ.get("RXMESH_APPS_DIR", ""), "mcf", "rxmesh-mcf")
    if not os.path.exists(app):
        pytest.skip("rxmesh-mcf not built (RXMESH_APPS_DIR)")
    rng = np.random.default_rng(7)
    v, f = torus()
    v = v + rng.normal(0, 0.01, v.shape).astype(np.float32)  # something to smooth
    rxmesh.write_ply(str(tmp_path / "in.ply"), v, f)
    subprocess.run([app, str(tmp_path / "in.ply"), "-o", str(tmp_path / "out.ply"),
                    "--dt-scale", "10", "--steps", "2"], check=True, capture_output=True)
    app_positions, app_faces = rxmesh.read(str(tmp_path / "out.ply"))
    smoothed, report = rxmesh.Mesh(v, f).mean_curvature_flow(dt_scale=10, steps=2)
    assert report["converged"] and report["iterations"] > 0
    assert smoothed.shape == (len(v), 3)
    np.testing.assert_array_equal(app_faces, f)
    # the same solve; CG's float sums may round differently run to run
    np.testing.assert_allclose(smoothed.numpy(), app_positions, atol=1e-5)
    assert np.abs(smoothed.numpy() - v).max() > 1e-3  # it moved
