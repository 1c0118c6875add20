#!/usr/bin/env bash
# bench_vertex_normals (no device checks) on CGAL's armadillo refined to 52K,
# 208K, 832K, 3.3M and 13.3M faces, 21 runs each, on one GPU in one run;
# tables and JSON packed in $OUT/vn.tgz.
# usage: [SIZES="52000 208000"] scripts/device_vn_sizes.sh (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
build_bench build-bench bench_vertex_normals || exit 1
MESH=$(armadillo_mesh)
mkdir -p "$OUT/vn"
for f in ${SIZES:-52000 208000 832000 3328000 13312000}; do
  build-bench/benchmarks/bench_vertex_normals --mesh "$MESH" --min-faces "$f" --runs 21 \
    --json "$OUT/vn/vn_$f.json" > "$OUT/vn/vn_$f.md" 2>&1
  echo "faces $f exit $?"
  grep -E "patches|>= 16 blocks/SM \||default|256 threads, >= 8|512|PDE" "$OUT/vn/vn_$f.md" | cut -c1-120
done
cd "$OUT" && tar czf vn.tgz vn && rm -rf vn
