#!/usr/bin/env bash
# Every benchmark of a build run once, to show that it runs and verifies
# (not for figures): BUILD/benchmarks/bench_* each on CGAL's armadillo with
# BENCH_ARGS (default --levels 1 --runs 1), exit 0 and its "verified" line
# required; where OLD_BENCHMARKS holds an older build of one, its JSON
# report must equal the older one's but for the times. Prints one line per
# benchmark; reports in $OUT/bench_*.md and .json; exits 1 on any failure.
# usage: [BENCH_ARGS=...] [OLD_BENCHMARKS=dir] scripts/device.sh bench-once [BUILD]
#        (BUILD defaults to build-device, configured and built by check;
#        carry .deps)
set -uo pipefail
BUILD_PATH=${1:-build-device}
OLD_BENCHMARKS=${OLD_BENCHMARKS:-}
source scripts/device/env.sh > /dev/null
status=0
MESH=$(armadillo_mesh)
for b in "$BUILD_PATH"/benchmarks/bench_*; do
  [ -x "$b" ] || continue
  name=$(basename "$b")
  timeout 120 "$b" --mesh "$MESH" ${BENCH_ARGS:---levels 1 --runs 1} --json "$OUT/$name.json" \
    > "$OUT/$name.md" 2>&1
  rc=$?
  echo "$name exit $rc: $(grep -i "^verified" "$OUT/$name.md" | head -1)"
  [ $rc = 0 ] || status=1
  # an older build of the same benchmark (OLD_BENCHMARKS/NAME): the same
  # report but for its times
  old="${OLD_BENCHMARKS:-/nonexistent}/$name"
  [ -x "$old" ] || continue
  timeout 120 "$old" --mesh "$MESH" ${BENCH_ARGS:---levels 1 --runs 1} --json "$OUT/${name}_old.json" \
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
exit $status
