#!/usr/bin/env bash
# The quick loop after a change: build the GPU test binary (build-device,
# device checks on), run the GPU tests matching FILTER with the GPU
# required, print the failures; with MEMCHECK_FILTER, compute-sanitizer
# memcheck of the tests matching it. Logs in $OUT/tests.log, memcheck.log.
# usage: scripts/device.sh tests FILTER [MEMCHECK_FILTER]   (carry .deps)
set -uo pipefail
FILTER="${1:?gtest filter}"
MEMCHECK="${2:-}"
source scripts/device/env.sh > /dev/null
configure_build_device || exit 1
build_device rxmesh_gpu_tests || exit 1
RXMESH_REQUIRE_GPU=1 timeout "${TEST_TIMEOUT:-400}" build-device/tests/rxmesh_gpu_tests \
  --gtest_filter="$FILTER" > "$OUT/tests.log" 2>&1
echo "tests exit $?"
grep -E "^\[  (PASSED|FAILED) |^\[       OK|Failure|Expected|Which is|actual|error" "$OUT/tests.log" \
  | cut -c1-300 | head -80
if [ -n "$MEMCHECK" ]; then
  RXMESH_REQUIRE_GPU=1 timeout "${MEMCHECK_TIMEOUT:-150}" compute-sanitizer --tool memcheck \
    --error-exitcode 1 build-device/tests/rxmesh_gpu_tests --gtest_filter="$MEMCHECK" \
    > "$OUT/memcheck.log" 2>&1
  echo "memcheck exit $?"
  grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -3
fi
