#!/usr/bin/env bash
# No-regression check (issue 28) on the GPU machine, in one run: the old
# tree's benchmarks (.bench-old-src, built here into build-old) against this
# tree's (BUILD_DIR, built by scripts/device.sh check), interleaved old, new
# per round, on armadillo.off refined 1-to-4 four times (13.3M faces; RXMesh
# always runs in its own patch order, the "sorted" order). Run from the repo
# root after scripts/device.sh check. Everything lands in $OUT/regression/,
# packed at the end into $OUT/regression.tgz; the summary table is printed
# and kept as $OUT/regression_summary.md (two files come back).
#
# usage: [BUILD_DIR=build-device] [RUNS=7] [BUDGET_S=510] scripts/device.sh regression
# environment (defaults):
#   BUILD_DIR (build-device)    the new tree's build; its missing targets are built
#   OLD_SRC (.bench-old-src), OLD_BUILD_DIR (build-old), OLD_LABEL (3c0c121)
#   RUNS (7)                    median of, for queries, normals, bilateral, Loop
#   MCF_LEVEL (3), MCF_RUNS (5) bench_mcf times levels 0..MCF_LEVEL
#   GEO_LEVEL (3), GEO_RUNS (3) bench_geodesic at GEO_LEVEL only
#   ROUNDS (2)                  old, new per round; round-major, so a cut run
#                               still has one pair of every measurement
#   BUDGET_S (510)              seconds from the start, builds included: a run
#                               that would not fit is skipped, none runs past it
#   JOBS (16)                   build parallelism
#   OLD_BUILD (missing)         build only the old targets not yet built; always: run ninja
#   BUILD_ONLY (0)              1: build both trees, run nothing (a first call; the
#                               next call on the warm machine then only measures)
#   ONLY ("queries normals mcf geodesic bilateral loop")
#
# Sizes: queries, normals, bilateral and Loop at x4^4 (13.3M faces; Loop
# outputs 53.2M). bench_mcf and bench_geodesic at x4^3 (3.3M faces) by
# default: neither can switch off its baselines, and at x4^4 those alone would
# take most of the budget (bench_mcf: cuSPARSE and PDE CG, both in two
# numberings, and the recomputed-weights CG, each also solved to tolerance,
# with the double CPU reference checking each, and every lower level timed
# too; bench_geodesic: PDE at four block sizes in two numberings, each solve
# about three times RXMesh's, see benchmarks/results/nvidia-h200/geodesic.md).
# MCF_LEVEL=4 / GEO_LEVEL=4 ask for x4^4 where the time allows.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
T0=$SECONDS
OUT="${OUT:-$PWD/device-out}"
R="$OUT/regression"
mkdir -p "$R"
BUILD_DIR=${BUILD_DIR:-build-device}
OLD_SRC=${OLD_SRC:-.bench-old-src}
OLD_BUILD_DIR=${OLD_BUILD_DIR:-build-old}
OLD_LABEL=${OLD_LABEL:-3c0c121}
RUNS=${RUNS:-7}
MCF_LEVEL=${MCF_LEVEL:-3}
MCF_RUNS=${MCF_RUNS:-5}
GEO_LEVEL=${GEO_LEVEL:-3}
GEO_RUNS=${GEO_RUNS:-3}
ROUNDS=${ROUNDS:-2}
[ "${BUILD_ONLY:-0}" = 1 ] && ROUNDS=0
BUDGET_S=${BUDGET_S:-510}
JOBS=${JOBS:-16}
ONLY=${ONLY:-"queries normals mcf geodesic bilateral loop"}
DEPS=/tmp/rxmesh-deps
LOG="$R/regression.log"
: > "$LOG"
: > "$R/runs.tsv"

elapsed() { echo $((SECONDS - T0)); }
left() { echo $((BUDGET_S - (SECONDS - T0))); }
log() { echo "[$(elapsed)s] $*" | tee -a "$LOG"; }

declare -A TARGET=([queries]=bench_query_compare [normals]=bench_vertex_normals [mcf]=bench_mcf
                   [geodesic]=bench_geodesic [bilateral]=bench_bilateral [loop]=bench_subdivide)
# seconds one run is expected to take (a run is skipped when less is left)
# and the most it may take (its timeout)
declare -A EST=([queries]=25 [normals]=15 [mcf]=20 [geodesic]=25 [bilateral]=20 [loop]=12)
declare -A CAP=([queries]=150 [normals]=90 [mcf]=150 [geodesic]=150 [bilateral]=90 [loop]=90)
[ "$MCF_LEVEL" -ge 4 ] && EST[mcf]=50 && CAP[mcf]=240
[ "$GEO_LEVEL" -ge 4 ] && EST[geodesic]=90 && CAP[geodesic]=300

# ---- dependencies (as scripts/device.sh check: meshes, GTest, Eigen, OpenSubdiv) ----
mkdir -p "$DEPS"
if [ ! -f "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" ]; then
  for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" "$DEPS"; done
fi
export LD_LIBRARY_PATH="$DEPS/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
GPU=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)
log "GPU: ${GPU:-none visible}; old $OLD_LABEL ($OLD_SRC -> $OLD_BUILD_DIR), new $BUILD_DIR; budget ${BUDGET_S}s"
GTEST_HINT=""
if ! ls /usr/lib/*/cmake/GTest /usr/lib/cmake/GTest /usr/local/lib/cmake/GTest >/dev/null 2>&1; then
  GTEST_HINT="-DGTest_DIR=$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest"
fi

# configure SRC BUILD ON|OFF: check.sh's configure line
configure() {
  timeout -k 10 300 cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DRXMESH_BUILD_BENCHMARKS=ON -DRXMESH_DEVICE_CHECKS="$3" \
    -DCMAKE_PREFIX_PATH="$DEPS/usr" $GTEST_HINT \
    -DRXMESH_CGAL_DATA_TARBALL="$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" \
    -DRXMESH_ASSIMP_MODELS="$DEPS/usr/share/assimp/models"
}

# build DIR LOGFILE TARGET...: keeps going past a failed target (ninja -k 0),
# and stops in time to leave 90 s for the runs
build() {
  local dir=$1 logf=$2
  shift 2
  local limit=$(($(left) - 90))
  [ "$limit" -lt 30 ] && limit=30
  timeout -k 10 "$limit" cmake --build "$dir" --target "$@" -j "$JOBS" -- -k 0 >> "$logf" 2>&1
}

WANT=()
for b in $ONLY; do
  [ -n "${TARGET[$b]:-}" ] && WANT+=("${TARGET[$b]}") || log "unknown measurement '$b' (ONLY)"
done

[ ${#WANT[@]} -gt 0 ] || { log "nothing to measure (ONLY='$ONLY')"; exit 0; }

# ---- the old tree: configure and build into OLD_BUILD_DIR ----
# The old sources never change: binaries left by an earlier call on this
# machine are kept unless OLD_BUILD=always (ninja then decides).
: > "$R/build_old.log"
OLD_MISSING=()
for t in "${WANT[@]}"; do [ -x "$OLD_BUILD_DIR/benchmarks/$t" ] || OLD_MISSING+=("$t"); done
if [ ${#OLD_MISSING[@]} -eq 0 ] && [ "${OLD_BUILD:-missing}" != always ]; then
  log "old binaries present in $OLD_BUILD_DIR: not rebuilt"
elif configure "$OLD_SRC" "$OLD_BUILD_DIR" OFF >> "$R/build_old.log" 2>&1; then
  log "build old: ${WANT[*]}"
  build "$OLD_BUILD_DIR" "$R/build_old.log" "${WANT[@]}" || log "FAILED build old (exit $?; see build_old.log)"
  grep -B2 -A10 -E "error( |:)" "$R/build_old.log" | head -40
else
  log "FAILED configure old (see build_old.log)"
  tail -20 "$R/build_old.log"
fi

# ---- the new tree: only what BUILD_DIR lacks ----
: > "$R/build_new.log"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  log "configure new ($BUILD_DIR missing; device checks off)"
  configure . "$BUILD_DIR" OFF >> "$R/build_new.log" 2>&1 || log "FAILED configure new (see build_new.log)"
fi
MISSING=()
for t in "${WANT[@]}"; do [ -x "$BUILD_DIR/benchmarks/$t" ] || MISSING+=("$t"); done
if [ ${#MISSING[@]} -gt 0 ] && [ -f "$BUILD_DIR/build.ninja" ]; then
  log "build new: ${MISSING[*]}"
  build "$BUILD_DIR" "$R/build_new.log" "${MISSING[@]}" || log "FAILED build new (exit $?; see build_new.log)"
  grep -B2 -A10 -E "error( |:)" "$R/build_new.log" | head -40
fi
NEW_CHECKS=$(grep -s "^RXMESH_DEVICE_CHECKS:" "$BUILD_DIR/CMakeCache.txt" | cut -d= -f2)
NEW_TYPE=$(grep -s "^CMAKE_BUILD_TYPE:" "$BUILD_DIR/CMakeCache.txt" | cut -d= -f2)
log "new build: type ${NEW_TYPE:-?}, device checks ${NEW_CHECKS:-?} (old: Release, OFF)"
for t in "${WANT[@]}"; do
  for d in "$OLD_BUILD_DIR" "$BUILD_DIR"; do [ -x "$d/benchmarks/$t" ] || log "missing $d/benchmarks/$t"; done
done

M="$BUILD_DIR/tests/cgal-data/data/meshes"
[ -f "$M/armadillo.off" ] || M="$OLD_BUILD_DIR/tests/cgal-data/data/meshes"
[ -f "$M/armadillo.off" ] || log "FAILED: no armadillo.off (libcgal-demo's data.tar.gz not unpacked)"
ARM="$M/armadillo.off"

# ---- the measurements ----
# bench_args NAME JSON: each benchmark's flags (the old tree's parsers), in A
bench_args() {
  case $1 in
    # x4^4 only, sorted order only (CSR and PDE run beside it: no flag drops them)
    queries) A=(--mesh "$ARM:4" --orders sorted --runs "$RUNS" --json "$2") ;;
    # refined until >= 13M faces: x4^4 (the serial CPU reference and PDE always run)
    normals) A=(--mesh "$ARM" --min-faces 13000000 --runs "$RUNS" --json "$2") ;;
    # levels 0..MCF_LEVEL (no --min-level); no Eigen LDLT at any level
    mcf) A=(--mesh "$ARM" --levels "$MCF_LEVEL" --runs "$MCF_RUNS" --eigen-max-faces 0 --json "$2") ;;
    # one level; no serial CPU run (minutes), no double oracle
    geodesic) A=(--mesh "$ARM" --levels "$GEO_LEVEL" --min-level "$GEO_LEVEL" --runs "$GEO_RUNS"
                 --cpu-max-faces 0 --oracle-max-faces 0 --json "$2") ;;
    # x4^4 only, no OpenMesh dump (the double reference is off above 1M faces)
    bilateral) A=(--mesh "$ARM" --levels 4 --min-level 4 --runs "$RUNS" --json "$2") ;;
    # no --mesh: only the armadillo refined 4x, one level; no OpenSubdiv (CPU)
    loop) A=(--armadillo "$ARM" --armadillo-refine 4 --runs "$RUNS" --cpu-runs 0 --json "$2") ;;
  esac
}

# run_one NAME old|new ROUND
run_one() {
  local name=$1 who=$2 round=$3 dir=$BUILD_DIR
  [ "$who" = old ] && dir=$OLD_BUILD_DIR
  local exe="$dir/benchmarks/${TARGET[$name]}" base="$R/reg_${name}_${who}_${round}"
  if [ ! -x "$exe" ]; then
    log "FAILED $name $who round $round: no $exe"
    printf '%s\t%s\t%s\tnobinary\t0\n' "$name" "$who" "$round" >> "$R/runs.tsv"
    return
  fi
  local rest limit
  rest=$(left)
  if [ "$rest" -lt "${EST[$name]}" ]; then
    log "SKIPPED $name $who round $round: ${rest}s left of the budget"
    printf '%s\t%s\t%s\tskipped\t0\n' "$name" "$who" "$round" >> "$R/runs.tsv"
    return
  fi
  limit=${CAP[$name]}
  [ $((rest - 5)) -lt "$limit" ] && limit=$((rest - 5))
  bench_args "$name" "$base.json"
  echo "$exe ${A[*]}" > "$base.cmd"
  local t=$SECONDS rc
  timeout -k 10 "$limit" "$exe" "${A[@]}" > "$base.md" 2> "$base.err"
  rc=$?
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$who" "$round" "$rc" "$((SECONDS - t))" >> "$R/runs.tsv"
  if [ "$rc" -ne 0 ]; then
    log "FAILED $name $who round $round (exit $rc$([ "$rc" -ge 124 ] && echo ", timeout ${limit}s"), $((SECONDS - t))s)"
    tail -5 "$base.err" | tee -a "$LOG"
  else
    log "$name $who round $round: $((SECONDS - t))s"
  fi
}

for round in $(seq 1 "$ROUNDS"); do
  for name in $ONLY; do
    [ -n "${TARGET[$name]:-}" ] || continue
    run_one "$name" old "$round"
    run_one "$name" new "$round"
  done
done

if [ "$ROUNDS" -eq 0 ]; then
  log "nothing run (BUILD_ONLY=1 or ROUNDS=0); logs in regression.tgz"
  tar -C "$OUT" -czf "$OUT/regression.tgz" regression && rm -rf "$R"
  exit 0
fi

# ---- summary: the RXMesh figure of every run, medians, new / old ----
log "summary"
R="$R" OLD_LABEL="$OLD_LABEL" BUILD_DIR="$BUILD_DIR" GPU="$GPU" RUNS="$RUNS" MCF_LEVEL="$MCF_LEVEL" \
  MCF_RUNS="$MCF_RUNS" GEO_LEVEL="$GEO_LEVEL" GEO_RUNS="$GEO_RUNS" ROUNDS="$ROUNDS" ONLY="$ONLY" \
  NEW_CHECKS="${NEW_CHECKS:-?}" NEW_TYPE="${NEW_TYPE:-?}" \
  python3 - > "$R/summary.md" 2>> "$LOG" <<'PY'
import json, os, re, statistics

env = os.environ
R = env["R"]
rounds = int(env["ROUNDS"])
OPS = ["EV", "EF", "FV", "FE", "VV", "VE", "VF", "FF"]


def load(path):
    try:
        text = open(path).read()
    except OSError:
        return None
    # a bare nan/inf (printf %f) is no JSON: read it as null
    text = re.sub(r'(?<![\w."])-?(nan|inf)(?![\w"])', "null", text)
    try:
        return json.loads(text)
    except ValueError:
        return None


def figures(name, d):
    """{label: (ms, faces, info)} of the RXMesh rows of one run's JSON."""
    out = {}
    if name == "queries":
        for r in d.get("results", []):
            if (r.get("system") == "RXMesh" and r.get("order") == "sorted"
                    and r.get("mesh", "").endswith("x4^4") and r.get("ms") is not None):
                out["query %s (best block)" % r["op"]] = (r["ms"], r.get("faces"), False)
    elif name == "normals":
        out["vertex normals (rxmesh_patch)"] = (d["ms"]["rxmesh_patch"], d.get("faces"), False)
    elif name == "mcf":
        rows = [r for r in d.get("rows", []) if r.get("level") == int(env["MCF_LEVEL"])]
        if rows:
            r = rows[-1]
            out["MCF ms/iteration (128 threads)"] = (r["rxmesh"]["iteration_ms"], r.get("faces"), False)
            out["MCF solve to tolerance ms"] = (r["rxmesh"]["solution_ms"], r.get("faces"), True)
    elif name == "geodesic":
        rows = d.get("rows", [])
        if rows:
            r = max(rows, key=lambda r: r.get("faces", 0))
            out["geodesic total ms (best block)"] = (r["rxmesh"]["total_ms"], r.get("faces"), False)
    elif name == "bilateral":
        rows = [r for r in d.get("rows", []) if r.get("level") == 4]
        if rows:
            out["bilateral ms/iteration"] = (rows[-1]["rxmesh_ms"], rows[-1].get("faces"), False)
    elif name == "loop":
        rows = [r for r in d.get("rows", []) if str(r.get("mesh", "")).startswith("armadillo")]
        if rows:
            r = rows[-1]
            out["Loop 1 level ms (rxmesh_ms)"] = (r["rxmesh_ms"], r.get("faces"), False)
            out["Loop setup ms"] = (r["rxmesh_setup_ms"], r.get("faces"), True)
    return out


def fmt(x):
    return "-" if x is None else ("%.4f" % x if x < 1 else "%.3f" % x)


status = {}
for line in open(os.path.join(R, "runs.tsv")):
    f = line.rstrip("\n").split("\t")
    if len(f) == 5:
        status[(f[0], f[1], f[2])] = (f[3], f[4])

print("## Regression: old %s vs new %s" % (env["OLD_LABEL"], env["BUILD_DIR"]))
print()
print("GPU: %s. Old build: Release, device checks OFF; new build: %s, device checks %s%s."
      % (env["GPU"] or "?", env["NEW_TYPE"], env["NEW_CHECKS"],
         " (**not comparable: device checks on**)" if env["NEW_CHECKS"].upper() == "ON" else ""))
print("Each figure: the benchmark's own median (runs: %s; MCF %s; geodesic %s); median over rounds; "
      "new/old < 1 is faster; limit 1.03. MCF at x4^%s, geodesic at x4^%s, the rest at x4^4."
      % (env["RUNS"], env["MCF_RUNS"], env["GEO_RUNS"], env["MCF_LEVEL"], env["GEO_LEVEL"]))
print()
cols = ["old r%d" % i for i in range(1, rounds + 1)] + ["new r%d" % i for i in range(1, rounds + 1)]
print("| measurement | faces | " + " | ".join(cols) + " | old median | new median | new/old | verdict |")
print("|---" * (len(cols) + 6) + "|")
worst = []
for name in env["ONLY"].split():
    per = {}  # label -> {(who, round): ms}
    faces = {}
    info = {}
    for who in ("old", "new"):
        for rnd in range(1, rounds + 1):
            d = load(os.path.join(R, "reg_%s_%s_%d.json" % (name, who, rnd)))
            if d is None:
                continue
            try:
                figs = figures(name, d)
            except (KeyError, TypeError, ValueError) as e:
                print("<!-- %s %s %d: %r -->" % (name, who, rnd, e))
                continue
            for label, (ms, nf, is_info) in figs.items():
                per.setdefault(label, {})[(who, rnd)] = ms
                faces[label] = nf
                info[label] = is_info
    labels = list(per)
    if name == "queries":
        order = {"query %s (best block)" % op: i for i, op in enumerate(OPS)}
        labels.sort(key=lambda l: order.get(l, 99))
    if not labels:
        print("| %s | - | " % name + " | ".join("-" for _ in cols) + " | - | - | - | no data |")
        continue
    for label in labels:
        v = per[label]
        cells = [fmt(v.get((w, r))) for w in ("old", "new") for r in range(1, rounds + 1)]
        old = [v[k] for k in v if k[0] == "old" and v[k] is not None]
        new = [v[k] for k in v if k[0] == "new" and v[k] is not None]
        om = statistics.median(old) if old else None
        nm = statistics.median(new) if new else None
        ratio = nm / om if om and nm is not None else None
        if ratio is None:
            verdict = "incomplete"
        elif info[label]:
            verdict = "(info)"
        else:
            verdict = "ok" if ratio <= 1.03 else "**SLOWER**"
            worst.append((ratio, label))
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            label, faces[label] if faces[label] is not None else "-", " | ".join(cells),
            fmt(om), fmt(nm), "-" if ratio is None else "%.3f" % ratio, verdict))
print()
if worst:
    worst.sort(reverse=True)
    n_bad = sum(1 for r, _ in worst if r > 1.03)
    print("Worst: %s at %.3f; %d of %d figures over 1.03." % (worst[0][1], worst[0][0], n_bad, len(worst)))
bad = ["%s %s r%s (%s)" % (k[0], k[1], k[2], s[0]) for k, s in status.items() if s[0] != "0"]
print("Runs not clean: " + (", ".join(bad) if bad else "none") + ".")
print()
print("| run | exit | seconds |")
print("|---|---|---|")
for k, s in status.items():
    print("| %s %s r%s | %s | %s |" % (k[0], k[1], k[2], s[0], s[1]))
PY
[ $? -eq 0 ] || log "FAILED summary (python3; see regression.log)"
cat "$R/summary.md"
cp "$R/summary.md" "$OUT/regression_summary.md" 2>/dev/null
log "done in $(elapsed)s"
tar -C "$OUT" -czf "$OUT/regression.tgz" regression && rm -rf "$R"
exit 0
