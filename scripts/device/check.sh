#!/usr/bin/env bash
# One batch on a GPU machine: unpack the carried Debian packages (meshes,
# baselines), build with ninja, run every test with GPU tests required, run
# the benchmarks, and leave logs in $OUT (or ./device-out).
#
# usage: [CTEST_SELECT="-L gpu"] scripts/device.sh check [--no-bench] [--bench-only]
#   --no-bench builds with -DRXMESH_DEVICE_CHECKS=ON (device invariants kept)
# Exit status: 0 when everything run passed, 1 when a build, a test, a
# sanitizer run or the benchmarks failed.
set -uo pipefail
source scripts/device/env.sh > /dev/null  # OUT, DEPS, the carried packages unpacked
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/bench.md"

GTEST_HINT=""
if ! ls /usr/lib/*/cmake/GTest /usr/lib/cmake/GTest /usr/local/lib/cmake/GTest >/dev/null 2>&1; then
  GTEST_HINT="-DGTest_DIR=$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest"
fi
# Device-code checks (RXMESH_DEVICE_CHECK) stay in the test-only runs; a run
# that also benchmarks builds without them unless DEVICE_CHECKS=1.
if [ "${1:-}" = "--no-bench" ]; then DEVICE_CHECKS=${DEVICE_CHECKS:-1}; else DEVICE_CHECKS=${DEVICE_CHECKS:-0}; fi
echo "device checks: $([ "$DEVICE_CHECKS" = 1 ] && echo on || echo off)"
# the Python package for the machine's python3 (the one with PyTorch and
# CuPy), when it has pybind11: its tests then run with the others
PY_ARGS=()
if PYBIND=$(python3 -m pybind11 --cmakedir 2>/dev/null); then
  PY_ARGS=(-DPython3_EXECUTABLE="$(command -v python3)" -Dpybind11_DIR="$PYBIND")
fi
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DRXMESH_BUILD_BENCHMARKS=ON -DRXMESH_DEVICE_CHECKS=$([ "$DEVICE_CHECKS" = 1 ] && echo ON || echo OFF) \
  -DCMAKE_PREFIX_PATH="$DEPS/usr" $GTEST_HINT "${PY_ARGS[@]}" \
  -DRXMESH_CGAL_DATA_TARBALL="$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" \
  -DRXMESH_ASSIMP_MODELS="$DEPS/usr/share/assimp/models" > "$OUT/build.log" 2>&1 \
  || { tail -30 "$OUT/build.log"; exit 1; }
cmake --build build-device >> "$OUT/build.log" 2>&1 || { grep -B2 -A12 "error" "$OUT/build.log" | head -80; exit 1; }
echo "build ok"
# 1 when a test, a sanitizer run or a benchmark failed (the logs say which)
status=0

if [ "${1:-}" != "--bench-only" ]; then
  # every test but the compute-sanitizer ones, GPU tests required
  # CTEST_SELECT (e.g. "-L gpu" or "-L cpu") runs a part, for a suite that
  # would not fit one call's time limit together with a cold build
  # shellcheck disable=SC2086
  RXMESH_REQUIRE_GPU=1 ctest --test-dir build-device --output-on-failure -j4 -LE sanitize \
    ${CTEST_SELECT:-} > "$OUT/ctest.log" 2>&1 || status=1
  grep -E "tests passed|tests failed|Failed|\*\*\*" "$OUT/ctest.log" | tail -30
  grep -E "skipped|SKIPPED" "$OUT/ctest.log" | head -5
  # compute-sanitizer memcheck / racecheck (ctest label "sanitize": the GPU
  # paths on small meshes and every app's default run; the host I/O tests
  # under ASan/UBSan carry the same label)
  if [ "${SKIP_SANITIZERS:-0}" = 1 ]; then
    echo "sanitizers skipped (SKIP_SANITIZERS=1)"
  else
    RXMESH_REQUIRE_GPU=1 ctest --test-dir build-device -V -j8 -L sanitize \
      > "$OUT/sanitize.log" 2>&1 || status=1
    grep -E "tests passed|tests failed|Failed|\*\*\*" "$OUT/sanitize.log" | tail -30
    grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitize.log" | sort | uniq -c
  fi
fi
if [ "${1:-}" != "--no-bench" ]; then
  # every benchmark, results as in the repository (benchmarks/results/<gpu>/),
  # packed into one file since $OUT returns only a few files
  BUILD_DIR=build-device RESULTS="$OUT/results" RUNS="${RUNS:-15}" \
    scripts/run_benchmarks.sh ${BENCH_STAGES:-reindex topology obj_parse build_store queries cpu normals report} \
    > "$OUT/bench.log" 2>&1
  bench_rc=$?
  echo "benchmarks exit $bench_rc"
  [ "$bench_rc" = 0 ] || status=1
  tail -60 "$OUT/bench.log"
  tar -C "$OUT" -czf "$OUT/results.tgz" results && rm -rf "$OUT/results"
fi
exit $status
