#!/usr/bin/env bash
# ncu on vertex normals at 208K faces (CGAL's armadillo refined once), where
# issue 31's goal is missed, in one batch (benchmarks built without device
# checks, in build-ncu; clocks locked by ncu): the launches of
# bench_vertex_normals' rows with kept lists (with --runs 1 each row launches
# 5 times; launches 0-54 of the name filter are the rows before them, and the
# hardwired kernel also matches it) and PDE's gather. CSV reports in $OUT;
# summarise them with  python3 scripts/ncu_summary.py FILE.csv
# (Under ncu the benchmark's own timings mean nothing.)
# usage: scripts/device.sh ncu normals_208k        (carry .deps)
set -uo pipefail
source scripts/device/env.sh > /dev/null
build_bench build-ncu bench_vertex_normals || exit 1
MESH=$(armadillo_mesh)
SECTIONS="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats"
timeout 200 ncu --csv $SECTIONS --kernel-name regex:"accumulate|pde_vertex_normals" \
  --launch-skip 55 --launch-count 45 \
  build-ncu/benchmarks/bench_vertex_normals --mesh "$MESH" --min-faces 208000 --runs 1 \
  > "$OUT/ncu_normals_208k.csv" 2>&1
echo "normals ncu exit $?"
timeout 150 ncu --csv $SECTIONS --kernel-name regex:"pde_vertex_normals" \
  build-ncu/benchmarks/bench_vertex_normals --mesh "$MESH" --min-faces 208000 --runs 1 \
  > "$OUT/ncu_pde_208k.csv" 2>&1
echo "pde ncu exit $?"
