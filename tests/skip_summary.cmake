# ctest's last step (CTEST_CUSTOM_POST_TEST, written by tests/CMakeLists.txt):
# one line saying how many tests of this run skipped for want of a GPU, and
# why. ctest lists skipped tests by name only; their reason is in their
# output, which this reads from the run's log. Never fails the run.
# Variables: LOG_DIR (the build's Testing/Temporary).
set(_log "")
foreach(name LastTest.log.tmp LastTest.log)
  if(EXISTS "${LOG_DIR}/${name}")
    set(_log "${LOG_DIR}/${name}")
    break()
  endif()
endforeach()
if(NOT _log)
  return()
endif()
# one list entry per line: brackets, semicolons and backslashes in the
# tests' output would otherwise join or split CMake list entries
file(READ "${_log}" _text)
string(REPLACE "\\" "/" _text "${_text}")
string(REPLACE ";" "," _text "${_text}")
string(REPLACE "[" "(" _text "${_text}")
string(REPLACE "]" ")" _text "${_text}")
string(REPLACE "\n" ";" _lines "${_text}")
# each test's output lies between "Output:" and "<end of output>"
set(_skipped 0)
set(_reason "")
set(_in_output FALSE)
set(_this_test FALSE)
foreach(line IN LISTS _lines)
  if(line STREQUAL "Output:")
    set(_in_output TRUE)
    set(_this_test FALSE)
  elseif(line STREQUAL "<end of output>")
    set(_in_output FALSE)
    if(_this_test)
      math(EXPR _skipped "${_skipped} + 1")
    endif()
  elseif(_in_output AND line MATCHES
         "no CUDA device: GPU test skipped|no CUDA device is available|no usable CUDA device|no GPU: skipped"
         AND NOT line MATCHES "RXMESH_REQUIRE_GPU=1 but")
    set(_this_test TRUE)
    if(NOT _reason AND line MATCHES "(cuda[A-Za-z]*Error[A-Za-z]*)")
      set(_reason "${CMAKE_MATCH_1}")
    endif()
  endif()
endforeach()
if(_skipped GREATER 0)
  if(_reason)
    set(_reason " (${_reason})")
  endif()
  set(_tests "tests")
  if(_skipped EQUAL 1)
    set(_tests "test")
  endif()
  message("${_skipped} GPU ${_tests} skipped: no usable CUDA device${_reason}; "
          "RXMESH_REQUIRE_GPU=1 makes them fail instead")
endif()
