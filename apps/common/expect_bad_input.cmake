# Runs APP with ARGS (a ;-list) plus "-o OUT" (without OUT: no -o) and
# expects what every app promises for bad input: exit status 1, exactly one
# line on stderr, and no output file (nor a partial one) left behind.
set(_output)
if(OUT)
  file(REMOVE "${OUT}" "${OUT}.partial")
  set(_output -o ${OUT})
endif()
execute_process(COMMAND ${APP} ${ARGS} ${_output}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(STRIP "${err}" err_stripped)
string(REGEX MATCHALL "\n" newlines "${err_stripped}")
list(LENGTH newlines extra_lines)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit status 1, got '${rc}'; stderr: ${err}")
endif()
if(err_stripped STREQUAL "" OR extra_lines GREATER 0)
  message(FATAL_ERROR "expected one line on stderr, got: '${err}'")
endif()
if(OUT AND (EXISTS "${OUT}" OR EXISTS "${OUT}.partial"))
  message(FATAL_ERROR "an output file was left behind: ${OUT}")
endif()
message(STATUS "bad input reported: ${err_stripped}")
