#!/usr/bin/env bash
# Two of the apps' benchmarks in one batch (build-bench, no device checks):
# bench_geodesic and bench_mcf on CGAL's armadillo refined up to 4 times,
# median of RUNS (5), the CPU baselines and Eigen left out. Results in $OUT.
# usage: [RUNS=5] [BENCHES="geodesic mcf"] scripts/device_bench_pair.sh   (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRXMESH_BUILD_BENCHMARKS=ON -DRXMESH_DEVICE_CHECKS=OFF -DRXMESH_BUILD_PYTHON=OFF \
  -DCMAKE_PREFIX_PATH="$DEPS/usr" -DGTest_DIR="$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest" \
  -DRXMESH_CGAL_DATA_TARBALL="$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" > "$OUT/build_bench.log" 2>&1 \
  || { tail -30 "$OUT/build_bench.log"; exit 1; }
BENCHES=${BENCHES:-geodesic mcf}
ninja -C build-bench $(for b in $BENCHES; do echo bench_$b; done) >> "$OUT/build_bench.log" 2>&1 \
  || { grep -B2 -A12 error "$OUT/build_bench.log" | head -60; exit 1; }
B=build-bench/benchmarks
M=build-bench/tests/cgal-data/data/meshes
R=${RUNS:-5}
for b in $BENCHES; do
  case $b in
    geodesic) extra="--cpu-max-faces 0" ;;
    mcf) extra="--eigen-max-faces 0" ;;
    *) extra="" ;;
  esac
  $B/bench_$b --mesh $M/armadillo.off --levels 4 --runs "$R" $extra --json "$OUT/$b.json" > "$OUT/$b.md" 2>&1
  echo "bench_$b exit $?"
  sed -n '/^|/p' "$OUT/$b.md" | head -16
done
