"""bench_python: what calling RXMesh from Python costs, and RXMesh against
PyTorch-only versions of the same operations, in one run on one GPU.

1. Python against C++: the same library call (python/src/ops.h) timed the
   same way from both sides: after two warm-up calls, N calls back to back
   and one wait for the stream, host wall time over N; the median of 7 such
   repeats. Python's per-call overhead on a small mesh's query, and the
   ratio for vertex normals, mean curvature flow and remeshing on a large
   mesh.
2. RXMesh against PyTorch alone (CUDA events, median): vertex normals with
   index_add_ (Max's weights), and the cotangent Laplacian's product y = L x
   with torch.sparse (matrix assembled once, outside the timing) against
   rxmesh.autograd.cotan_laplacian (weights from the positions in every
   call). Every output is checked against the other's at every size.

    PYTHONPATH=build/python python3 python/benchmarks/bench_python.py --json out.json
"""
import argparse
import json
import statistics
import time
import warnings

import numpy as np
import torch

import rxmesh
import rxmesh.autograd as ag


def torus(n, m, R=1.0, r=0.35):
    """A closed torus of 2 n m faces (vectorised)."""
    i, j = np.meshgrid(np.arange(n), np.arange(m), indexing="ij")
    a, b = 2 * np.pi * i / n, 2 * np.pi * j / m
    v = np.stack([(R + r * np.cos(b)) * np.cos(a), (R + r * np.cos(b)) * np.sin(a), r * np.sin(b)], -1)
    idx = lambda x, y: (x % n) * m + (y % m)
    q = [idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1)]
    f = np.concatenate([np.stack([q[0], q[1], q[2]], -1).reshape(-1, 3),
                        np.stack([q[0], q[2], q[3]], -1).reshape(-1, 3)])
    return v.reshape(-1, 3).astype(np.float32), f.astype(np.int32)


REPEATS = 7


def wall_ms(fn, runs, repeats=REPEATS):
    """As Mesh._time_cpp: two warm-ups, then per repeat `runs` calls and one
    wait for the current stream; the median over repeats of ms per call."""
    stream = torch.cuda.current_stream()
    fn(), fn()
    out = []
    for _ in range(repeats):
        stream.synchronize()
        t = time.perf_counter()
        for _ in range(runs):
            fn()
        stream.synchronize()
        out.append(1e3 * (time.perf_counter() - t) / runs)
    return statistics.median(out)


def event_ms(fn, runs, warmup=2):
    out = []
    for r in range(warmup + runs):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        if r >= warmup:
            out.append(start.elapsed_time(stop))
    return statistics.median(out)


def torch_normals(p, f):
    """Max's weights with index_add_ (PyTorch only)."""
    n = torch.zeros_like(p)
    for k in range(3):
        c, a, b = p[f[:, k]], p[f[:, (k + 1) % 3]], p[f[:, (k + 2) % 3]]
        e1, e2 = a - c, b - c
        w = 1.0 / ((e1 * e1).sum(1) * (e2 * e2).sum(1))
        n.index_add_(0, f[:, k], torch.linalg.cross(e1, e2) * w[:, None])
    return torch.nn.functional.normalize(n, dim=1)


def torch_laplacian(p, f):
    """The cotangent Laplacian as a torch.sparse CSR matrix: L_ij = w_ij, L_ii = -sum_j w_ij."""
    rows, cols, vals = [], [], []
    for c in range(3):
        a, b = f[:, (c + 1) % 3], f[:, (c + 2) % 3]
        u, w = p[a] - p[f[:, c]], p[b] - p[f[:, c]]
        cot = 0.5 * (u * w).sum(1) / torch.linalg.cross(u, w).norm(dim=1)
        rows += [a, b, a, b]
        cols += [b, a, a, b]
        vals += [cot, cot, -cot, -cot]
    n = p.shape[0]
    with warnings.catch_warnings():  # torch.sparse's notes on invariant checks and beta status
        warnings.simplefilter("ignore", UserWarning)
        L = torch.sparse_coo_tensor(torch.stack([torch.cat(rows), torch.cat(cols)]), torch.cat(vals), (n, n))
        return L.coalesce().to_sparse_csr()


def overhead(runs):
    v, f = torus(48, 24)
    mesh = rxmesh.Mesh(v, f)
    py = wall_ms(lambda: mesh.query("VV"), runs)
    cpp = statistics.median(mesh._time_cpp("query_vv", runs, REPEATS))
    return {"faces": len(f), "python_ms": py, "cpp_ms": cpp, "overhead_us": 1e3 * (py - cpp)}


def python_vs_cpp(n, runs, remesh_runs):
    v, f = torus(n, n)
    mesh = rxmesh.Mesh(torch.from_numpy(v).cuda(), torch.from_numpy(f).cuda())
    rows = []
    for what, call, k, repeats in [("vertex_normals", lambda: mesh.vertex_normals(), runs, REPEATS),
                                   ("mcf", lambda: mesh.mean_curvature_flow(), runs, REPEATS),
                                   ("remesh", lambda: mesh.remesh(iterations=1), 1, remesh_runs)]:
        py = wall_ms(call, k, repeats)
        cpp = statistics.median(mesh._time_cpp(what, k, repeats))
        rows.append({"op": what, "faces": len(f), "python_ms": py, "cpp_ms": cpp, "ratio": py / cpp})
    return rows


def against_torch(n, runs):
    v, f = torus(n, n)
    p = torch.from_numpy(v).cuda()
    ft = torch.from_numpy(f).long().cuda()
    mesh = rxmesh.Mesh(p, torch.from_numpy(f).cuda())
    ours_n = torch.from_dlpack(mesh.vertex_normals())
    theirs_n = torch_normals(p, ft)
    assert torch.allclose(ours_n, theirs_n, atol=1e-4), "normals differ"
    x = torch.randn(len(v), 3, device="cuda")
    L = torch_laplacian(p, ft)
    ours_y, theirs_y = ag.cotan_laplacian(mesh, p, x), L @ x
    assert torch.allclose(ours_y, theirs_y, rtol=1e-3, atol=1e-3 * theirs_y.abs().max().item()), \
        "Laplacian products differ"
    row = {"faces": len(f),
           "normals_rxmesh_ms": event_ms(lambda: mesh.vertex_normals(), runs),
           "normals_rxmesh_autograd_ms": event_ms(lambda: ag.vertex_normals(mesh, p), runs),
           "normals_torch_ms": event_ms(lambda: torch_normals(p, ft), runs),
           "laplacian_rxmesh_ms": event_ms(lambda: ag.cotan_laplacian(mesh, p, x), runs),
           "laplacian_torch_sparse_ms": event_ms(lambda: L @ x, runs)}
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50, help="calls per repeat (small and fast ops)")
    ap.add_argument("--remesh-runs", type=int, default=5, help="repeats of one remeshing call")
    ap.add_argument("--large", type=int, default=2580, help="torus side: 2 n^2 faces (2580: 13.3M)")
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    gpu = torch.cuda.get_device_name()
    print(f"GPU: {gpu}; PyTorch {torch.__version__}; rxmesh {rxmesh.__version__}\n")
    o = overhead(a.runs)
    print("| per-call overhead | faces | Python ms | C++ ms | overhead us |\n|---|---|---|---|---|")
    print(f"| query VV | {o['faces']} | {o['python_ms']:.4f} | {o['cpp_ms']:.4f} | {o['overhead_us']:.1f} |\n")
    big = python_vs_cpp(a.large, a.runs // 5, a.remesh_runs)
    print("| op | faces | Python ms | C++ ms | Python / C++ |\n|---|---|---|---|---|")
    for r in big:
        print(f"| {r['op']} | {r['faces']} | {r['python_ms']:.3f} | {r['cpp_ms']:.3f} | {r['ratio']:.3f} |")
    print()
    vs = [against_torch(n, 15) for n in (161, 645, a.large)]
    print("| faces | normals RXMesh ms | normals RXMesh autograd ms | normals PyTorch index_add_ ms | "
          "L x RXMesh ms | L x torch.sparse ms |\n|---|---|---|---|---|---|")
    for r in vs:
        print(f"| {r['faces']} | {r['normals_rxmesh_ms']:.3f} | {r['normals_rxmesh_autograd_ms']:.3f} | "
              f"{r['normals_torch_ms']:.3f} | {r['laplacian_rxmesh_ms']:.3f} | {r['laplacian_torch_sparse_ms']:.3f} |")
    print("\nverified: every size (RXMesh against PyTorch's result)")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"gpu": gpu, "overhead": o, "python_vs_cpp": big, "against_torch": vs}, fh, indent=1)


if __name__ == "__main__":
    main()
