#!/usr/bin/env bash
# One batch on a GPU machine: unpack the carried Debian packages (meshes,
# baselines), build with ninja, run every test with GPU tests required, run
# the benchmarks, and leave logs in $OUT (or ./device-out).
#
# usage: scripts/device_check.sh [--no-bench] [--bench-only]
#   --no-bench builds with -DRXMESH_DEVICE_CHECKS=ON (device invariants kept)
set -uo pipefail
OUT="${OUT:-$PWD/device-out}"
mkdir -p "$OUT"
DEPS=/tmp/rxmesh-deps
mkdir -p "$DEPS"
for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" "$DEPS"; done
export LD_LIBRARY_PATH="$DEPS/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/bench.md"

GTEST_HINT=""
if ! ls /usr/lib/*/cmake/GTest /usr/lib/cmake/GTest /usr/local/lib/cmake/GTest >/dev/null 2>&1; then
  GTEST_HINT="-DGTest_DIR=$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest"
fi
# Device-code checks (RXMESH_DEVICE_CHECK) stay in the test-only runs; a run
# that also benchmarks builds without them unless DEVICE_CHECKS=1.
if [ "${1:-}" = "--no-bench" ]; then DEVICE_CHECKS=${DEVICE_CHECKS:-1}; else DEVICE_CHECKS=${DEVICE_CHECKS:-0}; fi
echo "device checks: $([ "$DEVICE_CHECKS" = 1 ] && echo on || echo off)"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DRXMESH_DEVICE_CHECKS=$([ "$DEVICE_CHECKS" = 1 ] && echo ON || echo OFF) \
  -DCMAKE_PREFIX_PATH="$DEPS/usr" $GTEST_HINT \
  -DRXMESH_CGAL_DATA_TARBALL="$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" \
  -DRXMESH_ASSIMP_MODELS="$DEPS/usr/share/assimp/models" > "$OUT/build.log" 2>&1 \
  || { tail -30 "$OUT/build.log"; exit 1; }
cmake --build build-device >> "$OUT/build.log" 2>&1 || { grep -B2 -A12 "error" "$OUT/build.log" | head -80; exit 1; }
echo "build ok"

if [ "${1:-}" != "--bench-only" ]; then
  RXMESH_REQUIRE_GPU=1 ctest --test-dir build-device --output-on-failure -j4 > "$OUT/ctest.log" 2>&1
  grep -E "tests passed|tests failed|Failed|\*\*\*" "$OUT/ctest.log" | tail -30
  grep -E "skipped|SKIPPED" "$OUT/ctest.log" | head -5
  # memory errors in the GPU build (real meshes skipped: too slow under memcheck)
  # (import and patch build: FULL_MEMCHECK=1; they take minutes under memcheck)
  : > "$OUT/memcheck.log"
  if [ "${SKIP_SANITIZERS:-0}" = 1 ]; then
    echo "sanitizers skipped (SKIP_SANITIZERS=1)"
  elif [ "${FULL_MEMCHECK:-0}" = 1 ]; then
    timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 build-device/tests/rxmesh_gpu_tests \
      --gtest_filter='GpuImport.*:GpuPatch.*:-*RealMeshes*' >> "$OUT/memcheck.log" 2>&1
    echo "memcheck exit $? ($(grep -c 'Invalid' "$OUT/memcheck.log") invalid accesses); $(tail -1 "$OUT/memcheck.log")"
  fi
  if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 build-device/tests/rxmesh_gpu_tests \
    --gtest_filter='GpuQuery.SmallMeshesForSanitizers:GpuQuery.ActiveSubsets:GpuQuery.UserKernel*:GpuAttributes.*:GpuBoundary.Generated*:GpuAccumulate.EdgeSums*:GpuAccumulate.InputTooLarge*:GpuAccumulate.StagedVertexInput:GpuAccumulate.ComputedInputAndSum:GpuMcf.OperatorIsSymmetric:GpuMcf.WeightsAndAreas*:GpuSchedule.*:GpuAccumulateScheduled.*:GpuGeodesic.LevelsMatchReference:GpuGeodesic.SourcesUnreachable*:GpuKRing.ActiveSubsets:GpuKRing.LargeK*:GpuKRing.KOutOfRange*:GpuBilateral.PatchCapacity*:GpuLoop.NonManifold*:GpuLoop.SharpEdges:GpuLoop.LevelZero*:GpuLoop.BadInput*' >> "$OUT/memcheck.log" 2>&1
  echo "query memcheck exit $?; $(tail -1 "$OUT/memcheck.log")"
  timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 build-device/tests/rxmesh_gpu_tests \
    --gtest_filter='GpuQuery.SmallMeshesForSanitizers:GpuQuery.UserKernel*:GpuAccumulate.EdgeSums*:GpuMcf.OperatorIsSymmetric' >> "$OUT/memcheck.log" 2>&1
  echo "query racecheck exit $?; $(tail -1 "$OUT/memcheck.log")"
  timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 build-device/tests/rxmesh_gpu_tests \
    --gtest_filter='GpuSchedule.*:GpuAccumulateScheduled.WholeMeshAndEmptyRange:GpuGeodesic.SourcesUnreachable*' >> "$OUT/memcheck.log" 2>&1
  echo "schedule/geodesic racecheck exit $?; $(tail -1 "$OUT/memcheck.log")"
  timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 build-device/tests/rxmesh_gpu_tests \
    --gtest_filter='GpuKRing.ActiveSubsets:GpuBilateral.PatchCapacity*' >> "$OUT/memcheck.log" 2>&1
  echo "k-ring/bilateral racecheck exit $?; $(tail -1 "$OUT/memcheck.log")"
  fi
fi
if [ "${1:-}" != "--no-bench" ]; then
  # every benchmark, results as in the repository (benchmarks/results/<gpu>/),
  # packed into one file since $OUT returns only a few files
  BUILD_DIR=build-device RESULTS="$OUT/results" RUNS="${RUNS:-15}" \
    scripts/run_benchmarks.sh ${BENCH_STAGES:-reindex topology obj_parse build_store queries cpu normals report} \
    > "$OUT/bench.log" 2>&1
  echo "benchmarks exit $?"
  tail -60 "$OUT/bench.log"
  tar -C "$OUT" -czf "$OUT/results.tgz" results && rm -rf "$OUT/results"
fi
exit 0
