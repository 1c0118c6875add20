"""The package on real meshes (libcgal-demo's, extracted by the C++ tests'
build; RXMESH_CGAL_MESHES names the folder): the queries against the NumPy
reference, normals against Max's formula, and mean curvature flow and Loop
subdivision equal to the C++ apps' output."""
import os

import numpy as np
import pytest

import rxmesh
from meshes import app, csr, max_normals, reference_relations, run

pytestmark = pytest.mark.gpu
MESHES = ["armadillo.off", "bunny00.off", "cactus.off", "3torus.off", "blobby_3cc.off",
          "cube-ouvert.off", "couplingdown.off"]


def real(name):
    folder = os.environ.get("RXMESH_CGAL_MESHES", "")
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        pytest.skip(f"{name}: libcgal-demo's meshes not found (RXMESH_CGAL_MESHES)")
    return path


@pytest.mark.parametrize("name", MESHES)
def test_queries_and_normals(gpu, name):
    v, f = rxmesh.read(real(name))
    mesh = rxmesh.Mesh(v, f)
    faces = mesh.faces().numpy()
    edge_faces, vv, ve, vf, ff = reference_relations(faces, mesh.num_vertices)
    ev = mesh.edges().numpy()
    key = {tuple(map(int, e)): i for i, e in enumerate(ev)}
    assert set(key) == set(edge_faces) and len(key) == mesh.num_edges
    assert [set(x.tolist()) for x in csr(*mesh.query("VV"))] == vv
    assert [set(x.tolist()) for x in csr(*mesh.query("VF"))] == vf
    assert [set(x.tolist()) for x in csr(*mesh.query("FF"))] == ff
    assert [set(x.tolist()) for x in csr(*mesh.query("VE"))] == [{key[e] for e in s} for s in ve]
    assert [set(x.tolist()) for x in csr(*mesh.query("EF"))] == [edge_faces[tuple(map(int, e))] for e in ev]
    assert mesh.validate()["ok"]
    # normals: compare where Max's sum is well away from zero
    ref = max_normals(v, f)
    got = mesh.vertex_normals().numpy()
    used = np.isfinite(ref).all(1)
    np.testing.assert_allclose(got[used], ref[used], atol=1e-3)
    assert np.mean(np.linalg.norm(got[used] - ref[used], axis=1) < 1e-5) > 0.99


@pytest.mark.parametrize("name", ["armadillo.off", "bunny00.off"])
def test_mcf_and_loop_equal_the_apps(gpu, tmp_path, name):
    mcf, sub = app("mcf"), app("subdivide")
    if mcf is None or sub is None:
        pytest.skip("rxmesh-mcf / rxmesh-subdivide not built (RXMESH_APPS_DIR)")
    path = real(name)
    v, f = rxmesh.read(path)
    run([mcf, path, "--dt-scale", "10", "--steps", "1", "--tol", "1e-5", "-o", str(tmp_path / "mcf.ply")])
    expected, _ = rxmesh.read(str(tmp_path / "mcf.ply"))
    smoothed, report = rxmesh.Mesh(v, f).mean_curvature_flow(dt_scale=10, steps=1, tolerance=1e-5)
    assert report["converged"]
    np.testing.assert_allclose(smoothed.numpy(), expected, atol=1e-5 * np.ptp(v))
    run([sub, path, "--levels", "1", "-o", str(tmp_path / "loop.ply")])
    ev, ef = rxmesh.read(str(tmp_path / "loop.ply"))
    pv, pf = rxmesh.loop_subdivide(v, f, levels=1)
    np.testing.assert_array_equal(pf.numpy(), ef)
    np.testing.assert_allclose(pv.numpy(), ev, atol=1e-6 * np.ptp(v))
