#!/usr/bin/env bash
# Before/after on the GPU machine, in one run: the previous commit's
# bench_vertex_normals and bench_query_compare (built elsewhere, carried in
# .bench-old/) against this tree's (build-device/), interleaved, on the
# armadillo refinements. Logs in $OUT.
set -uo pipefail
OUT="${OUT:-$PWD/device-out}"
M=build-device/tests/cgal-data/data/meshes
N=build-device/benchmarks
RUNS=${RUNS:-15}
for round in 1 2; do
  for who in old new; do
    B=$N; [ $who = old ] && B=.bench-old
    echo "## vertex normals, $who, round $round"
    $B/bench_vertex_normals --mesh $M/armadillo.off --min-faces 13000000 --runs $RUNS \
      --json "$OUT/normals_${who}_$round.json" 2>&1 | grep -v "^$"
  done
done
for who in old new; do
  B=$N; [ $who = old ] && B=.bench-old
  echo "## queries, $who"
  $B/bench_query_compare --runs $RUNS --orders sorted --mesh $M/armadillo.off:2,4 \
    --json "$OUT/queries_$who.json" > "$OUT/queries_$who.md" 2>&1
  echo "exit $?"; grep -E "x4\^4|x4\^2" "$OUT/queries_$who.md" | grep -E "sorted" | head -20
done
