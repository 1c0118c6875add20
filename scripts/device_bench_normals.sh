#!/usr/bin/env bash
# Quick loop on the GPU machine: build only the library and
# bench_vertex_normals, then run it on armadillo refined to 13.3M faces.
set -uo pipefail
OUT="${OUT:-$PWD/device-out}"
mkdir -p "$OUT" /tmp/rxmesh-deps
for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" /tmp/rxmesh-deps; done
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DRXMESH_BUILD_BENCHMARKS=ON \
  -DRXMESH_CGAL_DATA_TARBALL=/tmp/rxmesh-deps/usr/share/doc/libcgal-dev/data.tar.gz \
  > "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
cmake --build build-device --target bench_vertex_normals >> "$OUT/build.log" 2>&1 \
  || { grep -A10 error "$OUT/build.log" | head -40; exit 1; }
build-device/benchmarks/bench_vertex_normals --mesh build-device/tests/cgal-data/data/meshes/armadillo.off \
  --min-faces 13000000 --runs "${RUNS:-15}" --json "$OUT/normals.json"
