#!/usr/bin/env bash
# Every benchmark of a build run once, to show that it runs and verifies
# (not for figures): BUILD/benchmarks/bench_* each on CGAL's armadillo,
# exit 0 required (a driver exits 1 when its verification fails), its
# "verified" line printed; where OLD_BENCHMARKS holds an older build of one, its JSON
# report must equal the older one's but for the times. Prints one line per
# benchmark; reports in $OUT/bench_*.md and .json; exits 1 on any failure.
# usage: [BENCH_ARGS=...] [OLD_BENCHMARKS=dir] scripts/device.sh bench-once [BUILD]
#        (BUILD defaults to build-device, configured and built by check;
#        carry .deps)
# Each benchmark gets the options its --help lists: --mesh (armadillo),
# --levels 1 (--min-level 0), --runs 1, --json, --max-faces 100000, --min-faces 200000;
# bench_obj_parse a 64-grid; bench_geodesic_cpu and bench_geodesic_exact
# the distances bench_geodesic dumped (--level 1). BENCH_ARGS, if set,
# replaces the chosen size options for every benchmark.
set -uo pipefail
BUILD_PATH=${1:-build-device}
OLD_BENCHMARKS=${OLD_BENCHMARKS:-}
source scripts/device/env.sh > /dev/null
status=0
MESH=$(armadillo_mesh)
DUMP="$OUT/geodesic_dump"
mkdir -p "$DUMP"
#! The options benchmark $1 is run with, from what its --help lists.
options_of()
{
  local help name
  help=$("$1" --help 2>&1); name=$(basename "$1")
  has() { grep -qE -- "(^|[ ,])$1([ =,]|$)" <<< "$help"; }
  case "$name" in
    bench_obj_parse) echo "64 1"; return ;;
    bench_geodesic_cpu|bench_geodesic_exact)
      echo "--mesh $MESH --level 1 --distances $DUMP/rxmesh_level1.f32"; return ;;
  esac
  local o=""
  has --mesh && o+=" --mesh $MESH"
  if [ -n "${BENCH_ARGS:-}" ]; then
    o+=" $BENCH_ARGS"
  else
    has --levels && o+=" --levels 1"
    has --min-level && o+=" --min-level 0"
    has --runs && o+=" --runs 1"
    has --max-faces && o+=" --max-faces 100000"
    has --min-faces && o+=" --min-faces 200000"
  fi
  has --json && o+=" --json $OUT/$name.json"
  [ "$name" = bench_geodesic ] && o+=" --dump $DUMP"
  echo "$o"
}
ran=0
for b in "$BUILD_PATH"/benchmarks/bench_*; do
  [ -x "$b" ] || continue
  ran=$((ran + 1))
  name=$(basename "$b")
  # shellcheck disable=SC2046
  timeout 120 "$b" $(options_of "$b") > "$OUT/$name.md" 2>&1
  rc=$?
  echo "$name exit $rc: $(grep -i "^verified" "$OUT/$name.md" | head -1)"
  [ $rc = 0 ] || { status=1; head -c 300 "$OUT/$name.md"; echo; }
  # an older build of the same benchmark (OLD_BENCHMARKS/NAME): the same
  # report but for its times
  old="${OLD_BENCHMARKS:-/nonexistent}/$name"
  [ -x "$old" ] || continue
  timeout 120 "$old" $(options_of "$b" | sed "s|$OUT/$name.json|$OUT/${name}_old.json|") \
    > "$OUT/${name}_old.md" 2>&1
  python3 - "$OUT/${name}_old.json" "$OUT/$name.json" <<'PY' || status=1
import json, re, sys
TIME = re.compile(r"(^|_)(ms|s|wall|time|times|seconds|ops_per_s.*|mops.*)($|_)|_ms$|_ms_|per_s")
def clean(x):
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items() if not TIME.search(k) and k not in ("passes", "last_run_passes")}
    if isinstance(x, list):
        return [clean(v) for v in x]
    return x
a, b = (clean(json.load(open(p))) for p in sys.argv[1:3])
def diff(x, y, path):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                if k not in x and k.startswith("to_static"): continue  # new in this tree
                return path + "." + k + " only in one"
            d = diff(x[k], y[k], path + "." + k)
            if d: return d
        return None
    if isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y): return path + " length"
        for i, (u, v) in enumerate(zip(x, y)):
            d = diff(u, v, "%s[%d]" % (path, i))
            if d: return d
        return None
    return None if x == y else "%s: %r / %r" % (path, x, y)
d = diff(a, b, "report")
print("  old and new reports (times left out): " + ("the same" if d is None else "DIFFER at " + d))
sys.exit(0 if d is None else 1)
PY
done
# a build without benchmarks (not built, or the wrong directory) is a failure,
# not a run in which nothing failed
if [ $ran = 0 ]; then
  echo "bench-once: no benchmarks in $BUILD_PATH/benchmarks (build them first)"
  exit 1
fi
echo "bench-once: $ran benchmarks run"
exit $status
