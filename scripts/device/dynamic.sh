#!/usr/bin/env bash
# One batch for the changing-topology work (issues 29 and 30) on a GPU
# machine: build with device checks, run the dynamic engine's and the BVH's
# tests and sanitizer entries, then, in the same run, the GPU benchmarks
# (bench_delaunay, bench_dynamic, bench_remesh, bench_simplify) and the
# carried CPU baselines (.bench-bin from the bench_cpu_baselines_bundle
# target: OpenMesh Delaunay flips, CPU simplification and remeshing) on the
# armadillo, so that the GPU and CPU rows come from one machine and one run.
# Logs in $OUT (all of them also in $OUT/logs.tgz).
#
# usage: scripts/device.sh dynamic [LEVELS]     (carry .deps and .bench-bin)
#   LEVELS: the armadillo's 1-to-4 refinements measured (default 3: up to
#   3.3M faces); BENCH_TIMEOUT (seconds, default 240) bounds bench_remesh and
#   bench_simplify each, so that a slow size cannot take the run's time.
set -uo pipefail
LEVELS="${1:-3}"
BENCH_TIMEOUT="${BENCH_TIMEOUT:-240}"
source scripts/device/env.sh
configure_build_device || exit 1
build_device rxmesh_gpu_tests bench_delaunay bench_dynamic bench_remesh bench_simplify \
  rxmesh-delaunay rxmesh-remesh rxmesh-simplify || exit 1
RXMESH_REQUIRE_GPU=1 build-device/tests/rxmesh_gpu_tests \
  --gtest_filter='GpuDynamic*:GpuBvh*:GpuRemesh*:GpuSimplify*' > "$OUT/tests.log" 2>&1
grep -E "PASSED|FAILED|Failure" "$OUT/tests.log" | head -20
RXMESH_REQUIRE_GPU=1 ctest --test-dir build-device -R "sanitize.*(dynamic|bvh|remesh|simplify|app_delaunay)" -j4 \
  > "$OUT/sanitize.log" 2>&1
grep -E "tests passed|Failed" "$OUT/sanitize.log"
MESH=build-device/tests/cgal-data/data/meshes/armadillo.off
build-device/benchmarks/bench_delaunay --mesh "$MESH" --levels "$LEVELS" --runs 7 --cpu-runs 3 \
  --json "$OUT/bench_delaunay.json" > "$OUT/bench_delaunay.txt" 2>&1
build-device/benchmarks/bench_dynamic --mesh "$MESH" --levels "$LEVELS" \
  --json "$OUT/bench_dynamic.json" > "$OUT/bench_dynamic.txt" 2>&1
# the GPU remesher and simplifier on the same mesh and levels, before the CPU
# baselines (bench_remesh_cpu, bench_simplify_cpu) whose rows they compare
# with; an exit status (124: the time limit) is appended to the log
timeout "$BENCH_TIMEOUT" build-device/benchmarks/bench_remesh --mesh "$MESH" --levels "$LEVELS" \
  --runs 5 --json "$OUT/bench_remesh.json" > "$OUT/bench_remesh.txt" 2>&1 \
  || echo "bench_remesh: exit status $? (124: killed after ${BENCH_TIMEOUT} s)" >> "$OUT/bench_remesh.txt"
timeout "$BENCH_TIMEOUT" build-device/benchmarks/bench_simplify --mesh "$MESH" --levels "$LEVELS" \
  --runs 5 --batch-share 0.02,0.05,0.1,0.2 --json "$OUT/bench_simplify.json" \
  > "$OUT/bench_simplify.txt" 2>&1 \
  || echo "bench_simplify: exit status $? (124: killed after ${BENCH_TIMEOUT} s)" >> "$OUT/bench_simplify.txt"
if [ -x .bench-bin/run_delaunay.sh ]; then
  .bench-bin/run_delaunay.sh --mesh "$MESH" --levels "$LEVELS" > "$OUT/delaunay_openmesh.txt" 2>&1
  .bench-bin/run_simplify.sh --mesh "$MESH" --levels "$LEVELS" --runs 1 > "$OUT/simplify_cpu.txt" 2>&1
  .bench-bin/run_remesh.sh --mesh "$MESH" --levels 2 > "$OUT/remesh_cpu.txt" 2>&1
else
  echo "no .bench-bin: build the bench_cpu_baselines_bundle target here and carry it"
fi
tail -8 "$OUT"/bench_delaunay.txt "$OUT"/bench_dynamic.txt "$OUT"/bench_remesh.txt \
  "$OUT"/bench_simplify.txt 2>/dev/null | cut -c1-240
tar -C "$OUT" -czf "$OUT/logs.tgz" --exclude logs.tgz . 2>/dev/null
exit 0
