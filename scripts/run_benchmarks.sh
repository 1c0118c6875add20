#!/usr/bin/env bash
# One command that re-runs every benchmark on this machine's GPU and writes
# benchmarks/results/<gpu>/: JSON per benchmark, the console tables (*.md),
# a generated README.md (benchmarks/report.py) and, where gnuplot is
# installed, PNG charts.
#
# usage: scripts/run_benchmarks.sh [STAGE...]
#   stages (default: all, in this order): build reindex topology obj_parse
#   build_store queries cpu normals mcf mcf_cpu geodesic heat pcg kring bilateral report
# environment: BUILD_DIR (default build-bench), RESULTS (default
#   benchmarks/results/<gpu>), RUNS (GPU median of, default 15),
#   CPU_RUNS (default 3), CPU_THREADS (default: all cores)
#
# CPU baselines (OpenMesh, CGAL) run from .bench-bin/run.sh when present (a
# self-contained bundle made by `ninja bench_cpu_baselines_bundle` on a
# machine with the packages), else from the build when it found them.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${BUILD_DIR:-build-bench}
RUNS=${RUNS:-15}
CPU_RUNS=${CPU_RUNS:-3}
CPU_THREADS=${CPU_THREADS:-$(nproc)}
STAGES=("$@")
[ ${#STAGES[@]} -eq 0 ] && STAGES=(build reindex topology obj_parse build_store queries cpu normals mcf mcf_cpu geodesic heat pcg kring bilateral report)
want() { local s; for s in "${STAGES[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
[ -n "$GPU" ] || { echo "run_benchmarks: no NVIDIA GPU visible (nvidia-smi)" >&2; exit 1; }
SLUG=$(echo "$GPU" | awk '{print tolower($1 "-" $2)}')
RESULTS=${RESULTS:-$ROOT/benchmarks/results/$SLUG}
mkdir -p "$RESULTS/cpu"
B=$BUILD_DIR/benchmarks
M=$BUILD_DIR/tests/cgal-data/data/meshes
DUMP=${TMPDIR:-/tmp}/rxmesh-orders
echo "GPU: $GPU -> $RESULTS"

if want build; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDAARCHS:-native}" -DRXMESH_BUILD_BENCHMARKS=ON ${CMAKE_EXTRA:-} > "$RESULTS/.configure.log"
  cmake --build "$BUILD_DIR" > "$RESULTS/.build.log" || { tail -40 "$RESULTS/.build.log"; exit 1; }
fi
[ -d "$M" ] || { echo "run_benchmarks: $M missing (libcgal-demo's data.tar.gz not found at configure time)" >&2; exit 1; }

want reindex && $B/bench_reindex --json "$RESULTS/reindex.json" | tee "$RESULTS/reindex.md"
want topology && $B/bench_topology | tee "$RESULTS/topology.md"
want obj_parse && [ -x $B/bench_obj_parse ] && $B/bench_obj_parse | tee "$RESULTS/obj_parse.md"
want build_store && $B/bench_build --mesh $M/armadillo.off --json "$RESULTS/build.json" | tee "$RESULTS/build.md"

if want queries; then
  rm -rf "$DUMP" && mkdir -p "$DUMP"
  # 20K to 22.8M faces: CGAL meshes and their 1-to-4 refinements
  $B/bench_query_compare --runs "$RUNS" --sweep \
    --mesh $M/ChineseDragon-10kv.off:0 \
    --mesh $M/armadillo.off:0,1,2,3,4 \
    --mesh $M/refined_elephant.off:3,4 \
    --dump-orders "$DUMP" --dump-max-faces 14000000 \
    --json "$RESULTS/queries.json" | tee "$RESULTS/queries.md"
fi

if want cpu; then
  CPU=""
  if [ -x .bench-bin/run.sh ]; then CPU=.bench-bin/run.sh
  elif [ -x $B/bench_cpu_baselines ]; then CPU=$B/bench_cpu_baselines; fi
  if [ -z "$CPU" ]; then
    echo "run_benchmarks: no CPU baseline binary; skipping OpenMesh/CGAL" | tee "$RESULTS/cpu.md"
  else
    : > "$RESULTS/cpu.md"
    # every order up to 832K faces; the 13.3M-face mesh sorted (the goals' order)
    for f in "$DUMP"/*.ply; do
      n=$(basename "$f" .ply)
      case "$n" in
        *x4_4.given|*x4_4.shuffled|*x4_3.given|*x4_3.shuffled|refined_elephant*) continue ;;
      esac
      echo "## $n" | tee -a "$RESULTS/cpu.md"
      $CPU --mesh "$f" --runs "$CPU_RUNS" --threads "$CPU_THREADS" --json "$RESULTS/cpu/$n.json" \
        | tee -a "$RESULTS/cpu.md" || echo "FAILED: $n" | tee -a "$RESULTS/cpu.md"
    done
  fi
fi

want mcf && $B/bench_mcf --mesh $M/armadillo.off --levels 4 \
  --runs "${MCF_RUNS:-5}" --json "$RESULTS/mcf.json" | tee "$RESULTS/mcf.md"
if want mcf_cpu; then  # OpenMesh serial and all cores, the bundle when present
  MCF_CPU=""
  if [ -x .bench-bin/run_mcf.sh ]; then MCF_CPU=.bench-bin/run_mcf.sh
  elif [ -x $B/bench_mcf_openmesh ]; then MCF_CPU=$B/bench_mcf_openmesh; fi
  if [ -n "$MCF_CPU" ]; then
    $MCF_CPU --mesh $M/armadillo.off --levels 4 --threads "$(nproc)" --fixed-iterations 5 \
      --solve-max-faces 1000000 --json "$RESULTS/mcf_openmesh.json" | tee "$RESULTS/mcf_openmesh.md"
  else
    echo "run_benchmarks: no bench_mcf_openmesh (OpenMesh missing); skipped" | tee "$RESULTS/mcf_openmesh.md"
  fi
fi
if want geodesic; then
  # distances in input order (for bench_geodesic_exact's accuracy check and
  # for the serial CPU baseline's verification); the serial CPU baseline at
  # the largest size runs for minutes, beside the GPU benchmark on its own core
  mkdir -p "$RESULTS/geodesic_dump"
  $B/bench_geodesic_cpu --mesh $M/armadillo.off --level 4 \
    --distances "$RESULTS/geodesic_dump/rxmesh_level4.f32" > "$RESULTS/geodesic_cpu_level4.md" 2>&1 &
  CPU_PID=$!
  $B/bench_geodesic --mesh $M/armadillo.off --levels 4 --runs "${GEODESIC_RUNS:-5}" --cpu-max-faces 4000000 \
    --json "$RESULTS/geodesic.json" --dump "$RESULTS/geodesic_dump" --dump-max-faces 14000000 \
    | tee "$RESULTS/geodesic.md"
  wait $CPU_PID; cat "$RESULTS/geodesic_cpu_level4.md"
fi
if want heat; then
  # the heat method's setup and query against the propagation, and both
  # methods' distances in input order for the accuracy against CGAL's exact
  # geodesics (bench_geodesic_exact, host only: heat_dump/)
  mkdir -p "$RESULTS/heat_dump"
  $B/bench_heat --mesh $M/armadillo.off --levels "${HEAT_LEVELS:-3}" --runs "$RUNS" \
    --json "$RESULTS/heat.json" --dump "$RESULTS/heat_dump" --dump-max-faces 300000 \
    | tee "$RESULTS/heat.md"
fi
# time to 1e-6 on the MCF system: the matrix-free CG against PCG with Jacobi
# and with the patch preconditioner, up to 13.3M faces
want pcg && $B/bench_pcg --mesh $M/armadillo.off --levels "${PCG_LEVELS:-4}" --min-level 2 \
  --runs "${PCG_RUNS:-7}" --json "$RESULTS/pcg.json" | tee "$RESULTS/pcg.md"
want kring && $B/bench_kring --mesh $M/armadillo.off --levels 4 --runs "$RUNS" \
  --json "$RESULTS/kring.json" | tee "$RESULTS/kring.md"
if want bilateral; then
  # OpenMesh serial and all cores at every size (its own process, the bundle
  # when present); its one-iteration result is compared by bench_bilateral
  BIL_CPU=""
  if [ -x .bench-bin/run_bilateral.sh ]; then BIL_CPU=.bench-bin/run_bilateral.sh
  elif [ -x $B/bench_bilateral_openmesh ]; then BIL_CPU=$B/bench_bilateral_openmesh; fi
  BIL_DUMP=${TMPDIR:-/tmp}/rxmesh-bilateral
  mkdir -p "$BIL_DUMP"
  : > "$RESULTS/bilateral_openmesh.md"
  if [ -n "$BIL_CPU" ]; then
    for level in 0 1 2 3 4; do
      $BIL_CPU --mesh $M/armadillo.off --refine $level --threads "$CPU_THREADS" --runs "$CPU_RUNS" \
        --check-max-faces 1000000 --dump "$BIL_DUMP/level$level.f32" \
        --json "$RESULTS/bilateral_openmesh_level$level.json" | tee -a "$RESULTS/bilateral_openmesh.md"
    done
    OM="--openmesh-dump $BIL_DUMP/level%d.f32"
  else
    echo "run_benchmarks: no bench_bilateral_openmesh (OpenMesh missing); skipped" | tee "$RESULTS/bilateral_openmesh.md"
    OM=""
  fi
  $B/bench_bilateral --mesh $M/armadillo.off --levels 4 --runs "$RUNS" $OM \
    --json "$RESULTS/bilateral.json" | tee "$RESULTS/bilateral.md"
fi
want normals && $B/bench_vertex_normals --mesh $M/armadillo.off --min-faces 13000000 \
  --runs "$RUNS" --json "$RESULTS/vertex_normals.json" | tee "$RESULTS/vertex_normals.md"

if want report; then
  python3 benchmarks/report.py "$RESULTS"
fi
