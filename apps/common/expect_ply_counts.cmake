# Runs APP with ARGS (a ;-list) plus "-o OUT" and checks the PLY it writes:
# exit status 0, and the header's vertex and face counts equal VERTICES and
# FACES (one vertex per input vertex, unused and welded ones included; the
# input's faces).
file(REMOVE "${OUT}")
execute_process(COMMAND ${APP} ${ARGS} -o ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 77)
  message(STATUS "no GPU: skipped")
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit status ${rc}: ${err}")
endif()
file(STRINGS "${OUT}" header LIMIT_COUNT 16)
string(REGEX MATCH "element vertex ([0-9]+)" _ "${header}")
set(vertices "${CMAKE_MATCH_1}")
string(REGEX MATCH "element face ([0-9]+)" _ "${header}")
set(faces "${CMAKE_MATCH_1}")
if(NOT vertices EQUAL VERTICES OR NOT faces EQUAL FACES)
  message(FATAL_ERROR "PLY has ${vertices} vertices and ${faces} faces; expected ${VERTICES} and ${FACES}")
endif()
message(STATUS "PLY: ${vertices} vertices, ${faces} faces, as the input")
