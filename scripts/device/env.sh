# Sourced by the scripts/device.sh commands: unpacks the carried Debian
# packages (.deps: GoogleTest, CGAL's data, assimp's models) and configures
# build-device the same way for all of them (Release, sm_90, device checks
# on), so that one batch's build is reused by the next on a warm machine.
#   source scripts/device/env.sh; configure_build_device || exit 1
# .deps is filled here, on the machine without a GPU:
#   mkdir -p .deps && cd .deps && apt-get download libgtest-dev libgmock-dev \
#     libcli11-dev libeigen3-dev libcgal-demo assimp-testmodels libdlpack-dev \
#     libtinyobjloader-dev libtinyobjloader2rc10 libmeshoptimizer-dev \
#     libmeshoptimizer2d libosd-dev libosdcpu3.5.0
# and for bench_cholesky's CHOLMOD: libsuitesparse-dev libcholmod3 libamd2 libcamd2
#     libccolamd2 libcolamd2 libsuitesparseconfig5 libmetis5 libopenblas0-pthread
#     libgfortran5 libquadmath0
# Not pybind11-dev: its headers, unpacked beside dlpack's, would shadow the
# machine's pip pybind11 (found by check.sh), and Debian's 2.10 does
# not know NumPy 2's array layout (the Python GPU tests then fail).
OUT="${OUT:-$PWD/device-out}"
mkdir -p "$OUT"
DEPS=/tmp/rxmesh-deps
mkdir -p "$DEPS"
for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" "$DEPS"; done
export LD_LIBRARY_PATH="$DEPS/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
# CHOLMOD's BLAS and LAPACK (bench_cholesky): OpenBLAS's, where it is carried
if [ -d "$DEPS/usr/lib/x86_64-linux-gnu/openblas-pthread" ]; then
  export LD_LIBRARY_PATH="$DEPS/usr/lib/x86_64-linux-gnu/openblas-pthread:$LD_LIBRARY_PATH"
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"

#! configure_build_device [SRC] [DIR]: another tree (an older one for
#! same-output) into its own build dir, with the same flags.
configure_build_device()
{
  cmake -S "${1:-.}" -B "${2:-build-device}" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DRXMESH_DEVICE_CHECKS=ON -DRXMESH_BUILD_BENCHMARKS=ON -DCMAKE_PREFIX_PATH="$DEPS/usr" \
    -DGTest_DIR="$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest" \
    -DRXMESH_CGAL_DATA_TARBALL="$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" \
    -DRXMESH_ASSIMP_MODELS="$DEPS/usr/share/assimp/models" > "$OUT/build.log" 2>&1 \
    || { tail -30 "$OUT/build.log"; return 1; }
}

#! ninja TARGET... in build-device, appending to build.log; prints the errors.
build_device()
{
  ninja -C build-device "$@" >> "$OUT/build.log" 2>&1 \
    || { grep -B2 -A12 "error" "$OUT/build.log" | head -60; return 1; }
  echo "build ok"
}

#! A benchmarks-only build in DIR (no tests, no Python, device checks off, so
#! that timings are the library's), then ninja TARGET... there; prints the
#! errors. Logs in $OUT/cfg_DIR.log and $OUT/b_DIR.log. SRC: the source
#! tree (default: this one; e.g. an older tree to compare with).
build_bench()
{
  local dir=$1
  shift
  cmake -S "${SRC:-.}" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DRXMESH_BUILD_BENCHMARKS=ON -DRXMESH_BUILD_TESTS=OFF -DRXMESH_DEVICE_CHECKS=OFF \
    -DRXMESH_BUILD_PYTHON=OFF -DCMAKE_PREFIX_PATH="$DEPS/usr" > "$OUT/cfg_$dir.log" 2>&1 \
    || { tail -20 "$OUT/cfg_$dir.log"; return 1; }
  ninja -C "$dir" "$@" > "$OUT/b_$dir.log" 2>&1 \
    || { grep -B2 -A12 error "$OUT/b_$dir.log" | head -40; return 1; }
}

#! Prints the path of CGAL's armadillo.off, unpacked from the carried data.
armadillo_mesh()
{
  local t
  t=$(mktemp -d)
  tar xzf "$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" -C "$t"
  find "$t" -name armadillo.off | head -1
}
