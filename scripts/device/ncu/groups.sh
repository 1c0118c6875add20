#!/usr/bin/env bash
# ncu profiles of the kernels behind issue 31's missed goals, in a Release
# build without device checks (build-bench): for each, one launch of the
# named kernel after SKIP launches of it (warm caches, steady state), with
# speed of light, occupancy, launch statistics, warp stall reasons and the
# DRAM bytes moved. Sizes: the armadillo refined to LEVEL (4: 13.3M faces;
# 0: 52K). Reports land in $OUT/ncu/*.txt, packed into $OUT/ncu.tgz.
# usage: scripts/device.sh ncu groups [GROUP...]   GROUP: bilateral mcf mcf_cached geodesic normals
#        (default: all three; carry .deps)
set -uo pipefail
source scripts/device/env.sh
GROUPS_RUN="${*:-bilateral mcf geodesic}"
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRXMESH_DEVICE_CHECKS=OFF -DRXMESH_BUILD_BENCHMARKS=ON -DCMAKE_PREFIX_PATH="$DEPS/usr" \
  -DGTest_DIR="$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest" >> "$OUT/build.log" 2>&1 || exit 1
ninja -C build-bench bench_bilateral bench_mcf bench_geodesic bench_vertex_normals >> "$OUT/build.log" 2>&1 \
  || { grep -B2 -A12 error "$OUT/build.log" | head -40; exit 1; }
tar xzf "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" -C /tmp
M=/tmp/data/meshes/armadillo.off
B=build-bench/benchmarks
mkdir -p "$OUT/ncu"
NCU_SECTIONS=(--section SpeedOfLight --section Occupancy --section LaunchStats
              --section WarpStateStats --section MemoryWorkloadAnalysis
              --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum)
#! prof NAME REGEX SKIP TIMEOUT_S BENCH ARGS...: one launch of REGEX after SKIP
prof()
{
  local name="$1" regex="$2" skip="$3" limit="$4"; shift 4
  local t0=$(date +%s)
  timeout "$limit" ncu --kernel-name-base demangled -k "regex:$regex" --launch-skip "$skip" --launch-count 1 \
    "${NCU_SECTIONS[@]}" "$@" > "$OUT/ncu/$name.txt" 2>&1
  echo "ncu $name exit $? in $(( $(date +%s) - t0 )) s: $(grep -cE '^  [A-Za-z_]' "$OUT/ncu/$name.txt") lines"
}
for g in $GROUPS_RUN; do
  case "$g" in
    bilateral)
      BIL=("$B/bench_bilateral" --mesh $M --min-level 4 --levels 4 --runs 3 --reference-max-faces 0)
      prof bilateral_ball_13m  'kring_patch_kernel<256' 2 240 "${BIL[@]}"
      prof bilateral_terms_13m 'accumulate_kernel'    2 240 "${BIL[@]}"
      prof pde_filter_13m      'pde_bilateral_filter' 2 240 "${BIL[@]}"
      prof pde_normals_13m     'pde_bilateral_normals' 2 240 "${BIL[@]}" ;;
    mcf)
      MCF=("$B/bench_mcf" --mesh $M --min-level 4 --levels 4 --runs 1 --eigen-max-faces 0)
      # the cached operator's whole solve (one cooperative launch, the
      # iterations bench_mcf reports), then cg_solve's accumulate product
      prof mcf_cached_solve_13m 'pl_cg_persistent<.int.3, .int.128>' 1 300 "${MCF[@]}"
      prof mcf_product_13m  'accumulate_kernel' 12 300 "${MCF[@]}"
      prof mcf_update_13m   'cg_update_kernel'  12 300 "${MCF[@]}"
      prof pde_product_13m  'pde_product'       12 300 "${MCF[@]}" ;;
    mcf_cached)
      MCF=("$B/bench_mcf" --mesh $M --min-level 4 --levels 4 --runs 1 --eigen-max-faces 0)
      prof mcf_cached_solve_13m 'pl_cg_persistent<.int.3, .int.128>' 1 300 "${MCF[@]}" ;;
    geodesic)
      GEO=("$B/bench_geodesic" --mesh $M --levels 0 --runs 2 --cpu-max-faces 0 --oracle-max-faces 0)
      prof geodesic_toplesets_52k 'patch_loop_kernel'    1 120 "${GEO[@]}"
      prof pde_bfs_52k           'bfs_one_launch'        1 120 "${GEO[@]}" ;;
    normals)
      # RXMesh's default (accumulate<FV>, 128 threads) and PDE's gather
      NRM=("$B/bench_vertex_normals" --mesh $M --min-faces 13000000 --runs 1)
      prof normals_rxmesh_13m 'accumulate_kernel<' 2 240 "${NRM[@]}"
      prof normals_pde_13m    'pde_vertex_normals' 2 240 "${NRM[@]}" ;;
  esac
done
tar -C "$OUT" -czf "$OUT/ncu.tgz" ncu && rm -rf "$OUT/ncu"
