#!/usr/bin/env bash
# Remeshing and simplification on a GPU machine, quality and speed in one
# run (issue 52), with the benchmarks built without device checks:
#   - bench_remesh and bench_simplify on CGAL's armadillo and its 1-to-4
#     refinements to 3.3M faces, this tree and OLD_SRC's (an older tree, if
#     given) one after the other, twice, so that each time is seen twice;
#   - bench_remesh on every libcgal-demo mesh of 500 to 80,000 faces (level
#     0, for the quality against CGAL) and bench_simplify on a few;
#   - the carried CPU baselines (.bench-bin: CGAL isotropic_remeshing, the
#     serial references; meshoptimizer, CGAL edge_collapse) on the same
#     meshes, on the machine's other cores, single-threaded each;
#   - rxmesh-remesh, -simplify, -delaunay and -vertex-normal on a 3.3M-face
#     OBJ (the armadillo after three Loop levels), each with --warmup 0 and
#     1: their reports' import, algorithm and wall times.
# Everything lands in $OUT/remesh.tgz; scripts/remesh_quality.py makes the
# tables from it.
# usage: [OLD_SRC=.old-src] [LEVELS=3] scripts/device.sh remesh
#        (carry .deps, .bench-bin and OLD_SRC)
#   scripts/device.sh remesh passes: only where the time goes, bench_remesh
#        --passes on the armadillo's two largest refinements (every pass's
#        phase times in $OUT/passes.json; carry .deps)
set -uo pipefail
LEVELS="${LEVELS:-3}"
source scripts/device/env.sh
R="$OUT/remesh"
mkdir -p "$R/cpu" "$R/gpu"
DATA=$(mktemp -d)
tar xzf "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" -C "$DATA"
MESHDIR=$(dirname "$(find "$DATA" -name armadillo.off | head -1)")
ARMADILLO="$MESHDIR/armadillo.off"
if [ "${1:-}" = "passes" ]; then
  build_bench build-bench bench_remesh || exit 1
  build-bench/benchmarks/bench_remesh --mesh "$ARMADILLO" --levels "$LEVELS" \
    --min-level $((LEVELS - 1)) --runs 3 --passes --json "$OUT/passes.json"
  exit $?
fi
MESHES="ALSTOM_TEST4 ChineseDragon-10kv anchor anchor_dense armadillo b9_mesh bear bear_bis blade
  blobby blobby_3cc boeing bones bull bunny00 cactus camel cheese couplingdown cow cube-meshed
  cylinder cylinder_locally_refined dino diplodocus eight elephant-with-holes elephant elk
  ellipe0.003 fandisk fandisk_large femur hand handle head helmet holes homer horizons knot knot1
  knot2 larger_sphere lion-head lion man mannequin-devil mask_cone mech-holes-shark
  mesh_with_border mushroom nefertiti oblong pig pinion rotor rotor_small spool three_peaks
  triceratops turbine"

# the CPU baselines first, in the background, on 12 of the 16 cores
if [ -x .bench-bin/run_remesh.sh ]; then
  (for m in $MESHES; do echo "$m"; done | xargs -P 12 -I{} sh -c \
     "timeout 300 .bench-bin/run_remesh.sh --mesh $MESHDIR/{}.off --levels 0 \
        --reference-max-faces 100000 > $R/cpu/{}_remesh.txt 2>&1"
   timeout 400 .bench-bin/run_remesh.sh --mesh "$ARMADILLO" --levels 2 --min-level 1 \
     --reference-max-faces 0 > "$R/cpu/armadillo_levels_remesh.txt" 2>&1
   for m in armadillo bunny00 fandisk_large homer; do
     timeout 400 .bench-bin/run_simplify.sh --mesh "$MESHDIR/$m.off" --levels 0 --runs 1 \
       --reference-max-faces 100000 > "$R/cpu/${m}_simplify.txt" 2>&1 &
   done
   timeout 500 .bench-bin/run_simplify.sh --mesh "$ARMADILLO" --levels "$LEVELS" --min-level 1 \
     --runs 1 --slow-max-faces 300000 --reference-max-faces 300000 \
     > "$R/cpu/armadillo_levels_simplify.txt" 2>&1
   wait) &
  CPU_PID=$!
else
  echo "no .bench-bin: build bench_cpu_baselines_bundle on a machine with CGAL and carry it"
fi

# the benchmarks, this tree and the old one side by side
build_bench build-bench bench_remesh bench_simplify || exit 1
if [ -n "${OLD_SRC:-}" ]; then
  SRC="$OLD_SRC" build_bench build-old bench_remesh bench_simplify || exit 1
fi
echo "benchmarks built"
for round in 1 2; do
  for tree in build-bench ${OLD_SRC:+build-old}; do
    timeout 200 "$tree/benchmarks/bench_remesh" --mesh "$ARMADILLO" --levels "$LEVELS" --runs 5 \
      --json "$R/gpu/${tree}_remesh_$round.json" > "$R/gpu/${tree}_remesh_$round.txt" 2>&1
    echo "$tree bench_remesh round $round: exit $?"
    timeout 200 "$tree/benchmarks/bench_simplify" --mesh "$ARMADILLO" --levels "$LEVELS" --runs 5 \
      --json "$R/gpu/${tree}_simplify_$round.json" > "$R/gpu/${tree}_simplify_$round.txt" 2>&1
    echo "$tree bench_simplify round $round: exit $?"
  done
done
ARGS=()
for m in $MESHES; do ARGS+=(--mesh "$MESHDIR/$m.off"); done
timeout 200 build-bench/benchmarks/bench_remesh "${ARGS[@]}" --levels 0 --runs 1 \
  --json "$R/gpu/real_remesh.json" > "$R/gpu/real_remesh.txt" 2>&1
echo "bench_remesh on the real meshes: exit $?"
timeout 100 build-bench/benchmarks/bench_simplify --mesh "$MESHDIR/armadillo.off" \
  --mesh "$MESHDIR/bunny00.off" --mesh "$MESHDIR/fandisk_large.off" --mesh "$MESHDIR/homer.off" \
  --levels 0 --runs 3 --json "$R/gpu/real_simplify.json" > "$R/gpu/real_simplify.txt" 2>&1
echo "bench_simplify on the real meshes: exit $?"

# the apps on a 3.3M-face OBJ: import and wall from their reports, each as a
# user runs it (the algorithm once) and with --warmup 1 (one untimed run
# first, as every app did before issue 53)
ninja -C build-bench rxmesh-remesh rxmesh-simplify rxmesh-delaunay rxmesh-vertex-normal \
  rxmesh-subdivide >> "$OUT/b_build-bench.log" 2>&1 \
  && build-bench/apps/subdivide/rxmesh-subdivide "$ARMADILLO" --levels 3 -o "$DATA/big.obj" > /dev/null \
  && for app in remesh simplify delaunay vertex_normal; do
       for warmup in 0 1; do
         tag="app_${app}_w$warmup"
         build-bench/apps/$app/rxmesh-${app//_/-} "$DATA/big.obj" -o "$DATA/out.ply" --warmup $warmup \
           --json "$R/gpu/$tag.json" > "$R/gpu/$tag.txt" 2>&1
         echo "rxmesh-${app//_/-} --warmup $warmup on the 3.3M-face OBJ: exit $?; $(grep -E 'import' "$R/gpu/$tag.txt" | tr -s ' ')"
       done
     done

[ -n "${CPU_PID:-}" ] && wait "$CPU_PID"
grep -h "^| armadillo" "$R"/gpu/build-*_remesh_1.txt | cut -c1-120
tar -C "$OUT" -czf "$OUT/remesh.tgz" remesh
exit 0
