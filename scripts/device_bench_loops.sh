#!/usr/bin/env bash
# Figures for the one-launch loops and the warp overflow of the k-ring, as
# the results directory keeps them: a Release build without device checks
# (build-bench), then bench_bilateral and bench_kring (stage "ball") or
# bench_geodesic (stage "geodesic", serial CPU baseline up to 300K faces) on
# the armadillo and its refinements, levels 0..4. Logs in $OUT.
# usage: scripts/device_bench_loops.sh ball|geodesic   (RUNS; carry .deps)
set -uo pipefail
STAGE="${1:?ball or geodesic}"; RUNS="${RUNS:-15}"
source scripts/device_env.sh
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRXMESH_DEVICE_CHECKS=OFF -DRXMESH_BUILD_BENCHMARKS=ON -DCMAKE_PREFIX_PATH="$DEPS/usr" \
  -DGTest_DIR="$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest" > "$OUT/build.log" 2>&1 || exit 1
ninja -C build-bench bench_geodesic bench_bilateral bench_kring >> "$OUT/build.log" 2>&1 \
  || { grep -B2 -A12 error "$OUT/build.log" | head -40; exit 1; }
tar xzf "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" -C /tmp
M=/tmp/data/meshes/armadillo.off
if [ "$STAGE" = ball ]; then
  build-bench/benchmarks/bench_bilateral --mesh $M --levels 4 --runs "$RUNS" \
    --json "$OUT/bilateral.json" > "$OUT/bilateral.md" 2> "$OUT/bilateral.err"
  echo "bench_bilateral exit $?"; cat "$OUT/bilateral.md" "$OUT/bilateral.err"
  build-bench/benchmarks/bench_kring --mesh $M --levels 4 --runs "$RUNS" \
    --json "$OUT/kring.json" > "$OUT/kring.md" 2> "$OUT/kring.err"
  echo "bench_kring exit $?"; cat "$OUT/kring.md"
else
  build-bench/benchmarks/bench_geodesic --mesh $M --levels 4 --runs "${GEODESIC_RUNS:-5}" \
    --cpu-max-faces 300000 --json "$OUT/geodesic.json" > "$OUT/geodesic.md" 2> "$OUT/geodesic.err"
  echo "bench_geodesic exit $?"; cat "$OUT/geodesic.md"; tail -5 "$OUT/geodesic.err"
fi
