#!/usr/bin/env bash
# The quick loop on a GPU machine: build the GPU test binary (device checks
# on) and the named extra targets, run the GPU tests matching a gtest filter,
# print the failures. Logs in $OUT.
# usage: scripts/device_tests.sh FILTER [TARGET...]   (carry .deps)
set -uo pipefail
FILTER="${1:?gtest filter}"; shift
source scripts/device_env.sh
configure_build_device || exit 1
build_device rxmesh_gpu_tests "$@" || exit 1
RXMESH_REQUIRE_GPU=1 timeout "${TEST_TIMEOUT:-400}" build-device/tests/rxmesh_gpu_tests \
  --gtest_filter="$FILTER" > "$OUT/tests.log" 2>&1
echo "tests exit $?"
grep -E "^\[  (PASSED|FAILED) |^\[       OK|Failure|Expected|Which is|actual|error" "$OUT/tests.log" | cut -c1-300 | head -80
