#!/usr/bin/env bash
# A change confined to vertex normals, checked in one short batch: the GPU
# tests of vertex normals and accumulate (device checks on, GPU required), a
# compute-sanitizer memcheck of two of them (the sphere; the fan whose
# patches run over the global scratch), and bench_vertex_normals (device
# checks off) at SIZES faces. Logs in $OUT, tables packed in $OUT/vn.tgz.
# usage: [SIZES="52000 208000 832000"] scripts/device_normals_check.sh (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
GT="-DGTest_DIR=$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest"
cmake -S . -B build-vt -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRXMESH_DEVICE_CHECKS=ON -DRXMESH_BUILD_PYTHON=OFF -DCMAKE_PREFIX_PATH="$DEPS/usr" "$GT" \
  -DRXMESH_CGAL_DATA_TARBALL="$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" > "$OUT/cfg_vt.log" 2>&1 \
  || { tail -20 "$OUT/cfg_vt.log"; exit 1; }
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRXMESH_BUILD_BENCHMARKS=ON -DRXMESH_BUILD_TESTS=OFF -DRXMESH_DEVICE_CHECKS=OFF \
  -DRXMESH_BUILD_PYTHON=OFF -DCMAKE_PREFIX_PATH="$DEPS/usr" > "$OUT/cfg_bench.log" 2>&1 \
  || { tail -20 "$OUT/cfg_bench.log"; exit 1; }
( ninja -C build-vt rxmesh_gpu_tests > "$OUT/b_vt.log" 2>&1 ) &
( ninja -C build-bench bench_vertex_normals > "$OUT/b_bench.log" 2>&1 ) &
wait
[ -x build-vt/tests/rxmesh_gpu_tests ] || { grep -A10 error "$OUT/b_vt.log" | head -30; exit 1; }
[ -x build-bench/benchmarks/bench_vertex_normals ] || { grep -A10 error "$OUT/b_bench.log" | head -30; exit 1; }
echo "build ok"
( cd build-vt/tests && RXMESH_REQUIRE_GPU=1 ./rxmesh_gpu_tests \
    --gtest_filter='GpuVertexNormals.*:GpuAccumulate*' > "$OUT/tests.log" 2>&1 )
echo "tests exit $?"; grep -E "PASSED|FAILED|SKIPPED|tests ran" "$OUT/tests.log" | tail -5
( cd build-vt/tests && RXMESH_REQUIRE_GPU=1 timeout 120 compute-sanitizer --tool memcheck \
    --error-exitcode 1 ./rxmesh_gpu_tests \
    --gtest_filter='GpuVertexNormals.UnitSphere*:GpuVertexNormals.OneRing*' > "$OUT/memcheck.log" 2>&1 )
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -3
T=$(mktemp -d); tar xzf "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" -C "$T"
MESH=$(find "$T" -name armadillo.off | head -1)
mkdir -p "$OUT/vn"
for f in ${SIZES:-52000 208000 832000}; do
  build-bench/benchmarks/bench_vertex_normals --mesh "$MESH" --min-faces "$f" --runs 21 \
    --json "$OUT/vn/vn_$f.json" > "$OUT/vn/vn_$f.md" 2>&1; echo "faces $f exit $?"
  grep -E "128 threads, >= 16 blocks/SM \||256 threads, >= 8|512|default|PDE" "$OUT/vn/vn_$f.md" | cut -c1-120
done
cd "$OUT" && tar czf vn.tgz vn && rm -rf vn
