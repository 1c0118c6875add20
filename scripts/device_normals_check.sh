#!/usr/bin/env bash
# A change confined to vertex normals, checked in one short batch: the GPU
# tests of vertex normals and accumulate (device checks on, GPU required), a
# compute-sanitizer memcheck of two of them (the sphere; the fan whose
# patches run over the global scratch), and bench_vertex_normals (device
# checks off) at SIZES faces. Logs in $OUT, tables packed in $OUT/vn.tgz.
# usage: [SIZES="52000 208000 832000"] scripts/device_normals_check.sh (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
configure_build_device || exit 1  # build-device, device checks on
( build_device rxmesh_gpu_tests > /dev/null ) &
( build_bench build-bench bench_vertex_normals > /dev/null ) &
wait
[ -x build-device/tests/rxmesh_gpu_tests ] || { grep -A10 error "$OUT/build.log" | head -30; exit 1; }
[ -x build-bench/benchmarks/bench_vertex_normals ] || { grep -A10 error "$OUT/b_build-bench.log" | head -30; exit 1; }
echo "build ok"
( cd build-device/tests && RXMESH_REQUIRE_GPU=1 ./rxmesh_gpu_tests \
    --gtest_filter='GpuVertexNormals.*:GpuAccumulate*' > "$OUT/tests.log" 2>&1 )
echo "tests exit $?"; grep -E "PASSED|FAILED|SKIPPED|tests ran" "$OUT/tests.log" | tail -5
( cd build-device/tests && RXMESH_REQUIRE_GPU=1 timeout 120 compute-sanitizer --tool memcheck \
    --error-exitcode 1 ./rxmesh_gpu_tests \
    --gtest_filter='GpuVertexNormals.UnitSphere*:GpuVertexNormals.OneRing*' > "$OUT/memcheck.log" 2>&1 )
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -3
# the benchmark, built above (its build is a no-op there)
SIZES="${SIZES:-52000 208000 832000}" bash scripts/device_vn_sizes.sh
