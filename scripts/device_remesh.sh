#!/usr/bin/env bash
# The remesher alone on a GPU machine, in one run: its GPU tests, the app's
# ctest and sanitizer entries, bench_remesh on the armadillo's refinements
# and on real meshes, with CGAL's isotropic_remeshing beside it on the
# same machine's CPU. Logs in $OUT/logs.tgz.
# usage: scripts/device_remesh.sh [LEVELS]   (carry .deps and .bench-bin)
set -uo pipefail
LEVELS="${1:-3}"
source scripts/device_env.sh
mkdir -p "$OUT/real"
configure_build_device || exit 1
build_device rxmesh_gpu_tests rxmesh_cpu_tests bench_remesh rxmesh-remesh || exit 1
DATA=build-device/tests/cgal-data/data/meshes
MESHES="${MESHES:-elephant homer bull camel ChineseDragon-10kv fandisk_large bunny00}"
(timeout 200 .bench-bin/run_remesh.sh --mesh "$DATA/armadillo.off" --levels 2 > "$OUT/remesh_cpu.txt" 2>&1
 for m in $MESHES; do
   timeout 60 .bench-bin/run_remesh.sh --mesh "$DATA/$m.off" --levels 0 > "$OUT/real/${m}_remesh_cpu.txt" 2>&1
 done) &
RXMESH_REQUIRE_GPU=1 timeout 200 build-device/tests/rxmesh_gpu_tests --gtest_filter='GpuRemesh*' \
  > "$OUT/tests.log" 2>&1
echo "GPU tests exit $?"; grep -E "^\[  (PASSED|FAILED) |Failure" "$OUT/tests.log" | head -20
build-device/tests/rxmesh_cpu_tests --gtest_filter='Reference*' > "$OUT/cpu_tests.log" 2>&1
echo "CPU reference tests exit $?"
timeout 150 build-device/benchmarks/bench_remesh --mesh "$DATA/armadillo.off" --levels "$LEVELS" --runs 5 \
  --json "$OUT/bench_remesh.json" > "$OUT/bench_remesh.txt" 2>&1; echo "bench_remesh exit $?"
for m in $MESHES; do
  build-device/benchmarks/bench_remesh --mesh "$DATA/$m.off" --levels 0 --runs 5 > "$OUT/real/${m}_remesh.txt" 2>&1
done
RXMESH_REQUIRE_GPU=1 ctest --test-dir build-device -R "remesh" -j4 > "$OUT/ctest.log" 2>&1
grep -E "tests passed|Failed" "$OUT/ctest.log"
wait
grep -h "^| armadillo" "$OUT/bench_remesh.txt" | cut -c1-300
grep -h "^| [0-9]" "$OUT/remesh_cpu.txt"
tar -C "$OUT" -czf "$OUT/logs.tgz" --exclude logs.tgz . 2>/dev/null
exit 0
