"""Load a mesh, smooth it on the GPU with mean curvature flow, write the
result as PLY and, where matplotlib is installed, draw the two side by side.

    PYTHONPATH=build/python python3 python/examples/smooth.py MESH [OUT.ply] [--steps N]

Without MESH it smooths a noisy torus. Needs a CUDA device.
"""
import argparse
import sys

import numpy as np

import rxmesh


def noisy_torus(n=96, m=48):
    u, w = np.meshgrid(np.arange(n), np.arange(m), indexing="ij")
    a, b = 2 * np.pi * u / n, 2 * np.pi * w / m
    v = np.stack([(1 + 0.35 * np.cos(b)) * np.cos(a), (1 + 0.35 * np.cos(b)) * np.sin(a),
                  0.35 * np.sin(b)], -1).reshape(-1, 3)
    idx = lambda i, j: (i % n) * m + (j % m)
    f = [[idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)] for i in range(n) for j in range(m)]
    f += [[idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)] for i in range(n) for j in range(m)]
    v = v + np.random.default_rng(1).normal(0, 0.01, v.shape)
    return v.astype(np.float32), np.array(f, np.int32)


def plot(before, after, faces, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("smooth.py: matplotlib is not installed; no picture", file=sys.stderr)
        return
    fig = plt.figure(figsize=(10, 5))
    for k, (v, title) in enumerate(((before, "input"), (after, "smoothed"))):
        ax = fig.add_subplot(1, 2, k + 1, projection="3d")
        ax.plot_trisurf(v[:, 0], v[:, 1], v[:, 2], triangles=faces, linewidth=0, antialiased=False)
        ax.set_title(title)
        ax.set_axis_off()
    fig.savefig(path, dpi=100)
    print(f"smooth.py: drew {path}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mesh", nargs="?", help="OBJ, OFF, PLY or STL (default: a noisy torus)")
    p.add_argument("out", nargs="?", default="smoothed.ply")
    p.add_argument("--steps", type=int, default=2)
    p.add_argument("--dt-scale", type=float, default=10.0)
    a = p.parse_args()
    try:
        vertices, faces = rxmesh.read(a.mesh) if a.mesh else noisy_torus()
        mesh = rxmesh.Mesh(vertices, faces)
        smoothed, report = mesh.mean_curvature_flow(dt_scale=a.dt_scale, steps=a.steps)
    except (ValueError, OSError, RuntimeError) as e:
        print(f"smooth.py: {e}", file=sys.stderr)
        return 1
    moved = np.linalg.norm(smoothed.numpy() - vertices, axis=1)
    rxmesh.write_ply(a.out, smoothed, faces, {"displacement": moved})
    print(f"smooth.py: {mesh.num_vertices} vertices, {mesh.num_faces} faces, {a.steps} step(s), "
          f"{report['iterations']} CG iterations; largest move {moved.max():.4g}; wrote {a.out}")
    plot(vertices, smoothed.numpy(), faces, a.out.rsplit(".", 1)[0] + ".png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
