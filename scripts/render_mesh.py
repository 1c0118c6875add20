#!/usr/bin/env python3
"""Renders meshes side by side into a PNG: the before/after pictures of the
apps' READMEs, drawn from the apps' own PLY output.

usage: render_mesh.py OUT.png MESH [MESH ...] [--titles "a|b"] [--view ELEV,AZIM] [--up y|z]
                      [--color-normals] [--color-distance NAME [--isolines K]]

--color-normals: faces coloured by their vertices' nx, ny, nz properties
(mapped from [-1, 1] to RGB), as rxmesh-vertex-normal writes them.
--color-distance NAME: faces coloured by the vertex property NAME (e.g.
rxmesh-geodesic's "distance"), shaded, with K iso-lines (faces that a level
crosses drawn dark); infinite values grey.

MESH: OFF (text), OBJ (v and f lines; polygons fanned into triangles) or
PLY (binary little-endian, as the apps write).
Flat-shaded triangles, lit from the viewer, each mesh in its own panel left
to right with equal axis scales, so a before/after picture is two meshes:
  render_mesh.py before_after.png noisy.ply denoised.ply --titles "noisy|denoised"
No dependency beyond matplotlib (python3-matplotlib; without it the script
says so and exits 1, as for an unreadable mesh: one line on stderr).
"""
import argparse
import struct
import sys

PLY_TYPES = {"char": "b", "uchar": "B", "short": "h", "ushort": "H", "int": "i",
             "uint": "I", "float": "f", "double": "d", "int8": "b", "uint8": "B",
             "int16": "h", "uint16": "H", "int32": "i", "uint32": "I",
             "float32": "f", "float64": "d"}


def read_off(path):
    with open(path) as f:
        tokens = [t for line in f for t in line.split("#")[0].split()]
    if not tokens[0].endswith("OFF"):
        raise ValueError(f"{path}: not an OFF file")
    nv, nf = int(tokens[1]), int(tokens[2])
    pos = 4
    verts = [tuple(map(float, tokens[pos + 3 * i:pos + 3 * i + 3])) for i in range(nv)]
    pos += 3 * nv
    faces = []
    for _ in range(nf):
        k = int(tokens[pos])
        poly = list(map(int, tokens[pos + 1:pos + 1 + k]))
        pos += 1 + k
        faces += [(poly[0], poly[j], poly[j + 1]) for j in range(1, k - 1)]
    return verts, faces


def read_ply_header(f):
    elements, fmt = [], None
    while True:
        line = f.readline().decode("ascii").strip()
        if line.startswith("format"):
            fmt = line.split()[1]
        elif line.startswith("element"):
            _, name, count = line.split()
            elements.append((name, int(count), []))
        elif line.startswith("property"):
            elements[-1][2].append(line.split()[1:])
        elif line == "end_header":
            return fmt, elements


def read_ply(path):
    with open(path, "rb") as f:
        if f.readline().strip() != b"ply":
            raise ValueError(f"{path}: not a PLY file")
        fmt, elements = read_ply_header(f)
        if fmt != "binary_little_endian":
            raise ValueError(f"{path}: only binary little-endian PLY is supported")
        verts, faces, extra = [], [], {}
        for name, count, props in elements:
            for _ in range(count):
                row = []
                for p in props:
                    if p[0] == "list":
                        (k,) = struct.unpack("<" + PLY_TYPES[p[1]], f.read(struct.calcsize(PLY_TYPES[p[1]])))
                        t = "<" + PLY_TYPES[p[2]] * k
                        row.append(struct.unpack(t, f.read(struct.calcsize(t))))
                    else:
                        t = "<" + PLY_TYPES[p[0]]
                        row.append(struct.unpack(t, f.read(struct.calcsize(t)))[0])
                if name == "vertex":
                    verts.append(tuple(row[:3]))
                    for p, value in zip(props[3:], row[3:]):
                        extra.setdefault(p[-1], []).append(value)
                elif name == "face":
                    poly = row[0]
                    faces += [(poly[0], poly[j], poly[j + 1]) for j in range(1, len(poly) - 1)]
        return verts, faces, extra


def read_obj(path):
    verts, faces = [], []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            words = line.split("#")[0].split()
            if not words:
                continue
            if words[0] == "v":
                verts.append(tuple(map(float, words[1:4])))
            elif words[0] == "f":
                # "i", "i/t", "i//n", "i/t/n"; negative: from the end so far
                ids = [int(w.split("/")[0]) for w in words[1:]]
                ids = [i - 1 if i > 0 else len(verts) + i for i in ids]
                if len(ids) < 3 or min(ids) < 0 or max(ids) >= len(verts):
                    raise ValueError(f"{path}:{number}: a face with a bad vertex index")
                faces += [(ids[0], ids[j], ids[j + 1]) for j in range(1, len(ids) - 1)]
    return verts, faces


def read_mesh(path):
    lower = path.lower()
    if lower.endswith(".ply"):
        return read_ply(path)
    if lower.endswith(".obj"):
        return (*read_obj(path), {})
    if lower.endswith(".off"):
        return (*read_off(path), {})
    raise ValueError(f"{path}: not a mesh this script reads (.off, .obj or .ply)")


def normal_colors(faces, extra):
    """RGB per face from the mean of its vertices' (nx, ny, nz) in [-1, 1]."""
    n = [extra["nx"], extra["ny"], extra["nz"]]
    return [tuple(min(1.0, max(0.0, 0.5 + 0.5 * sum(n[k][v] for v in f) / 3)) for k in range(3))
            for f in faces]


def distance_colors(faces, values, grey, isolines, cmap):
    """Shaded colormap of each face's mean value; faces that one of the
    `isolines` equally spaced levels crosses are dark."""
    finite = [x for x in values if x == x and abs(x) != float("inf")]
    top = max(finite) if finite else 1.0
    step = top / (isolines + 1) if isolines > 0 else float("inf")
    out = []
    for f, g in zip(faces, grey):
        d = [values[v] for v in f]
        if any(x != x or abs(x) == float("inf") for x in d):
            out.append((0.6 * g, 0.6 * g, 0.6 * g))
            continue
        if step != float("inf") and int(min(d) / step) != int(max(d) / step):
            out.append((0.05, 0.05, 0.05))
            continue
        r, gg, b, _ = cmap(sum(d) / 3 / top)
        light = 0.35 + 0.65 * g
        out.append((r * light, gg * light, b * light))
    return out


def shade(tris, view_dir):
    """Grey level of each triangle: |cos| between its normal and the view."""
    out = []
    for a, b, c in tris:
        u = [b[i] - a[i] for i in range(3)]
        v = [c[i] - a[i] for i in range(3)]
        n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        length = sum(x * x for x in n) ** 0.5 or 1.0
        out.append(abs(sum(n[i] * view_dir[i] for i in range(3))) / length)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("meshes", nargs="+")
    ap.add_argument("--titles", default="")
    ap.add_argument("--view", default="10,-60")
    ap.add_argument("--up", default="z", choices=["y", "z"], help="the meshes' up axis")
    ap.add_argument("--color-normals", action="store_true")
    ap.add_argument("--color-distance", default="", help="a vertex property to colour by")
    ap.add_argument("--isolines", type=int, default=12)
    args = ap.parse_args()
    meshes = [read_mesh(path) for path in args.meshes]  # bad input first, with or without matplotlib
    try:
        import math
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    except ImportError:
        print("render_mesh.py: matplotlib is not installed (python3-matplotlib); no picture "
              "rendered", file=sys.stderr)
        return 1
    elev, azim = map(float, args.view.split(","))
    e, a = math.radians(elev), math.radians(azim)
    view_dir = (math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e))
    titles = args.titles.split("|") if args.titles else args.meshes
    fig = plt.figure(figsize=(5 * len(args.meshes), 5))
    for i, (verts, faces, extra) in enumerate(meshes):
        if args.up == "y":  # matplotlib's up is z
            verts = [(x, -z, y) for x, y, z in verts]
        tris = [(verts[x], verts[y], verts[z]) for x, y, z in faces]
        grey = shade(tris, view_dir)
        colors = [(g, g, g) for g in grey]
        if args.color_normals and "nx" in extra:
            colors = normal_colors(faces, extra)
        if args.color_distance in extra:
            colors = distance_colors(faces, extra[args.color_distance], grey, args.isolines,
                                     matplotlib.colormaps["viridis"])
        ax = fig.add_subplot(1, len(args.meshes), i + 1, projection="3d")
        ax.add_collection3d(Poly3DCollection(tris, facecolors=colors, linewidths=0))
        lo = [min(v[k] for v in verts) for k in range(3)]
        hi = [max(v[k] for v in verts) for k in range(3)]
        mid, half = [(lo[k] + hi[k]) / 2 for k in range(3)], max(hi[k] - lo[k] for k in range(3)) / 2
        for k, setter in enumerate((ax.set_xlim, ax.set_ylim, ax.set_zlim)):
            setter(mid[k] - half, mid[k] + half)
        if hasattr(ax, "set_box_aspect"):  # matplotlib >= 3.3: a sphere stays round
            ax.set_box_aspect((1, 1, 1))
        ax.view_init(elev=elev, azim=azim)
        ax.set_axis_off()
        ax.set_title(titles[i] if i < len(titles) else args.meshes[i])
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"render_mesh.py: wrote {args.out}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, ValueError, IndexError, struct.error) as e:  # unreadable or bad mesh
        print(f"render_mesh.py: {e}", file=sys.stderr)
        sys.exit(1)
