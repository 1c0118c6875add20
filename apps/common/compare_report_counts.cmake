# Runs an app's GPU path and its CPU path (--device cpu) on the same input
# and compares integers of their --json reports, for the apps whose two
# paths make different meshes of the same kind (rxmesh-remesh,
# rxmesh-simplify: parallel passes against one operation at a time, so
# counts agree only within a margin):
#
#   cmake -DAPP=exe "-DARGS=arg;..." ["-DGPU_ARGS=--check"] -DDIR=folder
#         "-DKEYS=mesh.faces;mesh.vertices" -DPERCENT=10 -P compare_report_counts.cmake
#
# "APP ARGS GPU_ARGS --json DIR/gpu.json" first (the GPU path; GPU_ARGS for
# what the CPU path refuses, such as --check; exit status 77, no GPU,
# prints "no GPU: skipped" and stops, for the test's SKIP_REGULAR_EXPRESSION:
# a script cannot exit 77), then "APP ARGS --device cpu --json DIR/cpu.json";
# each must exit 0. Each of KEYS (a dotted path into the report) must hold
# an integer in both reports, the two at most PERCENT % of the larger apart.

cmake_minimum_required(VERSION 3.24)  # string(JSON) and the project's policies

set(_gpu "${DIR}/gpu.json")
set(_cpu "${DIR}/cpu.json")
file(REMOVE "${_gpu}" "${_cpu}")
execute_process(COMMAND ${APP} ${ARGS} ${GPU_ARGS} --json ${_gpu}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 77)
  message(STATUS "no GPU: skipped")
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the GPU path exited with status ${rc}: ${out}${err}")
endif()
message(STATUS "GPU path:\n${out}")
execute_process(COMMAND ${APP} ${ARGS} --device cpu --json ${_cpu}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the CPU path (--device cpu) exited with status ${rc}: ${out}${err}")
endif()
message(STATUS "CPU path:\n${out}")

file(READ "${_gpu}" _gpu_json)
file(READ "${_cpu}" _cpu_json)
set(_failed "")
foreach(_key IN LISTS KEYS)
  string(REPLACE "." ";" _path "${_key}")
  string(JSON _a GET "${_gpu_json}" ${_path})
  string(JSON _b GET "${_cpu_json}" ${_path})
  if(NOT _a MATCHES "^[0-9]+$" OR NOT _b MATCHES "^[0-9]+$")
    message(FATAL_ERROR "${_key}: not a count in both reports (GPU '${_a}', CPU '${_b}')")
  endif()
  set(_larger ${_a})
  if(_b GREATER _a)
    set(_larger ${_b})
  endif()
  math(EXPR _difference "${_a} - ${_b}")
  if(_difference LESS 0)
    math(EXPR _difference "-(${_difference})")
  endif()
  # |a - b| <= PERCENT % of the larger, in integers: 100 |a - b| <= PERCENT x larger
  math(EXPR _lhs "100 * ${_difference}")
  math(EXPR _rhs "${PERCENT} * ${_larger}")
  if(_lhs GREATER _rhs)
    string(APPEND _failed "${_key}: GPU ${_a}, CPU ${_b}, more than ${PERCENT}% apart\n")
  else()
    message(STATUS "${_key}: GPU ${_a}, CPU ${_b} (within ${PERCENT}%)")
  endif()
endforeach()
if(_failed)
  message(FATAL_ERROR "the GPU and CPU reports differ:\n${_failed}")
endif()
