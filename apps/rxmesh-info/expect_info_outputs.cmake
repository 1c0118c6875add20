# rxmesh-info's -o and --json: runs APP with ARGS (exit 0 required), then the
# PLY at PLY must declare VERTICES vertices and FACES faces, and the JSON at
# JSON must match JSON_PATTERN.
execute_process(COMMAND ${APP} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit ${rc}: ${out}${err}")
endif()
file(STRINGS "${PLY}" header LIMIT_COUNT 12)
if(NOT header MATCHES "element vertex ${VERTICES};" OR NOT header MATCHES "element face ${FACES};")
  message(FATAL_ERROR "PLY header: ${header}")
endif()
file(READ "${JSON}" json)
if(NOT json MATCHES "${JSON_PATTERN}")
  message(FATAL_ERROR "JSON: ${json}")
endif()
