#!/usr/bin/env bash
# Runs a GPU program under compute-sanitizer for ctest (label "sanitize"):
#   run_sanitizer.sh SANITIZER TOOL PROGRAM [ARGS...]
# Passes when the program passes and the tool reports nothing (memcheck:
# "ERROR SUMMARY: 0 errors", racecheck: "RACECHECK SUMMARY: 0 hazards").
# Without a GPU it is skipped (exit 77), unless RXMESH_REQUIRE_GPU=1.
set -uo pipefail
sanitizer=$1 tool=$2
shift 2
if ! nvidia-smi -L > /dev/null 2>&1; then
  if [ "${RXMESH_REQUIRE_GPU:-0}" = 1 ]; then
    echo "run_sanitizer: no GPU visible (nvidia-smi) and RXMESH_REQUIRE_GPU=1" >&2
    exit 1
  fi
  echo "no GPU: skipped"
  exit 77
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$sanitizer" --tool "$tool" --error-exitcode 9 "$@" > "$log" 2>&1
rc=$?
grep -E "PASSED|FAILED|passed|failed|SUMMARY|Invalid|Race|hazard|error" "$log" | tail -40
case "$tool" in
  memcheck) want="ERROR SUMMARY: 0 errors" ;;
  racecheck) want="RACECHECK SUMMARY: 0 hazards" ;;
  *) want="" ;;
esac
if [ -n "$want" ] && ! grep -q "$want" "$log"; then
  echo "run_sanitizer: '$want' not found in compute-sanitizer's output" >&2
  [ "$rc" = 0 ] && rc=1
fi
[ "$rc" = 77 ] && rc=1  # the program skipped under RXMESH_REQUIRE_GPU: not a pass
exit "$rc"
