#!/usr/bin/env bash
# Issue 30's measurements in one GPU-machine run: bench_remesh and
# bench_simplify on the armadillo's refinements while the carried CPU
# baselines (.bench-bin: CGAL isotropic_remeshing; meshoptimizer, OpenMesh
# Decimater, CGAL edge_collapse) run on the same machine's CPU cores beside
# them (single-threaded each, 16 cores), then the remesh and simplify
# sanitizer entries. Logs in $OUT/logs.tgz.
# usage: scripts/device_issue30.sh [LEVELS]   (carry .deps and .bench-bin)
set -uo pipefail
LEVELS="${1:-3}"
source scripts/device_env.sh
configure_build_device || exit 1
build_device bench_remesh bench_simplify rxmesh-remesh rxmesh-simplify || exit 1
MESH=build-device/tests/cgal-data/data/meshes/armadillo.off
if [ -x .bench-bin/run_simplify.sh ]; then
  timeout 500 .bench-bin/run_simplify.sh --mesh "$MESH" --levels "$LEVELS" --runs 1 \
    > "$OUT/simplify_cpu.txt" 2>&1 &
  timeout 500 .bench-bin/run_remesh.sh --mesh "$MESH" --levels 2 > "$OUT/remesh_cpu.txt" 2>&1 &
fi
timeout 200 build-device/benchmarks/bench_remesh --mesh "$MESH" --levels "$LEVELS" --runs 5 \
  --json "$OUT/bench_remesh.json" > "$OUT/bench_remesh.txt" 2>&1
echo "bench_remesh exit $?"
timeout 200 build-device/benchmarks/bench_simplify --mesh "$MESH" --levels "$LEVELS" --runs 5 \
  --batch-share "${SHARES:-0.02,0.05,0.1,0.2}" --json "$OUT/bench_simplify.json" \
  > "$OUT/bench_simplify.txt" 2>&1
echo "bench_simplify exit $?"
RXMESH_REQUIRE_GPU=1 ctest --test-dir build-device -R "sanitize.*(remesh|simplify)" -j4 \
  > "$OUT/sanitize.log" 2>&1
grep -E "tests passed|Failed" "$OUT/sanitize.log"
wait
grep -h "^|" "$OUT"/bench_remesh.txt "$OUT"/bench_simplify.txt | cut -c1-400
tar -C "$OUT" -czf "$OUT/logs.tgz" --exclude logs.tgz . 2>/dev/null
exit 0
