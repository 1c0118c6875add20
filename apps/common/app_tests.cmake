# What the apps' tests share (included by apps/CMakeLists.txt).
set(RXMESH_APP_COMMON ${CMAKE_CURRENT_LIST_DIR})

# Writes the inputs every app must reject into DIR: bad_index.obj (a face
# names a missing vertex), nan.obj, empty.obj (no faces), parse_error.off.
function(rxmesh_write_bad_inputs dir)
  file(WRITE ${dir}/bad_index.obj "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n")
  file(WRITE ${dir}/nan.obj "v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n")
  file(WRITE ${dir}/empty.obj "# no faces\nv 0 0 0\n")
  file(WRITE ${dir}/parse_error.off "OFF\n3 1 0\n0 0 0\n1 0 zero\n0 1 0\n3 0 1 2\n")
endfunction()

# Adds the test PREFIX.bad_NAME for each case "NAME|ARG,ARG,...": APP run
# with those arguments (and -o) must exit with status 1, print one line on
# stderr and leave no output file (expect_bad_input.cmake).
function(rxmesh_add_bad_input_tests app prefix)
  foreach(_case IN LISTS ARGN)
    string(REPLACE "," ";" _case "${_case}")
    string(REPLACE "|" ";" _fields "${_case}")
    list(GET _fields 0 _name)
    list(SUBLIST _fields 1 -1 _args)
    add_test(NAME ${prefix}.bad_${_name}
      COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:${app}> "-DARGS=${_args}"
              -DOUT=${CMAKE_CURRENT_BINARY_DIR}/bad_${_name}.ply -P ${RXMESH_APP_COMMON}/expect_bad_input.cmake)
    set_tests_properties(${prefix}.bad_${_name} PROPERTIES LABELS cpu)
  endforeach()
endfunction()
