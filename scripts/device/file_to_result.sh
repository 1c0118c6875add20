#!/usr/bin/env bash
# File to result as a user waits for it, on a GPU machine: the mesh refined by
# three Loop levels (the armadillo: 3.3M faces) written as OBJ, then
#   rxmesh-mcf BIG.obj -o out.ply --json r.json
# run 5 times with the file in the page cache: the app's own wall line (start
# of main to written output) and the process's (exec to exit), the report's
# times, the same from the binary PLY it wrote, the OBJ parser's throughput
# (bench_obj_parse) and rxmesh-subdivide's import of the same file. Builds what it runs in BUILD_DIR (configured by
# the caller, e.g. scripts/device/env.sh). Logs in $OUT/file_to_result.txt.
# usage: scripts/device.sh file-to-result BUILD_DIR MESH.off
set -uo pipefail
BUILD="${1:?build dir}"; MESH="${2:?mesh}"
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
LOG="$OUT/file_to_result.txt"
ninja -C "$BUILD" rxmesh-mcf rxmesh-subdivide bench_obj_parse >> "$OUT/build.log" 2>&1 \
  || { echo "build failed"; exit 1; }
T=$(mktemp -d)
"$BUILD/apps/subdivide/rxmesh-subdivide" "$MESH" --levels 3 -o "$T/big.obj" > /dev/null \
  || { echo "cannot make the input"; exit 1; }
{
  echo "input: $(basename "$MESH") after 3 Loop levels, $(du -m "$T/big.obj" | cut -f1) MB OBJ, $(nproc) cores"
  cat "$T/big.obj" > /dev/null  # page cache
  for run in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$BUILD/apps/mcf/rxmesh-mcf" "$T/big.obj" -o "$T/out.ply" --json "$T/r.json" > "$T/mcf.txt" 2>&1
    rc=$?
    end=$(date +%s%N)
    echo "run $run: exit $rc, process wall $(( (end - start) / 1000000 )) ms; $(grep -E 'wall|import' "$T/mcf.txt" | tr -s ' ' | tr '\n' ';')"
    python3 scripts/app_report_times.py "$T/r.json"
  done
  cat "$T/mcf.txt"
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('report times_ms', r['times_ms'], 'wall_ms', r['wall_ms'])" "$T/r.json"
  ls -l "$T/out.ply" | awk '{print "out.ply bytes", $5}'
  # the output on a memory file system (/dev/shm), and no output at all
  for run in 1 2 3; do
    "$BUILD/apps/mcf/rxmesh-mcf" "$T/big.obj" -o /dev/shm/rxmesh_out.ply | grep -E "wall" | tr -s ' ' | sed 's/^/shm: /'
    "$BUILD/apps/mcf/rxmesh-mcf" "$T/big.obj" | grep -E "wall" | tr -s ' ' | sed 's/^/no -o: /'
  done
  rm -f /dev/shm/rxmesh_out.ply
  df -T /tmp /dev/shm | tail -2
  # the same from the binary PLY it wrote (the fast binary path)
  for run in 1 2 3; do
    "$BUILD/apps/mcf/rxmesh-mcf" "$T/out.ply" -o "$T/out2.ply" | grep -E "import|wall" | tr -s ' ' | tr '\n' ' '; echo
  done
  for run in 1 2 3; do
    "$BUILD/apps/subdivide/rxmesh-subdivide" "$T/big.obj" --levels 1 | grep -E "import|wall" | tr '\n' ' '; echo
  done
  "$BUILD/benchmarks/bench_obj_parse" 1200 7
} > "$LOG" 2>&1
cat "$LOG"
rm -rf "$T"
