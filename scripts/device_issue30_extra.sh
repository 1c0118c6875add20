#!/usr/bin/env bash
# Issue 30's measurements beyond device_issue30.sh, in one GPU-machine run:
# the armadillo's fourth refinement (13.3M faces; meshoptimizer alone as
# the CPU side there: OpenMesh and CGAL take many minutes) and real meshes
# of libcgal-demo at their own size with every CPU baseline. Builds only
# the benchmarks. Logs in $OUT/logs.tgz.
# usage: scripts/device_issue30_extra.sh   (carry .deps and .bench-bin)
set -uo pipefail
source scripts/device_env.sh
mkdir -p "$OUT/real"
configure_build_device || exit 1
build_device bench_remesh bench_simplify || exit 1
DATA=build-device/tests/cgal-data/data/meshes
MESHES="${MESHES:-elephant homer bull camel ChineseDragon-10kv fandisk_large bunny00}"
(for m in $MESHES; do
   timeout 120 .bench-bin/run_remesh.sh --mesh "$DATA/$m.off" --levels 0 > "$OUT/real/${m}_remesh_cpu.txt" 2>&1
   timeout 120 .bench-bin/run_simplify.sh --mesh "$DATA/$m.off" --levels 0 --runs 1 > "$OUT/real/${m}_simplify_cpu.txt" 2>&1
 done) &
timeout 300 .bench-bin/run_simplify.sh --mesh "$DATA/armadillo.off" --min-level 4 --levels 4 --runs 1 \
  --slow-max-faces 4000000 > "$OUT/simplify_cpu_l4.txt" 2>&1 &
for m in $MESHES; do
  build-device/benchmarks/bench_remesh --mesh "$DATA/$m.off" --levels 0 --runs 5 > "$OUT/real/${m}_remesh.txt" 2>&1
  build-device/benchmarks/bench_simplify --mesh "$DATA/$m.off" --levels 0 --runs 5 > "$OUT/real/${m}_simplify.txt" 2>&1
done
timeout 150 build-device/benchmarks/bench_remesh --mesh "$DATA/armadillo.off" --min-level 4 --levels 4 \
  --runs 3 > "$OUT/remesh_l4.txt" 2>&1; echo "remesh l4 exit $?"
timeout 150 build-device/benchmarks/bench_simplify --mesh "$DATA/armadillo.off" --min-level 4 --levels 4 \
  --runs 3 > "$OUT/simplify_l4.txt" 2>&1; echo "simplify l4 exit $?"
wait
grep -h "^| armadillo\|^| [0-9]" "$OUT"/*_l4.txt | cut -c1-300
tar -C "$OUT" -czf "$OUT/logs.tgz" --exclude logs.tgz . 2>/dev/null
exit 0
