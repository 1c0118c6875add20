# Test docs.reference: Doxygen builds the reference from DOXYFILE without a
# warning, and the pages a reader starts from exist (the concepts page as
# index.html, the RXMesh class).
# Variables: DOXYGEN, DOXYFILE, HTML (the output's html folder), SOURCE_DIR.
execute_process(COMMAND "${DOXYGEN}" "${DOXYFILE}" WORKING_DIRECTORY "${SOURCE_DIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "doxygen exited ${rc}:\n${out}${err}")
endif()
if("${out}${err}" MATCHES "[Ww]arning")
  message(FATAL_ERROR "doxygen warned:\n${out}${err}")
endif()
foreach(page index.html classrxmesh_1_1RXMesh.html)
  if(NOT EXISTS "${HTML}/${page}")
    message(FATAL_ERROR "the reference has no ${page}")
  endif()
endforeach()
file(READ "${HTML}/index.html" index)
if(NOT index MATCHES "Patches")
  message(FATAL_ERROR "index.html is not the concepts page")
endif()
