# Runs APP with ARGS (a ;-list) plus "-o OUT" and expects an output that is
# all or nothing: on success (status 0) OUT exists and no OUT.partial; on
# any failure (no GPU: status 77, or 1 where a GPU is required) one line on
# stderr and neither OUT nor OUT.partial. Apps that write -o's faces while
# the GPU starts (Info::moves_vertices) must remove them when it does not.
file(REMOVE "${OUT}" "${OUT}.partial")
execute_process(COMMAND ${APP} ${ARGS} -o ${OUT}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  if(NOT EXISTS "${OUT}" OR EXISTS "${OUT}.partial")
    message(FATAL_ERROR "status 0 but the output is not in place: ${OUT}")
  endif()
  file(REMOVE "${OUT}")
  message(STATUS "written")
  return()
endif()
string(STRIP "${err}" err_stripped)
string(REGEX MATCHALL "\n" newlines "${err_stripped}")
list(LENGTH newlines extra_lines)
if(err_stripped STREQUAL "" OR extra_lines GREATER 0)
  message(FATAL_ERROR "status ${rc}: expected one line on stderr, got: '${err}'")
endif()
if(EXISTS "${OUT}" OR EXISTS "${OUT}.partial")
  message(FATAL_ERROR "status ${rc}, and an output file was left behind: ${OUT}")
endif()
message(STATUS "status ${rc}, nothing left behind: ${err_stripped}")
