#!/usr/bin/env bash
# The quick loop on a GPU machine: build the GPU test binary (device checks
# on) and the named extra targets, run the GPU tests matching a gtest filter,
# print the failures. Logs in $OUT.
# usage: scripts/device_tests.sh FILTER [TARGET...]   (carry .deps)
set -uo pipefail
OUT="${OUT:-$PWD/device-out}"
FILTER="${1:?gtest filter}"; shift
mkdir -p "$OUT"
DEPS=/tmp/rxmesh-deps
mkdir -p "$DEPS"
for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" "$DEPS"; done
export LD_LIBRARY_PATH="$DEPS/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRXMESH_DEVICE_CHECKS=ON -DCMAKE_PREFIX_PATH="$DEPS/usr" \
  -DGTest_DIR="$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest" \
  -DRXMESH_CGAL_DATA_TARBALL="$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" \
  -DRXMESH_ASSIMP_MODELS="$DEPS/usr/share/assimp/models" > "$OUT/build.log" 2>&1 \
  || { tail -30 "$OUT/build.log"; exit 1; }
ninja -C build-device rxmesh_gpu_tests "$@" >> "$OUT/build.log" 2>&1 \
  || { grep -B2 -A12 "error" "$OUT/build.log" | head -60; exit 1; }
echo "build ok"
RXMESH_REQUIRE_GPU=1 timeout "${TEST_TIMEOUT:-400}" build-device/tests/rxmesh_gpu_tests \
  --gtest_filter="$FILTER" > "$OUT/tests.log" 2>&1
echo "tests exit $?"
grep -E "^\[  (PASSED|FAILED) |^\[       OK|Failure|Expected|Which is|actual|error" "$OUT/tests.log" | cut -c1-300 | head -80
