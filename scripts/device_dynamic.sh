#!/usr/bin/env bash
# One batch for the changing-topology work (issues 29 and 30) on a GPU
# machine: build with device checks, run the dynamic engine's and the BVH's
# tests and sanitizer entries, then, in the same run, the GPU benchmarks
# (bench_delaunay, bench_dynamic) and the carried CPU baselines
# (.bench-bin from the bench_cpu_baselines_bundle target: OpenMesh Delaunay
# flips, CPU simplification and remeshing) on the armadillo. Logs in $OUT.
#
# usage: scripts/device_dynamic.sh [LEVELS]     (carry .deps and .bench-bin)
set -uo pipefail
OUT="${OUT:-$PWD/device-out}"
LEVELS="${1:-3}"
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
ninja -C build-device rxmesh_gpu_tests bench_delaunay bench_dynamic rxmesh-delaunay \
  >> "$OUT/build.log" 2>&1 || { grep -B2 -A12 "error" "$OUT/build.log" | head -60; exit 1; }
echo "build ok"
RXMESH_REQUIRE_GPU=1 build-device/tests/rxmesh_gpu_tests \
  --gtest_filter='GpuDynamic*:GpuBvh*' > "$OUT/tests.log" 2>&1
grep -E "PASSED|FAILED|Failure" "$OUT/tests.log" | head -20
RXMESH_REQUIRE_GPU=1 ctest --test-dir build-device -R "sanitize.*(dynamic|bvh|app_delaunay)" -j4 \
  > "$OUT/sanitize.log" 2>&1
grep -E "tests passed|Failed" "$OUT/sanitize.log"
MESH=build-device/tests/cgal-data/data/meshes/armadillo.off
build-device/benchmarks/bench_delaunay --mesh "$MESH" --levels "$LEVELS" --runs 7 --cpu-runs 3 \
  --json "$OUT/bench_delaunay.json" > "$OUT/bench_delaunay.txt" 2>&1
build-device/benchmarks/bench_dynamic --mesh "$MESH" --levels "$LEVELS" \
  --json "$OUT/bench_dynamic.json" > "$OUT/bench_dynamic.txt" 2>&1
if [ -x .bench-bin/run_delaunay.sh ]; then
  .bench-bin/run_delaunay.sh --mesh "$MESH" --levels "$LEVELS" > "$OUT/delaunay_openmesh.txt" 2>&1
  .bench-bin/run_simplify.sh --mesh "$MESH" --levels "$LEVELS" --runs 1 > "$OUT/simplify_cpu.txt" 2>&1
  .bench-bin/run_remesh.sh --mesh "$MESH" --levels 2 > "$OUT/remesh_cpu.txt" 2>&1
else
  echo "no .bench-bin: build the bench_cpu_baselines_bundle target here and carry it"
fi
tail -8 "$OUT"/bench_delaunay.txt "$OUT"/bench_dynamic.txt 2>/dev/null | cut -c1-240
tar -C "$OUT" -czf "$OUT/logs.tgz" --exclude logs.tgz . 2>/dev/null
exit 0
