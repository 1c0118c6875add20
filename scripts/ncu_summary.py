#!/usr/bin/env python3
"""One line per kernel launch of an `ncu --csv` report (the program's own
output mixed in is skipped): launch id, kernel (cut to its template head),
block size, grid size, and the figures the issue-31 analyses quote.
usage: ncu_summary.py REPORT.csv [NAME_REGEX]"""
import csv
import re
import sys

FIGURES = [
    ("Duration", "duration"),
    ("SM Active Cycles", "sm_active"),
    ("Elapsed Cycles", "elapsed"),
    ("Achieved Occupancy", "occupancy"),
    ("Registers Per Thread", "registers"),
    ("Warp Cycles Per Issued Instruction", "cycles_per_issue"),
    ("Avg. Active Threads Per Warp", "active_threads"),
]


def launches(path):
    rows = {}
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    reader = csv.DictReader(lines)
    for r in reader:
        if not r.get("ID", "").isdigit():
            continue
        launch = rows.setdefault(int(r["ID"]), {"kernel": r["Kernel Name"],
                                                "block": r.get("Block Size", ""),
                                                "grid": r.get("Grid Size", "")})
        launch[r["Metric Name"]] = (r["Metric Value"], r.get("Metric Unit", ""))
    return rows


def main():
    rows = launches(sys.argv[1])
    pattern = re.compile(sys.argv[2]) if len(sys.argv) > 2 else None
    for i in sorted(rows):
        l = rows[i]
        if pattern and not pattern.search(l["kernel"]):
            continue
        name = l["kernel"][:110]
        figures = " ".join(f"{short}={l[m][0]}{l[m][1]}" for m, short in FIGURES if m in l)
        print(f"{i} | {name} | block {l['block']} grid {l['grid']} | {figures}")


if __name__ == "__main__":
    main()
