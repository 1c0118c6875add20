# Installs the build tree into a scratch prefix, then configures, builds and
# runs tests/package/consumer against it with find_package(RXMesh).
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, CUDA_ARCHS, GENERATOR, INSTALL_APPS.
file(REMOVE_RECURSE "${WORK_DIR}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
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
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/package/consumer" -B "${WORK_DIR}/build"
    -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${WORK_DIR}/install"
    "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}")
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
