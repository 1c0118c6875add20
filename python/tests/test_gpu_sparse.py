"""The sparse-matrix layer from Python: the cotangent Laplacian and the mass
matrices against NumPy implementations of their formulas (written here from
the faces, in double), the GPU Cholesky against numpy.linalg.solve, the heat
method against the Euclidean distance on a plane, and the parameterization
against the properties it promises (the boundary on the unit circle by arc
length, each interior vertex the mean of its neighbours, no flipped face)."""
import numpy as np
import pytest

import rxmesh
from meshes import fan, grid, torus

pytestmark = pytest.mark.gpu


# ---- NumPy references, from the formulas ----


def cot_laplacian(v, f):
    """L_ij = -(cot a + cot b) / 2 over the angles opposite edge ij, L_ii = -sum_j L_ij."""
    v = v.astype(np.float64)
    L = np.zeros((len(v), len(v)))
    for k in range(3):
        i, j, o = f[:, k], f[:, (k + 1) % 3], f[:, (k + 2) % 3]
        e0, e1 = v[i] - v[o], v[j] - v[o]
        w = 0.5 * np.sum(e0 * e1, 1) / np.linalg.norm(np.cross(e0, e1), axis=1)
        np.add.at(L, (i, j), -w), np.add.at(L, (j, i), -w)
        np.add.at(L, (i, i), w), np.add.at(L, (j, j), w)
    return L


def face_areas(v, f):
    v = v.astype(np.float64)
    return 0.5 * np.linalg.norm(np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]]), axis=1)


def full_mass(v, f):
    """Per face of area A: A / 6 on each corner's diagonal, A / 12 between two corners."""
    M = np.zeros((len(v), len(v)))
    area = face_areas(v, f)
    for a in range(3):
        for b in range(3):
            np.add.at(M, (f[:, a], f[:, b]), area / (6 if a == b else 12))
    return M


def mixed_voronoi(v, f):
    """Meyer et al. 2003: the Voronoi area of a corner of a non-obtuse triangle,
    else half the area at the obtuse corner and a quarter at the others."""
    v = v.astype(np.float64)
    out = np.zeros(len(v))
    area = face_areas(v, f)
    dot = lambda a, b: np.sum(a * b, 1)
    for k in range(3):
        i, q, r = f[:, k], f[:, (k + 1) % 3], f[:, (k + 2) % 3]
        pi, pq, pr = v[i], v[q], v[r]
        # the dot products of each corner's edges: cot = dot / |cross| = dot / (2 area)
        at_i, at_q, at_r = dot(pq - pi, pr - pi), dot(pi - pq, pr - pq), dot(pi - pr, pq - pr)
        voronoi = (dot(pr - pi, pr - pi) * at_q + dot(pq - pi, pq - pi) * at_r) / (16 * area)
        other = np.where((at_q < 0) | (at_r < 0), area / 4, voronoi)
        np.add.at(out, i, np.where(at_i < 0, area / 2, other))
    return out


def has_obtuse(v, f):
    v = v.astype(np.float64)
    for k in range(3):
        p, a, b = v[f[:, k]], v[f[:, (k + 1) % 3]], v[f[:, (k + 2) % 3]]
        if np.any(np.sum((a - p) * (b - p), 1) < 0):
            return True
    return False


def jittered(n=12, m=9, seed=5):
    """A flat grid with its vertices moved in the plane: obtuse triangles."""
    v, f = grid(n, m, bump=0.0)
    rng = np.random.default_rng(seed)
    v[:, :2] += (0.3 / n) * rng.uniform(-1, 1, (len(v), 2)).astype(np.float32)
    return v, f


MESHES = {"torus": lambda: torus(16, 8), "bumpy grid": lambda: grid(12, 9),
          "jittered grid": jittered, "fan": lambda: fan(40)}
CAPACITY = 32  # faces per patch: several patches, so the mesh renumbers the vertices


def shuffled(v, f, seed=11):
    """The same mesh with its vertices in a random order."""
    perm = np.random.default_rng(seed).permutation(len(v))  # new vertex k is old perm[k]
    new_id = np.empty_like(perm)
    new_id[perm] = np.arange(len(v))
    return v[perm], new_id[f]


def dense(arrays, n):
    """A dense matrix from (row offsets, columns, values) DeviceArrays; checks
    the CSR: int32 indices, each row's columns sorted and unique."""
    o, c, x = (a.numpy() for a in arrays)
    assert o.dtype == np.int32 and c.dtype == np.int32 and len(o) == n + 1
    assert o[0] == 0 and o[-1] == len(c) == len(x) and np.all(np.diff(o) >= 0)
    for r in range(n):
        assert np.all(np.diff(c[o[r]:o[r + 1]]) > 0), f"row {r}: columns not sorted or repeated"
    A = np.zeros((n, n))
    A[np.repeat(np.arange(n), np.diff(o)), c] = x
    return A


def one_ring_pattern(f, n):
    """The vertex pattern: the diagonal and every edge, both ways."""
    P = np.eye(n, dtype=bool)
    for k in range(3):
        P[f[:, k], f[:, (k + 1) % 3]] = P[f[:, (k + 1) % 3], f[:, k]] = True
    return P


# ---- the matrices ----


@pytest.mark.parametrize("name", list(MESHES))
def test_laplacian_and_mass_match_the_formulas(gpu, name):
    v, f = shuffled(*MESHES[name]())
    mesh = rxmesh.Mesh(v, f, capacity=CAPACITY)
    n, g2i = mesh.num_vertices, mesh.global_vertex_to_input().numpy()
    assert n == len(v) and mesh.num_patches > 1
    assert not np.array_equal(g2i, np.arange(n))  # so the test sees the renumbering
    mesh_order = np.ix_(g2i, g2i)  # mesh row r is input vertex g2i[r]
    refs = {"L": cot_laplacian(v, f), "M": full_mass(v, f)}
    for key, arrays in [("L", mesh.laplacian(format="arrays")),
                        ("M", mesh.mass_matrix("full", format="arrays"))]:
        assert arrays[2].dtype == "float64"
        got, ref = dense(arrays, n), refs[key][mesh_order]
        # the pattern is the one-ring's, in the mesh's numbering (an entry may be 0)
        o = arrays[0].numpy()
        P = np.zeros((n, n), bool)
        P[np.repeat(np.arange(n), np.diff(o)), arrays[1].numpy()] = True
        np.testing.assert_array_equal(P, one_ring_pattern(mesh.faces().numpy(), n))
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-11 * np.abs(ref).max(), err_msg=key)
    np.testing.assert_allclose(refs["L"].sum(1), 0, atol=1e-10)  # the reference's own sanity
    lumped = mesh.mass_matrix("lumped", format="arrays").numpy()
    ref = mixed_voronoi(v, f)[g2i]
    np.testing.assert_allclose(lumped, ref, rtol=1e-11, atol=1e-14)
    # the mixed areas partition the surface
    assert lumped.sum() == pytest.approx(face_areas(v, f).sum(), rel=1e-12)


def test_the_jittered_grid_has_obtuse_triangles(gpu):
    assert has_obtuse(*jittered())  # so the mixed areas' obtuse branches are tested


def test_float32_matrices(gpu):
    v, f = grid(12, 9)
    mesh = rxmesh.Mesh(v, f, capacity=CAPACITY)
    g2i = mesh.global_vertex_to_input().numpy()
    arrays = mesh.laplacian(dtype=np.float32, format="arrays")
    assert arrays[2].dtype == "float32"
    ref = cot_laplacian(v, f)[np.ix_(g2i, g2i)]
    np.testing.assert_allclose(dense(arrays, len(v)), ref, rtol=0, atol=1e-5 * np.abs(ref).max())
    lumped = mesh.mass_matrix("lumped", dtype="float32", format="arrays")
    assert lumped.dtype == "float32"
    np.testing.assert_allclose(lumped.numpy(), mixed_voronoi(v, f)[g2i], rtol=1e-5)


def with_extra(v, f):
    """The mesh with an unused vertex inserted at row 3 (the build drops it)."""
    v2 = np.vstack([v[:3], [[9, 9, 9]], v[3:]]).astype(np.float32)
    return v2, np.where(f >= 3, f + 1, f)


def test_input_order_is_a_permuted_copy(gpu):
    v, f = with_extra(*grid(10, 8))
    mesh = rxmesh.Mesh(v, f, capacity=CAPACITY)
    n = len(v)
    assert mesh.num_vertices == n - 1 and mesh.num_input_vertices == n
    L = dense(mesh.laplacian(format="arrays", order="input"), n)
    ref = cot_laplacian(v, f)  # row 3 is empty: no face names it
    np.testing.assert_allclose(L, ref, rtol=0, atol=1e-11 * np.abs(ref).max())
    assert not L[3].any() and not L[:, 3].any()
    M = dense(mesh.mass_matrix("full", format="arrays", order="input"), n)
    np.testing.assert_allclose(M, full_mass(v, f), rtol=0, atol=1e-14)
    lumped = mesh.mass_matrix("lumped", format="arrays", order="input").numpy()
    np.testing.assert_allclose(lumped, mixed_voronoi(v, f), rtol=1e-11, atol=1e-14)
    assert lumped[3] == 0


def test_welded_copies_have_empty_rows_in_input_order(gpu):
    """Every vertex twice (bit-identical), the second half of the faces naming
    the copies: weld=True rebuilds the grid, and a matrix in input order puts
    each vertex's row at its first copy that a face names (the build drops an
    unused copy), the other copy's row empty."""
    v, f = grid(8, 6)
    n = len(v)
    f2 = f.copy()
    f2[len(f) // 2:] += n
    mesh = rxmesh.Mesh(np.vstack([v, v]), f2, weld=True, capacity=CAPACITY)
    assert mesh.num_vertices == n and mesh.num_input_vertices == 2 * n
    L = dense(mesh.laplacian(format="arrays", order="input"), 2 * n)
    used = np.zeros(2 * n, bool)
    used[f2.ravel()] = True
    first = np.where(used[:n], np.arange(n), np.arange(n) + n)  # each vertex's first kept copy
    np.testing.assert_array_equal(np.sort(mesh.global_vertex_to_input().numpy()), np.sort(first))
    ref = np.zeros((2 * n, 2 * n))
    ref[np.ix_(first, first)] = cot_laplacian(v, f)
    np.testing.assert_allclose(L, ref, rtol=0, atol=1e-11 * np.abs(ref).max())


def test_torch_matrices_use_the_librarys_memory(gpu):
    torch = pytest.importorskip("torch")
    v, f = torus(16, 8)
    mesh = rxmesh.Mesh(v, f, capacity=CAPACITY)
    g2i = mesh.global_vertex_to_input().numpy()
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    L = mesh.laplacian()  # PyTorch is imported: a torch tensor
    M = mesh.mass_matrix("full", format="torch")
    m = mesh.mass_matrix("lumped", format="torch")
    assert torch.cuda.memory_allocated() == before  # nothing allocated by PyTorch: no copy
    assert L.layout == torch.sparse_csr and L.is_cuda and L.dtype == torch.float64
    assert L.shape == (len(v), len(v)) and L.crow_indices().dtype == torch.int32
    assert m.shape == (len(v),) and m.dtype == torch.float64
    # the Laplacian and the mass matrix share one pattern (one set of arrays)
    assert L.crow_indices().data_ptr() == M.crow_indices().data_ptr()
    ref = cot_laplacian(v, f)[np.ix_(g2i, g2i)]
    np.testing.assert_allclose(L.to_dense().cpu().numpy(), ref, rtol=0,
                               atol=1e-11 * np.abs(ref).max())
    # torch's own sparse product on the library's matrix: L 1 = 0, 1^T M 1 = the area
    ones = torch.ones(len(v), 1, dtype=torch.float64, device="cuda")
    assert torch.abs(L @ ones).max().item() < 1e-10
    assert (M @ ones).sum().item() == pytest.approx(face_areas(v, f).sum(), rel=1e-12)


def test_cupy_matrices(gpu):
    cupy = pytest.importorskip("cupy")
    v, f = grid(12, 9)
    mesh = rxmesh.Mesh(v, f, capacity=CAPACITY)
    g2i = mesh.global_vertex_to_input().numpy()
    L = mesh.laplacian(format="cupy")
    assert L.format == "csr" and L.dtype == np.float64 and L.shape == (len(v), len(v))
    ref = cot_laplacian(v, f)[np.ix_(g2i, g2i)]
    np.testing.assert_allclose(cupy.asnumpy(L.toarray()), ref, rtol=0,
                               atol=1e-11 * np.abs(ref).max())
    m = mesh.mass_matrix(format="cupy")
    assert isinstance(m, cupy.ndarray)
    np.testing.assert_allclose(cupy.asnumpy(m), mixed_voronoi(v, f)[g2i], rtol=1e-11)


def test_bad_matrix_arguments(gpu):
    mesh = rxmesh.Mesh(*grid(6, 5))
    with pytest.raises(ValueError, match="kind"):
        mesh.mass_matrix("diagonal")
    with pytest.raises(ValueError, match="order"):
        mesh.laplacian(format="arrays", order="patch")
    with pytest.raises(ValueError, match="format"):
        mesh.laplacian(format="scipy")
    with pytest.raises(TypeError, match="dtype"):
        mesh.laplacian(dtype="int32", format="arrays")


# ---- the Cholesky ----


def spd_system(mesh, torch, t=0.01):
    """A = M + t L (full mass, cotangent Laplacian: one pattern), mesh order."""
    L = mesh.laplacian(format="torch")
    M = mesh.mass_matrix("full", format="torch")
    assert torch.equal(L.crow_indices(), M.crow_indices())
    assert torch.equal(L.col_indices(), M.col_indices())
    return torch.sparse_csr_tensor(L.crow_indices(), L.col_indices(), M.values() + t * L.values(),
                                   size=L.shape)


def test_cholesky_matches_numpy(gpu):
    torch = pytest.importorskip("torch")
    mesh = rxmesh.Mesh(*torus(16, 8), capacity=CAPACITY)
    A = spd_system(mesh, torch)
    dense_A = A.to_dense().cpu().numpy()
    rng = np.random.default_rng(7)
    b = rng.standard_normal((mesh.num_vertices, 3))
    solver = rxmesh.CholeskySolver(A, mesh)
    assert solver.factored and solver.analysis()["rows"] == mesh.num_vertices
    x = solver.solve(torch.from_numpy(b).cuda())
    assert isinstance(x, torch.Tensor) and x.shape == b.shape and x.dtype == torch.float64
    x = x.cpu().numpy()
    expected = np.linalg.solve(dense_A, b)
    assert np.linalg.norm(dense_A @ x - b) <= 1e-10 * np.linalg.norm(b)
    np.testing.assert_allclose(x, expected, rtol=1e-8, atol=1e-10 * np.abs(expected).max())
    # one right-hand side, 1-D
    x1 = solver.solve(torch.from_numpy(b[:, 1].copy()).cuda()).cpu().numpy()
    assert x1.shape == (mesh.num_vertices,)
    np.testing.assert_allclose(x1, expected[:, 1], rtol=1e-8, atol=1e-10 * np.abs(expected).max())
    # new values of the same pattern: refactored, solved again
    A2 = spd_system(mesh, torch, t=0.5)
    solver.factor(A2)
    x2 = mesh.cholesky(A2).solve(torch.from_numpy(b).cuda()).cpu().numpy()
    y2 = solver.solve(torch.from_numpy(b).cuda()).cpu().numpy()
    expected2 = np.linalg.solve(A2.to_dense().cpu().numpy(), b)
    for got in (x2, y2):
        np.testing.assert_allclose(got, expected2, rtol=1e-8, atol=1e-10 * np.abs(expected2).max())


def test_cholesky_from_cupy(gpu):
    cupy = pytest.importorskip("cupy")
    import cupyx.scipy.sparse as cps
    mesh = rxmesh.Mesh(*grid(12, 9))
    L = mesh.laplacian(format="cupy")
    M = mesh.mass_matrix("full", format="cupy")
    A = cps.csr_matrix((M.data + 0.05 * L.data, L.indices, L.indptr), shape=L.shape)
    b = cupy.asarray(np.random.default_rng(3).standard_normal((mesh.num_vertices, 2)))
    x = rxmesh.CholeskySolver(A, mesh).solve(b)
    assert isinstance(x, cupy.ndarray)
    expected = np.linalg.solve(cupy.asnumpy(A.toarray()), cupy.asnumpy(b))
    np.testing.assert_allclose(cupy.asnumpy(x), expected, rtol=1e-8,
                               atol=1e-10 * np.abs(expected).max())


def test_cholesky_refuses_what_it_cannot_solve(gpu):
    torch = pytest.importorskip("torch")
    mesh = rxmesh.Mesh(*grid(10, 8))
    n = mesh.num_vertices
    A = spd_system(mesh, torch)
    crow, col, val = A.crow_indices(), A.col_indices(), A.values()
    csr = lambda values: torch.sparse_csr_tensor(crow, col, values, size=A.shape)
    with pytest.raises(ValueError, match="not positive definite"):
        rxmesh.CholeskySolver(csr(-val), mesh)
    unsymmetric = val.clone()
    first_off_diagonal = int(torch.nonzero(col[:crow[1]] != 0)[0])  # row 0's first (0, j), j != 0
    unsymmetric[first_off_diagonal] += 1.0
    with pytest.raises(ValueError, match="not symmetric"):
        rxmesh.CholeskySolver(csr(unsymmetric), mesh)
    with pytest.raises(TypeError, match="float64"):
        rxmesh.CholeskySolver(csr(val.float()), mesh)
    with pytest.raises(TypeError, match="shape"):  # another mesh's: not one row per vertex
        rxmesh.CholeskySolver(spd_system(rxmesh.Mesh(*grid(6, 5)), torch), mesh)
    with pytest.raises(TypeError, match="CUDA"):
        rxmesh.CholeskySolver(A.cpu(), mesh)
    with pytest.raises(TypeError, match="CSR"):
        rxmesh.CholeskySolver(A.to_dense(), mesh)
    unfactored = rxmesh.CholeskySolver(A, mesh, factor=False)
    with pytest.raises(RuntimeError, match="factor"):
        unfactored.solve(torch.zeros(n, dtype=torch.float64, device="cuda"))
    solver = rxmesh.CholeskySolver(A, mesh)
    # another pattern: the diagonal alone
    diag = torch.arange(n + 1, dtype=torch.int32, device="cuda")
    ones = torch.ones(n, dtype=torch.float64, device="cuda")
    eye = torch.sparse_csr_tensor(diag, diag[:-1].clone(), ones, size=(n, n))
    with pytest.raises(ValueError, match="pattern"):
        solver.factor(eye)
    for bad, what in [(torch.zeros(n, dtype=torch.float32, device="cuda"), "float64"),
                      (torch.zeros(n + 1, dtype=torch.float64, device="cuda"), "rows"),
                      (torch.zeros(n, dtype=torch.float64), "CUDA"),
                      (torch.zeros(2, n, dtype=torch.float64, device="cuda").t(), "contiguous")]:
        with pytest.raises(TypeError, match=what):
            solver.solve(bad)


# ---- the heat method ----


def test_heat_geodesic_is_euclidean_on_a_plane(gpu):
    """On a plane the geodesic distance is the Euclidean one, which the heat
    method at t = h^2 meets within a few percent on average, away from the
    source (within ~sqrt(t) of it the method smooths): Crane et al. 2013."""
    n, m = 61, 61
    v, f = grid(n, m, bump=0.0)
    source = (n // 2) * m + m // 3
    d, report = rxmesh.Mesh(v, f).heat_geodesic([source])
    d = d.numpy()
    assert d.shape == (len(v),) and d[source] == 0 and np.isfinite(d).all()
    assert report["unreachable"] == 0 and report["setup"]["components"] == 1
    r = np.linalg.norm(v[:, :2].astype(np.float64) - v[source, :2], axis=1)
    far = r >= 0.1
    err = np.abs(d[far] - r[far]) / r[far]
    assert err.mean() < 0.03 and err.max() < 0.15


def test_heat_geodesic_components_and_dropped_vertices(gpu):
    gv, gf = grid(12, 10, bump=0.0)
    fv, ff = fan(16)
    fv = fv + np.float32([5, 0, 0])
    v = np.vstack([gv, fv, [[50, 50, 50]]]).astype(np.float32)  # the last: no face
    f = np.vstack([gf, ff + len(gv)])
    mesh = rxmesh.Mesh(v, f)
    d, report = mesh.heat_geodesic([0, 5])
    d = d.numpy()
    # the distance is shifted by the component's lowest source value: 0 at
    # one source, at the other what the heat method's smoothing over
    # sqrt(t) ~ one edge leaves (measured 1.04 edges), within two
    edge = np.linalg.norm(gv[1] - gv[0])
    assert min(d[0], d[5]) == 0 and max(d[0], d[5]) < 2 * edge
    assert np.isfinite(d[:len(gv)]).all()
    assert np.isposinf(d[len(gv):-1]).all() and np.isnan(d[-1])
    assert report["unreachable"] == len(fv)
    # the factored systems kept for more queries: the same distances
    heat = rxmesh.HeatGeodesic(mesh)
    again, _ = heat.distance([0, 5])
    np.testing.assert_allclose(again.numpy(), d, rtol=1e-6, atol=1e-7)
    apex, _ = heat.distance([len(gv)])  # the fan's apex: only the fan is reached
    apex = apex.numpy()
    assert np.isposinf(apex[:len(gv)]).all() and apex[len(gv)] == 0
    rim = np.linalg.norm(fv[1:] - fv[0], axis=1)  # the cone's slant: straight lines
    np.testing.assert_allclose(apex[len(gv) + 1:len(gv) + len(fv)], rim, rtol=0.1)
    assert heat.setup()["components"] == 2
    with pytest.raises(ValueError, match="out of range"):
        heat.distance([len(v)])
    with pytest.raises(ValueError, match="no face"):
        mesh.heat_geodesic([len(v) - 1])
    with pytest.raises(ValueError, match="time_factor"):
        rxmesh.HeatGeodesic(mesh, time_factor=-1.0)


# ---- the parameterization ----


def boundary_loop(f):
    """The boundary edges as the faces orient them: next[a] = b."""
    directed = {(int(a), int(b)) for x in f for a, b in zip(x, np.roll(x, -1))}
    nxt = {a: b for a, b in directed if (b, a) not in directed}
    start = min(nxt)
    loop = [start]
    while nxt[loop[-1]] != start:
        loop.append(nxt[loop[-1]])
    assert len(loop) == len(nxt)  # one loop
    return loop


def neighbours(f, n):
    nb = [set() for _ in range(n)]
    for x in f:
        for a, b in zip(x, np.roll(x, -1)):
            nb[a].add(int(b)), nb[b].add(int(a))
    return nb


def signed_areas(uv, f):
    a, b, c = uv[f[:, 0]], uv[f[:, 1]], uv[f[:, 2]]
    return (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])


def check_circle_by_arc_length(v, uv, loop):
    p = uv[loop].astype(np.float64)
    np.testing.assert_allclose(np.linalg.norm(p, axis=1), 1, atol=1e-5)
    lengths = np.linalg.norm(v[np.roll(loop, -1)].astype(np.float64) - v[loop], axis=1)
    turn = np.angle((p[:, 0] + 1j * p[:, 1])[np.roll(np.arange(len(loop)), -1)] /
                    (p[:, 0] + 1j * p[:, 1]))  # each boundary edge's angle, counter-clockwise
    np.testing.assert_allclose(turn, 2 * np.pi * lengths / lengths.sum(), atol=1e-5)


def test_tutte_on_a_disk(gpu):
    v, f = grid(14, 10)  # bumpy: not flat
    uv, report = rxmesh.Mesh(v, f, capacity=CAPACITY).parameterize()
    uv = uv.numpy()
    assert uv.shape == (len(v), 2) and uv.dtype == np.float32
    loop = boundary_loop(f)
    assert report["boundary_vertices"] == len(loop) and report["flipped_faces"] == 0
    check_circle_by_arc_length(v, uv, loop)
    assert np.all(signed_areas(uv.astype(np.float64), f) > 0)  # no face flipped
    on_loop = set(loop)
    for i, nb in enumerate(neighbours(f, len(v))):  # Tutte: each interior vertex the mean
        if i not in on_loop:
            np.testing.assert_allclose(uv[i], uv[list(nb)].mean(0), atol=1e-5)


def test_harmonic_on_a_disk(gpu):
    v, f = jittered(14, 10)
    v, f = with_extra(v, f)  # a dropped vertex: nan
    uv, report = rxmesh.Mesh(v, f, capacity=CAPACITY).parameterize(method="harmonic")
    uv = uv.numpy().astype(np.float64)
    assert np.isnan(uv[3]).all()
    loop = boundary_loop(f)
    check_circle_by_arc_length(v, uv, loop)
    interior = np.setdiff1d(np.unique(f), loop)
    L = cot_laplacian(v, f)
    residual = (L @ np.nan_to_num(uv))[interior]  # harmonic: L uv = 0 inside
    assert np.abs(residual).max() < 1e-4 * np.abs(L).max()
    assert report["boundary_vertices"] == len(loop)


def tube(n=16, m=6):
    """An open cylinder: two boundary loops."""
    a = 2 * np.pi * np.arange(n) / n
    v = np.array([[np.cos(t), np.sin(t), z] for z in np.linspace(0, 1, m) for t in a], np.float32)
    idx = lambda i, j: j * n + i % n
    f = [[idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)] for j in range(m - 1) for i in range(n)]
    f += [[idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)] for j in range(m - 1) for i in range(n)]
    return v, np.array(f, np.int64)


def test_parameterize_refuses_what_is_not_a_disk(gpu):
    with pytest.raises(ValueError, match="parameterize: .*closed"):
        rxmesh.Mesh(*torus(16, 8)).parameterize()
    with pytest.raises(ValueError, match="parameterize: .*2 boundary loops"):
        rxmesh.Mesh(*tube()).parameterize()
    with pytest.raises(ValueError, match="method"):
        rxmesh.Mesh(*grid(6, 5)).parameterize(method="abf")


def test_lscm_of_a_flat_disk_is_a_similarity(gpu):
    v, f = jittered(14, 10)
    v = v.copy()
    v[:, 2] = 0  # flat: its own conformal map, up to the similarity the pins choose
    uv, report = rxmesh.Mesh(v, f, capacity=CAPACITY).parameterize(method="lscm")
    uv = uv.numpy().astype(np.float64)
    assert report["flipped_faces"] == 0
    areas = signed_areas(v[:, :2].astype(np.float64), f)
    assert np.all(areas > 0) or np.all(areas < 0)
    z = v[:, 0].astype(np.float64) + 1j * v[:, 1]
    if areas[0] < 0:  # the faces turn clockwise in the plane: conformal is z's mirror
        z = np.conj(z)
    w = uv[:, 0] + 1j * uv[:, 1]
    # w = a z + b for one complex a, b: fit by least squares, then every vertex
    A = np.stack([z, np.ones_like(z)], axis=1)
    coef = np.linalg.lstsq(A, w, rcond=None)[0]
    assert abs(coef[0]) > 0
    np.testing.assert_allclose(A @ coef, w, atol=1e-5 * np.abs(w).max())
    pinned = np.flatnonzero((np.abs(w) == 0) | (w == 1))  # the two pins, exactly
    assert len(pinned) == 2
