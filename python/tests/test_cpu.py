"""The module without a GPU: import, reading meshes into NumPy, and the
errors a caller gets for bad arguments (checked before any GPU work)."""
import os
import tempfile

import numpy as np
import pytest

import rxmesh

pytestmark = pytest.mark.cpu

TETRA = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


def write(text, suffix=".obj"):
    fd, path = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


def test_version():
    assert rxmesh.__version__.count(".") == 2


def test_read_gives_numpy_arrays():
    path = write(TETRA)
    try:
        v, f = rxmesh.read(path)
    finally:
        os.remove(path)
    assert v.dtype == np.float32 and v.shape == (4, 3)
    assert f.dtype == np.int32 and f.shape == (4, 3)
    np.testing.assert_array_equal(v[3], [0, 0, 1])
    np.testing.assert_array_equal(f[0], [0, 2, 1])  # OBJ's 1-based ids, 0-based here


def test_missing_file_is_oserror():
    with pytest.raises(OSError, match="nonexistent"):
        rxmesh.read("/nonexistent/mesh.obj")


def test_parse_error_is_valueerror_with_the_line():
    path = write("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n")
    try:
        with pytest.raises(ValueError, match=r":4: vertex index 7"):
            rxmesh.read(path)
    finally:
        os.remove(path)


@pytest.mark.parametrize("vertices, faces", [
    (np.zeros((4, 2), np.float32), np.zeros((1, 3), np.int32)),  # not (n, 3)
    (np.zeros((4, 3), np.float32), np.zeros((3,), np.int32)),     # not 2-D
    ("abc", np.zeros((1, 3), np.int32)),                          # not an array
])
def test_wrong_shape_or_type_is_typeerror(vertices, faces):
    with pytest.raises(TypeError):
        rxmesh.Mesh(vertices, faces)


def test_face_index_out_of_range_is_valueerror():
    with pytest.raises(ValueError, match="face 0 corner 2 names vertex 9"):
        rxmesh.Mesh(np.zeros((4, 3), np.float32), np.array([[0, 1, 9]]))


def test_write_ply_round_trip_with_a_scalar():
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], np.float32)
    f = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
    fd, path = tempfile.mkstemp(suffix=".ply")
    os.close(fd)
    try:
        rxmesh.write_ply(path, v, f, {"height": v[:, 2]})
        v2, f2 = rxmesh.read(path)
        with open(path, "rb") as fh:
            header = fh.read(300).split(b"end_header")[0]
    finally:
        os.remove(path)
    np.testing.assert_array_equal(v2, v)
    np.testing.assert_array_equal(f2, f)
    assert b"property float height" in header


def test_write_ply_scalar_must_be_1d():
    with pytest.raises(TypeError, match="height"):
        rxmesh.write_ply("/tmp/never.ply", np.zeros((3, 3)), np.array([[0, 1, 2]]),
                         {"height": np.zeros((3, 2))})


def test_bad_stream_is_typeerror():
    with pytest.raises(TypeError, match="stream"):
        rxmesh.Mesh(np.zeros((3, 3), np.float32), np.array([[0, 1, 2]]), stream="fast")


def test_float_faces_are_typeerror():
    with pytest.raises(TypeError, match="integer vertex ids"):
        rxmesh.Mesh(np.zeros((3, 3), np.float32), np.array([[0.0, 1.0, 2.0]]))


def test_negative_face_index_is_valueerror():
    with pytest.raises(ValueError, match="face 1 corner 0 names vertex -1"):
        rxmesh.Mesh(np.zeros((3, 3), np.float32), np.array([[0, 1, 2], [-1, 1, 2]]))


def test_loop_subdivide_checks_shapes():
    with pytest.raises(TypeError, match=r"faces: expected shape \(n, 3\)"):
        rxmesh.loop_subdivide(np.zeros((3, 3), np.float32), np.zeros((2, 4), np.int32))



def test_sparse_arguments_are_checked_before_the_gpu():
    """The sparse layer's Python side refuses a bad format, dtype or matrix
    before it asks the mesh for anything (no mesh, no GPU needed here)."""
    from rxmesh import sparse
    with pytest.raises(ValueError, match="format"):
        sparse.laplacian(None, format="scipy")
    with pytest.raises(TypeError, match="dtype"):
        sparse.mass_matrix(None, dtype="int32", format="arrays")
    with pytest.raises(TypeError, match="CSR"):
        rxmesh.CholeskySolver(np.eye(3), None)
    assert {sparse._double(d) for d in ("float64", np.float64, float)} == {True}
    assert {sparse._double(d) for d in ("float32", np.float32, np.dtype("float32"))} == {False}
