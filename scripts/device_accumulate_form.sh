#!/usr/bin/env bash
# accumulate's Staged and Direct forms (query/accumulate_form.h) on one GPU
# in one run: bench_vertex_normals of the working tree at 52K to 13.3M faces
# (each form's rows), then bench_bilateral and bench_geodesic of OLD (default
# ab_old/, the tree before the Direct form) and of the working tree,
# alternating, on CGAL's armadillo refined LEVELS times (default 2).
# usage: [OLD=dir] [LEVELS=2] [RUNS=21] scripts/device_accumulate_form.sh
#        (carry .deps and the old tree)
set -uo pipefail
source scripts/device_env.sh > /dev/null
cfg() {
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DRXMESH_BUILD_BENCHMARKS=ON -DRXMESH_BUILD_TESTS=OFF -DRXMESH_DEVICE_CHECKS=OFF \
    -DRXMESH_BUILD_PYTHON=OFF -DCMAKE_PREFIX_PATH="$DEPS/usr" > "$OUT/cfg_$(basename "$2").log" 2>&1 \
    || { tail -20 "$OUT/cfg_$(basename "$2").log"; exit 1; }
}
cfg . build-ab-new
cfg "${OLD:-ab_old}" build-ab-old
( ninja -C build-ab-new bench_vertex_normals bench_bilateral bench_geodesic > "$OUT/b_new.log" 2>&1 ) &
( ninja -C build-ab-old bench_bilateral bench_geodesic > "$OUT/b_old.log" 2>&1 ) &
wait
for b in build-ab-new/benchmarks/bench_vertex_normals build-ab-new/benchmarks/bench_bilateral \
         build-ab-old/benchmarks/bench_bilateral; do
  [ -x "$b" ] || { grep -h -B2 -A12 error "$OUT"/b_*.log | head -40; exit 1; }
done
T=$(mktemp -d)
tar xzf "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" -C "$T"
MESH=$(find "$T" -name armadillo.off | head -1)
for faces in 52000 208000 832000 3328000 13312000; do
  build-ab-new/benchmarks/bench_vertex_normals --mesh "$MESH" --min-faces $faces \
    --runs "${RUNS:-21}" --json "$OUT/normals_$faces.json" > "$OUT/normals_$faces.md" 2>&1
  echo "normals $faces: exit $?"
  grep -E "kept|direct|auto|PDE|128 threads, >= 16" "$OUT/normals_$faces.md"
done
for round in 1 2; do
  for b in bilateral geodesic; do
    case $b in
      geodesic) extra="--cpu-max-faces 0" ;;
      bilateral) extra="--reference-max-faces 300000" ;;
    esac
    for t in old new; do
      build-ab-$t/benchmarks/bench_$b --mesh "$MESH" --levels "${LEVELS:-2}" --runs "${RUNS:-21}" \
        $extra > "$OUT/${b}_${t}_$round.md" 2>&1
      echo "bench_$b $t round $round: exit $?"
      sed -n '/^|/p' "$OUT/${b}_${t}_$round.md" | head -12
    done
  done
done
tar -C "$OUT" -czf "$OUT/form.tgz" normals_* bilateral_* geodesic_* && rm -f "$OUT"/normals_* "$OUT"/bilateral_* "$OUT"/geodesic_*
