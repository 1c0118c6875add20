#!/usr/bin/env bash
# rxmesh-mcf on a 3.3M-face OBJ (the armadillo after three Loop levels) with
# the CUDA driver loading modules lazily (its default) and eagerly, runs
# alternating: the report's times and walls. (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRXMESH_BUILD_BENCHMARKS=OFF -DRXMESH_BUILD_TESTS=OFF -DRXMESH_DEVICE_CHECKS=OFF -DRXMESH_BUILD_PYTHON=OFF \
  -DCMAKE_PREFIX_PATH="$DEPS/usr" -DGTest_DIR="$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest" > "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
ninja -C build-bench rxmesh-mcf rxmesh-subdivide >> "$OUT/build.log" 2>&1 || { grep -A10 error "$OUT/build.log" | head -40; exit 1; }
T=$(mktemp -d)
MESH=$(ls $DEPS/usr/share/doc/libcgal-dev/data.tar.gz >/dev/null && mkdir -p $T/d && tar xzf $DEPS/usr/share/doc/libcgal-dev/data.tar.gz -C $T/d && find $T/d -name armadillo.off | head -1)
build-bench/apps/subdivide/rxmesh-subdivide "$MESH" --levels 3 -o "$T/big.obj" > /dev/null || { echo no input; exit 1; }
cat "$T/big.obj" > /dev/null
for run in 1 2 3 4 5 6; do
  for mode in LAZY EAGER; do
    start=$(date +%s%N)
    CUDA_MODULE_LOADING=$mode build-bench/apps/mcf/rxmesh-mcf "$T/big.obj" -o "$T/out.ply" --json "$T/r.json" > "$T/mcf.txt" 2>&1
    rc=$?; end=$(date +%s%N)
    echo "$mode run $run exit $rc process $(( (end - start) / 1000000 )) ms: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['times_ms'], 'wait', round(r['gpu_start_wait_ms'],1), 'output', round(r['output_ms'],1), 'wall', round(r['wall_ms'],1))" "$T/r.json")"
  done
done
cat "$T/mcf.txt"
