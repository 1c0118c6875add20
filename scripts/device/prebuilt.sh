#!/usr/bin/env bash
# Binaries built on the machine without a GPU, run here: when the device time
# left is too short for a build, the 2-core machine builds and this runs.
# TARBALL (default .prebuilt/bin.tar.xz) holds paths relative to the build
# dir it was made from (BUILD_PATH, its absolute path there, default
# /work/main/build: the tests find CGAL's meshes and their scratch folder
# under it, so they are recreated at that path); carry the folder and .deps
# (libcgal-demo and libosdcpu are enough).
#   tests/rxmesh_gpu_tests   every GPU test, GPU required, in SHARDS (8)
#                            gtest shards at once, FILTER (gtest) if given
#   benchmarks/bench_*       each run once on CGAL's armadillo with BENCH_ARGS
#                            (default --levels 1 --runs 1): exit 0 and its
#                            "verified" line required; where old/benchmarks/
#                            holds an older build of it, its JSON report must
#                            equal the older one's but for the times
# usage: [TARBALL=...] [BUILD_PATH=...] [SHARDS=8] [FILTER=...] scripts/device.sh prebuilt
set -uo pipefail
source scripts/device/env.sh > /dev/null
TARBALL=${TARBALL:-.prebuilt/bin.tar.xz}
BUILD_PATH=${BUILD_PATH:-/work/main/build}
SHARDS=${SHARDS:-8}
mkdir -p "$BUILD_PATH/tests/cgal-data" "$BUILD_PATH/tests/tmp"
tar xzf "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" -C "$BUILD_PATH/tests/cgal-data"
tar xJf "$TARBALL" -C "$BUILD_PATH" || { echo "cannot unpack $TARBALL"; exit 1; }
status=0
if [ -x "$BUILD_PATH/tests/rxmesh_gpu_tests" ]; then
  for i in $(seq 0 $((SHARDS - 1))); do
    RXMESH_REQUIRE_GPU=1 GTEST_TOTAL_SHARDS=$SHARDS GTEST_SHARD_INDEX=$i \
      "$BUILD_PATH/tests/rxmesh_gpu_tests" ${FILTER:+--gtest_filter=$FILTER} \
      > "$OUT/gpu_tests_$i.log" 2>&1 &
  done
  wait
  passed=0; failed=0; skipped=0
  for i in $(seq 0 $((SHARDS - 1))); do
    p=$(grep -c "^\[       OK \]" "$OUT/gpu_tests_$i.log"); passed=$((passed + p))
    f=$(grep -c "^\[  FAILED  \] [A-Za-z]*\.[A-Za-z]* (" "$OUT/gpu_tests_$i.log"); failed=$((failed + f))
    s=$(grep -c "^\[  SKIPPED \] [A-Za-z]*\.[A-Za-z]* (" "$OUT/gpu_tests_$i.log"); skipped=$((skipped + s))
    grep "^\[  FAILED  \] [A-Za-z]*\.[A-Za-z]* (" "$OUT/gpu_tests_$i.log"
  done
  echo "GPU tests: $passed passed, $failed failed, $skipped skipped ($SHARDS shards)"
  [ "$failed" = 0 ] && [ "$skipped" = 0 ] && [ "$passed" -gt 0 ] || status=1
fi
OLD_BENCHMARKS="$BUILD_PATH/old/benchmarks" OUT="$OUT" \
  bash scripts/device/bench_once.sh "$BUILD_PATH" || status=1
tar -C "$OUT" -czf "$OUT/prebuilt_logs.tgz" $(cd "$OUT" && ls gpu_tests_*.log bench_*.md bench_*.json 2>/dev/null) \
  && rm -f "$OUT"/gpu_tests_*.log "$OUT"/bench_*.md "$OUT"/bench_*.json
exit $status
