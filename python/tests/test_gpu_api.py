"""The package's API on a GPU, each result against a NumPy reference written
from the faces (queries, k-rings, orders, attributes), the C++ apps' output
(geodesic, bilateral, Loop), or the properties the operation promises
(remeshing, simplification, Delaunay flips); zero-copy input and output by
pointer; PyTorch streams."""
import collections

import numpy as np
import pytest

import rxmesh
from meshes import app, awkward, csr, fan, grid, read_ply_scalars, reference_relations, run, torus

pytestmark = pytest.mark.gpu

MESHES = {"torus": torus, "grid": grid, "fan": fan, "awkward": awkward}


@pytest.mark.parametrize("name", list(MESHES))
def test_eight_queries_match_the_faces(gpu, name):
    v, f = MESHES[name]()
    mesh = rxmesh.Mesh(v, f)
    faces = mesh.faces().numpy()
    assert faces.shape == (mesh.num_faces, 3) and faces.dtype == np.int32
    edge_faces, vv, ve, vf, ff = reference_relations(faces, mesh.num_vertices)
    # EV: each edge once, smaller id first; it names the edge ids below
    ev = mesh.edges().numpy()
    assert ev.shape == (mesh.num_edges, 2) and np.all(ev[:, 0] < ev[:, 1])
    key = {tuple(map(int, e)): i for i, e in enumerate(ev)}
    assert len(key) == len(ev) and set(key) == set(edge_faces)
    np.testing.assert_array_equal(np.vstack(csr(*mesh.query("EV"))), ev)
    rows = {op: csr(*mesh.query(op)) for op in ["VV", "VE", "VF", "EF", "FV", "FE", "FF"]}
    for op, r in rows.items():
        assert all(len(set(x.tolist())) == len(x) for x in r), op + " repeats an entry"
    assert [set(x.tolist()) for x in rows["VV"]] == vv
    assert [set(x.tolist()) for x in rows["VE"]] == [{key[e] for e in s} for s in ve]
    assert [set(x.tolist()) for x in rows["VF"]] == vf
    assert [set(x.tolist()) for x in rows["EF"]] == [edge_faces[tuple(map(int, e))] for e in ev]
    assert [set(x.tolist()) for x in rows["FF"]] == ff
    for fi, (fv, fe) in enumerate(zip(rows["FV"], rows["FE"])):
        k = int(np.argmax(fv == faces[fi][0]))  # the same winding, any rotation
        np.testing.assert_array_equal(np.roll(fv, -k), faces[fi])
        assert fe.tolist() == [key[(min(int(fv[j]), int(fv[(j + 1) % 3])),
                                    max(int(fv[j]), int(fv[(j + 1) % 3])))] for j in range(3)]


def test_oriented_one_rings_are_cycles(gpu):
    v, f = torus()
    mesh = rxmesh.Mesh(v, f)
    faces = mesh.faces().numpy()
    directed = {(int(a), int(b)) for x in faces for a, b in zip(x, np.roll(x, -1))}
    for c, ring in enumerate(csr(*mesh.query("VV", oriented=True))):
        # counter-clockwise around c: (c, ring[i], ring[i + 1]) is a face's winding
        for a, b in zip(ring, np.roll(ring, -1)):
            assert (c, int(a)) in directed and (int(a), int(b)) in directed


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_krings_match_a_breadth_first_search(gpu, k):
    v, f = awkward()
    mesh = rxmesh.Mesh(v, f)
    _, vv, _, _, _ = reference_relations(mesh.faces().numpy(), mesh.num_vertices)
    for c, row in enumerate(csr(*mesh.kring(k))):
        seen, frontier = {c}, {c}
        for _ in range(k):
            frontier = set().union(*(vv[u] for u in frontier)) - seen
            seen |= frontier
        assert row[0] == c and len(set(row.tolist())) == len(row) and set(row.tolist()) == seen
    with pytest.raises(ValueError, match="k must be"):
        mesh.kring(-1)


def test_orders_and_maps(gpu):
    v, f = awkward()  # its last vertex is unused: dropped by the build
    mesh = rxmesh.Mesh(v, f)
    i2g = mesh.input_vertex_to_global().numpy()
    g2i = mesh.global_vertex_to_input().numpy()
    assert mesh.num_input_vertices == len(v) and mesh.num_vertices == len(v) - 1
    assert i2g[-1] == -1 and np.all(i2g[:-1] >= 0)
    np.testing.assert_array_equal(i2g[g2i], np.arange(mesh.num_vertices))
    np.testing.assert_array_equal(mesh.positions(order="mesh").numpy(), v[g2i])
    np.testing.assert_array_equal(mesh.positions().numpy(), v)  # the dropped one keeps its place
    # the faces in mesh numbering are the input faces, up to order and rotation
    canon = lambda F: sorted(tuple(np.roll(x, -int(np.argmin(x)))) for x in F)
    assert canon(g2i[mesh.faces().numpy()]) == canon(f)
    values = np.random.default_rng(1).random((mesh.num_vertices, 2)).astype(np.float32)
    back = mesh.to_input_order(values).numpy()
    np.testing.assert_array_equal(back[:-1], values[i2g[:-1]])
    np.testing.assert_array_equal(back[-1], 0)
    np.testing.assert_array_equal(mesh.to_mesh_order(back).numpy(), values)


def test_attributes_are_views_of_the_mesh(gpu):
    torch = pytest.importorskip("torch")
    v, f = grid()
    mesh = rxmesh.Mesh(v, f)
    assert {"position", "v:boundary", "e:boundary", "f:boundary"} <= set(mesh.attribute_names())
    boundary = mesh.attribute("v:boundary").numpy()
    faces = mesh.faces().numpy()
    edge_faces, *_ = reference_relations(faces, mesh.num_vertices)
    on_boundary = {u for e, fs in edge_faces.items() if len(fs) == 1 for u in e}
    assert set(np.flatnonzero(boundary).tolist()) == on_boundary
    heat = mesh.add_attribute("heat", np.arange(mesh.num_vertices, dtype=np.float32))
    t = torch.from_dlpack(heat)
    assert t.data_ptr() == mesh.attribute("heat").ptr  # the mesh's memory, no copy
    t += 1  # written through the view
    np.testing.assert_array_equal(mesh.attribute("heat").numpy(), np.arange(mesh.num_vertices) + 1)
    flow = mesh.add_attribute("flow", kind="face", components=3)
    assert flow.shape == (mesh.num_faces, 3) and not flow.numpy().any()
    with pytest.raises(RuntimeError, match="heat"):
        mesh.add_attribute("heat")
    with pytest.raises(TypeError, match="rows"):
        mesh.add_attribute("short", np.zeros(3, np.float32))
    mesh.remove_attribute("heat")
    assert "heat" not in mesh.attribute_names()
    with pytest.raises(ValueError, match="no attribute"):
        mesh.attribute("heat")


def test_memory_and_validate(gpu):
    mesh = rxmesh.Mesh(*awkward())
    mem = mesh.memory()
    assert mem["total"] == sum(mem[k] for k in ["patch_store", "positions", "vertex_maps",
                                                  "attributes", "kring_halo"]) > 0
    assert mem["positions"] >= 12 * mesh.num_vertices
    report = mesh.validate()
    assert report["ok"] and report["violations"] == 0


def test_cuda_inputs_are_read_in_place(gpu):
    torch = pytest.importorskip("torch")
    v, f = torus()
    tv, tf = torch.from_numpy(v).cuda(), torch.from_numpy(f).int().cuda()
    mesh = rxmesh.Mesh(tv, tf)
    assert mesh.built_from_device and mesh.statistics()["build_ms"]["upload"] == 0
    # int64 and float64 CUDA arrays are converted on the device, with the same mesh
    other = rxmesh.Mesh(tv.double(), tf.long())
    np.testing.assert_array_equal(other.faces().numpy(), mesh.faces().numpy())
    # the build never wrote the caller's arrays
    np.testing.assert_array_equal(tv.cpu().numpy(), v)
    np.testing.assert_array_equal(tf.cpu().numpy(), f)


def test_bad_cuda_inputs(gpu):
    torch = pytest.importorskip("torch")
    v, f = torus()
    tv, tf = torch.from_numpy(v).cuda(), torch.from_numpy(f).cuda()
    with pytest.raises(TypeError, match="contiguous"):
        rxmesh.Mesh(tv.t().contiguous().t(), tf)
    with pytest.raises(TypeError, match="integer"):
        rxmesh.Mesh(tv, tf.float())
    with pytest.raises(TypeError, match="float"):
        rxmesh.Mesh(tv.int(), tf)
    with pytest.raises(TypeError, match="shape"):
        rxmesh.Mesh(tv[:, :2].contiguous(), tf)
    bad = tf.clone()
    bad[5, 1] = len(v)
    with pytest.raises(ValueError, match="5 corner 1"):
        rxmesh.Mesh(tv, bad)
    bad[5, 1] = -3
    with pytest.raises(ValueError, match="5 corner 1"):
        rxmesh.Mesh(tv, bad)
    nan = tv.clone()
    nan[7, 2] = float("nan")
    with pytest.raises(ValueError, match="vertex 7 has a non-finite"):
        rxmesh.Mesh(nan, tf)


def test_results_follow_the_callers_stream(gpu):
    torch = pytest.importorskip("torch")
    v, f = torus()
    expected = rxmesh.Mesh(v, f).vertex_normals().numpy()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        tv = torch.from_numpy(v).cuda(non_blocking=True)  # written on `side`
        tf = torch.from_numpy(f).cuda(non_blocking=True)
        mesh = rxmesh.Mesh(tv, tf)                      # read on `side` (the current stream)
        normals = torch.from_dlpack(mesh.vertex_normals())
        normals.mul_(2)                                  # queued after our kernels
    torch.cuda.synchronize()
    np.testing.assert_allclose(normals.cpu().numpy(), 2 * expected, atol=1e-6)
    explicit = mesh.vertex_normals(stream=side)
    np.testing.assert_allclose(torch.from_dlpack(explicit).cpu().numpy(), expected, atol=1e-6)
    with pytest.raises(TypeError, match="stream"):
        mesh.vertex_normals(stream="fast")


def noisy(v, scale, seed=3):
    return v + np.random.default_rng(seed).normal(0, scale, v.shape).astype(np.float32)


def test_geodesic_equals_the_app(gpu, tmp_path):
    exe = app("geodesic")
    if exe is None:
        pytest.skip("rxmesh-geodesic not built (RXMESH_APPS_DIR)")
    v, f = grid(30, 20)
    rxmesh.write_ply(str(tmp_path / "in.ply"), v, f)
    run([exe, str(tmp_path / "in.ply"), "-s", "0,77", "-o", str(tmp_path / "out.ply")])
    expected = read_ply_scalars(str(tmp_path / "out.ply"))["distance"]
    d, report = rxmesh.Mesh(v, f).geodesic_distance([0, 77])
    assert report["converged"] and d.shape == (len(v),)
    got = d.numpy()
    assert got[0] == 0 and got[77] == 0
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="out of range"):
        rxmesh.Mesh(v, f).geodesic_distance([len(v)])


def test_bilateral_equals_the_app(gpu, tmp_path):
    exe = app("bilateral")
    if exe is None:
        pytest.skip("rxmesh-bilateral not built (RXMESH_APPS_DIR)")
    v, f = torus()
    v = noisy(v, 0.005)
    rxmesh.write_ply(str(tmp_path / "in.ply"), v, f)
    run([exe, str(tmp_path / "in.ply"), "--iters", "3", "--noise", "0", "-o", str(tmp_path / "out.ply")])
    expected, _ = rxmesh.read(str(tmp_path / "out.ply"))
    got = rxmesh.Mesh(v, f).bilateral_denoise(iterations=3).numpy()
    np.testing.assert_allclose(got, expected, atol=1e-6)
    assert np.abs(got - v).max() > 1e-4  # it moved


def test_loop_subdivision_equals_the_app(gpu, tmp_path):
    exe = app("subdivide")
    if exe is None:
        pytest.skip("rxmesh-subdivide not built (RXMESH_APPS_DIR)")
    torch = pytest.importorskip("torch")
    v, f = torus(16, 8)
    rxmesh.write_ply(str(tmp_path / "in.ply"), v, f)
    run([exe, str(tmp_path / "in.ply"), "--levels", "2", "-o", str(tmp_path / "out.ply")])
    ev, ef = rxmesh.read(str(tmp_path / "out.ply"))
    pv, pf = rxmesh.loop_subdivide(torch.from_numpy(v).cuda(), torch.from_numpy(f).cuda(), levels=2)
    assert pv.shape == (len(v) + 3 * len(f) // 2 + 6 * len(f), 3) and pf.shape == (16 * len(f), 3)
    np.testing.assert_array_equal(pf.numpy(), ef)
    np.testing.assert_allclose(pv.numpy(), ev, atol=1e-6)


def euler(v_count, faces):
    edges = {(min(a, b), max(a, b)) for x in faces for a, b in zip(x, np.roll(x, -1))}
    return v_count - len(edges) + len(faces)


def check_new_mesh(vertices, faces, input_vertex):
    p, F, iv = vertices.numpy(), faces.numpy(), input_vertex.numpy()
    assert F.min() >= 0 and F.max() < len(p) and len(iv) == len(p)
    assert np.all(F[:, 0] != F[:, 1]) and np.all(F[:, 1] != F[:, 2]) and np.all(F[:, 0] != F[:, 2])
    assert len({tuple(sorted(x)) for x in F}) == len(F)  # no repeated face
    return p, F, iv


def test_remesh_properties(gpu):
    v, f = torus()
    mesh = rxmesh.Mesh(v, f)
    target = 0.08
    nv, nf, iv, report = mesh.remesh(target_length=target, iterations=3)
    p, F, iv = check_new_mesh(nv, nf, iv)
    assert report["iterations"] == 3 and not report["hit_pass_bound"]
    assert euler(len(p), F) == 0  # still a torus
    lengths = [np.linalg.norm(p[a] - p[b]) for x in F for a, b in zip(x, np.roll(x, -1))]
    assert 0.8 * target < np.mean(lengths) < 4 / 3 * target
    # every vertex was projected back onto the input surface: the torus' tube
    radial = np.hypot(np.hypot(p[:, 0], p[:, 1]) - 1.0, p[:, 2])
    assert np.abs(radial - 0.35).max() < 0.01


def test_simplify_properties(gpu):
    v, f = torus()
    nv, nf, iv, report = rxmesh.Mesh(v, f).simplify(target_faces=len(f) // 4)
    p, F, iv = check_new_mesh(nv, nf, iv)
    assert report["reached_target"] and len(F) <= len(f) // 4
    assert euler(len(p), F) == 0 and len(p) < len(v)
    assert np.isfinite(p).all()


def test_delaunay_properties(gpu):
    v, f = grid(16, 12)
    v = noisy(v, 0.01)
    nv, nf, iv, report = rxmesh.Mesh(v, f).delaunay()
    p, F, iv = check_new_mesh(nv, nf, iv)
    assert report["converged"] and report["flips"] > 0 and len(F) == len(f)
    np.testing.assert_array_equal(p, v[iv])  # flips move no vertex
    # every interior edge: the angles opposite it sum to at most pi (cot sum >= -tol)
    opposite = collections.defaultdict(list)
    for x in F:
        for k in range(3):
            a, b, c = x[k], x[(k + 1) % 3], x[(k + 2) % 3]
            e1, e2 = p[a] - p[c], p[b] - p[c]
            opposite[(min(a, b), max(a, b))].append(np.dot(e1, e2) / np.linalg.norm(np.cross(e1, e2)))
    interior = [sum(c) for c in opposite.values() if len(c) == 2]
    assert interior and sum(c < -1e-4 for c in interior) <= report["refused"]


def test_topology_straight_from_arrays(gpu):
    """rxmesh.remesh / simplify / delaunay take arrays with no Mesh built:
    the same promises as the Mesh methods, input_vertex the input row."""
    v, f = torus()
    target = 0.08
    nv, nf, iv, report = rxmesh.remesh(v, f, target_length=target, iterations=3)
    p, F, iv = check_new_mesh(nv, nf, iv)
    assert report["iterations"] == 3 and euler(len(p), F) == 0
    lengths = [np.linalg.norm(p[a] - p[b]) for x in F for a, b in zip(x, np.roll(x, -1))]
    assert 0.8 * target < np.mean(lengths) < 4 / 3 * target
    kept = iv >= 0
    assert kept.any() and iv[kept].max() < len(v)

    nv, nf, iv, report = rxmesh.simplify(v, f, target_faces=len(f) // 4)
    p, F, iv = check_new_mesh(nv, nf, iv)
    assert report["reached_target"] and len(F) <= len(f) // 4 and euler(len(p), F) == 0

    g, gf = grid(16, 12)
    g = noisy(g, 0.01)
    nv, nf, iv, report = rxmesh.delaunay(g, gf)
    p, F, iv = check_new_mesh(nv, nf, iv)
    assert report["converged"] and report["flips"] > 0 and len(F) == len(gf)
    np.testing.assert_array_equal(iv, np.arange(len(g)))  # slot i is input row i
    np.testing.assert_array_equal(p, g)


def test_topology_from_device_tensors_and_bad_arrays(gpu):
    torch = pytest.importorskip("torch")
    g, gf = grid(8, 6)
    g = noisy(g, 0.01)
    tv, tf = torch.from_numpy(g).cuda(), torch.from_numpy(gf).int().cuda()
    nv, nf, iv, _ = rxmesh.delaunay(tv, tf)
    np.testing.assert_array_equal(nv.numpy(), g)
    # bad arrays: refused with the element named, on the host and on the device
    bad = gf.copy()
    bad[3] = [0, 1, len(g)]
    with pytest.raises(ValueError, match="face 3"):
        rxmesh.delaunay(g, bad)
    with pytest.raises(ValueError, match="face 3"):
        rxmesh.delaunay(tv, torch.from_numpy(bad).int().cuda())
    nan = g.copy()
    nan[5, 1] = np.nan
    with pytest.raises(ValueError, match="vertex 5"):
        rxmesh.remesh(torch.from_numpy(nan).cuda(), tf)
    with pytest.raises(ValueError, match="target_length"):
        rxmesh.remesh(g, gf, target_length=-1.0)
