"""`pip install .`: builds the extension rxmesh._rxmesh with the project's
CMake (only the library and the module: no tests, apps or benchmarks) for
the Python that runs pip. CMAKE_ARGS adds arguments (e.g.
-DCMAKE_CUDA_ARCHITECTURES=80;90); CMAKE_BUILD_PARALLEL_LEVEL sets the jobs.
pyproject.toml holds the package's metadata."""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(RXMesh VERSION ([0-9.]+)", f.read()).group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        for tool in ("cmake", "nvcc"):
            if shutil.which(tool) is None and not (tool == "nvcc" and os.environ.get("CUDACXX")):
                sys.exit(f"rxmesh: building needs {tool} on PATH (CUDA's nvcc, CMake)")
        build = os.path.abspath(self.build_temp)
        args = [f"-DPython3_EXECUTABLE={sys.executable}", "-DCMAKE_BUILD_TYPE=Release",
                "-DRXMESH_BUILD_PYTHON=ON", "-DRXMESH_BUILD_TESTS=OFF", "-DRXMESH_BUILD_APPS=OFF",
                "-DRXMESH_BUILD_BENCHMARKS=OFF"]
        try:  # pybind11 from pip, when it is there (Debian's is found by CMake)
            import pybind11
            args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        args += os.environ.get("CMAKE_ARGS", "").split()
        configure = subprocess.run(["cmake", "-S", ROOT, "-B", build] + args, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        print(configure.stdout)
        if configure.returncode != 0:
            sys.exit("rxmesh: CMake's configuration failed (above)")
        skipped = [l for l in configure.stdout.splitlines() if "RXMesh Python package: not built" in l]
        if skipped:  # CMAKE_ARGS=-DCMAKE_PREFIX_PATH=... finds headers elsewhere
            sys.exit("rxmesh: " + skipped[0].split("-- ", 1)[-1])
        subprocess.run(["cmake", "--build", build, "--target", "_rxmesh"], check=True)
        built = [f for f in os.listdir(os.path.join(build, "python", "rxmesh")) if f.startswith("_rxmesh")]
        if not built:
            sys.exit("rxmesh: the module was not built (see CMake's messages: pybind11, "
                     "Python's headers or dlpack.h missing)")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(build, "python", "rxmesh", built[0]), target)


setup(version=version(), ext_modules=[CMakeExtension("rxmesh._rxmesh")],
      cmdclass={"build_ext": CMakeBuild})
