#!/usr/bin/env bash
# No behaviour change between two trees: every app of both builds runs on its
# embedded default and on CGAL's armadillo with -o out.ply --json, and the two
# PLY files must be identical byte for byte, the exit codes equal; the JSON
# reports are compared with their times, memory and the build's version left
# out. Where the PLYs differ, a second run of the new build says how much of
# it is run-to-run noise (an app whose reductions end in a float atomic).
# Prints one line per app and input and a closing verdict; exits 1 on any
# difference. Both build dirs must be configured (scripts/device.sh check or
# regression configure them) or OLD_SRC name the older tree's sources (a
# carried git archive), configured here into OLD_BUILD; the app targets are
# built here.
# usage: [OLD_SRC=.old-tree] [OLD_BUILD=build-old] [NEW_BUILD=build-device] \
#        [APPS="..."] scripts/device.sh same-output        (carry .deps)
set -uo pipefail
source scripts/device/env.sh > /dev/null
OLD_BUILD=${OLD_BUILD:-build-old}
NEW_BUILD=${NEW_BUILD:-build-device}
APPS=${APPS:-"vertex_normal mcf geodesic bilateral subdivide delaunay remesh simplify"}
LOG="$OUT/same_output.txt"
: > "$LOG"
if [ -n "${OLD_SRC:-}" ] && [ ! -f "$OLD_BUILD/build.ninja" ]; then
  configure_build_device "$OLD_SRC" "$OLD_BUILD" || exit 1
fi
targets=$(for a in $APPS; do echo "rxmesh-${a//_/-}"; done)
for b in "$OLD_BUILD" "$NEW_BUILD"; do
  [ -f "$b/build.ninja" ] || { echo "no $b/build.ninja: configure it first" | tee -a "$LOG"; exit 1; }
  ninja -C "$b" $targets >> "$OUT/same_output_build.log" 2>&1 \
    || { grep -B2 -A12 error "$OUT/same_output_build.log" | head -40; exit 1; }
done
#! The largest difference of two binary PLY files' vertex values, or why
#! they cannot be compared.
ply_diff()
{
  python3 - "$1" "$2" <<'PY'
import struct, sys
def vertices(path):
    data = open(path, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    head = data[:end].decode().splitlines()
    n, props, on = 0, [], False
    for line in head:
        w = line.split()
        if w[0] == "element":
            on = w[1] == "vertex"
            if on: n = int(w[2])
        elif w[0] == "property" and on:
            props.append(w[1])
    size = {"float": "f", "float32": "f", "double": "d", "uchar": "B", "uint8": "B", "int": "i",
            "uint": "I", "int32": "i", "uint32": "I"}
    fmt = "<" + "".join(size[p] for p in props)
    rec = struct.calcsize(fmt)
    return [struct.unpack_from(fmt, data, end + v * rec) for v in range(n)], data[end + n * rec:]
try:
    (a, fa), (b, fb) = vertices(sys.argv[1]), vertices(sys.argv[2])
except Exception as e:
    print("unreadable (%s)" % e); sys.exit()
if len(a) != len(b):
    print("%d / %d vertices" % (len(a), len(b))); sys.exit()
worst = max((abs(x - y) for r, s in zip(a, b) for x, y in zip(r, s)), default=0.0)
print("max |difference| %.3g%s" % (worst, "" if fa == fb else ", faces differ"))
PY
}

MESH=$(armadillo_mesh)
T=$(mktemp -d)
differ=0
for a in $APPS; do
  exe="apps/$a/rxmesh-${a//_/-}"
  for input in default armadillo; do
    args=()
    [ "$input" = armadillo ] && args=("$MESH")
    for who in old new; do
      b=$OLD_BUILD; [ $who = new ] && b=$NEW_BUILD
      "$b/$exe" "${args[@]}" -o "$T/$who.ply" --json "$T/$who.json" > "$T/$who.txt" 2>&1
      echo $? > "$T/$who.rc"
    done
    verdict=same
    cmp -s "$T/old.rc" "$T/new.rc" || verdict="exit codes differ ($(cat "$T/old.rc") / $(cat "$T/new.rc"))"
    if [ "$verdict" = same ] && ! cmp -s "$T/old.ply" "$T/new.ply"; then
      # a second run of the new build tells a change from run-to-run noise
      "$NEW_BUILD/$exe" "${args[@]}" -o "$T/new2.ply" > /dev/null 2>&1
      noise=$(ply_diff "$T/new.ply" "$T/new2.ply")
      verdict="PLY differs: old/new $(ply_diff "$T/old.ply" "$T/new.ply"), new/new run to run $noise"
    fi
    if [ "$verdict" = same ]; then
      python3 - "$T/old.json" "$T/new.json" > "$T/json.txt" 2>&1 <<'PY' || verdict="report differs: $(head -c 300 "$T/json.txt")"
import json, sys
SKIP = ("ms", "_ms", "time", "times", "memory", "bytes", "version", "commit", "upload", "import",
        "device_name", "gpu", "driver", "progress")
def clean(x, key=""):
    if isinstance(x, dict):
        return {k: clean(v, k) for k, v in x.items()
                if not any(k == s or k.endswith(s) or s in k for s in SKIP)}
    if isinstance(x, list):
        return [clean(v) for v in x]
    return x
a, b = (clean(json.load(open(p))) for p in sys.argv[1:3])
def diff(x, y, path="report"):
    if type(x) != type(y):
        return path
    if isinstance(x, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                return path + "." + k + " (only in one)"
            d = diff(x[k], y[k], path + "." + k)
            if d: return d
        return None
    if isinstance(x, list):
        if len(x) != len(y): return path + " (length)"
        for i, (u, v) in enumerate(zip(x, y)):
            d = diff(u, v, "%s[%d]" % (path, i))
            if d: return d
        return None
    return None if x == y else "%s: %r / %r" % (path, x, y)
d = diff(a, b)
if d:
    print(d); sys.exit(1)
PY
    fi
    [ "$verdict" = same ] || differ=1
    echo "rxmesh-${a//_/-} $input: $verdict (exit $(cat "$T/new.rc"), $(stat -c %s "$T/new.ply" 2>/dev/null || echo 0) bytes)" | tee -a "$LOG"
    rm -f "$T"/*.ply "$T"/*.json
  done
done
echo "same output: $([ $differ = 0 ] && echo "every app, both inputs" || echo "NO")" | tee -a "$LOG"
exit $differ
