# The apps' one CMake function, rxmesh_add_app, and the helpers an app's own
# CMakeLists.txt uses for the tests of its own options (included by
# apps/CMakeLists.txt when CLI11 is found). Tests are added only with
# RXMESH_BUILD_TESTS.
set(RXMESH_APP_COMMON ${CMAKE_CURRENT_LIST_DIR})

# Writes the inputs of the apps' tests into DIR: the ones every app must
# reject, bad_index.obj (a face names a missing vertex), nan.obj, empty.obj
# (no faces) and parse_error.off; and tet_extra.obj, a tetrahedron's four
# faces over 6 input vertices, one unused (vertex 4) and one a duplicate of
# vertex 1 (vertex 5, welded with --weld).
function(rxmesh_write_app_inputs dir)
  file(WRITE ${dir}/bad_index.obj "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n")
  file(WRITE ${dir}/nan.obj "v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n")
  file(WRITE ${dir}/empty.obj "# no faces\nv 0 0 0\n")
  file(WRITE ${dir}/parse_error.off "OFF\n3 1 0\n0 0 0\n1 0 zero\n0 1 0\n3 0 1 2\n")
  file(WRITE ${dir}/tet.stl "solid t\nfacet normal 0 0 -1\nouter loop\nvertex 0 0 0\nvertex 0 1 0\nvertex 1 0 0\nendloop\nendfacet\nfacet normal 0 -1 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 0 1\nendloop\nendfacet\nfacet normal -1 0 0\nouter loop\nvertex 0 0 0\nvertex 0 0 1\nvertex 0 1 0\nendloop\nendfacet\nfacet normal 1 1 1\nouter loop\nvertex 1 0 0\nvertex 0 1 0\nvertex 0 0 1\nendloop\nendfacet\nendsolid t\n")
  file(WRITE ${dir}/tet_extra.obj "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 5 5 5\nv 1 0 0\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 6 3 4\n")
endfunction()

# Writes PATH: an open dome, an N x N grid of quads (2 N^2 faces, one
# boundary loop) lifted onto a paraboloid (height (i (N - i) + j (N - j)) / 10
# over spacing 10: curved everywhere), its vertices jittered by up to 2 in x
# and y in a fixed pattern so that edge lengths vary; for the apps whose
# --check keeps the boundary (remesh, simplify).
function(rxmesh_write_dome path n)
  set(_obj "# ${n} x ${n} quads on a paraboloid, jittered\n")
  foreach(_j RANGE ${n})
    foreach(_i RANGE ${n})
      math(EXPR _x "10 * ${_i} + (7 * ${_i} + 3 * ${_j}) % 5 - 2")
      math(EXPR _y "10 * ${_j} + (3 * ${_i} + 7 * ${_j}) % 5 - 2")
      math(EXPR _h "${_i} * (${n} - ${_i}) + ${_j} * (${n} - ${_j})")
      math(EXPR _units "${_h} / 10")
      math(EXPR _tenths "${_h} % 10")
      string(APPEND _obj "v ${_x} ${_y} ${_units}.${_tenths}\n")
    endforeach()
  endforeach()
  math(EXPR _last "${n} - 1")
  foreach(_j RANGE ${_last})
    foreach(_i RANGE ${_last})
      math(EXPR _a "${_j} * (${n} + 1) + ${_i} + 1")  # OBJ counts from 1
      math(EXPR _b "${_a} + 1")
      math(EXPR _c "${_b} + ${n} + 1")
      math(EXPR _d "${_a} + ${n} + 1")
      string(APPEND _obj "f ${_a} ${_b} ${_c}\nf ${_a} ${_c} ${_d}\n")
    endforeach()
  endforeach()
  file(WRITE ${path} "${_obj}")
endfunction()

# Adds the test rxmesh_APP.bad_NAME for each case "NAME|ARG,ARG,...": the
# app run with those arguments (and -o, unless NO_OUTPUT) must exit with
# status 1, print one line on stderr and leave no output file
# (expect_bad_input.cmake). GPU: input the app can only find bad on the
# GPU (after the upload): the tests are labelled gpu and skip without one.
function(rxmesh_add_bad_input_tests app)
  if(NOT RXMESH_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 B "NO_OUTPUT;GPU" "" "")
  string(REPLACE "_" "-" _exe "rxmesh-${app}")
  foreach(_case IN LISTS B_UNPARSED_ARGUMENTS)
    string(REPLACE "," ";" _case "${_case}")
    string(REPLACE "|" ";" _fields "${_case}")
    list(POP_FRONT _fields _name)  # what is left: the arguments
    set(_out -DOUT=${CMAKE_CURRENT_BINARY_DIR}/bad_${_name}.ply)
    if(B_NO_OUTPUT)
      set(_out)
    endif()
    add_test(NAME rxmesh_${app}.bad_${_name}
      COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:${_exe}> "-DARGS=${_fields}" ${_out}
              -P ${RXMESH_APP_COMMON}/expect_bad_input.cmake)
    if(B_GPU)
      set_tests_properties(rxmesh_${app}.bad_${_name} PROPERTIES LABELS gpu
        SKIP_REGULAR_EXPRESSION "got '77'")
    else()
      set_tests_properties(rxmesh_${app}.bad_${_name} PROPERTIES LABELS cpu)
    endif()
  endforeach()
endfunction()

# Adds the test rxmesh_APP.version: --version prints "rxmesh-APP <project
# version>" and exits 0.
function(rxmesh_add_version_test app)
  if(NOT RXMESH_BUILD_TESTS)
    return()
  endif()
  string(REPLACE "_" "-" _exe "rxmesh-${app}")
  add_test(NAME rxmesh_${app}.version
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:${_exe}> -DFLAG=--version
            "-DPATTERN=^${_exe} ${PROJECT_VERSION}\n$" -P ${RXMESH_APP_COMMON}/expect_help.cmake)
  set_tests_properties(rxmesh_${app}.version PROPERTIES LABELS cpu)
endfunction()

# Adds the test rxmesh_APP.output_all_or_none: the app with ARGN and -o
# (expect_output_or_none.cmake) leaves its output whole on success and
# nothing on failure; without a GPU (CI) that is the failure after -o's
# faces were written while the GPU was looked for (Info::moves_vertices).
function(rxmesh_add_output_all_or_none_test app)
  if(NOT RXMESH_BUILD_TESTS)
    return()
  endif()
  string(REPLACE "_" "-" _exe "rxmesh-${app}")
  add_test(NAME rxmesh_${app}.output_all_or_none
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:${_exe}> "-DARGS=${ARGN}"
            -DOUT=${CMAKE_CURRENT_BINARY_DIR}/${app}_all_or_none.ply
            -P ${RXMESH_APP_COMMON}/expect_output_or_none.cmake)
  set_tests_properties(rxmesh_${app}.output_all_or_none PROPERTIES LABELS cpu)
endfunction()

# Adds the GPU test rxmesh_APP.NAME: the app with --check and ARGN must exit
# with status 0 (77, no GPU: skipped).
function(rxmesh_add_app_check app name)
  if(NOT RXMESH_BUILD_TESTS)
    return()
  endif()
  string(REPLACE "_" "-" _exe "rxmesh-${app}")
  add_test(NAME rxmesh_${app}.${name} COMMAND ${_exe} --check ${ARGN})
  set_tests_properties(rxmesh_${app}.${name} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
endfunction()

# Adds the GPU test rxmesh_APP.NAME: the app with ARGN and -o must exit with
# status 0 and write a PLY of VERTICES vertices and FACES faces
# (expect_ply_counts.cmake): the output in input order.
function(rxmesh_add_input_order_test app name vertices faces)
  if(NOT RXMESH_BUILD_TESTS)
    return()
  endif()
  string(REPLACE "_" "-" _exe "rxmesh-${app}")
  add_test(NAME rxmesh_${app}.${name}
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:${_exe}> "-DARGS=${ARGN}"
            -DOUT=${CMAKE_CURRENT_BINARY_DIR}/${app}_${name}.ply -DVERTICES=${vertices} -DFACES=${faces}
            -P ${RXMESH_APP_COMMON}/expect_ply_counts.cmake)
  set_tests_properties(rxmesh_${app}.${name} PROPERTIES LABELS gpu
    SKIP_REGULAR_EXPRESSION "no GPU: skipped")
endfunction()

# rxmesh_add_app(APP SOURCES file... HELP_PATTERN regex
#                [NO_MESH] [WRITES_OBJ] [DEFAULT_ARGS arg...]
#                [INPUT_ORDER_MESH file] [INPUT_ORDER_ARGS arg...] [INPUT_ORDER_COUNTS V F]
#                [BAD_INPUTS "NAME|ARG,ARG" ...])
# Builds rxmesh-APP (underscores become dashes; installed with
# RXMESH_INSTALL_APPS) from SOURCES and,
# with the tests, adds what every app is tested for:
#   rxmesh_APP.help            --help prints a match of HELP_PATTERN, then the exit
#                              statuses (cpu)
#   rxmesh_APP.version         --version prints "rxmesh-APP <project version>" (cpu)
#   rxmesh_APP.bad_output_format  -o out.obj (WRITES_OBJ: out.stl): refused before
#                              any work (cpu); bad_output_no_extension: -o out
#   rxmesh_APP.default_check   the default run with --check, -o, --json and DEFAULT_ARGS
#   rxmesh_APP.input_order     INPUT_ORDER_MESH (default tet_extra.obj), --check
#                              and INPUT_ORDER_ARGS: the -o file has V vertices
#                              and F faces (default 6 and 4: one per input
#                              vertex, unused and welded included)
#   rxmesh_APP.input_order_weld  the same with --weld (not with NO_MESH: an app
#                              that builds no RXMesh has no --weld)
#   rxmesh_APP.stl_weld_note   an STL input without --weld gets a note (not with
#                              NO_MESH; cpu)
#   rxmesh_APP.bad_*           missing_file, bad_index, nan, empty, parse_error, json_is_a_folder,
#                              unwritable_json and the BAD_INPUTS cases (cpu)
#   sanitize.{memcheck,racecheck}.app_<executable suffix>  the default run under
#                              compute-sanitizer
function(rxmesh_add_app app)
  cmake_parse_arguments(PARSE_ARGV 1 A "NO_MESH;WRITES_OBJ" "HELP_PATTERN;INPUT_ORDER_MESH"
    "SOURCES;DEFAULT_ARGS;INPUT_ORDER_ARGS;INPUT_ORDER_COUNTS;BAD_INPUTS")
  string(REPLACE "_" "-" _suffix "${app}")
  add_executable(rxmesh-${_suffix} ${A_SOURCES})
  target_link_libraries(rxmesh-${_suffix} PRIVATE rxmesh_app_skeleton rxmesh::rxmesh rxmesh::reference CLI11::CLI11)
  if(RXMESH_INSTALL_APPS)
    install(TARGETS rxmesh-${_suffix} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
  if(NOT RXMESH_BUILD_TESTS)
    return()
  endif()
  set(_dir ${CMAKE_CURRENT_BINARY_DIR})
  add_test(NAME rxmesh_${app}.help
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:rxmesh-${_suffix}>
            "-DPATTERN=${A_HELP_PATTERN}.*Exit status: 0 done.*77 no CUDA device"
            -P ${RXMESH_APP_COMMON}/expect_help.cmake)
  set_tests_properties(rxmesh_${app}.help PROPERTIES LABELS cpu)
  rxmesh_add_version_test(${app})
  # an output name whose format the app does not write: refused up front
  set(_unwritten obj)
  if(A_WRITES_OBJ)
    set(_unwritten stl)
  endif()
  add_test(NAME rxmesh_${app}.bad_output_format
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:rxmesh-${_suffix}> -DARGS=
            -DOUT=${_dir}/bad_output_format.${_unwritten} -P ${RXMESH_APP_COMMON}/expect_bad_input.cmake)
  add_test(NAME rxmesh_${app}.bad_output_no_extension
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:rxmesh-${_suffix}> -DARGS=
            -DOUT=${_dir}/bad_output_no_extension -P ${RXMESH_APP_COMMON}/expect_bad_input.cmake)
  set_tests_properties(rxmesh_${app}.bad_output_format rxmesh_${app}.bad_output_no_extension
    PROPERTIES LABELS cpu)
  rxmesh_add_app_check(${app} default_check -o ${_dir}/${app}_default.ply
    --json ${_dir}/${app}_default.json ${A_DEFAULT_ARGS})

  rxmesh_write_app_inputs(${_dir})
  if(NOT A_INPUT_ORDER_MESH)
    set(A_INPUT_ORDER_MESH ${_dir}/tet_extra.obj)
  endif()
  if(NOT A_INPUT_ORDER_COUNTS)
    set(A_INPUT_ORDER_COUNTS 6 4)
  endif()
  set(_order ${A_INPUT_ORDER_COUNTS} ${A_INPUT_ORDER_MESH} --check ${A_INPUT_ORDER_ARGS})
  rxmesh_add_input_order_test(${app} input_order ${_order})
  if(NOT A_NO_MESH)
    rxmesh_add_input_order_test(${app} input_order_weld ${_order} --weld)
    # STL without --weld: a note that --weld connects the triangles
    add_test(NAME rxmesh_${app}.stl_weld_note
      COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:rxmesh-${_suffix}> -DARGS=${_dir}/tet.stl
              "-DPATTERN=note: STL stores every triangle's corners apart.*--weld merges"
              -P ${RXMESH_APP_COMMON}/expect_stderr.cmake)
    set_tests_properties(rxmesh_${app}.stl_weld_note PROPERTIES LABELS cpu)
  endif()

  rxmesh_add_bad_input_tests(${app}
    "missing_file|/nonexistent/mesh.obj"
    "bad_index|${_dir}/bad_index.obj"
    "nan|${_dir}/nan.obj"
    "empty|${_dir}/empty.obj"
    "parse_error|${_dir}/parse_error.off"
    "unwritable_json|--json,/nonexistent/dir/report.json"
    "json_is_a_folder|--json,${_dir}"
    ${A_BAD_INPUTS})
  rxmesh_add_sanitizer_test(app_${_suffix} memcheck 600 $<TARGET_FILE:rxmesh-${_suffix}> --check)
  rxmesh_add_sanitizer_test(app_${_suffix} racecheck 600 $<TARGET_FILE:rxmesh-${_suffix}> --check)
endfunction()

# rxmesh_add_gpu_vs_cpu_test(APP compare_ply ARGS ... PROPERTIES ... TOLERANCE T)
# rxmesh_add_gpu_vs_cpu_test(APP compare_report_counts ARGS ... [GPU_ARGS ...]
#                            KEYS ... PERCENT P)
# rxmesh_APP.gpu_vs_cpu (label gpu; skipped without a GPU): the app's GPU
# run and its --device cpu run on the same input (ARGS), compared by
# apps/common/compare_ply.cmake (the PLYs' PROPERTIES within TOLERANCE) or
# compare_report_counts.cmake (the reports' KEYS within PERCENT; GPU_ARGS
# for the GPU run only), in the app's binary folder.
function(rxmesh_add_gpu_vs_cpu_test app script)
  if(NOT RXMESH_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 2 A "" "TOLERANCE;PERCENT" "ARGS;PROPERTIES;GPU_ARGS;KEYS")
  string(REPLACE "_" "-" _exe "rxmesh-${app}")
  set(_dir ${CMAKE_CURRENT_BINARY_DIR})
  # each list stays one -D argument inside the list _defines
  string(REPLACE ";" "\\;" A_PROPERTIES "${A_PROPERTIES}")
  string(REPLACE ";" "\\;" A_KEYS "${A_KEYS}")
  string(REPLACE ";" "\\;" A_GPU_ARGS "${A_GPU_ARGS}")
  if(script STREQUAL "compare_ply")
    set(_defines "-DPROPERTIES=${A_PROPERTIES}" -DTOLERANCE=${A_TOLERANCE}
                 -DA=${_dir}/dome_gpu.ply -DB=${_dir}/dome_cpu.ply)
  else()
    set(_defines "-DGPU_ARGS=${A_GPU_ARGS}" -DDIR=${_dir} "-DKEYS=${A_KEYS}" -DPERCENT=${A_PERCENT})
  endif()
  add_test(NAME rxmesh_${app}.gpu_vs_cpu
    COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:${_exe}> "-DARGS=${A_ARGS}" ${_defines}
            -P ${RXMESH_APP_COMMON}/${script}.cmake)
  set_tests_properties(rxmesh_${app}.gpu_vs_cpu PROPERTIES LABELS gpu
    SKIP_REGULAR_EXPRESSION "no GPU: skipped")
endfunction()

# rxmesh_add_cpu_default_tests(APP [VERTICES V FACES F] [PASS_PATTERN RE]
#                              [REPORT_PATTERN RE] [ARGS ...])
# The app's --device cpu on its embedded default input, no GPU needed:
#   rxmesh_APP.cpu_default   exits 0 with -o and --json (ARGS added); with
#                            VERTICES and FACES the PLY has those counts; its
#                            output never says "no GPU" (that would mean it
#                            tried the GPU) and matches PASS_PATTERN if given
#   rxmesh_APP.cpu_report    the report says "device": "cpu" (and matches
#                            REPORT_PATTERN if given); read after cpu_default,
#                            removed after (a fixture), so no old file passes
function(rxmesh_add_cpu_default_tests app)
  if(NOT RXMESH_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 A "" "VERTICES;FACES;PASS_PATTERN;REPORT_PATTERN" "ARGS")
  string(REPLACE "_" "-" _exe "rxmesh-${app}")
  set(_dir ${CMAKE_CURRENT_BINARY_DIR})
  set(_out ${_dir}/cpu_default.ply)
  set(_json ${_dir}/cpu_default.json)
  set(_t rxmesh_${app})
  if(DEFINED A_VERTICES)
    set(_args --device cpu ${A_ARGS} --json ${_json})
    add_test(NAME ${_t}.cpu_default
      COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:${_exe}> "-DARGS=${_args}" -DOUT=${_out}
              -DVERTICES=${A_VERTICES} -DFACES=${A_FACES}
              -P ${RXMESH_APP_COMMON}/expect_ply_counts.cmake)
  else()
    add_test(NAME ${_t}.cpu_default
      COMMAND ${_exe} --device cpu ${A_ARGS} -o ${_out} --json ${_json})
  endif()
  set_tests_properties(${_t}.cpu_default PROPERTIES LABELS cpu FIXTURES_SETUP ${app}_cpu
    FAIL_REGULAR_EXPRESSION "no GPU")
  if(A_PASS_PATTERN)
    set_tests_properties(${_t}.cpu_default PROPERTIES PASS_REGULAR_EXPRESSION "${A_PASS_PATTERN}")
  endif()
  add_test(NAME ${_t}.cpu_report COMMAND ${CMAKE_COMMAND} -E cat ${_json})
  add_test(NAME ${_t}.cpu_report_cleanup COMMAND ${CMAKE_COMMAND} -E rm -f ${_json})
  set(_report "\"device\": \"cpu\"")
  if(A_REPORT_PATTERN)
    set(_report "${_report}.*${A_REPORT_PATTERN}")
  endif()
  set_tests_properties(${_t}.cpu_report PROPERTIES LABELS cpu FIXTURES_REQUIRED ${app}_cpu
    PASS_REGULAR_EXPRESSION "${_report}")
  set_tests_properties(${_t}.cpu_report_cleanup PROPERTIES LABELS cpu FIXTURES_CLEANUP ${app}_cpu)
endfunction()
