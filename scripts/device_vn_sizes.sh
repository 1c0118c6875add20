#!/usr/bin/env bash
# bench_vertex_normals (no device checks) on CGAL's armadillo refined to 52K,
# 208K, 832K, 3.3M and 13.3M faces, 21 runs each, on one GPU in one run;
# tables and JSON packed in $OUT/vn.tgz.
# usage: [SIZES="52000 208000"] scripts/device_vn_sizes.sh (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DRXMESH_BUILD_BENCHMARKS=ON -DRXMESH_BUILD_TESTS=OFF -DRXMESH_DEVICE_CHECKS=OFF -DRXMESH_BUILD_PYTHON=OFF -DCMAKE_PREFIX_PATH="$DEPS/usr" > $OUT/cfg.log 2>&1 || { tail -20 $OUT/cfg.log; exit 1; }
ninja -C build-bench bench_vertex_normals > $OUT/b.log 2>&1 || { grep -A10 error $OUT/b.log | head -40; exit 1; }
T=$(mktemp -d); tar xzf "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" -C "$T"; MESH=$(find "$T" -name armadillo.off | head -1)
mkdir -p $OUT/vn
for f in ${SIZES:-52000 208000 832000 3328000 13312000}; do
  build-bench/benchmarks/bench_vertex_normals --mesh "$MESH" --min-faces $f --runs 21 --json $OUT/vn/vn_$f.json > $OUT/vn/vn_$f.md 2>&1; echo "faces $f exit $?"
  grep -E "patches|>= 16 blocks/SM \||default|256 threads, >= 8|PDE" $OUT/vn/vn_$f.md | cut -c1-120
done
cd $OUT && tar czf vn.tgz vn && rm -rf vn
