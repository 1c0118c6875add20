#!/usr/bin/env python3
"""RXMesh's query times with two patchers, from two bench_query_compare JSON
files of one run (same GPU, same meshes, same options but --patcher):

    compare_patcher_queries.py lloyd.json curve.json

Prints, per mesh, order and op, both times and their ratio (second / first),
every record's verification, and the geometric mean of the ratios per op and
overall. Standard library only."""

import json
import math
import sys
from collections import defaultdict


def rxmesh_records(path):
    with open(path) as f:
        data = json.load(f)
    rows = {}
    for r in data["results"]:
        if r["system"] == "RXMesh" and r["ms"] is not None:
            rows[(r["mesh"], r["order"], r["op"])] = r
    return data.get("gpu", "?"), rows


def check(r):
    """The record's verification: against the CPU reference, and by checksum."""
    return f"{r['verified']}, checksum {r.get('checksum_vs') or '-'}"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    gpu_a, a = rxmesh_records(sys.argv[1])
    gpu_b, b = rxmesh_records(sys.argv[2])
    if gpu_a != gpu_b:
        sys.exit(f"different GPUs: {gpu_a} / {gpu_b}")
    print(f"GPU: {gpu_a}; RXMesh query ms, {sys.argv[1]} vs {sys.argv[2]}\n")
    print("| mesh | order | op | first ms | second ms | second / first | verified |")
    print("|---|---|---|---|---|---|---|")
    logs = defaultdict(list)
    for key in sorted(a.keys() & b.keys()):
        ra, rb = a[key], b[key]
        ratio = rb["ms"] / ra["ms"]
        logs[key[2]].append(math.log(ratio))
        logs["all"].append(math.log(ratio))
        print(f"| {key[0]} | {key[1]} | {key[2]} | {ra['ms']:.4f} | {rb['ms']:.4f} | "
              f"{ratio:.3f} | {check(ra)} / {check(rb)} |")
    print("\n| op | geometric mean of second / first | records |\n|---|---|---|")
    for op, values in sorted(logs.items()):
        print(f"| {op} | {math.exp(sum(values) / len(values)):.3f} | {len(values)} |")


if __name__ == "__main__":
    main()
