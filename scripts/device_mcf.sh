#!/usr/bin/env bash
# MCF's CG loops on a GPU machine: the GpuMcf tests (device checks on),
# compute-sanitizer memcheck and racecheck over the three loops at their
# iteration limits, then bench_mcf (build-bench, no device checks) on
# CGAL's armadillo refined up to LEVELS times. Logs in $OUT.
# usage: [LEVELS=4] [RUNS=5] scripts/device_mcf.sh   (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
configure_build_device || exit 1
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRXMESH_BUILD_BENCHMARKS=ON -DRXMESH_DEVICE_CHECKS=OFF -DRXMESH_BUILD_PYTHON=OFF \
  -DCMAKE_PREFIX_PATH="$DEPS/usr" -DGTest_DIR="$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest" \
  -DRXMESH_CGAL_DATA_TARBALL="$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" > "$OUT/build_bench.log" 2>&1 \
  || { tail -30 "$OUT/build_bench.log"; exit 1; }
ninja -C build-bench bench_mcf >> "$OUT/build_bench.log" 2>&1 &
BENCH_BUILD=$!
build_device rxmesh_gpu_tests || exit 1
wait $BENCH_BUILD || { grep -B2 -A12 error "$OUT/build_bench.log" | head -60; exit 1; }
T=build-device/tests/rxmesh_gpu_tests
RXMESH_REQUIRE_GPU=1 timeout 400 $T --gtest_filter='GpuMcf.*' > "$OUT/tests.log" 2>&1
echo "tests exit $?"
grep -E "^\[  (PASSED|FAILED) |^\[       OK|Failure|Expected|Which is|actual|error" "$OUT/tests.log" | cut -c1-300 | head -60
for tool in memcheck racecheck; do
  RXMESH_REQUIRE_GPU=1 timeout 300 compute-sanitizer --tool $tool --error-exitcode 1 $T \
    --gtest_filter=GpuMcf.EveryLoopStopsAtTheIterationLimit > "$OUT/$tool.log" 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool.log" | tr '\n' ' ')"
done
M=build-bench/tests/cgal-data/data/meshes
build-bench/benchmarks/bench_mcf --mesh $M/armadillo.off --levels "${LEVELS:-4}" --min-level "${MIN_LEVEL:-0}" --runs "${RUNS:-5}" --eigen-max-faces 0 \
  --json "$OUT/mcf.json" > "$OUT/mcf.md" 2>&1
echo "bench_mcf exit $?"
sed -n '/Time per CG iteration/,/Time to solution/p' "$OUT/mcf.md"
