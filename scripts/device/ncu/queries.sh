#!/usr/bin/env bash
# Issue 31's query goal at 52K faces, in one batch (benchmarks built without
# device checks, in build-ncu):
# 1. a fresh timing of the eight queries on RXMesh, PDE and CSR at 52K, 208K
#    and 832K faces (CGAL's armadillo refined 0-2 times), every order, each
#    system at its best block size: $OUT/queries_small.{md,json};
# 2. ncu of each query at 52K faces in the sorted order (every system in the
#    same numbering), 256 threads for every system, caches not flushed
#    between launches (the benchmark's warm state), one process per query:
#    every launch of RXMesh's timed for_each kernel (WriteRows), PDE's and
#    CSR's query kernels, and the empty kernel the benchmark times as the
#    floor. Raw-page CSVs packed into $OUT/ncu_queries.tgz; summarise one with
#      python3 scripts/ncu_summary.py --raw VV.csv
#    (the last, warm, launch of each kernel). Under ncu the benchmark's own
#    timings mean nothing.
# The environment can narrow or move it: TIMING=0 skips step 1; LEVELS
# (default 0), BLOCKS (default 256, comma separated) and OPS (default all
# eight) pick what ncu profiles; each CSV is named OP_LEVEL.csv.
# usage: [TIMING=0] [LEVELS="1 2"] [BLOCKS=128,256] [OPS="EV EF"] \
#          scripts/device.sh ncu queries        (carry .deps)
set -uo pipefail
source scripts/device/env.sh > /dev/null
build_bench build-ncu bench_query_compare || exit 1
MESH=$(armadillo_mesh)
B=build-ncu/benchmarks/bench_query_compare
if [ "${TIMING:-1}" != 0 ]; then
  t0=$(date +%s)
  timeout 300 "$B" --mesh "$MESH:0,1,2" --runs 15 --json "$OUT/queries_small.json" \
    > "$OUT/queries_small.md" 2>&1
  echo "timing exit $? in $(( $(date +%s) - t0 )) s"
fi
mkdir -p "$OUT/ncu_queries"
for level in ${LEVELS:-0}; do
for op in ${OPS:-VV VE VF EV EF FV FE FF}; do
  t0=$(date +%s)
  timeout 60 ncu --csv --page raw --cache-control none --kernel-name-base demangled \
    -k "regex:WriteRows|_query|empty_kernel" \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --metrics smsp__inst_executed.sum,smsp__warps_launched.sum,dram__bytes_read.sum \
    "$B" --mesh "$MESH:$level" --orders sorted --ops "$op" --block-sizes "${BLOCKS:-256}" \
    --runs 1 --no-launch-cost --verify-max-faces 0 > "$OUT/ncu_queries/${op}_$level.csv" 2>&1
  echo "ncu $op level $level exit $? in $(( $(date +%s) - t0 )) s"
done
done
tar czf "$OUT/ncu_queries.tgz" -C "$OUT" ncu_queries && rm -rf "$OUT/ncu_queries"
