#!/usr/bin/env bash
# Benchmarks of two trees in one run, on one GPU: the working tree ("new")
# and OLD (default ab_old/, e.g. `git archive REV | tar -x -C ab_old`,
# carried beside .deps), both built without device checks, the benchmarks
# only. Each benchmark runs old, new, ROUNDS times (default 1), on CGAL's
# armadillo refined up to LEVELS times (default 4; bench_vertex_normals: to
# NORMALS_FACES faces, default 13M), RUNS runs (default 7);
# tables in $OUT/<bench>_<tree>_<round>.md.
# usage: [OLD=dir] [BENCHES="bilateral geodesic"] [LEVELS=4] [RUNS=7] [ROUNDS=1] \
#        scripts/device.sh ab        (carry .deps and the old tree)
set -uo pipefail
source scripts/device/env.sh > /dev/null
BENCHES=${BENCHES:-bilateral geodesic}
cfg() {
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DRXMESH_BUILD_BENCHMARKS=ON -DRXMESH_BUILD_TESTS=OFF -DRXMESH_DEVICE_CHECKS=OFF \
    -DRXMESH_BUILD_PYTHON=OFF -DCMAKE_PREFIX_PATH="$DEPS/usr" > "$OUT/cfg_$(basename "$2").log" 2>&1 \
    || { tail -20 "$OUT/cfg_$(basename "$2").log"; exit 1; }
}
cfg . build-ab-new
cfg "${OLD:-ab_old}" build-ab-old
targets=$(for b in $BENCHES; do echo bench_$b; done)
( ninja -C build-ab-new $targets > "$OUT/b_new.log" 2>&1 ) &
( ninja -C build-ab-old $targets > "$OUT/b_old.log" 2>&1 ) &
wait
for t in new old; do
  for b in $BENCHES; do
    [ -x build-ab-$t/benchmarks/bench_$b ] || { grep -B2 -A12 error "$OUT/b_$t.log" | head -40; exit 1; }
  done
done
MESH=$(armadillo_mesh)
for round in $(seq 1 "${ROUNDS:-1}"); do
  for b in $BENCHES; do
    sizes="--levels ${LEVELS:-4}"
    case $b in
      geodesic) extra="--cpu-max-faces 0" ;;
      bilateral) extra="--reference-max-faces 300000" ;;
      mcf) extra="--eigen-max-faces 0" ;;
      vertex_normals) extra=""; sizes="--min-faces ${NORMALS_FACES:-13000000}" ;;
      *) extra="" ;;
    esac
    for t in old new; do
      build-ab-$t/benchmarks/bench_$b --mesh "$MESH" $sizes --runs "${RUNS:-7}" \
        $extra > "$OUT/${b}_${t}_$round.md" 2>&1
      echo "bench_$b $t round $round: exit $?"
      sed -n '/^|/p' "$OUT/${b}_${t}_$round.md" | head -8
    done
  done
done
