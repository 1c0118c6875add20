#!/usr/bin/env bash
# The one entry point for work on a GPU machine (the device tool runs it from
# the repository root; logs and results land in $OUT, or ./device-out):
#
#   scripts/device.sh COMMAND [ARGS...]
#
# Commands (each is scripts/device/<command>.sh; `scripts/device.sh help
# COMMAND` prints its own usage):
#   check [--no-bench|--bench-only]  build, every test with GPU tests required,
#                          the sanitizers, the benchmarks (CTEST_SELECT,
#                          SKIP_SANITIZERS=1, BENCH_STAGES)
#   tests FILTER [MEMCHECK_FILTER]   the quick loop: the GPU tests matching a
#                          gtest filter, then memcheck of those matching the
#                          second filter
#   bench BENCH [ARGS...]  one benchmark (build-bench, device checks off) on
#                          CGAL's armadillo unless ARGS name a --mesh
#   bench-once [BUILD]     every benchmark of a build once: runs, verified
#   ab BENCH...            two trees' benchmarks interleaved (OLD=dir)
#   remesh [passes]        remeshing and simplification against CGAL and
#                          meshoptimizer, speed, the apps on a 3.3M-face OBJ
#   dynamic [LEVELS]       the changing-topology engine's tests and benchmarks
#   python                 the Python package's tests (BENCH=1: its benchmark)
#   apps BUILD MESH APP [ARGS...]    an app on a real mesh, its PLY checked
#   new-user BUILD MESH APP BAD...   an app tried as a new user would
#   file-to-result BUILD MESH        rxmesh-mcf from a 3.3M-face OBJ to PLY
#   regression             the old tree's benchmarks against this one's
#   same-output            every app's PLY and report, old build against new
#                          (OLD_BUILD, NEW_BUILD): identical, byte for byte
#   prebuilt               binaries built elsewhere (TARBALL): the GPU tests in
#                          shards, benchmarks once each
#   ncu PRESET [ARGS...]   ncu profiles; PRESET: groups (GROUP... of
#                          bilateral mcf mcf_cached geodesic normals),
#                          queries, accumulate, normals_52k, normals_208k, heat
# Carry .deps (the Debian packages: GoogleTest, CGAL's data, assimp's
# models); remesh and dynamic also .bench-bin (ninja -C build
# bench_cpu_baselines_bundle), ab and regression the older tree.
set -uo pipefail
cd "$(dirname "$0")/.."
here=scripts/device

commands="check tests bench bench-once ab remesh dynamic python apps new-user file-to-result regression same-output prebuilt ncu"

usage()
{
  sed -n '2,/^set -uo/p' scripts/device.sh | sed '$d' | sed 's/^# \{0,1\}//'
}

file_of()
{
  case "$1" in
    ncu) echo "$here/ncu/${2:-}.sh" ;;
    *) echo "$here/${1//-/_}.sh" ;;
  esac
}

command=${1:-help}
shift || true
case "$command" in
  help|-h|--help)
    if [ -n "${1:-}" ] && [[ " $commands " == *" $1 "* ]]; then
      f=$(file_of "$1" "${2:-groups}")
      sed -n '2,/^[^#]/p' "$f" | sed '$d' | sed 's/^# \{0,1\}//'
    else
      usage
    fi
    exit 0 ;;
esac
if [[ " $commands " != *" $command "* ]]; then
  echo "scripts/device.sh: no command '$command'; one of: $commands" >&2
  exit 2
fi
if [ "$command" = ncu ]; then
  preset=${1:-}
  f=$(file_of ncu "$preset")
  if [ -z "$preset" ] || [ ! -f "$f" ]; then
    echo "scripts/device.sh ncu: name a preset: $(ls $here/ncu | sed 's/\.sh$//' | tr '\n' ' ')" >&2
    exit 2
  fi
  shift
  exec bash "$f" "$@"
fi
exec bash "$(file_of "$command")" "$@"
