#!/usr/bin/env bash
# ncu on the heat method's query (bench_heat at one size, benchmarks built
# without device checks in build-ncu): every launch of the triangular
# solves' kernels (forward_level, backward_level: one launch per level of
# the supernodal tree) and of permute_rows in the first query, with their
# time, grid and DRAM bytes, as CSV: what bounds a query whose bytes would
# take a millisecond (issue 54's 1/3 of the propagation's time). The run's
# own table (the analysis's parts, the query) first, without ncu.
# Reports in $OUT/ncu_heat.csv, the table in $OUT/heat_plain.txt.
# usage: scripts/device.sh ncu heat [LEVEL] [LAUNCHES]   (default 3: 3.3M faces; 600)
set -uo pipefail
source scripts/device/env.sh > /dev/null
LEVEL="${1:-3}"
LAUNCHES="${2:-600}"
build_bench build-ncu bench_heat || exit 1
MESH=$(armadillo_mesh)
ARGS=(--mesh "$MESH" --levels "$LEVEL" --min-level "$LEVEL" --setup-runs 1 --oracle-max-faces 0)
[ "${SKIP_PLAIN:-0}" = 1 ] || build-ncu/benchmarks/bench_heat "${ARGS[@]}" --runs 3 > "$OUT/heat_plain.txt" 2>&1
echo "bench_heat exit $?"; grep -E "^level|^\| [0-9]" "$OUT/heat_plain.txt" | head -4
ncu --kernel-name regex:'forward_level|backward_level|permute_rows' --launch-count "$LAUNCHES" \
  --csv --page raw --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active \
  build-ncu/benchmarks/bench_heat "${ARGS[@]}" --runs 1 > "$OUT/ncu_heat.csv" 2> "$OUT/ncu_heat.err"
echo "ncu exit $?: $(grep -c '^"' "$OUT/ncu_heat.csv") rows"
