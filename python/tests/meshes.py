"""Generated test meshes (NumPy) and small readers the tests share."""
import collections
import os
import subprocess

import numpy as np


def torus(n=48, m=24, R=1.0, r=0.35):
    """A closed torus: V - E + F = 0."""
    u, w = np.meshgrid(np.arange(n), np.arange(m), indexing="ij")
    a, b = 2 * np.pi * u / n, 2 * np.pi * w / m
    v = np.stack([(R + r * np.cos(b)) * np.cos(a), (R + r * np.cos(b)) * np.sin(a), r * np.sin(b)], -1)
    idx = lambda i, j: (i % n) * m + (j % m)
    faces = []
    for i in range(n):
        for j in range(m):
            faces.append([idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)])
            faces.append([idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)])
    return v.reshape(-1, 3).astype(np.float32), np.array(faces, np.int64)


def grid(n=20, m=14, bump=0.2):
    """An open, bumpy grid: boundary edges and vertices."""
    x, y = np.meshgrid(np.linspace(0, 1, n), np.linspace(0, 1, m), indexing="ij")
    z = bump * np.sin(3 * x) * np.cos(2 * y)
    v = np.stack([x, y, z], -1).reshape(-1, 3).astype(np.float32)
    faces = []
    for i in range(n - 1):
        for j in range(m - 1):
            a, b, c, d = i * m + j, (i + 1) * m + j, (i + 1) * m + j + 1, i * m + j + 1
            faces += [[a, b, c], [a, c, d]]
    return v, np.array(faces, np.int64)


def fan(k=40):
    """One vertex of valence k (a cone's apex) with an open rim."""
    ang = 2 * np.pi * np.arange(k) / k
    rim = np.stack([np.cos(ang), np.sin(ang), np.zeros(k)], -1)
    v = np.vstack([[0, 0, 0.5], rim]).astype(np.float32)
    f = np.array([[0, 1 + i, 1 + (i + 1) % k] for i in range(k)], np.int64)
    return v, f


def awkward():
    """Several components: a torus, a grid, an isolated face, a fan, three
    faces on one edge (non-manifold edge), two fans sharing one vertex
    (non-manifold vertex), and an unused vertex."""
    parts = [torus(12, 8), grid(6, 5), (np.array([[5, 5, 5], [6, 5, 5], [5, 6, 5]], np.float32),
                                        np.array([[0, 1, 2]], np.int64)), fan(30)]
    # three triangles on edge (0, 1)
    parts.append((np.array([[8, 0, 0], [9, 0, 0], [8.5, 1, 0], [8.5, -1, 0], [8.5, 0, 1]], np.float32),
                  np.array([[0, 1, 2], [1, 0, 3], [0, 1, 4]], np.int64)))
    # a bow tie: two triangles sharing only vertex 0
    parts.append((np.array([[12, 0, 0], [13, 1, 0], [13, -1, 0], [11, 1, 0], [11, -1, 0]], np.float32),
                  np.array([[0, 1, 2], [0, 3, 4]], np.int64)))
    vs, fs, off = [], [], 0
    for v, f in parts:
        vs.append(v), fs.append(f + off)
        off += len(v)
    vs.append(np.array([[50, 50, 50]], np.float32))  # unused
    return np.vstack(vs), np.vstack(fs)


def app(name):
    """The path of an app, or None when RXMESH_APPS_DIR does not hold it."""
    path = os.path.join(os.environ.get("RXMESH_APPS_DIR", ""), name, "rxmesh-" + name)
    return path if os.path.exists(path) else None


def run(cmd):
    subprocess.run(cmd, check=True, capture_output=True)


def read_ply_scalars(path):
    """A binary little-endian PLY's vertex properties, as a dict name -> array
    (the writer's layout: one vertex element, then faces)."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode().splitlines()
    assert "format binary_little_endian 1.0" in header
    types = {"float": "<f4", "double": "<f8", "int": "<i4", "uint": "<u4", "uchar": "u1"}
    count, props, in_vertex = 0, [], False
    for line in header:
        parts = line.split()
        if parts[:2] == ["element", "vertex"]:
            count, in_vertex = int(parts[2]), True
        elif parts[:1] == ["element"]:
            in_vertex = False
        elif parts[:1] == ["property"] and in_vertex:
            props.append((parts[2], types[parts[1]]))
    rows = np.frombuffer(data, dtype=np.dtype(props), count=count, offset=end)
    return {name: rows[name] for name, _ in props}


def max_normals(v, f):
    """Max's weights in double: each face adds cross(e1, e2) / (|e1|^2 |e2|^2) at each corner."""
    v = v.astype(np.float64)
    n = np.zeros_like(v)
    for k in range(3):
        p, a, b = v[f[:, k]], v[f[:, (k + 1) % 3]], v[f[:, (k + 2) % 3]]
        e1, e2 = a - p, b - p
        w = 1.0 / (np.sum(e1 * e1, 1) * np.sum(e2 * e2, 1))
        np.add.at(n, f[:, k], np.cross(e1, e2) * w[:, None])
    with np.errstate(invalid="ignore"):  # NaN rows: a sum of zero (no normal)
        return n / np.linalg.norm(n, axis=1, keepdims=True)


def csr(offsets, indices):
    o, i = offsets.numpy(), indices.numpy()
    assert o[0] == 0 and np.all(np.diff(o) >= 0) and o[-1] == len(i)
    return [i[o[r]:o[r + 1]] for r in range(len(o) - 1)]


def reference_relations(faces, num_vertices):
    """Every first-order relation from the faces alone, as sets of keys:
    edges are (min, max) vertex pairs."""
    edge_faces = collections.defaultdict(set)
    for fi, f in enumerate(faces):
        for k in range(3):
            a, b = int(f[k]), int(f[(k + 1) % 3])
            edge_faces[(min(a, b), max(a, b))].add(fi)
    vv = [set() for _ in range(num_vertices)]
    ve = [set() for _ in range(num_vertices)]
    vf = [set() for _ in range(num_vertices)]
    for (a, b), fs in edge_faces.items():
        vv[a].add(b), vv[b].add(a), ve[a].add((a, b)), ve[b].add((a, b))
    for fi, f in enumerate(faces):
        for v in f:
            vf[int(v)].add(fi)
    ff = [set() for _ in range(len(faces))]
    for fs in edge_faces.values():
        for g in fs:
            ff[g] |= fs - {g}
    return edge_faces, vv, ve, vf, ff
