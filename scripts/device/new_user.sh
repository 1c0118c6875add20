#!/usr/bin/env bash
# An app tried as a new user would, on the GPU machine, from BUILD_DIR: no
# arguments (the embedded default), --help, a real mesh with
# -o out.ply --json r.json --check (scripts/device.sh apps compares the PLY
# with the input), then each bad input: a missing file, a parse error, an
# empty mesh, a NaN coordinate, bad parameters. Each bad input must exit 1
# with one line on stderr and leave no output file. Log: $OUT/new_user.txt.
# usage: scripts/device.sh new-user BUILD_DIR MESH.off APP BAD_PARAM...
#   e.g. scripts/device.sh new-user build-device armadillo.off mcf --dt=-1 --steps=0
set -uo pipefail
BUILD="${1:?build dir}"; MESH="${2:?mesh}"; NAME="${3:?app}"; shift 3
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
APP="$BUILD/apps/$NAME/rxmesh-${NAME//_/-}"
LOG="$OUT/new_user.txt"
T=$(mktemp -d)
say() { echo "$*" | tee -a "$LOG"; }
say "== rxmesh-${NAME//_/-}"
( cd "$T" && "$OLDPWD/$APP" > "$T/default.txt" 2>&1 ); say "no arguments: exit $? ($(tail -1 "$T/default.txt"))"
"$APP" --help > "$T/help.txt" 2>&1; say "--help: exit $? ($(wc -l < "$T/help.txt") lines)"
COMPARE=counts bash scripts/device/apps.sh "$BUILD" "$MESH" "$NAME" >> "$LOG" 2>&1
tail -3 "$OUT/apps.txt" | tee -a "$LOG"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n' > "$T/parse.obj"
printf 'v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n' > "$T/nan.obj"
printf '# no faces\nv 0 0 0\n' > "$T/empty.obj"
bad() {  # bad WHAT ARGS...: exit 1, one stderr line, no out.ply
  local what=$1; shift
  rm -f "$T/out.ply"
  "$APP" "$@" -o "$T/out.ply" > "$T/o.txt" 2> "$T/e.txt"; local rc=$?
  local left=$(ls "$T" | grep -c "^out\.ply") lines=$(wc -l < "$T/e.txt")
  local verdict=ok; [ $rc = 1 ] && [ "$lines" = 1 ] && [ "$left" = 0 ] || verdict=WRONG
  say "bad $what: exit $rc, $lines stderr line(s), output files left $left: $verdict | $(head -1 "$T/e.txt")"
}
bad "missing file" "$T/none.obj"
bad "parse error" "$T/parse.obj"
bad "empty mesh" "$T/empty.obj"
bad "NaN" "$T/nan.obj"
for p in "$@"; do bad "parameter $p" "$MESH" "$p"; done
rm -rf "$T"
