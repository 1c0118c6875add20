#!/usr/bin/env python3
"""One line per kernel launch of an `ncu --csv` report (the program's own
output mixed in is skipped): launch id, kernel (cut to its template head),
block size, grid size, and the figures the issue-31 analyses quote.
With --raw, the report is `ncu --csv --page raw` (a row per launch, a column
per metric): a markdown table of the last launch of each kernel and block
size (the warm one, when a benchmark launches each several times), with the
figures that show a short kernel's chain of dependent steps: how long each
warp lives (instructions per warp times cycles per issued instruction) and
how much of that is waiting on global loads (long scoreboard).
usage: ncu_summary.py REPORT.csv [NAME_REGEX]
       ncu_summary.py --raw REPORT.csv [NAME_REGEX]"""
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


# (column of the raw page, or a pattern one column's name must match; header)
RAW_FIGURES = [
    ("gpu__time_duration.sum", "duration"),
    ("sm__cycles_active.avg", "SM active cycles"),
    ("smsp__warps_launched.sum", "warps"),
    ("smsp__inst_executed.sum", "instructions"),
    ("smsp__average_warp_latency_per_inst_issued.ratio", "cycles per issue"),
    (re.compile(r"^smsp__average_warps?_issue_stalled_long_scoreboard_per_issue_active"),
     "long scoreboard per issue"),
    (re.compile(r"^smsp__average_warps?_issue_stalled_barrier_per_issue_active"),
     "barrier per issue"),
    ("sm__warps_active.avg.pct_of_peak_sustained_active", "occupancy %"),
    ("launch__registers_per_thread", "registers"),
    ("dram__bytes_read.sum", "DRAM read"),
]


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def raw_launches(path):
    """[(id, {column: (value, unit)})] of a --page raw report, in launch order."""
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    rows = list(csv.reader(lines))
    if not rows:
        return []
    header, units = rows[0], {}
    out = []
    for r in rows[1:]:
        if not r or not r[0].isdigit():
            if r and r[0] == "":  # the units row
                units = dict(zip(header, r))
            continue
        out.append((int(r[0]), {h: (v, units.get(h, "")) for h, v in zip(header, r)}))
    return out


def raw_column(launch, key):
    if isinstance(key, str):
        return launch.get(key)
    for name, value in launch.items():
        if key.search(name):
            return value
    return None


def short_name(kernel):
    """The kernel's demangled name without its return type and the
    namespaces that say nothing here (rxmesh::, unnamed ones); the
    parameters stay: they tell apart same-named kernels of two systems."""
    name = re.sub(r"^void ", "", kernel)
    return re.sub(r"<unnamed>::|\(anonymous namespace\)::|rxmesh::", "", name)


def raw_table(path, pattern=None):
    """The markdown table of --raw: the last launch of each (kernel, block)."""
    last = {}
    for i, l in raw_launches(path):
        kernel = l.get("Kernel Name", ("?", ""))[0]
        if pattern and not pattern.search(kernel):
            continue
        last[(kernel, l.get("Block Size", ("", ""))[0])] = (i, l)
    cols = ["launch", "kernel", "block", "grid"] + [h for _, h in RAW_FIGURES] + [
        "instructions per warp", "warp lifetime (cycles)"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for (name, block), (i, l) in sorted(last.items(), key=lambda kv: kv[1][0]):
        cells = [str(i), short_name(name), block, l.get("Grid Size", ("", ""))[0]]
        for key, _ in RAW_FIGURES:
            v = raw_column(l, key)
            cells.append(f"{v[0]} {v[1]}".strip() if v else "-")
        warps = number((raw_column(l, "smsp__warps_launched.sum") or ("", ""))[0])
        inst = number((raw_column(l, "smsp__inst_executed.sum") or ("", ""))[0])
        cpi = number((raw_column(l, RAW_FIGURES[4][0]) or ("", ""))[0])
        per_warp = inst / warps if warps and inst is not None else None
        cells.append(f"{per_warp:.0f}" if per_warp is not None else "-")
        cells.append(f"{per_warp * cpi:.0f}" if per_warp is not None and cpi is not None else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--raw":
        pattern = re.compile(sys.argv[3]) if len(sys.argv) > 3 else None
        print(raw_table(sys.argv[2], pattern))
        return
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
