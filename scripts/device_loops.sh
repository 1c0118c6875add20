#!/usr/bin/env bash
# The one-launch loops on a GPU machine: the loop and geodesic tests (device
# checks on), then bench_geodesic on the armadillo and its refinements
# (serial CPU baseline up to 300K faces). Logs in $OUT.
# usage: scripts/device_loops.sh [GTEST_FILTER] [LEVELS] [MIN_LEVEL]   (RUNS, BENCH_TIMEOUT; carry .deps)
set -uo pipefail
FILTER="${1:-GpuAccumulateLoop*:GpuGeodesic*:GpuAccumulateScheduled*}"; LEVELS="${2:-4}"; MIN_LEVEL="${3:-0}"; RUNS="${RUNS:-5}"
source scripts/device_env.sh
configure_build_device && build_device rxmesh_gpu_tests bench_geodesic || exit 1
RXMESH_REQUIRE_GPU=1 timeout 300 build-device/tests/rxmesh_gpu_tests --gtest_filter="$FILTER" \
  > "$OUT/tests.log" 2>&1
echo "tests exit $?"
grep -E "^\[  (PASSED|FAILED) |^\[       OK|Failure|Expected|Which is|error" "$OUT/tests.log" | cut -c1-250 | head -40
tar xzf "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" -C /tmp
timeout "${BENCH_TIMEOUT:-280}" build-device/benchmarks/bench_geodesic --mesh /tmp/data/meshes/armadillo.off \
  --levels "$LEVELS" --min-level "$MIN_LEVEL" --runs "$RUNS" --cpu-max-faces 300000 --json "$OUT/geodesic.json" \
  > "$OUT/geodesic.md" 2> "$OUT/geodesic.err"
echo "bench exit $?"
cat "$OUT/geodesic.md"; tail -3 "$OUT/geodesic.err"
