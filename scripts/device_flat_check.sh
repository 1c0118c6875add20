#!/usr/bin/env bash
# A change to accumulate or its contributions (first: the flat form,
# query/accumulate_flat.cuh) in one batch: the GPU tests of accumulate and
# of every algorithm on it (device checks on, GPU required), memcheck of the
# kept-list sums, then bench_vertex_normals at 52K to 13.3M faces and
# bench_bilateral, each of OLD (default ab_old/, the tree before) and of
# this tree, alternating, all built without device checks, on one GPU in
# one run. Tables in $OUT/flat.tgz (vn_old_F.md, vn_F.md: the old and new
# tree's normals at F faces).
# usage: [OLD=dir] [RUNS=15] [SIZES="52000 ..."] [LEVELS=2] \
#        scripts/device_flat_check.sh     (carry .deps and the old tree)
set -uo pipefail
source scripts/device_env.sh > /dev/null
( SRC="${OLD:-ab_old}" build_bench build-ab-old bench_bilateral bench_vertex_normals > /dev/null ) &
targeted_gpu_check \
  'GpuAccumulate*:GpuVertexNormals*:GpuBilateral*:GpuGeodesic*:GpuGeometryGradients*:GpuMcf.Weights*' \
  'GpuAccumulate.KeptSourceListsGiveTheSameSums:GpuAccumulate.InputTooLarge*' \
  bench_vertex_normals bench_bilateral || exit 1
wait
[ -x build-ab-old/benchmarks/bench_bilateral ] || { grep -A10 error "$OUT/b_build-ab-old.log" | head; exit 1; }
MESH=$(armadillo_mesh)
mkdir -p "$OUT/flat"
for f in ${SIZES:-52000 208000 832000 3328000 13312000}; do
  build-ab-old/benchmarks/bench_vertex_normals --mesh "$MESH" --min-faces "$f" \
    --runs "${RUNS:-15}" > "$OUT/flat/vn_old_$f.md" 2>&1
  build-bench/benchmarks/bench_vertex_normals --mesh "$MESH" --min-faces "$f" \
    --runs "${RUNS:-15}" > "$OUT/flat/vn_$f.md" 2>&1
  echo "faces $f exit $?"
  for t in old_ ""; do
    echo "${t:-new_}"; grep -E "patches|kept face lists, 128|  same, 256 threads, >= 8|512 threads|flat|default|PDE" "$OUT/flat/vn_$t$f.md" | cut -c1-110
  done
done
for t in old new; do
  dir=$([ $t = old ] && echo build-ab-old || echo build-bench)
  $dir/benchmarks/bench_bilateral --mesh "$MESH" --levels "${LEVELS:-2}" --runs "${RUNS:-15}" \
    --reference-max-faces 300000 > "$OUT/flat/bilateral_$t.md" 2>&1
  echo "bench_bilateral $t exit $?"
  grep -E "^\|" "$OUT/flat/bilateral_$t.md" | head -8 | cut -c1-160
done
cp "$OUT"/*.log "$OUT/flat/" 2>/dev/null
cd "$OUT" && tar czf flat.tgz flat && rm -rf flat ./*.log
