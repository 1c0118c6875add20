# Runs APP with ARGS (a ;-list) and expects stderr to match PATTERN, whatever
# the exit status (a note printed before the work, with or without a GPU).
execute_process(COMMAND ${APP} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT err MATCHES "${PATTERN}")
  message(FATAL_ERROR "stderr does not match '${PATTERN}' (exit status ${rc}):\n${err}")
endif()
