#!/usr/bin/env python3
"""One line of where an app's wall time went, from its --json report: the
stages (times_ms), the waits and outputs the app skeleton adds, and the
mesh's build stages (the report's "build"). usage: app_report_times.py R.json"""
import json
import sys


def line(report):
    parts = ["times_ms " + " ".join(f"{k}={v:.1f}" for k, v in report["times_ms"].items())]
    for key in ("gpu_start_wait_ms", "output_early_ms", "export_ms", "output_ms", "release_ms",
                "wall_ms"):
        if key in report:
            parts.append(f"{key}={report[key]:.1f}")
    build = report.get("build", {}).get("build_ms")
    if build:
        parts.append("build_ms " + " ".join(f"{k}={v:.1f}" for k, v in build.items()))
    return "; ".join(parts)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(line(json.load(f)))
