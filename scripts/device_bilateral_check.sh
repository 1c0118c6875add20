#!/usr/bin/env bash
# A change confined to the k-ring ball and bilateral denoising, checked in one
# short batch: the GPU tests of bilateral and the k-ring queries (device
# checks on, GPU required), compute-sanitizer memcheck of the register-capped
# launches, and bench_bilateral and bench_kring (device checks off) on
# CGAL's armadillo refined 0-4 times, RUNS (15) runs, OpenMesh left out. Logs
# and tables in $OUT (logs packed in $OUT/logs.tgz).
# usage: [RUNS=15] [LEVELS=4] scripts/device_bilateral_check.sh (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
targeted_gpu_check 'GpuBilateral.*:GpuKRing*' 'GpuBilateral.RegisterCapped*' \
  bench_bilateral bench_kring || exit 1
MESH=$(armadillo_mesh)
build-bench/benchmarks/bench_bilateral --mesh "$MESH" --levels "${LEVELS:-4}" \
  --runs "${RUNS:-15}" --json "$OUT/bilateral.json" > "$OUT/bilateral.md" 2>&1
echo "bench_bilateral exit $?"
grep -E "^\||GPU" "$OUT/bilateral.md" | cut -c1-150
grep -E "faces: ball" "$OUT/bilateral.md" | tail -60
build-bench/benchmarks/bench_kring --mesh "$MESH" --levels "${LEVELS:-4}" \
  --runs "${RUNS:-15}" --json "$OUT/kring.json" > "$OUT/kring.md" 2>&1
echo "bench_kring exit $?"
grep -E "^\|" "$OUT/kring.md" | cut -c1-160 | head -30
# only 8 files come back: the logs in one
cd "$OUT" && tar czf logs.tgz ./*.log && rm -f ./*.log
