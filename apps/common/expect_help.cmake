# Runs "APP --help" and expects exit status 0 and stdout matching PATTERN.
execute_process(COMMAND ${APP} --help RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--help: expected exit status 0, got '${rc}'; stderr: ${err}")
endif()
if(NOT out MATCHES "${PATTERN}")
  message(FATAL_ERROR "--help: the output does not match '${PATTERN}':\n${out}")
endif()
