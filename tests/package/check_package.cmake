# Downstream builds of examples/hello_mesh, as a user makes them.
#   MODE=find_package: installs the build tree into a scratch prefix, checks
#     what the install holds, then configures, builds and runs the example
#     against it; and checks that the package passes RXMesh's CUDA
#     architectures on to a consumer whose own share none (and keeps the
#     consumer's with RXMESH_KEEP_CUDA_ARCHITECTURES=ON).
#   MODE=add_subdirectory: configures the example with RXMesh's source tree
#     (-DRXMESH_SOURCE_DIR); with RXMESH_REQUIRE_GPU=1 (a GPU machine) builds
#     and runs it. Elsewhere (CI: no GPU, so the run could only exit 77) it
#     compiles the example's own unit with the usage requirements the source
#     tree gives it and stops there: linking would compile the library's mesh
#     component once more, the same sources and the same CMakeLists whose
#     link the main build (rxmesh-info) and the find_package mode (link and
#     run against the install) already check.
# The example exits 77 without a usable CUDA device: accepted unless
# RXMESH_REQUIRE_GPU=1.
# Variables: MODE, BUILD_DIR, SOURCE_DIR, WORK_DIR, CUDA_ARCHS, GENERATOR, INSTALL_APPS.
file(REMOVE_RECURSE "${WORK_DIR}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
set(EXAMPLE "${SOURCE_DIR}/examples/hello_mesh")

function(run_example exe)
  execute_process(COMMAND "${exe}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  # (its words about a missing GPU stay out of this test's output: the
  # closing skip count of ctest, tests/skip_summary.cmake, reads them as a skip)
  if(rc EQUAL 77 AND NOT "$ENV{RXMESH_REQUIRE_GPU}" STREQUAL "1")
    message(STATUS "hello_mesh built; its run exited 77 (no GPU here)")
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "hello_mesh exited ${rc}: ${out}${err}")
  elseif(NOT out MATCHES "mean valence")
    message(FATAL_ERROR "hello_mesh printed no valence: ${out}${err}")
  else()
    message(STATUS "${out}")
  endif()
endfunction()

#! The CUDA flags of the hello_mesh target in a configured Ninja build dir.
function(cuda_flags dir out)
  file(STRINGS "${dir}/build.ninja" flags REGEX "arch=compute_")
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "add_subdirectory")
  run(${CMAKE_COMMAND} -S "${EXAMPLE}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
      "-DRXMESH_SOURCE_DIR=${SOURCE_DIR}" "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}")
  if("$ENV{RXMESH_REQUIRE_GPU}" STREQUAL "1" OR NOT GENERATOR MATCHES "Ninja")
    run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
    run_example("${WORK_DIR}/build/hello_mesh")
  else()
    run(${CMAKE_COMMAND} --build "${WORK_DIR}/build" --target CMakeFiles/hello_mesh.dir/hello_mesh.cu.o)
    if(NOT EXISTS "${WORK_DIR}/build/CMakeFiles/hello_mesh.dir/hello_mesh.cu.o")
      message(FATAL_ERROR "hello_mesh.cu did not compile against RXMesh's source tree")
    endif()
    message(STATUS "hello_mesh compiled against the source tree (no GPU: not linked or run)")
  endif()
  return()
endif()

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/install")
# what the install holds besides the library: the LICENSE, and no app
# (RXMESH_INSTALL_APPS is off by default)
file(GLOB_RECURSE _license "${WORK_DIR}/install/*/doc/rxmesh/LICENSE")
if(NOT _license)
  message(FATAL_ERROR "the install has no doc/rxmesh/LICENSE")
endif()
file(GLOB _apps "${WORK_DIR}/install/bin/rxmesh-*")
if(_apps AND NOT INSTALL_APPS)
  message(FATAL_ERROR "apps installed without RXMESH_INSTALL_APPS: ${_apps}")
endif()
run(${CMAKE_COMMAND} -S "${EXAMPLE}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${WORK_DIR}/install" "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}")
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run_example("${WORK_DIR}/build/hello_mesh")

# a consumer configured for an architecture RXMesh was not built for
string(REGEX MATCH "^[0-9]+" _first "${CUDA_ARCHS}")
if(_first)
  set(_other 75)
  if(CUDA_ARCHS MATCHES "(^|;)75")
    set(_other 80)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${EXAMPLE}" -B "${WORK_DIR}/other" -G "${GENERATOR}"
                  "-DCMAKE_PREFIX_PATH=${WORK_DIR}/install" "-DCMAKE_CUDA_ARCHITECTURES=${_other}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  cuda_flags("${WORK_DIR}/other" _flags)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "RXMesh: CUDA code of hello_mesh compiles for"
     OR NOT _flags MATCHES "compute_${_first}" OR _flags MATCHES "compute_${_other}")
    message(FATAL_ERROR "architectures not passed on (asked ${_other}, RXMesh ${CUDA_ARCHS}):\n"
                        "${out}${err}\nflags: ${_flags}")
  endif()
  run(${CMAKE_COMMAND} -S "${EXAMPLE}" -B "${WORK_DIR}/keep" -G "${GENERATOR}"
      "-DCMAKE_PREFIX_PATH=${WORK_DIR}/install" "-DCMAKE_CUDA_ARCHITECTURES=${_other}"
      -DRXMESH_KEEP_CUDA_ARCHITECTURES=ON)
  cuda_flags("${WORK_DIR}/keep" _flags)
  if(NOT _flags MATCHES "compute_${_other}" OR _flags MATCHES "compute_${_first}")
    message(FATAL_ERROR "RXMESH_KEEP_CUDA_ARCHITECTURES=ON did not keep ${_other}: ${_flags}")
  endif()
endif()
