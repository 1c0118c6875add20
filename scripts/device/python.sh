#!/usr/bin/env bash
# The Python package on a GPU machine: built for the machine's python3 (the
# one with PyTorch and CuPy; pybind11 from its site-packages, dlpack.h from
# the carried libdlpack-dev), then the python.cpu and python.gpu tests with
# the GPU required (the apps the tests compare with are built too). With
# BENCH=1, python/benchmarks/bench_python.py after them; with GTEST_FILTER,
# those C++ GPU tests first; with PIP=1, `pip wheel` of the repository
# (setup.py), installed into a scratch folder and run on the GPU. Logs in $OUT.
# usage: [BENCH=1] scripts/device.sh python (carry .deps)
set -uo pipefail
source scripts/device/env.sh
PY=$(command -v python3)
cmake -S . -B build-py -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRXMESH_DEVICE_CHECKS=$([ "${BENCH:-0}" = 1 ] && echo OFF || echo ON) -DPython3_EXECUTABLE="$PY" \
  -Dpybind11_DIR="$("$PY" -m pybind11 --cmakedir)" -DCMAKE_PREFIX_PATH="$DEPS/usr" \
  -DRXMESH_CGAL_DATA_TARBALL="$DEPS/usr/share/doc/libcgal-dev/data.tar.gz" \
  -DGTest_DIR="$DEPS/usr/lib/x86_64-linux-gnu/cmake/GTest" > "$OUT/build_py.log" 2>&1 \
  || { tail -30 "$OUT/build_py.log"; exit 1; }
grep -i "python" "$OUT/build_py.log"
ninja -C build-py _rxmesh rxmesh-mcf rxmesh-geodesic rxmesh-bilateral rxmesh-subdivide >> "$OUT/build_py.log" 2>&1 || { grep -B2 -A12 error "$OUT/build_py.log" | head -60; exit 1; }
if [ -n "${GTEST_FILTER:-}" ]; then
  ninja -C build-py rxmesh_gpu_tests >> "$OUT/build_py.log" 2>&1 || { grep -B2 -A12 error "$OUT/build_py.log" | head -60; exit 1; }
  RXMESH_REQUIRE_GPU=1 build-py/tests/rxmesh_gpu_tests --gtest_filter="$GTEST_FILTER" > "$OUT/gtest.log" 2>&1
  grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|Failure|error" "$OUT/gtest.log" | head -40
fi
RXMESH_REQUIRE_GPU=1 ctest --test-dir build-py -R "^python\." -V > "$OUT/python_tests.log" 2>&1
grep -E "passed|failed|skipped|Error|error|assert" "$OUT/python_tests.log" | head -60
if [ "${BENCH:-0}" = 1 ]; then
  PYTHONPATH=build-py/python "$PY" python/benchmarks/bench_python.py --json "$OUT/bench_python.json" \
    2>&1 | tee "$OUT/bench_python.md"
fi
if [ "${PIP:-0}" = 1 ]; then
  W=$(mktemp -d)
  CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH=$DEPS/usr" "$PY" -m pip wheel --no-build-isolation --no-deps \
    -w "$W/wheel" . > "$OUT/pip.log" 2>&1 && "$PY" -m pip install --no-deps --target "$W/site" \
    "$W"/wheel/*.whl >> "$OUT/pip.log" 2>&1
  echo "pip wheel + install: exit $?; $(ls "$W/wheel")"
  (cd "$W" && PYTHONPATH="$W/site" "$PY" -c "
import numpy as np, rxmesh, rxmesh.autograd, torch
print('installed at', rxmesh.__file__)
v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], np.float32)
f = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
n = torch.from_dlpack(rxmesh.Mesh(v, f).vertex_normals())
print('normals of a tetrahedron from the wheel:', n.shape, bool(torch.isfinite(n).all()))
")
fi
