#!/usr/bin/env bash
# One benchmark in a Release build without device checks (build-bench), on
# CGAL's armadillo (from the carried data) unless ARGS name a --mesh; ARGS
# go to the benchmark as they are (e.g. --levels 4 --runs 5). Its table in
# $OUT/BENCH.txt and, unless ARGS name a --json, its JSON in $OUT/BENCH.json.
# usage: scripts/device.sh bench BENCH [ARGS...]   (carry .deps)
#   e.g. scripts/device.sh bench bench_mcf --levels 4 --runs 5
#        scripts/device.sh bench bench_subdivide --mesh ../shared/meshes/x.obj --levels 7
set -uo pipefail
BENCH="${1:?benchmark target, e.g. bench_mcf}"
shift
source scripts/device/env.sh > /dev/null
build_bench build-bench "$BENCH" || exit 1
args=("$@")
[[ " $* " == *" --mesh "* ]] || args=(--mesh "$(armadillo_mesh)" "${args[@]}")
[[ " $* " == *" --json "* ]] || args+=(--json "$OUT/$BENCH.json")
"build-bench/benchmarks/$BENCH" "${args[@]}" > "$OUT/$BENCH.txt" 2>&1
rc=$?
echo "$BENCH exit $rc"
tail -25 "$OUT/$BENCH.txt"
exit $rc
