#!/usr/bin/env python3
"""Remeshing quality against CGAL from one `scripts/device.sh remesh` run.

Reads the unpacked remesh.tgz (its folder remesh/): the GPU remesher's
rows of bench_remesh on every mesh (gpu/real_remesh.txt, level 0) and, per
mesh, bench_remesh_cpu's rows (cpu/<mesh>_remesh.txt: CGAL's
isotropic_remeshing and the serial reference, same L and iterations).
Prints one Markdown table of every mesh (Hausdorff / diagonal, faces,
share of edges in [4/5 L, 4/3 L], smallest angle, each against CGAL's),
the geometric means, and the issue's bounds met or missed; with --json,
the same figures as JSON.

usage: scripts/remesh_quality.py DIR [--json OUT]
"""
import argparse
import json
import math
import os
import re
import sys


def table_rows(path):
    """The data rows of a Markdown table in a file, as lists of cells."""
    rows = []
    with open(path) as f:
        for line in f:
            if not line.startswith("| ") or line.startswith("| mesh") or line.startswith("| level"):
                continue
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


# the figures of a level-0 row: name -> (column, type)
GPU_COLUMNS = {"faces": (3, int), "ms": (4, float), "band": (11, float), "angle": (12, float),
               "hausdorff": (14, float)}
CPU_COLUMNS = {"faces": (4, int), "ms": (3, float), "band": (5, float), "angle": (6, float),
               "hausdorff": (8, float)}


def level0_figures(path, level_column, columns):
    """(row cells, figures) of each level-0 row of a benchmark's table."""
    return [(c, {k: kind(c[i]) for k, (i, kind) in columns.items()})
            for c in table_rows(path) if c[level_column] == "0"]


def gpu_rows(path):
    """bench_remesh: mesh -> figures (level 0 rows)."""
    return {os.path.splitext(c[0])[0]: dict(f, verified=c[16] == "yes")
            for c, f in level0_figures(path, 1, GPU_COLUMNS)}


def cpu_rows(path):
    """bench_remesh_cpu: method -> figures (level 0 rows)."""
    return {"cgal" if c[2].startswith("CGAL") else "reference": f
            for c, f in level0_figures(path, 0, CPU_COLUMNS)}


def geomean(values):
    values = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def compare(directory):
    gpu = gpu_rows(os.path.join(directory, "gpu", "real_remesh.txt"))
    meshes = []
    for name in sorted(gpu):
        path = os.path.join(directory, "cpu", name + "_remesh.txt")
        if not os.path.exists(path):
            continue
        cpu = cpu_rows(path)
        if "cgal" not in cpu or cpu["cgal"]["hausdorff"] <= 0:
            continue  # CGAL failed, or left the mesh as it was
        g, c = gpu[name], cpu["cgal"]
        row = {"mesh": name, "gpu": g, "cgal": c, "reference": cpu.get("reference"),
               "hausdorff_ratio": g["hausdorff"] / c["hausdorff"],
               "faces_ratio": g["faces"] / c["faces"]}
        row["within_1_25"] = row["hausdorff_ratio"] <= 1.25
        row["faces_within_10"] = abs(row["faces_ratio"] - 1) <= 0.10
        row["band_at_least_cgal"] = g["band"] >= c["band"]
        row["angle_ok"] = g["angle"] >= min(c["angle"], 20.0) - 1
        if row["reference"]:
            row["reference_hausdorff_ratio"] = row["reference"]["hausdorff"] / c["hausdorff"]
        meshes.append(row)
    return meshes


def summary(meshes):
    count = lambda key: sum(1 for m in meshes if m[key])
    return {
        "meshes": len(meshes),
        "hausdorff_geomean_vs_cgal": geomean([m["hausdorff_ratio"] for m in meshes]),
        "reference_hausdorff_geomean_vs_cgal":
            geomean([m["reference_hausdorff_ratio"] for m in meshes if "reference_hausdorff_ratio" in m]),
        "within_1_25": count("within_1_25"),
        "faces_within_10_percent": count("faces_within_10"),
        "band_at_least_cgal": count("band_at_least_cgal"),
        "angle_at_least_min_cgal_20_minus_1": count("angle_ok"),
        "verified": sum(1 for m in meshes if m["gpu"]["verified"]),
    }


def print_table(meshes, s):
    print("| mesh | Hausdorff / CGAL's | reference's / CGAL's | faces / CGAL's | in band (GPU, CGAL) "
          "| min angle (GPU, CGAL) |")
    print("|---|---|---|---|---|---|")
    for m in meshes:
        ref = m.get("reference_hausdorff_ratio")
        print(f"| {m['mesh']} | {m['hausdorff_ratio']:.3f}{'' if m['within_1_25'] else ' **>1.25**'} "
              f"| {ref:.3f} | " if ref is not None else f"| {m['mesh']} | {m['hausdorff_ratio']:.3f} | - | ",
              end="")
        print(f"{m['faces_ratio']:.3f} | {m['gpu']['band']:.3f}, {m['cgal']['band']:.3f} "
              f"| {m['gpu']['angle']:.2f}, {m['cgal']['angle']:.2f} |")
    print()
    print(f"{s['meshes']} meshes: Hausdorff geometric mean {s['hausdorff_geomean_vs_cgal']:.3f}x CGAL's "
          f"(the serial reference's {s['reference_hausdorff_geomean_vs_cgal']:.3f}x); "
          f"<= 1.25x on {s['within_1_25']}; faces within 10% on {s['faces_within_10_percent']}; "
          f"share in band >= CGAL's on {s['band_at_least_cgal']}; smallest angle >= min(CGAL's, 20) - 1 "
          f"on {s['angle_at_least_min_cgal_20_minus_1']}; verified on {s['verified']}")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("directory", help="the unpacked remesh/ folder of a `scripts/device.sh remesh` run")
    p.add_argument("--json", help="write the figures as JSON here")
    a = p.parse_args(argv)
    meshes = compare(a.directory)
    if not meshes:
        print("no mesh has both a GPU and a CGAL row", file=sys.stderr)
        return 1
    s = summary(meshes)
    print_table(meshes, s)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"summary": s, "meshes": meshes}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
