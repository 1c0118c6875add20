#!/usr/bin/env bash
# ncu on vertex normals at 52K faces (CGAL's armadillo, one level of 1-to-4
# refinement below 208K), in one batch (benchmarks built without device
# checks, in build-ncu): every accumulate launch of bench_vertex_normals'
# kept-list rows (with --runs 1 each row launches 5 times: a check, 3
# warm-ups, 1 timed; the 11 rows before them take launches 0-54), and the
# last launch of PDE's gather. Reports in $OUT/ncu_normals_52k.txt and
# $OUT/ncu_pde_52k.txt.
# usage: scripts/device.sh ncu normals_52k        (carry .deps)
set -uo pipefail
source scripts/device/env.sh > /dev/null
build_bench build-ncu bench_vertex_normals || exit 1
MESH=$(armadillo_mesh)
SECTIONS="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats"
ncu --kernel-name regex:accumulate_kernel --launch-skip 55 --launch-count 30 $SECTIONS \
  build-ncu/benchmarks/bench_vertex_normals --mesh "$MESH" --min-faces 52000 --runs 1 \
  > "$OUT/ncu_normals_52k.txt" 2>&1
echo "normals ncu exit $?"
ncu --kernel-name regex:pde_vertex_normals --launch-skip 4 --launch-count 1 $SECTIONS \
  build-ncu/benchmarks/bench_vertex_normals --mesh "$MESH" --min-faces 52000 --runs 1 \
  > "$OUT/ncu_pde_52k.txt" 2>&1
echo "pde ncu exit $?"
grep -E "accumulate_kernel|Block Size|Grid Size|^    Duration|Achieved Occupancy|Warp Cycles Per Issued|Registers Per" "$OUT/ncu_normals_52k.txt" | head -80
