#!/usr/bin/env bash
# rxmesh-mcf on a 3.3M-face OBJ (the armadillo after three Loop levels) from
# two trees in one run, alternating: the working tree and OLD (default
# ab_old/, an older tree, e.g. `git archive REV | tar -x -C ab_old`, carried
# beside .deps), both built without device checks. Prints the report's
# times and walls of each run.   usage: [OLD=dir] scripts/device_file_to_result_ab.sh
set -uo pipefail
source scripts/device_env.sh > /dev/null
cfg() { cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DRXMESH_BUILD_BENCHMARKS=OFF -DRXMESH_BUILD_TESTS=OFF -DRXMESH_DEVICE_CHECKS=OFF -DRXMESH_BUILD_PYTHON=OFF -DCMAKE_PREFIX_PATH="$DEPS/usr" > "$OUT/cfg_$(basename $2).log" 2>&1 || { tail -20 "$OUT/cfg_$(basename $2).log"; exit 1; }; }
cfg . build-new; cfg "${OLD:-ab_old}" build-old
( ninja -C build-new rxmesh-mcf rxmesh-subdivide > "$OUT/b_new.log" 2>&1 ) & ( ninja -C build-old rxmesh-mcf > "$OUT/b_old.log" 2>&1 ) & wait
ls build-new/apps/mcf/rxmesh-mcf build-old/apps/mcf/rxmesh-mcf || { tail -30 "$OUT/b_new.log" "$OUT/b_old.log"; exit 1; }
T=$(mktemp -d); mkdir -p $T/d && tar xzf $DEPS/usr/share/doc/libcgal-dev/data.tar.gz -C $T/d
MESH=$(find $T/d -name armadillo.off | head -1)
build-new/apps/subdivide/rxmesh-subdivide "$MESH" --levels 3 -o "$T/big.obj" > /dev/null || exit 1
cat "$T/big.obj" > /dev/null
for run in 1 2 3 4 5 6 7; do
  for v in old new; do
    build-$v/apps/mcf/rxmesh-mcf "$T/big.obj" -o "$T/out_$v.ply" --json "$T/r.json" > "$T/mcf.txt" 2>&1 || echo "exit $?"
    echo "$v run $run: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); t=r['times_ms']; print('import', round(t['import'],1), 'build', round(t['build'],1), 'solve', round(t['solve'],1), 'wait', round(r['gpu_start_wait_ms'],1), 'output', round(r['output_ms'],1), 'wall', round(r['wall_ms'],1))" "$T/r.json")"
  done
done
cmp "$T/out_old.ply" "$T/out_new.ply" && echo "outputs identical"
