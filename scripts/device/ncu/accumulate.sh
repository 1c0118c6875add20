#!/usr/bin/env bash
# ncu on accumulate's kernel with the mesh's kept source lists, in one batch
# (benchmarks built without device checks, in build-ncu):
# - bilateral's terms pass (accumulate<FV>, four values) at 13.3M faces, one
#   launch after two;
# - the vertex normals of bench_vertex_normals at its default size (13.3M
#   faces), every launch of accumulate's kernel: with --runs 1 each variant
#   launches 5 times, the 10 variants without kept lists first (launches
#   1-50), then the 5 with them (51-75).
# Reports in $OUT/ncu_bilateral.txt and $OUT/ncu_normals.txt.
# usage: scripts/device.sh ncu accumulate        (carry .deps)
set -uo pipefail
source scripts/device/env.sh > /dev/null
build_bench build-ncu bench_bilateral bench_vertex_normals || exit 1
MESH=$(armadillo_mesh)
SECTIONS="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section InstructionStats"
ncu --kernel-name regex:accumulate_kernel --launch-skip 2 --launch-count 1 $SECTIONS \
  build-ncu/benchmarks/bench_bilateral --mesh "$MESH" --levels 4 --min-level 4 --runs 1 \
  --reference-max-faces 0 > "$OUT/ncu_bilateral.txt" 2>&1
echo "bilateral ncu exit $?"
ncu --kernel-name regex:accumulate_kernel --section SpeedOfLight --section LaunchStats \
  --section Occupancy build-ncu/benchmarks/bench_vertex_normals --mesh "$MESH" --runs 1 \
  > "$OUT/ncu_normals.txt" 2>&1
echo "normals ncu exit $?"
