#!/usr/bin/env bash
# The CG loops on a GPU machine after a change to their kernels: the GpuMcf
# tests (device checks on) and the compute-sanitizer runs over the loops
# (ctest labels: cg_loops racecheck, algorithms memcheck). Logs in $OUT.
# usage: scripts/device_cg.sh   (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
configure_build_device || exit 1
build_device rxmesh_gpu_tests || exit 1
RXMESH_REQUIRE_GPU=1 timeout 300 build-device/tests/rxmesh_gpu_tests --gtest_filter='GpuMcf.*' \
  > "$OUT/tests.log" 2>&1
echo "tests exit $?"
grep -E "^\[  (PASSED|FAILED) |Failure" "$OUT/tests.log" | head -20
RXMESH_REQUIRE_GPU=1 ctest --test-dir build-device -L sanitize -R "cg_loops|algorithms" \
  > "$OUT/sanitize.log" 2>&1
grep -E "tests passed|tests failed|Failed" "$OUT/sanitize.log" | tail -5
