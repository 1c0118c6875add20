#!/usr/bin/env bash
# A change to the cached CG loops (algo/cg_cached.cuh, cg_single_pass.cuh),
# checked in one batch: the GpuMcf and GpuKRing tests (device checks on, GPU
# required), compute-sanitizer memcheck and racecheck of the three loops at
# their iteration limits, then bench_mcf and bench_kring (build-bench, device
# checks off) on CGAL's armadillo refined MIN_LEVEL-LEVELS times, RUNS runs
# (KRING=0: bench_mcf alone). Logs in $OUT/logs.tgz, tables in $OUT.
# usage: [MIN_LEVEL=0] [LEVELS=4] [RUNS=9] [KRING=1] scripts/device_cg_check.sh (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
BENCHES="bench_mcf"
[ "${KRING:-1}" = 1 ] && BENCHES="$BENCHES bench_kring"
targeted_gpu_check 'GpuMcf.*:GpuKRing*' 'GpuMcf.EveryLoopStopsAtTheIterationLimit' \
  $BENCHES || exit 1
grep -E "Failure|Expected|Which is|actual" "$OUT/tests.log" | cut -c1-300 | head -30
( cd build-device/tests && RXMESH_REQUIRE_GPU=1 timeout 120 compute-sanitizer --tool racecheck \
    --error-exitcode 1 ./rxmesh_gpu_tests --gtest_filter=GpuMcf.EveryLoopStopsAtTheIterationLimit \
    > "$OUT/racecheck.log" 2>&1 )
echo "racecheck exit $?: $(grep -E 'RACECHECK SUMMARY' "$OUT/racecheck.log" | tr '\n' ' ')"
MESH=$(armadillo_mesh)
build-bench/benchmarks/bench_mcf --mesh "$MESH" --min-level "${MIN_LEVEL:-0}" --levels "${LEVELS:-4}" \
  --runs "${RUNS:-9}" --eigen-max-faces 0 --json "$OUT/mcf.json" > "$OUT/mcf.md" 2>&1
echo "bench_mcf exit $?"
sed -n '/Time per CG iteration/,/Time to solution/p' "$OUT/mcf.md" | cut -c1-220
grep -E "cached CG" "$OUT/mcf.md" | grep -E "faces (52|832|13)" | head -60
if [ "${KRING:-1}" = 1 ]; then
  build-bench/benchmarks/bench_kring --mesh "$MESH" --levels "${LEVELS:-4}" \
    --runs "${RUNS:-9}" --json "$OUT/kring.json" > "$OUT/kring.md" 2>&1
  echo "bench_kring exit $?"
  grep -E "^\|" "$OUT/kring.md" | cut -c1-160 | head -30
fi
# only 8 files come back: the logs in one
cd "$OUT" && tar czf logs.tgz ./*.log ./*.json && rm -f ./*.log ./*.json
