#!/usr/bin/env bash
# The k-ring and bilateral ball on a GPU machine: their tests (device checks
# on), then bench_kring and bench_bilateral on the armadillo and its
# refinements. Logs in $OUT.
# usage: scripts/device_ball.sh [GTEST_FILTER] [LEVELS]   (RUNS; carry .deps)
set -uo pipefail
FILTER="${1:-GpuKRing*:GpuBilateral*:GpuKring*}"; LEVELS="${2:-4}"; RUNS="${RUNS:-15}"
source scripts/device_env.sh
configure_build_device && build_device rxmesh_gpu_tests bench_kring bench_bilateral || exit 1
RXMESH_REQUIRE_GPU=1 timeout 300 build-device/tests/rxmesh_gpu_tests --gtest_filter="$FILTER" \
  > "$OUT/tests.log" 2>&1
echo "tests exit $?"
grep -E "^\[  (PASSED|FAILED) |Failure|Expected|Which is|error" "$OUT/tests.log" | cut -c1-250 | head -30
tar xzf "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" -C /tmp
M=/tmp/data/meshes/armadillo.off
timeout 200 build-device/benchmarks/bench_bilateral --mesh $M --levels "$LEVELS" --runs "$RUNS" \
  --json "$OUT/bilateral.json" > "$OUT/bilateral.md" 2> "$OUT/bilateral.err"
echo "bench_bilateral exit $?"; cat "$OUT/bilateral.md"
timeout 200 build-device/benchmarks/bench_kring --mesh $M --levels "$LEVELS" --runs "$RUNS" \
  --json "$OUT/kring.json" > "$OUT/kring.md" 2> "$OUT/kring.err"
echo "bench_kring exit $?"; grep -E "ball|faces \|" "$OUT/kring.md"
