# Runs "APP FLAG" (FLAG: --help unless given, e.g. --version) and expects exit
# status 0 and stdout matching PATTERN.
if(NOT FLAG)
  set(FLAG --help)
endif()
execute_process(COMMAND ${APP} ${FLAG} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FLAG}: expected exit status 0, got '${rc}'; stderr: ${err}")
endif()
if(NOT out MATCHES "${PATTERN}")
  message(FATAL_ERROR "${FLAG}: the output does not match '${PATTERN}':\n${out}")
endif()
