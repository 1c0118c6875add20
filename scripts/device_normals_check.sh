#!/usr/bin/env bash
# A change confined to vertex normals, checked in one short batch: the GPU
# tests of vertex normals and accumulate (device checks on, GPU required), a
# compute-sanitizer memcheck of two of them (the sphere; the fan whose
# patches run over the global scratch), and bench_vertex_normals (device
# checks off) at SIZES faces. Logs in $OUT, tables packed in $OUT/vn.tgz.
# usage: [SIZES="52000 208000 832000"] scripts/device_normals_check.sh (carry .deps)
set -uo pipefail
source scripts/device_env.sh > /dev/null
targeted_gpu_check 'GpuVertexNormals.*:GpuAccumulate*' \
  'GpuVertexNormals.UnitSphere*:GpuVertexNormals.OneRing*' bench_vertex_normals || exit 1
# the benchmark, built above (its build is a no-op there)
SIZES="${SIZES:-52000 208000 832000}" bash scripts/device_vn_sizes.sh
