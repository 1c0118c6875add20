#!/usr/bin/env bash
# bench_subdivide on a GPU machine (after scripts/device_check.sh has built
# build-device): the seed's two meshes (from ../shared/meshes or the carried
# .deps/meshes), levels 1..7, a libcgal-demo mesh, and the armadillo refined
# to 13.3M faces for one level. Results in $OUT (or ./device-out).
set -uo pipefail
OUT="${OUT:-$PWD/device-out}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/tmp/rxmesh-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
MESHES=../shared/meshes
[ -f "$MESHES/bigguyT.obj" ] || MESHES=.deps/meshes
CGAL=build-device/tests/cgal-data/data/meshes
B=build-device/benchmarks/bench_subdivide
$B --mesh "$MESHES/bigguyT.obj" --mesh "$MESHES/monsterfrogT.obj" --levels "${LEVELS:-7}" \
  --runs "${RUNS:-15}" --cpu-runs "${CPU_RUNS:-3}" --threads "${THREADS:-16}" \
  --json "$OUT/subdivide_seed_meshes.json" | tee "$OUT/subdivide.md"
$B --mesh "$CGAL/elephant.off" --levels "${CGAL_LEVELS:-5}" --runs "${RUNS:-15}" \
  --cpu-runs "${CPU_RUNS:-3}" --threads "${THREADS:-16}" --armadillo "$CGAL/armadillo.off" \
  --armadillo-refine 4 --json "$OUT/subdivide_cgal.json" | tee -a "$OUT/subdivide.md"
