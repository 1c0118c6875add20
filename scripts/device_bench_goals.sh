#!/usr/bin/env bash
# The benchmarks behind the apps' goals against PDE (MCF, vertex normals,
# bilateral, geodesic) on a GPU machine, without the CPU baselines: only
# those targets are built (build-bench, no device checks). PART=1: MCF and
# normals; PART=2: bilateral and geodesic; default both. Results in $OUT.
# usage: [PART=1|2] [RUNS=5] scripts/device_bench_goals.sh (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu_goals.md"
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRXMESH_BUILD_BENCHMARKS=ON -DRXMESH_DEVICE_CHECKS=OFF -DRXMESH_BUILD_PYTHON=OFF \
  -DCMAKE_PREFIX_PATH="$DEPS/usr" -DGTest_DIR="$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest" \
  -DRXMESH_CGAL_DATA_TARBALL="$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" > "$OUT/build_bench.log" 2>&1 \
  || { tail -30 "$OUT/build_bench.log"; exit 1; }
ninja -C build-bench bench_mcf bench_vertex_normals bench_bilateral bench_geodesic >> "$OUT/build_bench.log" 2>&1 \
  || { grep -B2 -A12 error "$OUT/build_bench.log" | head -60; exit 1; }
B=build-bench/benchmarks
M=build-bench/tests/cgal-data/data/meshes
R=${RUNS:-5}
if [ "${PART:-both}" != 2 ]; then
  $B/bench_mcf --mesh $M/armadillo.off --levels 4 --runs "$R" --json "$OUT/mcf.json" > "$OUT/mcf.md" 2>&1
  echo "bench_mcf exit $?"
  $B/bench_vertex_normals --mesh $M/armadillo.off --min-faces 13000000 --runs "$R" \
    --json "$OUT/vertex_normals.json" > "$OUT/vertex_normals.md" 2>&1
  echo "bench_vertex_normals exit $?"
fi
if [ "${PART:-both}" != 1 ]; then
  $B/bench_bilateral --mesh $M/armadillo.off --levels 4 --runs "$R" \
    --json "$OUT/bilateral.json" > "$OUT/bilateral.md" 2>&1
  echo "bench_bilateral exit $?"
  $B/bench_geodesic --mesh $M/armadillo.off --levels 4 --runs "$R" --cpu-max-faces 0 \
    --json "$OUT/geodesic.json" > "$OUT/geodesic.md" 2>&1
  echo "bench_geodesic exit $?"
fi
