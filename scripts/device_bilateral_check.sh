#!/usr/bin/env bash
# A change confined to the k-ring ball and bilateral denoising, checked in one
# short batch: the GPU tests of bilateral and the k-ring queries (device
# checks on, GPU required), compute-sanitizer memcheck of the register-capped
# launches, and bench_bilateral and bench_kring (device checks off) on
# CGAL's armadillo refined 0-4 times, RUNS (15) runs, OpenMesh left out. Logs
# and tables in $OUT.
# usage: [RUNS=15] [LEVELS=4] scripts/device_bilateral_check.sh (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
configure_build_device || exit 1  # build-device, device checks on
( build_device rxmesh_gpu_tests > /dev/null ) &
( build_bench build-bench bench_bilateral bench_kring > /dev/null ) &
wait
[ -x build-device/tests/rxmesh_gpu_tests ] || { grep -A10 error "$OUT/build.log" | head -30; exit 1; }
[ -x build-bench/benchmarks/bench_bilateral ] || { grep -A10 error "$OUT/b_build-bench.log" | head -30; exit 1; }
echo "build ok"
( cd build-device/tests && RXMESH_REQUIRE_GPU=1 ./rxmesh_gpu_tests \
    --gtest_filter='GpuBilateral.*:GpuKRing*' > "$OUT/tests.log" 2>&1 )
echo "tests exit $?"; grep -E "PASSED|FAILED|SKIPPED|tests ran" "$OUT/tests.log" | tail -5
( cd build-device/tests && RXMESH_REQUIRE_GPU=1 timeout 150 compute-sanitizer --tool memcheck \
    --error-exitcode 1 ./rxmesh_gpu_tests \
    --gtest_filter='GpuBilateral.RegisterCapped*' > "$OUT/memcheck.log" 2>&1 )
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -3
build-bench/benchmarks/bench_bilateral --mesh "$(armadillo_mesh)" --levels "${LEVELS:-4}" \
  --runs "${RUNS:-15}" --json "$OUT/bilateral.json" > "$OUT/bilateral.md" 2>&1
echo "bench_bilateral exit $?"
grep -E "^\||GPU" "$OUT/bilateral.md" | cut -c1-150
grep -E "faces: ball" "$OUT/bilateral.md" | awk '{print}' | tail -60
build-bench/benchmarks/bench_kring --mesh "$(armadillo_mesh)" --levels "${LEVELS:-4}" \
  --runs "${RUNS:-15}" --json "$OUT/kring.json" > "$OUT/kring.md" 2>&1
echo "bench_kring exit $?"
grep -E "^\|" "$OUT/kring.md" | cut -c1-160 | head -30
