# GPU programs under compute-sanitizer, as ctest tests labelled "gpu" and
# "sanitize" (tests/sanitize/run_sanitizer.sh: skipped without a GPU, failed
# when the tool reports an error or a hazard). Registered only when
# compute-sanitizer is found.
find_program(RXMESH_COMPUTE_SANITIZER compute-sanitizer
  HINTS ${CUDAToolkit_BIN_DIR} /usr/local/cuda/bin)
if(NOT RXMESH_COMPUTE_SANITIZER)
  message(STATUS "RXMesh tests: compute-sanitizer not found; no 'sanitize' GPU tests")
endif()

#   rxmesh_add_sanitizer_test(NAME TOOL TIMEOUT PROGRAM [ARGS...])
function(rxmesh_add_sanitizer_test name tool timeout program)
  if(NOT RXMESH_COMPUTE_SANITIZER)
    return()
  endif()
  add_test(NAME sanitize.${tool}.${name}
    COMMAND ${PROJECT_SOURCE_DIR}/tests/sanitize/run_sanitizer.sh
            ${RXMESH_COMPUTE_SANITIZER} ${tool} ${program} ${ARGN})
  set_tests_properties(sanitize.${tool}.${name} PROPERTIES
    LABELS "gpu;sanitize" SKIP_RETURN_CODE 77 TIMEOUT ${timeout})
endfunction()
