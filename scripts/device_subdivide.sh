#!/usr/bin/env bash
# bench_subdivide on a GPU machine (after scripts/device_check.sh has built
# build-device). PART=seed: the seed paper's two meshes (from
# ../shared/meshes or the carried .deps/meshes), levels 1..7; PART=cgal: a
# libcgal-demo mesh (elephant, levels 1..5) and the armadillo refined to
# 13.3M faces for one level; default both. Results in $OUT (or ./device-out).
set -uo pipefail
OUT="${OUT:-$PWD/device-out}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/tmp/rxmesh-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
MESHES=../shared/meshes
[ -f "$MESHES/bigguyT.obj" ] || MESHES=.deps/meshes
CGAL=build-device/tests/cgal-data/data/meshes
B=build-device/benchmarks/bench_subdivide
COMMON=(--runs "${RUNS:-15}" --cpu-runs "${CPU_RUNS:-3}" --threads "${THREADS:-16}")
if [ "${PART:-both}" != cgal ]; then
  $B --mesh "$MESHES/bigguyT.obj" --mesh "$MESHES/monsterfrogT.obj" --levels "${LEVELS:-7}" "${COMMON[@]}" \
    --json "$OUT/subdivide_seed_meshes.json" | tee "$OUT/subdivide_seed_meshes.md"
fi
if [ "${PART:-both}" != seed ]; then
  $B --mesh "$CGAL/elephant.off" --levels "${CGAL_LEVELS:-5}" "${COMMON[@]}" \
    --armadillo "$CGAL/armadillo.off" --armadillo-refine 4 \
    --json "$OUT/subdivide_cgal.json" | tee "$OUT/subdivide_cgal.md"
fi
